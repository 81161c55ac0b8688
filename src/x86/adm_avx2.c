/*
 * Integer ADM's DWT passes in AVX2, with the C's integer results. Level 0:
 * pairs of 16-bit values times pairs of taps (madd), whose 32-bit sums are
 * the C's, and the vertical results cut to 16 bits as the C's cast does.
 * Levels 1 to 3: 32 x 32-bit products in 64-bit lanes, even and odd columns
 * apart; the low 32 bits of the shifted sum are the C's (int32_t) cast of
 * its arithmetic shift, for shifts up to 32. A row too narrow for one
 * vector goes to the C; a wider one ends with a chunk that overlaps the
 * previous one and rewrites its values unchanged.
 */
#include <immintrin.h>

#include "x86/adm.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* Taps k and k + 1 as the 16-bit pair of a madd. */
ALWAYS_INLINE __m256i tap_pair(const int32_t *t, int k)
{
    return _mm256_set1_epi32((int32_t)((uint32_t)(uint16_t)t[k + 1] << 16 | (uint16_t)t[k]));
}

/* The low 16 bits of each 32-bit lane, sign-extended: packs then saturates
 * nothing. */
ALWAYS_INLINE __m256i low16(__m256i v)
{
    return _mm256_srai_epi32(_mm256_slli_epi32(v, 16), 16);
}

ADM_DWT_VERTICAL_16(vqx_adm_dwt_vertical_16_avx2)
{
    if (w < 16) {
        vqx_adm_dwt_vertical_16_c(src, w, add, shift, lo, hi);
        return;
    }
    const __m256i l01 = tap_pair(vqx_adm_db2_lo, 0), l23 = tap_pair(vqx_adm_db2_lo, 2);
    const __m256i g01 = tap_pair(vqx_adm_db2_hi, 0), g23 = tap_pair(vqx_adm_db2_hi, 2);
    const __m256i round = _mm256_set1_epi32(add);
    const __m128i sh = _mm_cvtsi32_si128((int)shift);
    for (int x = 0;; x += 16) {
        if (x > w - 16) x = w - 16;
        __m256i s[4];
        for (int k = 0; k < 4; k++) s[k] = _mm256_loadu_si256((const __m256i *)(src[k] + x));
        const __m256i u01l = _mm256_unpacklo_epi16(s[0], s[1]);
        const __m256i u01h = _mm256_unpackhi_epi16(s[0], s[1]);
        const __m256i u23l = _mm256_unpacklo_epi16(s[2], s[3]);
        const __m256i u23h = _mm256_unpackhi_epi16(s[2], s[3]);
#define PASS(t01, t23, u01, u23) \
        low16(_mm256_sra_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(u01, t01), \
                                                                 _mm256_madd_epi16(u23, t23)), \
                                                round), sh))
        /* packs undoes the unpacks' column order */
        _mm256_storeu_si256((__m256i *)(lo + x),
                            _mm256_packs_epi32(PASS(l01, l23, u01l, u23l),
                                               PASS(l01, l23, u01h, u23h)));
        _mm256_storeu_si256((__m256i *)(hi + x),
                            _mm256_packs_epi32(PASS(g01, g23, u01l, u23l),
                                               PASS(g01, g23, u01h, u23h)));
#undef PASS
        if (x == w - 16) break;
    }
}

ADM_DWT_HORIZONTAL_16(vqx_adm_dwt_horizontal_16_avx2)
{
    const int n = (w + 1) / 2;
    if (n < 8) {
        vqx_adm_dwt_horizontal_16_c(lo, hi, w, add, shift, a, h, v, d);
        return;
    }
    const __m256i l01 = tap_pair(vqx_adm_db2_lo, 0), l23 = tap_pair(vqx_adm_db2_lo, 2);
    const __m256i g01 = tap_pair(vqx_adm_db2_hi, 0), g23 = tap_pair(vqx_adm_db2_hi, 2);
    const __m256i round = _mm256_set1_epi32(add);
    const __m128i sh = _mm_cvtsi32_si128((int)shift);
    for (int j = 0;; j += 8) {
        if (j > n - 8) j = n - 8;
        /* 32-bit lane i: entries 2(j + i) - 1 and 2(j + i), then the next two */
        const __m256i p0 = _mm256_loadu_si256((const __m256i *)(lo + 2 * j - 1));
        const __m256i p1 = _mm256_loadu_si256((const __m256i *)(lo + 2 * j + 1));
        const __m256i q0 = _mm256_loadu_si256((const __m256i *)(hi + 2 * j - 1));
        const __m256i q1 = _mm256_loadu_si256((const __m256i *)(hi + 2 * j + 1));
#define PASS(x0, x1, t01, t23) \
        _mm256_sra_epi32(_mm256_add_epi32(_mm256_add_epi32(_mm256_madd_epi16(x0, t01), \
                                                           _mm256_madd_epi16(x1, t23)), \
                                          round), sh)
        _mm256_storeu_si256((__m256i *)(a + j), PASS(p0, p1, l01, l23));
        _mm256_storeu_si256((__m256i *)(v + j), PASS(p0, p1, g01, g23));
        _mm256_storeu_si256((__m256i *)(h + j), PASS(q0, q1, l01, l23));
        _mm256_storeu_si256((__m256i *)(d + j), PASS(q0, q1, g01, g23));
#undef PASS
        if (j == n - 8) break;
    }
}

/* Low 32 bits of (sum + add) >> shift in each 64-bit lane. */
ALWAYS_INLINE __m256i shifted(__m256i sum, __m256i add, __m128i sh)
{
    return _mm256_srl_epi64(_mm256_add_epi64(sum, add), sh);
}

/* The low 32 bits of the 64-bit lanes of lo (outputs 0-3) and hi (4-7). */
ALWAYS_INLINE __m256i low32(__m256i lo, __m256i hi)
{
    const __m256i idx = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
    return _mm256_blend_epi32(_mm256_permutevar8x32_epi32(lo, idx),
                              _mm256_permutevar8x32_epi32(hi, idx), 0xf0);
}

ADM_DWT_VERTICAL_32(vqx_adm_dwt_vertical_32_avx2)
{
    if (w < 8) {
        vqx_adm_dwt_vertical_32_c(src, w, add, shift, lo, hi);
        return;
    }
    const __m256i round = _mm256_set1_epi64x(add);
    const __m128i sh = _mm_cvtsi32_si128((int)shift);
    for (int x = 0;; x += 8) {
        if (x > w - 8) x = w - 8;
        __m256i le = _mm256_setzero_si256(), lodd = le, ge = le, godd = le;
        for (int k = 0; k < 4; k++) {
            const __m256i s = _mm256_loadu_si256((const __m256i *)(src[k] + x));
            const __m256i so = _mm256_srli_epi64(s, 32);
            const __m256i tl = _mm256_set1_epi64x(vqx_adm_db2_lo[k]);
            const __m256i tg = _mm256_set1_epi64x(vqx_adm_db2_hi[k]);
            le = _mm256_add_epi64(le, _mm256_mul_epi32(s, tl));
            lodd = _mm256_add_epi64(lodd, _mm256_mul_epi32(so, tl));
            ge = _mm256_add_epi64(ge, _mm256_mul_epi32(s, tg));
            godd = _mm256_add_epi64(godd, _mm256_mul_epi32(so, tg));
        }
        /* even columns in the low halves, odd ones moved to the high halves */
        _mm256_storeu_si256((__m256i *)(lo + x),
                            _mm256_blend_epi32(shifted(le, round, sh),
                                               _mm256_slli_epi64(shifted(lodd, round, sh), 32),
                                               0xaa));
        _mm256_storeu_si256((__m256i *)(hi + x),
                            _mm256_blend_epi32(shifted(ge, round, sh),
                                               _mm256_slli_epi64(shifted(godd, round, sh), 32),
                                               0xaa));
        if (x == w - 8) break;
    }
}

/* Sums of outputs j..j+3 of row r (64-bit lanes) with taps t. */
ALWAYS_INLINE __m256i horizontal4(const int32_t *r, int j, const int32_t *t)
{
    /* 64-bit lane i: entries 2(j + i) - 1 (low) and 2(j + i) (high), then the next two */
    const __m256i x0 = _mm256_loadu_si256((const __m256i *)(r + 2 * j - 1));
    const __m256i x1 = _mm256_loadu_si256((const __m256i *)(r + 2 * j + 1));
    __m256i s = _mm256_mul_epi32(x0, _mm256_set1_epi64x(t[0]));
    s = _mm256_add_epi64(s, _mm256_mul_epi32(_mm256_srli_epi64(x0, 32), _mm256_set1_epi64x(t[1])));
    s = _mm256_add_epi64(s, _mm256_mul_epi32(x1, _mm256_set1_epi64x(t[2])));
    return _mm256_add_epi64(s, _mm256_mul_epi32(_mm256_srli_epi64(x1, 32),
                                                _mm256_set1_epi64x(t[3])));
}

ADM_DWT_HORIZONTAL_32(vqx_adm_dwt_horizontal_32_avx2)
{
    const int n = (w + 1) / 2;
    if (n < 8) {
        vqx_adm_dwt_horizontal_32_c(lo, hi, w, add, shift, a, h, v, d);
        return;
    }
    const __m256i round = _mm256_set1_epi64x(add);
    const __m128i sh = _mm_cvtsi32_si128((int)shift);
    for (int j = 0;; j += 8) {
        if (j > n - 8) j = n - 8;
#define PASS(r, t) low32(shifted(horizontal4(r, j, t), round, sh), \
                         shifted(horizontal4(r, j + 4, t), round, sh))
        _mm256_storeu_si256((__m256i *)(a + j), PASS(lo, vqx_adm_db2_lo));
        _mm256_storeu_si256((__m256i *)(v + j), PASS(lo, vqx_adm_db2_hi));
        _mm256_storeu_si256((__m256i *)(h + j), PASS(hi, vqx_adm_db2_lo));
        _mm256_storeu_si256((__m256i *)(d + j), PASS(hi, vqx_adm_db2_hi));
#undef PASS
        if (j == n - 8) break;
    }
}
