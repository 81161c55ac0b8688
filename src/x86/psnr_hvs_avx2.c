/*
 * psnr_hvs in AVX2: 8 blocks at a time, by psnr_hvs_simd.h; here what is
 * AVX2's own: samples and terms move between blocks and lanes by 8x8
 * transposes.
 */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "x86/psnr_hvs.h"
#include "x86/avx2.h"

#define VEC __m256i
#define VF __m256
#define LANES 8
#define VI(op) _mm256_##op
#define VZERO() _mm256_setzero_si256()
#define NAME(f) f##_avx2

/* r[k] lane l to r[l] lane k. */
ALWAYS_INLINE void transpose8x8(__m256i r[8])
{
    __m256i t[8], u[8];
    for (int k = 0; k < 8; k += 2) {
        t[k] = _mm256_unpacklo_epi32(r[k], r[k + 1]);
        t[k + 1] = _mm256_unpackhi_epi32(r[k], r[k + 1]);
    }
    for (int k = 0; k < 8; k += 4) {
        u[k] = _mm256_unpacklo_epi64(t[k], t[k + 2]);
        u[k + 1] = _mm256_unpackhi_epi64(t[k], t[k + 2]);
        u[k + 2] = _mm256_unpacklo_epi64(t[k + 1], t[k + 3]);
        u[k + 3] = _mm256_unpackhi_epi64(t[k + 1], t[k + 3]);
    }
    for (int k = 0; k < 4; k++) {
        r[k] = _mm256_permute2x128_si256(u[k], u[k + 4], 0x20);
        r[k + 4] = _mm256_permute2x128_si256(u[k], u[k + 4], 0x31);
    }
}

/* Each block's row of 8 samples loaded on its own (lanes past nl repeat
 * the last block), then transposed. */
ALWAYS_INLINE void load_samples(const uint8_t *p, ptrdiff_t stride, bool wide, unsigned nl,
                                __m256i px[64])
{
    const ptrdiff_t step = PSNR_HVS_STEP * (wide ? 2 : 1);
    for (int i = 0; i < 8; i++, p += stride) {
        __m256i r[8];
        for (unsigned b = 0; b < 8; b++) {
            const uint8_t *s = p + (ptrdiff_t)(b < nl ? b : nl - 1) * step;
            r[b] = wide ? _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)s))
                        : _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)s));
        }
        transpose8x8(r);
        for (int j = 0; j < 8; j++) px[i * 8 + j] = r[j];
    }
}

ALWAYS_INLINE void store_terms(float *terms, const __m256 t[64], unsigned nl)
{
    for (int k = 0; k < 64; k += 8) {
        __m256i r[8];
        for (int l = 0; l < 8; l++) r[l] = _mm256_castps_si256(t[k + l]);
        transpose8x8(r);
        for (unsigned b = 0; b < nl; b++)
            _mm256_storeu_si256((__m256i *)(terms + 64 * b + k), r[b]);
    }
}

ALWAYS_INLINE __m256 ratio_or_zero(__m256 var, __m256 quads)
{
    const __m256 positive = _mm256_cmp_ps(var, _mm256_setzero_ps(), _CMP_GT_OQ);
    return _mm256_blendv_ps(var, _mm256_div_ps(quads, var), positive);
}

ALWAYS_INLINE __m256 sqrt_over_32(__m256 x)
{
    const __m256d d32 = _mm256_set1_pd(32);
    const __m256d lo = _mm256_div_pd(_mm256_sqrt_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(x))), d32);
    const __m256d hi = _mm256_div_pd(_mm256_sqrt_pd(_mm256_cvtps_pd(_mm256_extractf128_ps(x, 1))), d32);
    return _mm256_set_m128(_mm256_cvtpd_ps(hi), _mm256_cvtpd_ps(lo));
}

/* Byte indices of the set bits of a 4-bit mask, packed from the low byte. */
static const uint32_t set_bits4[16] = {
    0,          0x00,       0x01,       0x0100,     0x02,       0x0200,     0x0201,
    0x020100,   0x03,       0x0300,     0x0301,     0x030100,   0x0302,     0x030200,
    0x030201,   0x03020100,
};

ALWAYS_INLINE unsigned compress_nonzero(__m256 v, float *out)
{
    const unsigned m =
        (unsigned)_mm256_movemask_ps(_mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_NEQ_UQ));
    const unsigned lo = m & 15, n_lo = (unsigned)__builtin_popcount(lo);
    /* the high half's indices, 4 up, after the low half's */
    const uint64_t idx =
        set_bits4[lo] | (uint64_t)(set_bits4[m >> 4] + 0x04040404u) << (8 * n_lo);
    const __m256i perm = _mm256_cvtepu8_epi32(_mm_cvtsi64_si128((long long)idx));
    _mm256_storeu_ps(out, _mm256_permutevar8x32_ps(v, perm));
    return (unsigned)__builtin_popcount(m);
}

#include "x86/psnr_hvs_simd.h"
