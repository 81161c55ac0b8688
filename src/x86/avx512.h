/* What several AVX-512 files share: the forced inlining of their helpers,
 * the halves of a vector, and the mask of a row's last lanes. */
#ifndef VQX_X86_AVX512_H
#define VQX_X86_AVX512_H

#include <immintrin.h>

#define ALWAYS_INLINE static inline __attribute__((always_inline))

ALWAYS_INLINE __m256i lo_half(__m512i v)
{
    return _mm512_castsi512_si256(v);
}

ALWAYS_INLINE __m256i hi_half(__m512i v)
{
    return _mm512_extracti64x4_epi64(v, 1);
}

ALWAYS_INLINE __m512i join(__m256i lo, __m256i hi)
{
    return _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
}

/* The first n < 16 32-bit lanes. */
typedef __mmask16 TailMask;

ALWAYS_INLINE TailMask tail_mask(unsigned n)
{
    return (__mmask16)((1u << n) - 1);
}

ALWAYS_INLINE __m512i load_masked(const void *p, TailMask m)
{
    return _mm512_maskz_loadu_epi32(m, p);
}

#endif
