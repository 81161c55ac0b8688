/*
 * Integer ADM's DWT passes in AVX-512: the arithmetic of adm_avx2.c at
 * twice the width (level 0: 32 columns or 16 outputs a step; levels 1 to 3:
 * 16 of either).
 */
#include <immintrin.h>

#include "x86/adm.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

ALWAYS_INLINE __m512i tap_pair(const int32_t *t, int k)
{
    return _mm512_set1_epi32((int32_t)((uint32_t)(uint16_t)t[k + 1] << 16 | (uint16_t)t[k]));
}

ALWAYS_INLINE __m512i low16(__m512i v)
{
    return _mm512_srai_epi32(_mm512_slli_epi32(v, 16), 16);
}

ADM_DWT_VERTICAL_16(vqx_adm_dwt_vertical_16_avx512)
{
    if (w < 32) {
        vqx_adm_dwt_vertical_16_c(src, w, add, shift, lo, hi);
        return;
    }
    const __m512i l01 = tap_pair(vqx_adm_db2_lo, 0), l23 = tap_pair(vqx_adm_db2_lo, 2);
    const __m512i g01 = tap_pair(vqx_adm_db2_hi, 0), g23 = tap_pair(vqx_adm_db2_hi, 2);
    const __m512i round = _mm512_set1_epi32(add);
    const __m128i sh = _mm_cvtsi32_si128((int)shift);
    for (int x = 0;; x += 32) {
        if (x > w - 32) x = w - 32;
        __m512i s[4];
        for (int k = 0; k < 4; k++) s[k] = _mm512_loadu_si512(src[k] + x);
        const __m512i u01l = _mm512_unpacklo_epi16(s[0], s[1]);
        const __m512i u01h = _mm512_unpackhi_epi16(s[0], s[1]);
        const __m512i u23l = _mm512_unpacklo_epi16(s[2], s[3]);
        const __m512i u23h = _mm512_unpackhi_epi16(s[2], s[3]);
#define PASS(t01, t23, u01, u23) \
        low16(_mm512_sra_epi32(_mm512_add_epi32(_mm512_add_epi32(_mm512_madd_epi16(u01, t01), \
                                                                 _mm512_madd_epi16(u23, t23)), \
                                                round), sh))
        _mm512_storeu_si512(lo + x, _mm512_packs_epi32(PASS(l01, l23, u01l, u23l),
                                                       PASS(l01, l23, u01h, u23h)));
        _mm512_storeu_si512(hi + x, _mm512_packs_epi32(PASS(g01, g23, u01l, u23l),
                                                       PASS(g01, g23, u01h, u23h)));
#undef PASS
        if (x == w - 32) break;
    }
}

ADM_DWT_HORIZONTAL_16(vqx_adm_dwt_horizontal_16_avx512)
{
    const int n = (w + 1) / 2;
    if (n < 16) {
        vqx_adm_dwt_horizontal_16_c(lo, hi, w, add, shift, a, h, v, d);
        return;
    }
    const __m512i l01 = tap_pair(vqx_adm_db2_lo, 0), l23 = tap_pair(vqx_adm_db2_lo, 2);
    const __m512i g01 = tap_pair(vqx_adm_db2_hi, 0), g23 = tap_pair(vqx_adm_db2_hi, 2);
    const __m512i round = _mm512_set1_epi32(add);
    const __m128i sh = _mm_cvtsi32_si128((int)shift);
    for (int j = 0;; j += 16) {
        if (j > n - 16) j = n - 16;
        const __m512i p0 = _mm512_loadu_si512(lo + 2 * j - 1);
        const __m512i p1 = _mm512_loadu_si512(lo + 2 * j + 1);
        const __m512i q0 = _mm512_loadu_si512(hi + 2 * j - 1);
        const __m512i q1 = _mm512_loadu_si512(hi + 2 * j + 1);
#define PASS(x0, x1, t01, t23) \
        _mm512_sra_epi32(_mm512_add_epi32(_mm512_add_epi32(_mm512_madd_epi16(x0, t01), \
                                                           _mm512_madd_epi16(x1, t23)), \
                                          round), sh)
        _mm512_storeu_si512(a + j, PASS(p0, p1, l01, l23));
        _mm512_storeu_si512(v + j, PASS(p0, p1, g01, g23));
        _mm512_storeu_si512(h + j, PASS(q0, q1, l01, l23));
        _mm512_storeu_si512(d + j, PASS(q0, q1, g01, g23));
#undef PASS
        if (j == n - 16) break;
    }
}

ALWAYS_INLINE __m512i shifted(__m512i sum, __m512i add, __m128i sh)
{
    return _mm512_srl_epi64(_mm512_add_epi64(sum, add), sh);
}

ADM_DWT_VERTICAL_32(vqx_adm_dwt_vertical_32_avx512)
{
    if (w < 16) {
        vqx_adm_dwt_vertical_32_c(src, w, add, shift, lo, hi);
        return;
    }
    const __m512i round = _mm512_set1_epi64(add);
    const __m128i sh = _mm_cvtsi32_si128((int)shift);
    for (int x = 0;; x += 16) {
        if (x > w - 16) x = w - 16;
        __m512i le = _mm512_setzero_si512(), lodd = le, ge = le, godd = le;
        for (int k = 0; k < 4; k++) {
            const __m512i s = _mm512_loadu_si512(src[k] + x);
            const __m512i so = _mm512_srli_epi64(s, 32);
            const __m512i tl = _mm512_set1_epi64(vqx_adm_db2_lo[k]);
            const __m512i tg = _mm512_set1_epi64(vqx_adm_db2_hi[k]);
            le = _mm512_add_epi64(le, _mm512_mul_epi32(s, tl));
            lodd = _mm512_add_epi64(lodd, _mm512_mul_epi32(so, tl));
            ge = _mm512_add_epi64(ge, _mm512_mul_epi32(s, tg));
            godd = _mm512_add_epi64(godd, _mm512_mul_epi32(so, tg));
        }
        _mm512_storeu_si512(lo + x, _mm512_mask_blend_epi32(
            0xaaaa, shifted(le, round, sh), _mm512_slli_epi64(shifted(lodd, round, sh), 32)));
        _mm512_storeu_si512(hi + x, _mm512_mask_blend_epi32(
            0xaaaa, shifted(ge, round, sh), _mm512_slli_epi64(shifted(godd, round, sh), 32)));
        if (x == w - 16) break;
    }
}

/* Sums of outputs j..j+7 of row r (64-bit lanes) with taps t. */
ALWAYS_INLINE __m512i horizontal8(const int32_t *r, int j, const int32_t *t)
{
    const __m512i x0 = _mm512_loadu_si512(r + 2 * j - 1);
    const __m512i x1 = _mm512_loadu_si512(r + 2 * j + 1);
    __m512i s = _mm512_mul_epi32(x0, _mm512_set1_epi64(t[0]));
    s = _mm512_add_epi64(s, _mm512_mul_epi32(_mm512_srli_epi64(x0, 32), _mm512_set1_epi64(t[1])));
    s = _mm512_add_epi64(s, _mm512_mul_epi32(x1, _mm512_set1_epi64(t[2])));
    return _mm512_add_epi64(s, _mm512_mul_epi32(_mm512_srli_epi64(x1, 32),
                                                _mm512_set1_epi64(t[3])));
}

ADM_DWT_HORIZONTAL_32(vqx_adm_dwt_horizontal_32_avx512)
{
    const int n = (w + 1) / 2;
    if (n < 16) {
        vqx_adm_dwt_horizontal_32_c(lo, hi, w, add, shift, a, h, v, d);
        return;
    }
    const __m512i round = _mm512_set1_epi64(add);
    const __m128i sh = _mm_cvtsi32_si128((int)shift);
    for (int j = 0;; j += 16) {
        if (j > n - 16) j = n - 16;
        /* vpmovqd: the low 32 bits of each 64-bit lane */
#define PASS(r, t) _mm512_inserti64x4( \
            _mm512_castsi256_si512(_mm512_cvtepi64_epi32(shifted(horizontal8(r, j, t), round, sh))), \
            _mm512_cvtepi64_epi32(shifted(horizontal8(r, j + 8, t), round, sh)), 1)
        _mm512_storeu_si512(a + j, PASS(lo, vqx_adm_db2_lo));
        _mm512_storeu_si512(v + j, PASS(lo, vqx_adm_db2_hi));
        _mm512_storeu_si512(h + j, PASS(hi, vqx_adm_db2_lo));
        _mm512_storeu_si512(d + j, PASS(hi, vqx_adm_db2_hi));
#undef PASS
        if (j == n - 16) break;
    }
}
