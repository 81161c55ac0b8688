/*
 * Integer motion's blur in AVX2: 16 columns (the column pass) or 8 (the row
 * pass) at a time, by motion_simd.h; here what is AVX2's own.
 */
#include <immintrin.h>

#include "feature/motion.h"
#include "x86/lanes.h"
#include "x86/motion.h"
#include "x86/avx2.h"

#define VEC __m256i
#define LANES 8
#define VI(op) _mm256_##op
#define VZERO() _mm256_setzero_si256()
#define VOR(a, b) _mm256_or_si256(a, b)
#define VAND(a, b) _mm256_and_si256(a, b)
#define VLOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define BLEND_ODD16(a, b) _mm256_blend_epi16(a, b, 0xaa)
#define NAME(f) f##_avx2

/* Columns 0-3 and 8-11 of lo, 4-7 and 12-15 of hi (unpack order) to mid. */
ALWAYS_INLINE void store_cols(int32_t *mid, __m256i lo, __m256i hi)
{
    _mm256_storeu_si256((__m256i *)mid, _mm256_permute2x128_si256(lo, hi, 0x20));
    _mm256_storeu_si256((__m256i *)(mid + 8), _mm256_permute2x128_si256(lo, hi, 0x31));
}

ALWAYS_INLINE int32_t or_lanes(__m256i v)
{
    __m128i x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    x = _mm_or_si128(x, _mm_shuffle_epi32(x, 0x4e));
    x = _mm_or_si128(x, _mm_shuffle_epi32(x, 0xb1));
    return _mm_cvtsi128_si32(x);
}

ALWAYS_INLINE uint32_t add_lanes(__m256i v)
{
    return vqx_sum_lanes_epi32_256(v);
}

ALWAYS_INLINE __m256i diff8(const uint8_t *p, const uint8_t *c)
{
    return _mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)p)),
                            _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)c)));
}

#include "x86/motion_simd.h"
