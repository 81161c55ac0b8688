/* What several AVX2 files share: the forced inlining of their helpers, the
 * halves of a vector, the mask of a row's last lanes, and the transpose of
 * 8 rows of 8 floats. */
#ifndef VQX_X86_AVX2_H
#define VQX_X86_AVX2_H

#include <immintrin.h>

#define ALWAYS_INLINE static inline __attribute__((always_inline))

ALWAYS_INLINE __m128i lo_half(__m256i v)
{
    return _mm256_castsi256_si128(v);
}

ALWAYS_INLINE __m128i hi_half(__m256i v)
{
    return _mm256_extracti128_si256(v, 1);
}

ALWAYS_INLINE __m256i join(__m128i lo, __m128i hi)
{
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
}

/* The first n < 8 32-bit lanes, for maskload. */
typedef __m256i TailMask;

ALWAYS_INLINE TailMask tail_mask(unsigned n)
{
    return _mm256_cmpgt_epi32(_mm256_set1_epi32((int)n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

ALWAYS_INLINE __m256i load_masked(const void *p, TailMask m)
{
    return _mm256_maskload_epi32((const int *)p, m);
}

/* r[c] lane i = r[i] lane c before. */
ALWAYS_INLINE void transpose8_ps(__m256 r[8])
{
    const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
    const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
    const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
    const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
    const __m256 s0 = _mm256_shuffle_ps(t0, t2, 0x44), s1 = _mm256_shuffle_ps(t0, t2, 0xee);
    const __m256 s2 = _mm256_shuffle_ps(t1, t3, 0x44), s3 = _mm256_shuffle_ps(t1, t3, 0xee);
    const __m256 s4 = _mm256_shuffle_ps(t4, t6, 0x44), s5 = _mm256_shuffle_ps(t4, t6, 0xee);
    const __m256 s6 = _mm256_shuffle_ps(t5, t7, 0x44), s7 = _mm256_shuffle_ps(t5, t7, 0xee);
    r[0] = _mm256_permute2f128_ps(s0, s4, 0x20);
    r[1] = _mm256_permute2f128_ps(s1, s5, 0x20);
    r[2] = _mm256_permute2f128_ps(s2, s6, 0x20);
    r[3] = _mm256_permute2f128_ps(s3, s7, 0x20);
    r[4] = _mm256_permute2f128_ps(s0, s4, 0x31);
    r[5] = _mm256_permute2f128_ps(s1, s5, 0x31);
    r[6] = _mm256_permute2f128_ps(s2, s6, 0x31);
    r[7] = _mm256_permute2f128_ps(s3, s7, 0x31);
}

#endif
