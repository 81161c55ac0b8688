/*
 * Integer motion's blur in AVX-512: 32 columns (the column pass) or 16 (the
 * row pass) at a time, by motion_simd.h; here what is AVX-512's own.
 */
#include <immintrin.h>

#include "feature/motion.h"
#include "x86/lanes.h"
#include "x86/motion.h"
#include "x86/avx512.h"

#define VEC __m512i
#define LANES 16
#define VI(op) _mm512_##op
#define VZERO() _mm512_setzero_si512()
#define VOR(a, b) _mm512_or_si512(a, b)
#define VAND(a, b) _mm512_and_si512(a, b)
#define VLOAD(p) _mm512_loadu_si512(p)
#define BLEND_ODD16(a, b) _mm512_mask_blend_epi16(0xaaaaaaaa, a, b)
#define NAME(f) f##_avx512

/* Unpack order (lo: columns 0-3, 8-11, ..., hi: 4-7, 12-15, ...) to mid. */
ALWAYS_INLINE void store_cols(int32_t *mid, __m512i lo, __m512i hi)
{
    const __m512i first = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
    const __m512i second = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
    _mm512_storeu_si512(mid, _mm512_permutex2var_epi64(lo, first, hi));
    _mm512_storeu_si512(mid + 16, _mm512_permutex2var_epi64(lo, second, hi));
}

ALWAYS_INLINE int32_t or_lanes(__m512i v)
{
    return _mm512_reduce_or_epi32(v);
}

/* Vector adds, which wrap as the C's uint32 sum does
 * (_mm512_reduce_add_epi32 may end in a signed C addition). */
ALWAYS_INLINE uint32_t add_lanes(__m512i v)
{
    return vqx_sum_lanes_epi32_256(_mm256_add_epi32(_mm512_castsi512_si256(v),
                                                    _mm512_extracti64x4_epi64(v, 1)));
}

ALWAYS_INLINE __m512i diff8(const uint8_t *p, const uint8_t *c)
{
    return _mm512_sub_epi16(_mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)p)),
                            _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)c)));
}

#include "x86/motion_simd.h"
