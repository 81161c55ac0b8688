/*
 * CAMBI's stages in AVX-512 (F, BW, DQ): 32 samples a step (16 for the
 * contrast values and the pooling), by cambi_simd.h; here what is
 * AVX-512's own. Comparisons give vectors of all-ones lanes, as in AVX2, so
 * that the kernels are written once.
 */
#include <immintrin.h>

#include "x86/cambi.h"
#include "x86/avx512.h"

#define VEC __m512i
#define VECF __m512
#define VECD __m512d
#define V16 32 /* 16-bit lanes */
#define V32 16 /* 32-bit lanes */
#define VI(op) _mm512_##op
#define VZERO() _mm512_setzero_si512()
#define VAND(a, b) _mm512_and_si512(a, b)
#define VOR(a, b) _mm512_or_si512(a, b)
#define VANDNOT(a, b) _mm512_andnot_si512(a, b)
#define VLOAD(p) _mm512_loadu_si512((const void *)(p))
#define VSTORE(p, v) _mm512_storeu_si512((void *)(p), v)
#define VCASTPS(f) _mm512_castps_si512(f)
#define NAME(f) f##_avx512

ALWAYS_INLINE __m512i eq16(__m512i a, __m512i b) { return _mm512_movm_epi16(_mm512_cmpeq_epi16_mask(a, b)); }
ALWAYS_INLINE __m512i eq32(__m512i a, __m512i b) { return _mm512_movm_epi32(_mm512_cmpeq_epi32_mask(a, b)); }
ALWAYS_INLINE __m512i gt32(__m512i a, __m512i b) { return _mm512_movm_epi32(_mm512_cmpgt_epi32_mask(a, b)); }
ALWAYS_INLINE __m512i gt8(__m512i a, __m512i b) { return _mm512_movm_epi8(_mm512_cmpgt_epi8_mask(a, b)); }
ALWAYS_INLINE __m512i gt16(__m512i a, __m512i b) { return _mm512_movm_epi16(_mm512_cmpgt_epi16_mask(a, b)); }

/* m ? b : a, bit by bit */
ALWAYS_INLINE __m512i blend(__m512i m, __m512i a, __m512i b)
{
    return _mm512_ternarylogic_epi32(m, b, a, 0xca);
}

ALWAYS_INLINE int any(__m512i m) { return _mm512_test_epi64_mask(m, m) != 0; }
ALWAYS_INLINE int all(__m512i m) { return _mm512_cmpneq_epi64_mask(m, _mm512_set1_epi64(-1)) == 0; }

/* one bit per 16-bit lane */
ALWAYS_INLINE uint32_t bits16(__m512i m)
{
    return (uint32_t)_mm512_movepi16_mask(m);
}

ALWAYS_INLINE __m512i gather16(const uint16_t *base, __m512i idx, __m512i m)
{
    const __m512i v = _mm512_mask_i32gather_epi32(_mm512_setzero_si512(), _mm512_movepi32_mask(m),
                                                  idx, (const void *)base, 2);
    return _mm512_and_si512(v, _mm512_set1_epi32(0xffff));
}

ALWAYS_INLINE __m512 gather_ps(const float *table, __m512i idx, __m512i m)
{
    return _mm512_mask_i32gather_ps(_mm512_setzero_ps(), _mm512_movepi32_mask(m), idx, table, 4);
}

ALWAYS_INLINE __m512i load_u16_32(const uint16_t *p)
{
    return _mm512_cvtepu16_epi32(_mm256_loadu_si256((const __m256i *)(const void *)p));
}

ALWAYS_INLINE __m512i load_u8_32(const uint8_t *p)
{
    return _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)(const void *)p));
}

ALWAYS_INLINE __m512i load_u8_16(const uint8_t *p)
{
    return _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)p));
}

/* 32 lanes of all-ones or 0 as bytes of 1 or 0 */
ALWAYS_INLINE void store_flags16(uint8_t *out, __m512i m)
{
    _mm256_storeu_si256((__m256i *)(void *)out,
                        _mm512_cvtepi16_epi8(_mm512_and_si512(m, _mm512_set1_epi16(1))));
}

/* lane 0: the last lane of prev; lane i: lane i - 1 of v */
ALWAYS_INLINE __m512i shift_in16(__m512i prev, __m512i v)
{
    /* lane i takes word 31 + i of prev:v */
    const __m512i idx = _mm512_add_epi16(_mm512_set1_epi16(31),
        _mm512_set_epi32(0x1f001e, 0x1d001c, 0x1b001a, 0x190018, 0x170016, 0x150014, 0x130012,
                         0x110010, 0xf000e, 0xd000c, 0xb000a, 0x90008, 0x70006, 0x50004,
                         0x30002, 0x10000));
    return _mm512_permutex2var_epi16(prev, idx, v);
}

/* 32 outputs of every other sample; the inputs are read before the stores */
ALWAYS_INLINE void halve_chunk(const uint16_t *img, const uint8_t *mask, uint16_t *img_out,
                               uint8_t *mask_out)
{
    const __m256i i0 = _mm512_cvtepi32_epi16(VLOAD(img)), i1 = _mm512_cvtepi32_epi16(VLOAD(img + 32));
    const __m256i m = _mm512_cvtepi16_epi8(VLOAD(mask));
    _mm256_storeu_si256((__m256i *)(void *)img_out, i0);
    _mm256_storeu_si256((__m256i *)(void *)(img_out + 16), i1);
    _mm256_storeu_si256((__m256i *)(void *)mask_out, m);
}

ALWAYS_INLINE __m512 load_ps(const float *p) { return _mm512_loadu_ps(p); }

/* The 16 floats of f added, as doubles, to lo (0-7) and hi (8-15). */
ALWAYS_INLINE void add_pd(__m512d *lo, __m512d *hi, __m512 f)
{
    const __m256 h = _mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(f), 1));
    *lo = _mm512_add_pd(*lo, _mm512_cvtps_pd(_mm512_castps512_ps256(f)));
    *hi = _mm512_add_pd(*hi, _mm512_cvtps_pd(h));
}

ALWAYS_INLINE double sum_pd(__m512d v)
{
    const __m256d s = _mm256_add_pd(_mm512_castpd512_pd256(v), _mm512_extractf64x4_pd(v, 1));
    const __m128d t = _mm_add_pd(_mm256_castpd256_pd128(s), _mm256_extractf128_pd(s, 1));
    return _mm_cvtsd_f64(_mm_add_sd(t, _mm_unpackhi_pd(t, t)));
}

ALWAYS_INLINE uint32_t max_lanes32(__m512i v) { return _mm512_reduce_max_epu32(v); }
ALWAYS_INLINE uint32_t min_lanes32(__m512i v) { return _mm512_reduce_min_epu32(v); }
ALWAYS_INLINE uint32_t add_lanes32(__m512i v)
{
    return (uint32_t)_mm512_reduce_add_epi32(v);
}

#include "x86/cambi_simd.h"
