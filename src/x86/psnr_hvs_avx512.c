/*
 * psnr_hvs in AVX-512: 16 blocks at a time, by psnr_hvs_simd.h; here what
 * is AVX-512's own: samples reach their lanes by word permutes of the
 * rows, terms their blocks by a 16x16 transpose.
 */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "x86/psnr_hvs.h"
#include "x86/avx512.h"

#define VEC __m512i
#define VF __m512
#define LANES 16
#define VI(op) _mm512_##op
#define VZERO() _mm512_setzero_si512()
#define NAME(f) f##_avx512

/* The first min(max(k, 0), 32) of 32 elements. */
ALWAYS_INLINE __mmask32 first(int k)
{
    return k >= 32 ? ~(__mmask32)0 : k <= 0 ? 0 : ((__mmask32)1 << k) - 1;
}

/* 32 samples from p on as words, those outside m 0 and not read. */
ALWAYS_INLINE __m512i load_words(const uint8_t *p, bool wide, __mmask32 m)
{
    return wide ? _mm512_maskz_loadu_epi16(m, p) : _mm512_cvtepu8_epi16(_mm256_maskz_loadu_epi8(m, p));
}

/* A row's samples 0..119 as words in a0, a1 (0..63: blocks 0-7) and b0, b1
 * (56..119: blocks 8-15); sample j of block b is word 7 (b mod 8) + j of
 * its pair. Word permutes take each half's 8 lanes of 4 j at a time, qword
 * permutes join the halves' lanes. */
ALWAYS_INLINE void load_samples(const uint8_t *p, ptrdiff_t stride, bool wide, unsigned nl,
                                __m512i px[64])
{
    const int valid = PSNR_HVS_STEP * ((int)nl - 1) + PSNR_HVS_BLOCK, size = wide ? 2 : 1;
    const __mmask32 m0 = first(valid), m32 = first(valid - 32), m56 = first(valid - 56);
    const __mmask32 m88 = first(valid - 88);
    /* word w: lane w mod 8 of j = w / 8 (+ 4) */
    const __m512i j0 = _mm512_set_epi16(52, 45, 38, 31, 24, 17, 10, 3, 51, 44, 37, 30, 23, 16, 9, 2,
                                        50, 43, 36, 29, 22, 15, 8, 1, 49, 42, 35, 28, 21, 14, 7, 0);
    const __m512i j4 = _mm512_add_epi16(j0, _mm512_set1_epi16(4));
    /* qwords: j (lanes 0-7, then 8-15), j + 1 (the same) */
    const __m512i lo = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
    const __m512i hi = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
    for (int i = 0; i < 8; i++, p += stride) {
        const __m512i a0 = load_words(p, wide, m0), a1 = load_words(p + 32 * size, wide, m32);
        const __m512i b0 = load_words(p + 56 * size, wide, m56);
        const __m512i b1 = load_words(p + 88 * size, wide, m88);
        const __m512i ra = _mm512_permutex2var_epi16(a0, j0, a1);
        const __m512i rb = _mm512_permutex2var_epi16(a0, j4, a1);
        const __m512i sa = _mm512_permutex2var_epi16(b0, j0, b1);
        const __m512i sb = _mm512_permutex2var_epi16(b0, j4, b1);
        const __m512i pairs[4] = {
            _mm512_permutex2var_epi64(ra, lo, sa), _mm512_permutex2var_epi64(ra, hi, sa),
            _mm512_permutex2var_epi64(rb, lo, sb), _mm512_permutex2var_epi64(rb, hi, sb),
        };
        for (int k = 0; k < 4; k++) {
            px[i * 8 + 2 * k] = _mm512_cvtepu16_epi32(_mm512_castsi512_si256(pairs[k]));
            px[i * 8 + 2 * k + 1] = _mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(pairs[k], 1));
        }
    }
}

/* r[k] lane l to r[l] lane k. */
ALWAYS_INLINE void transpose16x16(__m512 r[16])
{
    __m512 a[16], v[16];
    for (int k = 0; k < 16; k += 2) {
        a[k] = _mm512_unpacklo_ps(r[k], r[k + 1]);
        a[k + 1] = _mm512_unpackhi_ps(r[k], r[k + 1]);
    }
    /* v[4 g + c]: rows 4 g .. 4 g + 3 of column 4 L + c in 128-bit lane L */
    for (int g = 0; g < 4; g++) {
        const __m512d x0 = _mm512_castps_pd(a[4 * g]), x1 = _mm512_castps_pd(a[4 * g + 2]);
        const __m512d y0 = _mm512_castps_pd(a[4 * g + 1]), y1 = _mm512_castps_pd(a[4 * g + 3]);
        v[4 * g] = _mm512_castpd_ps(_mm512_unpacklo_pd(x0, x1));
        v[4 * g + 1] = _mm512_castpd_ps(_mm512_unpackhi_pd(x0, x1));
        v[4 * g + 2] = _mm512_castpd_ps(_mm512_unpacklo_pd(y0, y1));
        v[4 * g + 3] = _mm512_castpd_ps(_mm512_unpackhi_pd(y0, y1));
    }
    for (int c = 0; c < 4; c++) {
        const __m512 w0 = _mm512_shuffle_f32x4(v[c], v[4 + c], 0x44);
        const __m512 w1 = _mm512_shuffle_f32x4(v[c], v[4 + c], 0xee);
        const __m512 w2 = _mm512_shuffle_f32x4(v[8 + c], v[12 + c], 0x44);
        const __m512 w3 = _mm512_shuffle_f32x4(v[8 + c], v[12 + c], 0xee);
        r[c] = _mm512_shuffle_f32x4(w0, w2, 0x88);
        r[4 + c] = _mm512_shuffle_f32x4(w0, w2, 0xdd);
        r[8 + c] = _mm512_shuffle_f32x4(w1, w3, 0x88);
        r[12 + c] = _mm512_shuffle_f32x4(w1, w3, 0xdd);
    }
}

ALWAYS_INLINE void store_terms(float *terms, const __m512 t[64], unsigned nl)
{
    for (int k = 0; k < 64; k += 16) {
        __m512 r[16];
        for (int l = 0; l < 16; l++) r[l] = t[k + l];
        transpose16x16(r);
        for (unsigned b = 0; b < nl; b++) _mm512_storeu_ps(terms + 64 * b + k, r[b]);
    }
}

ALWAYS_INLINE __m512 ratio_or_zero(__m512 var, __m512 quads)
{
    const __mmask16 positive = _mm512_cmp_ps_mask(var, _mm512_setzero_ps(), _CMP_GT_OQ);
    return _mm512_mask_div_ps(var, positive, quads, var);
}

ALWAYS_INLINE __m512 sqrt_over_32(__m512 x)
{
    const __m512d d32 = _mm512_set1_pd(32);
    const __m512d lo = _mm512_div_pd(_mm512_sqrt_pd(_mm512_cvtps_pd(_mm512_castps512_ps256(x))), d32);
    const __m512d hi = _mm512_div_pd(_mm512_sqrt_pd(_mm512_cvtps_pd(_mm512_extractf32x8_ps(x, 1))), d32);
    return _mm512_insertf32x8(_mm512_castps256_ps512(_mm512_cvtpd_ps(lo)), _mm512_cvtpd_ps(hi), 1);
}

ALWAYS_INLINE unsigned compress_nonzero(__m512 v, float *out)
{
    const __mmask16 m = _mm512_cmp_ps_mask(v, _mm512_setzero_ps(), _CMP_NEQ_UQ);
    /* the register form: a compressing store is slow on some CPUs */
    _mm512_storeu_ps(out, _mm512_maskz_compress_ps(m, v));
    return (unsigned)__builtin_popcount(m);
}

#include "x86/psnr_hvs_simd.h"
