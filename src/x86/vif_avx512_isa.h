/*
 * What integer VIF's AVX-512 forms have of their own, for vif_simd.h: the
 * vector types and helpers (F, BW, VL, DQ, CD) and log2_poly. Included by
 * vif_avx512.c and vif_avx512icl.c, which define NAME first.
 */
#ifndef VQX_X86_VIF_AVX512_ISA_H
#define VQX_X86_VIF_AVX512_ISA_H

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
#define VTRUNC(d) _mm512_roundscale_pd(d, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)

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

/* on the even lanes, a's dwords swapped within their 64-bit lanes */
ALWAYS_INLINE __m512i high_dwords(__m512i a, __m512i b)
{
    return _mm512_mask_shuffle_epi32(b, 0x5555, a, _MM_PERM_CDAB);
}

ALWAYS_INLINE __m512i clz32(__m512i x)
{
    return _mm512_lzcnt_epi32(x);
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

/* packus interleaves a and b by 128-bit lanes, four dwords of each */
ALWAYS_INLINE __m512i pack_cols(__m512i a, __m512i b)
{
    return _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7),
                                    _mm512_packus_epi32(a, b));
}

ALWAYS_INLINE __m512i window(__m512i cur, __m512i next, unsigned d)
{
    switch (d) {
    case 0: return cur;
    case 1: return _mm512_alignr_epi32(next, cur, 1);
    case 2: return _mm512_alignr_epi32(next, cur, 2);
    case 3: return _mm512_alignr_epi32(next, cur, 3);
    case 4: return _mm512_alignr_epi32(next, cur, 4);
    case 5: return _mm512_alignr_epi32(next, cur, 5);
    case 6: return _mm512_alignr_epi32(next, cur, 6);
    case 7: return _mm512_alignr_epi32(next, cur, 7);
    default: return _mm512_alignr_epi32(next, cur, 8);
    }
}

/* vpmovdw truncates, as the C's (uint16_t) cast */
ALWAYS_INLINE void store_means(uint16_t *p, __m512i v)
{
    _mm256_storeu_si256((__m256i *)(void *)p, _mm512_cvtepi32_epi16(v));
}

/* The log2 table's entry at i = 2^15 + j, j in [0, 2^15), computed rather
 * than gathered. With z = 2048 log2(i / 2^15): about the centre c of j's
 * segment (j >> 10, 32 of 1024), z = Z(c) + K ln(1 + u / K) with
 * K = 2048 / ln 2, u = K d / c, d = i - c in [-512, 512), |u| < 46, and
 * K ln(1 + u / K) = u - u^2 / 2K + u^3 / 3K^2 - u^4 / 4K^3 to below 1e-6,
 * in float lanes. On a correctly rounded log2f the table's
 * round(log2f(i) * 2048) is 30720 + floor(z + 1/2 + 2^-10), that argument
 * at least 1.5e-5 from an integer, which these roundings stay inside;
 * vqx_vif_log2_poly_exact_avx512 checks all 2^15 entries against the
 * table, and the poly entries are used only where it passes. Per segment:
 * float(K / c), and Z(c) + 30720 + 1/2 + 2^-10 as its integer part and the
 * float of its fraction. */
static const float poly_slope[32] = {
    0x1.6ba5dep-4f, 0x1.60caf2p-4f, 0x1.56912p-4f,  0x1.4ceac8p-4f, 0x1.43cbcep-4f,
    0x1.3b295ap-4f, 0x1.32f9bcp-4f, 0x1.2b3438p-4f, 0x1.23d0f6p-4f, 0x1.1cc8d6p-4f,
    0x1.16156ep-4f, 0x1.0fb0e4p-4f, 0x1.0995e8p-4f, 0x1.03bfap-4f,  0x1.fc5338p-5f,
    0x1.f19f9cp-5f, 0x1.e75cfcp-5f, 0x1.dd847ap-5f, 0x1.d40fccp-5f, 0x1.caf91ep-5f,
    0x1.c23b14p-5f, 0x1.b9d0b4p-5f, 0x1.b1b564p-5f, 0x1.a9e4dcp-5f, 0x1.a25b24p-5f,
    0x1.9b148cp-5f, 0x1.940da2p-5f, 0x1.8d433p-5f,  0x1.86b236p-5f, 0x1.8057e6p-5f,
    0x1.7a31ap-5f,  0x1.743cfp-5f,
};
static const int32_t poly_base[32] = {
    30766, 30855, 30942, 31027, 31109, 31189, 31266, 31342, 31416, 31488, 31558,
    31627, 31694, 31760, 31824, 31887, 31949, 32009, 32068, 32126, 32183, 32239,
    32293, 32347, 32400, 32452, 32503, 32553, 32602, 32650, 32698, 32745,
};
static const float poly_frac[32] = {
    0x1.3db42ep-2f, 0x1.b409fap-1f, 0x1.84a40ap-1f, 0x1.76f13cp-3f, 0x1.0bf40cp-2f,
    0x1.f24c32p-4f, 0x1.c276b4p-1f, 0x1.49b3aap-1f, 0x1.070e7ep-1f, 0x1.29d8c6p-1f,
    0x1.de02ap-1f,  0x1.4c6b4ap-1f, 0x1.9b287ap-1f, 0x1.db8b98p-2f, 0x1.657d5p-1f,
    0x1.216a14p-1f, 0x1.f5aad2p-4f, 0x1.b17e98p-2f, 0x1.094384p-1f, 0x1.d0f41ep-2f,
    0x1.1a6a76p-2f, 0x1.9f935p-6f,  0x1.7c2584p-1f, 0x1.dbd2acp-2f, 0x1.d1e71cp-3f,
    0x1.089af4p-4f, 0x1.0398dp-7f,  0x1.6772a4p-4f, 0x1.54e032p-2f, 0x1.8a9708p-1f,
    0x1.b571b4p-2f, 0x1.4f1178p-2f,
};

/* the 32-entry tables stay in registers: vpermt2 picks by the index's low
 * five bits, j >> 10 (bits of j past 15 are ignored, there and in d). d is
 * exact: the float of 2^23 + (j & 1023) has j & 1023 as its mantissa's
 * low bits (one vpternlogd), 2^23 + 512 taken off. Horner's steps in
 * fused multiply-adds, u + u (a2 u + a3 u^2 + a4 u^3) rounded once. */
ALWAYS_INLINE __m512i log2_poly(__m512i j)
{
    const __m512i a = _mm512_srli_epi32(j, 10);
    /* (j & 1023) | 0x4b000000 */
    const __m512i m = _mm512_ternarylogic_epi32(j, _mm512_set1_epi32(1023),
                                                _mm512_set1_epi32(0x4b000000), 0xea);
    const __m512 d = _mm512_sub_ps(_mm512_castsi512_ps(m), _mm512_set1_ps(8389120.0f));
    const __m512 slope = _mm512_permutex2var_ps(_mm512_loadu_ps(poly_slope), a,
                                                _mm512_loadu_ps(poly_slope + 16));
    const __m512 frac = _mm512_permutex2var_ps(_mm512_loadu_ps(poly_frac), a,
                                               _mm512_loadu_ps(poly_frac + 16));
    const __m512i base = _mm512_permutex2var_epi32(VLOAD(poly_base), a, VLOAD(poly_base + 16));
    const __m512 u = _mm512_mul_ps(d, slope);
    __m512 w = _mm512_fmadd_ps(u, _mm512_set1_ps(-0x1.55046ap-37f), _mm512_set1_ps(0x1.47fd4p-25f));
    w = _mm512_mul_ps(u, _mm512_fmadd_ps(u, w, _mm512_set1_ps(-0x1.62e43p-13f)));
    const __m512 t = _mm512_add_ps(frac, _mm512_fmadd_ps(u, w, u));
    return _mm512_add_epi32(base, _mm512_cvt_roundps_epi32(t, _MM_FROUND_TO_NEG_INF |
                                                                  _MM_FROUND_NO_EXC));
}
#define VIF_LOG2_POLY

#endif
