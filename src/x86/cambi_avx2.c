/*
 * CAMBI's stages in AVX2: 16 samples a step (8 for the contrast values and
 * the pooling), by cambi_simd.h; here what is AVX2's own. Comparisons give
 * vectors of all-ones lanes.
 */
#include <immintrin.h>

#include "x86/cambi.h"
#include "x86/avx2.h"

#define VEC __m256i
#define VECF __m256
#define VECD __m256d
#define V16 16 /* 16-bit lanes */
#define V32 8  /* 32-bit lanes */
#define VI(op) _mm256_##op
#define VZERO() _mm256_setzero_si256()
#define VAND(a, b) _mm256_and_si256(a, b)
#define VOR(a, b) _mm256_or_si256(a, b)
#define VANDNOT(a, b) _mm256_andnot_si256(a, b)
#define VLOAD(p) _mm256_loadu_si256((const __m256i *)(const void *)(p))
#define VSTORE(p, v) _mm256_storeu_si256((__m256i *)(void *)(p), v)
#define VCASTPS(f) _mm256_castps_si256(f)
#define NAME(f) f##_avx2

ALWAYS_INLINE __m256i eq16(__m256i a, __m256i b) { return _mm256_cmpeq_epi16(a, b); }
ALWAYS_INLINE __m256i eq32(__m256i a, __m256i b) { return _mm256_cmpeq_epi32(a, b); }
ALWAYS_INLINE __m256i gt32(__m256i a, __m256i b) { return _mm256_cmpgt_epi32(a, b); }
ALWAYS_INLINE __m256i gt8(__m256i a, __m256i b) { return _mm256_cmpgt_epi8(a, b); }
ALWAYS_INLINE __m256i gt16(__m256i a, __m256i b) { return _mm256_cmpgt_epi16(a, b); }

/* m ? b : a, lane by lane */
ALWAYS_INLINE __m256i blend(__m256i m, __m256i a, __m256i b)
{
    return _mm256_blendv_epi8(a, b, m);
}

ALWAYS_INLINE int any(__m256i m) { return !_mm256_testz_si256(m, m); }
ALWAYS_INLINE int all(__m256i m) { return _mm256_movemask_epi8(m) == -1; }

/* one bit per 16-bit lane */
ALWAYS_INLINE uint32_t bits16(__m256i m)
{
    return (uint32_t)_pext_u32((unsigned)_mm256_movemask_epi8(m), 0xaaaaaaaau);
}

ALWAYS_INLINE __m256i gather16(const uint16_t *base, __m256i idx, __m256i m)
{
    const __m256i v = _mm256_mask_i32gather_epi32(_mm256_setzero_si256(),
                                                  (const int *)(const void *)base, idx, m, 2);
    return _mm256_and_si256(v, _mm256_set1_epi32(0xffff));
}

ALWAYS_INLINE __m256 gather_ps(const float *table, __m256i idx, __m256i m)
{
    return _mm256_mask_i32gather_ps(_mm256_setzero_ps(), table, idx, _mm256_castsi256_ps(m), 4);
}

ALWAYS_INLINE __m256i load_u16_32(const uint16_t *p)
{
    return _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(const void *)p));
}

ALWAYS_INLINE __m256i load_u8_32(const uint8_t *p)
{
    return _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(const void *)p));
}

ALWAYS_INLINE __m256i load_u8_16(const uint8_t *p)
{
    return _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)(const void *)p));
}

/* 16 lanes of all-ones or 0 as bytes of 1 or 0 */
ALWAYS_INLINE void store_flags16(uint8_t *out, __m256i m)
{
    const __m128i b = _mm_packs_epi16(_mm256_castsi256_si128(m), _mm256_extracti128_si256(m, 1));
    _mm_storeu_si128((__m128i *)(void *)out, _mm_and_si128(b, _mm_set1_epi8(1)));
}

/* lane 0: the last lane of prev; lane i: lane i - 1 of v */
ALWAYS_INLINE __m256i shift_in16(__m256i prev, __m256i v)
{
    return _mm256_alignr_epi8(v, _mm256_permute2x128_si256(prev, v, 0x21), 14);
}

/* 16 outputs of every other sample; the inputs are read before the stores */
ALWAYS_INLINE void halve_chunk(const uint16_t *img, const uint8_t *mask, uint16_t *img_out,
                               uint8_t *mask_out)
{
    const __m256i lo16 = _mm256_set1_epi32(0xffff), lo8 = _mm256_set1_epi16(0xff);
    const __m256i i = _mm256_packus_epi32(VAND(VLOAD(img), lo16), VAND(VLOAD(img + 16), lo16));
    const __m256i m = _mm256_packus_epi16(VAND(VLOAD(mask), lo8), _mm256_setzero_si256());
    VSTORE(img_out, _mm256_permute4x64_epi64(i, 0xd8));
    _mm_storeu_si128((__m128i *)(void *)mask_out,
                     _mm256_castsi256_si128(_mm256_permute4x64_epi64(m, 0xd8)));
}

ALWAYS_INLINE __m256 load_ps(const float *p) { return _mm256_loadu_ps(p); }

/* The 8 floats of f added, as doubles, to lo (0-3) and hi (4-7). */
ALWAYS_INLINE void add_pd(__m256d *lo, __m256d *hi, __m256 f)
{
    *lo = _mm256_add_pd(*lo, _mm256_cvtps_pd(_mm256_castps256_ps128(f)));
    *hi = _mm256_add_pd(*hi, _mm256_cvtps_pd(_mm256_extractf128_ps(f, 1)));
}

ALWAYS_INLINE double sum_pd(__m256d v)
{
    const __m128d s = _mm_add_pd(_mm256_castpd256_pd128(v), _mm256_extractf128_pd(v, 1));
    return _mm_cvtsd_f64(_mm_add_sd(s, _mm_unpackhi_pd(s, s)));
}

ALWAYS_INLINE uint32_t max_lanes32(__m256i v)
{
    __m128i x = _mm_max_epu32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    x = _mm_max_epu32(x, _mm_shuffle_epi32(x, 0x4e));
    x = _mm_max_epu32(x, _mm_shuffle_epi32(x, 0xb1));
    return (uint32_t)_mm_cvtsi128_si32(x);
}

ALWAYS_INLINE uint32_t min_lanes32(__m256i v)
{
    __m128i x = _mm_min_epu32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    x = _mm_min_epu32(x, _mm_shuffle_epi32(x, 0x4e));
    x = _mm_min_epu32(x, _mm_shuffle_epi32(x, 0xb1));
    return (uint32_t)_mm_cvtsi128_si32(x);
}

ALWAYS_INLINE uint32_t add_lanes32(__m256i v)
{
    __m128i x = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0x4e));
    x = _mm_add_epi32(x, _mm_shuffle_epi32(x, 0xb1));
    return (uint32_t)_mm_cvtsi128_si32(x);
}

#include "x86/cambi_simd.h"
