/*
 * Integer ADM's stages in AVX2: 8 positions (16 of 16-bit rows) at a time,
 * by adm_simd.h; here what is AVX2's own, including what AVX2 lacks and
 * builds from exact steps: 64-bit arithmetic shifts, minima and maxima, and
 * the int64 to float conversion.
 */
#include <immintrin.h>
#include <stdbool.h>
#include <stdint.h>

#include "x86/adm.h"
#include "x86/avx2.h"

#define VEC __m256i
#define HALF __m128i
#define VECD __m256d
#define VECF __m256
#define HALFF __m128
#define LANES 8
#define VI(op) _mm256_##op
#define VD(op) _mm256_##op
#define VZERO() _mm256_setzero_si256()
#define VAND(a, b) _mm256_and_si256(a, b)
#define VOR(a, b) _mm256_or_si256(a, b)
#define VXOR(a, b) _mm256_xor_si256(a, b)
#define VLOAD(p) _mm256_loadu_si256((const __m256i *)(p))
#define VSTORE(p, v) _mm256_storeu_si256((__m256i *)(p), v)
#define SET1_64(x) _mm256_set1_epi64x(x)
#define NAME(f) f##_avx2

typedef __m256i MASK;
typedef __m256d DMASK;

ALWAYS_INLINE MASK mask_gt32(__m256i a, __m256i b)
{
    return _mm256_cmpgt_epi32(a, b);
}

ALWAYS_INLINE MASK mask_nz(__m256i v)
{
    return _mm256_xor_si256(_mm256_cmpeq_epi32(v, _mm256_setzero_si256()), _mm256_set1_epi32(-1));
}

ALWAYS_INLINE MASK mask_and(MASK m, MASK n)
{
    return _mm256_and_si256(m, n);
}

ALWAYS_INLINE __m256i select32(MASK m, __m256i a, __m256i b)
{
    return _mm256_blendv_epi8(b, a, m);
}

ALWAYS_INLINE DMASK dcmp_ge(__m256d a, __m256d b)
{
    return _mm256_cmp_pd(a, b, _CMP_GE_OQ);
}

ALWAYS_INLINE DMASK dmask_and(DMASK m, DMASK n)
{
    return _mm256_and_pd(m, n);
}

ALWAYS_INLINE __m128 lo_half_ps(__m256 f)
{
    return _mm256_castps256_ps128(f);
}

ALWAYS_INLINE __m128 hi_half_ps(__m256 f)
{
    return _mm256_extractf128_ps(f, 1);
}

ALWAYS_INLINE __m256i widen_lo(__m256i v)
{
    return _mm256_cvtepi32_epi64(lo_half(v));
}

ALWAYS_INLINE __m256i widen_hi(__m256i v)
{
    return _mm256_cvtepi32_epi64(hi_half(v));
}

ALWAYS_INLINE __m256i narrow64(__m256i lo, __m256i hi)
{
    const __m256i idx = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    return _mm256_blend_epi32(_mm256_permutevar8x32_epi32(lo, idx),
                              _mm256_permutevar8x32_epi32(hi, idx), 0xf0);
}

/* The positions' conditions of two halves, as 32-bit lane masks. */
ALWAYS_INLINE MASK join_dmask(DMASK lo, DMASK hi)
{
    return narrow64(_mm256_castpd_si256(lo), _mm256_castpd_si256(hi));
}

ALWAYS_INLINE __m256i blend_odd(__m256i even, __m256i odd)
{
    return _mm256_blend_epi32(even, odd, 0xaa);
}

/* x >> n, arithmetic: the logical shift of x or of ~x (x < 0), complemented back. */
ALWAYS_INLINE __m256i sra64(__m256i x, __m128i n)
{
    const __m256i s = _mm256_cmpgt_epi64(_mm256_setzero_si256(), x);
    return _mm256_xor_si256(_mm256_srl_epi64(_mm256_xor_si256(x, s), n), s);
}

ALWAYS_INLINE __m256i sra64v(__m256i x, __m256i n)
{
    const __m256i s = _mm256_cmpgt_epi64(_mm256_setzero_si256(), x);
    return _mm256_xor_si256(_mm256_srlv_epi64(_mm256_xor_si256(x, s), n), s);
}

ALWAYS_INLINE __m256i min64(__m256i a, __m256i b)
{
    return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(a, b));
}

ALWAYS_INLINE __m256i max64(__m256i a, __m256i b)
{
    return _mm256_blendv_epi8(a, b, _mm256_cmpgt_epi64(b, a));
}

ALWAYS_INLINE __m256i mul_u64_u32(__m256i s, __m256i m)
{
    return _mm256_add_epi64(_mm256_mul_epu32(s, m),
                            _mm256_slli_epi64(_mm256_mul_epu32(_mm256_srli_epi64(s, 32), m), 32));
}

/* int64 to float, rounded to nearest: x rounded to odd at double precision
 * (53 >= 24 + 2 bits), then to float, is rounded once. x = 2^32 hi + lo,
 * both exact in double; their sum's error is exact too (|2^32 hi| > lo
 * unless hi = 0), and an inexact sum whose last bit is even moves one unit
 * towards x. */
ALWAYS_INLINE __m128 cvt_i64_ps(__m256i x)
{
    const __m256i odd_dwords = _mm256_setr_epi32(1, 3, 5, 7, 1, 3, 5, 7);
    const __m256d hi = _mm256_mul_pd(
        _mm256_cvtepi32_pd(_mm256_castsi256_si128(_mm256_permutevar8x32_epi32(x, odd_dwords))),
        _mm256_set1_pd(4294967296.0));
    /* 2^52 + lo, less 2^52 */
    const __m256i exp52 = _mm256_set1_epi64x(0x4330000000000000);
    const __m256d lo = _mm256_sub_pd(
        _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(x, _mm256_set1_epi64x(0xffffffff)),
                                            exp52)),
        _mm256_set1_pd(4503599627370496.0));
    const __m256d sum = _mm256_add_pd(hi, lo);
    const __m256d err = _mm256_sub_pd(lo, _mm256_sub_pd(sum, hi));
    const __m256i bits = _mm256_castpd_si256(sum), one = _mm256_set1_epi64x(1);
    const __m256i inexact = _mm256_castpd_si256(_mm256_cmp_pd(err, _mm256_setzero_pd(),
                                                              _CMP_NEQ_OQ));
    const __m256i even = _mm256_cmpeq_epi64(_mm256_and_si256(bits, one), _mm256_setzero_si256());
    /* +1 moves away from zero (err of the sum's sign), -1 towards it */
    const __m256i opposite =
        _mm256_srli_epi64(_mm256_xor_si256(bits, _mm256_castpd_si256(err)), 63);
    const __m256i step = _mm256_sub_epi64(one, _mm256_slli_epi64(opposite, 1));
    const __m256i odd = _mm256_add_epi64(bits, _mm256_and_si256(_mm256_and_si256(inexact, even),
                                                                step));
    return _mm256_cvtpd_ps(_mm256_castsi256_pd(odd));
}

ALWAYS_INLINE __m256i gather32(const int32_t *table, __m256i idx)
{
    return _mm256_i32gather_epi32((const int *)table, idx, 4);
}

/* max(bit length - 15, 0) from the exponent of mag >> 8 as a float: the
 * conversion is exact below 2^24, and 0 gives exponent 0. */
ALWAYS_INLINE __m256i excess_bits(__m256i mag)
{
    const __m256 f = _mm256_cvtepi32_ps(_mm256_srli_epi32(mag, 8));
    const __m256i biased = _mm256_srli_epi32(_mm256_castps_si256(f), 23);
    return _mm256_max_epi32(_mm256_sub_epi32(biased, _mm256_set1_epi32(127 + 6)),
                            _mm256_setzero_si256());
}

ALWAYS_INLINE bool any_wide(__m256i v)
{
    return !_mm256_testz_si256(v, _mm256_set1_epi32(~0x7fff));
}

ALWAYS_INLINE uint64_t sum64(__m256i v)
{
    __m128i s = _mm_add_epi64(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    s = _mm_add_epi64(s, _mm_unpackhi_epi64(s, s));
    return (uint64_t)_mm_cvtsi128_si64(s);
}

/* one load and in-lane unpacks, their halves reordered: faster than two
 * vpmovzxbw */
ALWAYS_INLINE void widen_u8(const uint8_t *p, __m256i *lo, __m256i *hi)
{
    const __m256i v = _mm256_loadu_si256((const __m256i *)p), zero = _mm256_setzero_si256();
    const __m256i l = _mm256_unpacklo_epi8(v, zero), h = _mm256_unpackhi_epi8(v, zero);
    *lo = _mm256_permute2x128_si256(l, h, 0x20);
    *hi = _mm256_permute2x128_si256(l, h, 0x31);
}

#include "x86/adm_simd.h"
