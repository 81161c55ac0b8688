/* Horizontal reductions of 32-bit lanes with vector operations only, which
 * wrap as the C's uint32 arithmetic does. */
#ifndef VQX_X86_LANES_H
#define VQX_X86_LANES_H

#include <immintrin.h>
#include <stdint.h>

static inline uint32_t vqx_sum_lanes_epi32_256(__m256i v)
{
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
    return (uint32_t)_mm_cvtsi128_si32(s);
}

#endif
