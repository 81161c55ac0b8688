/*
 * Integer ADM's stages in AVX-512 (F, CD, BW, DQ): 16 positions (32 of
 * 16-bit rows) at a time, by adm_simd.h; here what is AVX-512's own: mask
 * registers, the 64-bit shifts, minima, maxima and the int64 to float
 * conversion (vcvtqq2ps rounds as the C's cast), lzcnt for the gain's
 * shift.
 */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "x86/adm.h"
#include "x86/avx512.h"

#define VEC __m512i
#define HALF __m256i
#define VECD __m512d
#define VECF __m512
#define HALFF __m256
#define LANES 16
#define VI(op) _mm512_##op
#define VD(op) _mm512_##op
#define VZERO() _mm512_setzero_si512()
#define VAND(a, b) _mm512_and_si512(a, b)
#define VOR(a, b) _mm512_or_si512(a, b)
#define VXOR(a, b) _mm512_xor_si512(a, b)
#define VLOAD(p) _mm512_loadu_si512(p)
#define VSTORE(p, v) _mm512_storeu_si512(p, v)
#define SET1_64(x) _mm512_set1_epi64(x)
#define NAME(f) f##_avx512

typedef __mmask16 MASK;
typedef __mmask8 DMASK;

ALWAYS_INLINE MASK mask_gt32(__m512i a, __m512i b)
{
    return _mm512_cmpgt_epi32_mask(a, b);
}

ALWAYS_INLINE MASK mask_nz(__m512i v)
{
    return _mm512_test_epi32_mask(v, v);
}

ALWAYS_INLINE MASK mask_and(MASK m, MASK n)
{
    return m & n;
}

ALWAYS_INLINE __m512i select32(MASK m, __m512i a, __m512i b)
{
    return _mm512_mask_blend_epi32(m, b, a);
}

ALWAYS_INLINE DMASK dcmp_ge(__m512d a, __m512d b)
{
    return _mm512_cmp_pd_mask(a, b, _CMP_GE_OQ);
}

ALWAYS_INLINE DMASK dmask_and(DMASK m, DMASK n)
{
    return m & n;
}

ALWAYS_INLINE MASK join_dmask(DMASK lo, DMASK hi)
{
    return (MASK)(lo | (unsigned)hi << 8);
}

ALWAYS_INLINE __m256 lo_half_ps(__m512 f)
{
    return _mm512_castps512_ps256(f);
}

ALWAYS_INLINE __m256 hi_half_ps(__m512 f)
{
    return _mm512_extractf32x8_ps(f, 1);
}

ALWAYS_INLINE __m512i widen_lo(__m512i v)
{
    return _mm512_cvtepi32_epi64(lo_half(v));
}

ALWAYS_INLINE __m512i widen_hi(__m512i v)
{
    return _mm512_cvtepi32_epi64(hi_half(v));
}

/* vpmovqd: the low 32 bits of each 64-bit lane */
ALWAYS_INLINE __m512i narrow64(__m512i lo, __m512i hi)
{
    return join(_mm512_cvtepi64_epi32(lo), _mm512_cvtepi64_epi32(hi));
}

ALWAYS_INLINE __m512i blend_odd(__m512i even, __m512i odd)
{
    return _mm512_mask_blend_epi32(0xaaaa, even, odd);
}

ALWAYS_INLINE __m512i sra64(__m512i x, __m128i n)
{
    return _mm512_sra_epi64(x, n);
}

ALWAYS_INLINE __m512i sra64v(__m512i x, __m512i n)
{
    return _mm512_srav_epi64(x, n);
}

ALWAYS_INLINE __m512i min64(__m512i a, __m512i b)
{
    return _mm512_min_epi64(a, b);
}

ALWAYS_INLINE __m512i max64(__m512i a, __m512i b)
{
    return _mm512_max_epi64(a, b);
}

ALWAYS_INLINE __m512i mul_u64_u32(__m512i s, __m512i m)
{
    return _mm512_mullo_epi64(s, m);
}

ALWAYS_INLINE __m256 cvt_i64_ps(__m512i x)
{
    return _mm512_cvtepi64_ps(x);
}

ALWAYS_INLINE __m512i gather32(const int32_t *table, __m512i idx)
{
    return _mm512_i32gather_epi32(idx, table, 4);
}

/* bit length 32 - lzcnt; lzcnt(0) = 32 */
ALWAYS_INLINE __m512i excess_bits(__m512i mag)
{
    return _mm512_max_epi32(_mm512_sub_epi32(_mm512_set1_epi32(17), _mm512_lzcnt_epi32(mag)),
                            _mm512_setzero_si512());
}

ALWAYS_INLINE bool any_wide(__m512i v)
{
    return _mm512_test_epi32_mask(v, _mm512_set1_epi32(~0x7fff)) != 0;
}

/* Vector adds, which wrap as the C's uint64 sum does
 * (_mm512_reduce_add_epi64 may end in a signed C addition). */
ALWAYS_INLINE uint64_t sum64(__m512i v)
{
    const __m256i h = _mm256_add_epi64(_mm512_castsi512_si256(v), _mm512_extracti64x4_epi64(v, 1));
    __m128i s = _mm_add_epi64(_mm256_castsi256_si128(h), _mm256_extracti128_si256(h, 1));
    s = _mm_add_epi64(s, _mm_unpackhi_epi64(s, s));
    return (uint64_t)_mm_cvtsi128_si64(s);
}

ALWAYS_INLINE void widen_u8(const uint8_t *p, __m512i *lo, __m512i *hi)
{
    *lo = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)p));
    *hi = _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)(p + 32)));
}

#include "x86/adm_simd.h"
