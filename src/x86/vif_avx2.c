/*
 * Integer VIF's stages in AVX2: 16 columns a step (8 for the information
 * terms and the decimation), by vif_simd.h; here what is AVX2's own.
 */
#include <immintrin.h>

#include "x86/vif.h"
#include "x86/avx2.h"

#define VEC __m256i
#define LANES 8
#define VI(op) _mm256_##op
#define VSET64(x) _mm256_set1_epi64x(x)
#define VZERO() _mm256_setzero_si256()
#define VAND(a, b) _mm256_and_si256(a, b)
#define VANDNOT(a, b) _mm256_andnot_si256(a, b)
#define VXOR(a, b) _mm256_xor_si256(a, b)
#define VLOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define VSTORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define HALF __m128i
#define HI(op) _mm_##op
#define HZERO() _mm_setzero_si128()
#define VECD __m256d
#define VD(op) _mm256_##op
#define VCASTPD(d) _mm256_castpd_si256(d)
#define VTRUNC(d) _mm256_round_pd(d, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)
#define NAME(f) f##_avx2

ALWAYS_INLINE __m256i load_bytes(const uint8_t *p)
{
    return _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)p));
}

ALWAYS_INLINE __m256i cmp_gt(__m256i a, __m256i b)
{
    return _mm256_cmpgt_epi32(a, b);
}

ALWAYS_INLINE __m128i narrow64(__m256i v)
{
    const __m256i idx = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    return _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(v, idx));
}

ALWAYS_INLINE __m256i high_dwords(__m256i a, __m256i b)
{
    return _mm256_blend_epi32(_mm256_shuffle_epi32(a, 0xb1), b, 0xaa);
}

/* x >> 8 is below 2^23, so its float is exact and its biased exponent is
 * floor(log2 x) - 8 + 127 */
ALWAYS_INLINE __m256i clz32(__m256i x)
{
    const __m256i e = _mm256_srli_epi32(
        _mm256_castps_si256(_mm256_cvtepi32_ps(_mm256_srli_epi32(x, 8))), 23);
    return _mm256_sub_epi32(_mm256_set1_epi32(31 + 127 - 8), e);
}

ALWAYS_INLINE __m256i gather_dwords(const uint16_t *table, __m256i off)
{
    return _mm256_i32gather_epi32((const int *)(const void *)table, off, 1);
}

/* lo: columns 0-3 and 8-11, hi: 4-7 and 12-15 */
ALWAYS_INLINE void store_cols(uint32_t *p, __m256i lo, __m256i hi)
{
    VSTORE(p, _mm256_permute2x128_si256(lo, hi, 0x20));
    VSTORE(p + 8, _mm256_permute2x128_si256(lo, hi, 0x31));
}

/* packus interleaves a and b by 128-bit lanes ([a0-3 b0-3 | a4-7 b4-7]) */
ALWAYS_INLINE __m256i pack_cols(__m256i a, __m256i b)
{
    return _mm256_permute4x64_epi64(_mm256_packus_epi32(a, b), _MM_SHUFFLE(3, 1, 2, 0));
}

/* palignr shifts within 128-bit lanes: the middle vector (cur's high
 * lane, next's low one) supplies what crosses them */
ALWAYS_INLINE __m256i window(__m256i cur, __m256i next, unsigned d)
{
    const __m256i mid = _mm256_permute2x128_si256(cur, next, 0x21);
    switch (d) {
    case 0: return cur;
    case 1: return _mm256_alignr_epi8(mid, cur, 4);
    case 2: return _mm256_alignr_epi8(mid, cur, 8);
    case 3: return _mm256_alignr_epi8(mid, cur, 12);
    case 4: return mid;
    case 5: return _mm256_alignr_epi8(next, mid, 4);
    case 6: return _mm256_alignr_epi8(next, mid, 8);
    case 7: return _mm256_alignr_epi8(next, mid, 12);
    default: return next;
    }
}

/* v below 2^16: the unsigned saturation of packus is no change */
ALWAYS_INLINE void store_means(uint16_t *p, __m256i v)
{
    const __m256i packed = pack_cols(v, v);
    _mm_storeu_si128((__m128i *)(void *)p, _mm256_castsi256_si128(packed));
}

#include "x86/vif_simd.h"
