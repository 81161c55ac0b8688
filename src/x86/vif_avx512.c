/*
 * Integer VIF's stages in AVX-512 (F, BW, VL, DQ): 32 columns a step (16
 * for the information terms and the decimation), by vif_simd.h; here what
 * is AVX-512's own.
 */
#include <immintrin.h>

#include "x86/vif.h"
#include "x86/avx512.h"

#define VEC __m512i
#define LANES 16
#define VI(op) _mm512_##op
#define VSET64(x) _mm512_set1_epi64(x)
#define VZERO() _mm512_setzero_si512()
#define VAND(a, b) _mm512_and_si512(a, b)
#define VANDNOT(a, b) _mm512_andnot_si512(a, b)
#define VXOR(a, b) _mm512_xor_si512(a, b)
#define VLOAD(p) _mm512_loadu_si512((const void *)(p))
#define VSTORE(p, v) _mm512_storeu_si512((void *)(p), v)
#define HALF __m256i
#define HI(op) _mm256_##op
#define HZERO() _mm256_setzero_si256()
#define VECD __m512d
#define VD(op) _mm512_##op
#define VCASTPD(d) _mm512_castpd_si512(d)
#define VCASTPS(f) _mm512_castps_si512(f)
#define VTRUNC(d) _mm512_roundscale_pd(d, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)
#define NAME(f) f##_avx512

ALWAYS_INLINE __m512i load_bytes(const uint8_t *p)
{
    return _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(const void *)p));
}

ALWAYS_INLINE __m512i cmp_gt(__m512i a, __m512i b)
{
    return _mm512_movm_epi32(_mm512_cmpgt_epi32_mask(a, b));
}

ALWAYS_INLINE __m256i narrow64(__m512i v)
{
    return _mm512_cvtepi64_epi32(v);
}

ALWAYS_INLINE __m512i blend_odd(__m512i a, __m512i b)
{
    return _mm512_mask_blend_epi32(0xaaaa, a, b);
}

ALWAYS_INLINE __m512i gather_dwords(const uint16_t *table, __m512i off)
{
    return _mm512_i32gather_epi32(off, (const void *)table, 1);
}

/* lo: columns 0-3, 8-11, 16-19, 24-27; hi: 4-7, 12-15, ... */
ALWAYS_INLINE void store_cols(uint32_t *p, __m512i lo, __m512i hi)
{
    const __m512i first = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
    const __m512i second = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
    VSTORE(p, _mm512_permutex2var_epi64(lo, first, hi));
    VSTORE(p + 16, _mm512_permutex2var_epi64(lo, second, hi));
}

ALWAYS_INLINE __m512i evens(const uint32_t *p)
{
    const __m512i idx = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26,
                                          28, 30);
    return _mm512_permutex2var_epi32(VLOAD(p), idx, VLOAD(p + 16));
}

/* vpmovdw truncates, as the C's (uint16_t) cast */
ALWAYS_INLINE void store_means(uint16_t *p, __m512i v)
{
    _mm256_storeu_si256((__m256i *)(void *)p, _mm512_cvtepi32_epi16(v));
}

#include "x86/vif_simd.h"
