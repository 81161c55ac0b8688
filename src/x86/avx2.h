/* What several AVX2 files share: the forced inlining of their helpers, the
 * halves of a vector, and the mask of a row's last lanes. */
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

#endif
