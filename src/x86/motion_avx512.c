/*
 * Integer motion's blur in AVX-512, 32 columns (the column pass) or 16 (the
 * row pass) at a time: the arithmetic of motion_avx2.c at twice the width.
 * A column pass narrower than 32 goes to the C; a wider one ends with a
 * chunk that overlaps the previous one; the row pass ends with masked loads.
 */
#include <immintrin.h>

#include "feature/motion.h"
#include "x86/motion.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

static inline int mirror(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - i - 2 : i;
}

static void tap_rows(const void *prev, ptrdiff_t prev_stride, const void *cur,
                     ptrdiff_t cur_stride, unsigned y, unsigned h, const uint8_t **p,
                     const uint8_t **c)
{
    for (int k = 0; k < 5; k++) {
        const int r = mirror((int)y - VQX_MOTION_RADIUS + k, (int)h);
        p[k] = (const uint8_t *)prev + (ptrdiff_t)r * prev_stride;
        c[k] = (const uint8_t *)cur + (ptrdiff_t)r * cur_stride;
    }
}

/* Unpack order (lo: columns 0-3, 8-11, ..., hi: 4-7, 12-15, ...) to mid. */
ALWAYS_INLINE void store32(int32_t *mid, __m512i lo, __m512i hi)
{
    const __m512i first = _mm512_setr_epi64(0, 1, 8, 9, 2, 3, 10, 11);
    const __m512i second = _mm512_setr_epi64(4, 5, 12, 13, 6, 7, 14, 15);
    _mm512_storeu_si512(mid, _mm512_permutex2var_epi64(lo, first, hi));
    _mm512_storeu_si512(mid + 16, _mm512_permutex2var_epi64(lo, second, hi));
}

ALWAYS_INLINE __m512i diff8(const uint8_t *p, const uint8_t *c)
{
    return _mm512_sub_epi16(_mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)p)),
                            _mm512_cvtepu8_epi16(_mm256_loadu_si256((const __m256i *)c)));
}

MOTION_BLUR_COLUMNS(vqx_motion_blur_columns_8bpc_avx512)
{
    if (w < 32)
        return vqx_motion_blur_columns_8bpc(prev, prev_stride, cur, cur_stride, y, w, h, bpc,
                                            mid);
    const uint8_t *p[5], *c[5];
    tap_rows(prev, prev_stride, cur, cur_stride, y, h, p, c);
    const int32_t *t = vqx_motion_taps;
    const __m512i t01 = _mm512_set1_epi32((int32_t)((uint32_t)t[1] << 16 | (uint32_t)t[0]));
    const __m512i t23 = _mm512_set1_epi32((int32_t)((uint32_t)t[3] << 16 | (uint32_t)t[2]));
    const __m512i t4 = _mm512_set1_epi32(t[4]), round = _mm512_set1_epi32(128);
    const __m512i zero = _mm512_setzero_si512();
    __m512i any = zero;
    for (unsigned x = 0;; x += 32) {
        if (x > w - 32) x = w - 32;
        const __m512i d0 = diff8(p[0] + x, c[0] + x), d1 = diff8(p[1] + x, c[1] + x);
        const __m512i d2 = diff8(p[2] + x, c[2] + x), d3 = diff8(p[3] + x, c[3] + x);
        const __m512i d4 = diff8(p[4] + x, c[4] + x);
        __m512i lo = _mm512_add_epi32(_mm512_madd_epi16(_mm512_unpacklo_epi16(d0, d1), t01),
                                      _mm512_madd_epi16(_mm512_unpacklo_epi16(d2, d3), t23));
        __m512i hi = _mm512_add_epi32(_mm512_madd_epi16(_mm512_unpackhi_epi16(d0, d1), t01),
                                      _mm512_madd_epi16(_mm512_unpackhi_epi16(d2, d3), t23));
        lo = _mm512_add_epi32(lo, _mm512_madd_epi16(_mm512_unpacklo_epi16(d4, zero), t4));
        hi = _mm512_add_epi32(hi, _mm512_madd_epi16(_mm512_unpackhi_epi16(d4, zero), t4));
        lo = _mm512_srai_epi32(_mm512_add_epi32(lo, round), 8);
        hi = _mm512_srai_epi32(_mm512_add_epi32(hi, round), 8);
        any = _mm512_or_si512(any, _mm512_or_si512(lo, hi));
        store32(mid + x, lo, hi);
        if (x == w - 32) break;
    }
    return _mm512_reduce_or_epi32(any);
}

/* Unsigned 32-bit sums of tap * sample of 32 columns, in unpack order. */
ALWAYS_INLINE void tap_sums16(const uint8_t *const *rows, unsigned x, __m512i *lo, __m512i *hi)
{
    *lo = *hi = _mm512_setzero_si512();
    for (int k = 0; k < 5; k++) {
        const __m512i s = _mm512_loadu_si512((const uint16_t *)rows[k] + x);
        const __m512i t = _mm512_set1_epi16((int16_t)vqx_motion_taps[k]);
        const __m512i pl = _mm512_mullo_epi16(s, t), ph = _mm512_mulhi_epu16(s, t);
        *lo = _mm512_add_epi32(*lo, _mm512_unpacklo_epi16(pl, ph));
        *hi = _mm512_add_epi32(*hi, _mm512_unpackhi_epi16(pl, ph));
    }
}

/* (a - b + round) >> shift of the 33-bit difference, as in motion_avx2.c. */
ALWAYS_INLINE __m512i round_diff(__m512i a, __m512i b, __m128i shift, __m512i mask,
                                 __m512i round)
{
    const __m512i high = _mm512_sub_epi32(_mm512_srl_epi32(a, shift), _mm512_srl_epi32(b, shift));
    const __m512i low = _mm512_sub_epi32(_mm512_and_si512(a, mask), _mm512_and_si512(b, mask));
    return _mm512_add_epi32(high, _mm512_sra_epi32(_mm512_add_epi32(low, round), shift));
}

MOTION_BLUR_COLUMNS(vqx_motion_blur_columns_16bpc_avx512)
{
    if (w < 32)
        return vqx_motion_blur_columns_16bpc(prev, prev_stride, cur, cur_stride, y, w, h, bpc,
                                             mid);
    const uint8_t *p[5], *c[5];
    tap_rows(prev, prev_stride, cur, cur_stride, y, h, p, c);
    const __m128i shift = _mm_cvtsi32_si128((int)bpc);
    const __m512i mask = _mm512_set1_epi32((int32_t)((1u << bpc) - 1));
    const __m512i round = _mm512_set1_epi32((int32_t)(1u << (bpc - 1)));
    __m512i any = _mm512_setzero_si512();
    for (unsigned x = 0;; x += 32) {
        if (x > w - 32) x = w - 32;
        __m512i pl, ph, cl, ch;
        tap_sums16(p, x, &pl, &ph);
        tap_sums16(c, x, &cl, &ch);
        const __m512i lo = round_diff(pl, cl, shift, mask, round);
        const __m512i hi = round_diff(ph, ch, shift, mask, round);
        any = _mm512_or_si512(any, _mm512_or_si512(lo, hi));
        store32(mid + x, lo, hi);
        if (x == w - 32) break;
    }
    return _mm512_reduce_or_epi32(any);
}

/* |(sum of tap * v + 2^15) >> 16| of 16 outputs, split as in motion_avx2.c. */
ALWAYS_INLINE __m512i abs_blur16(const __m512i v[5])
{
    const __m512i low16 = _mm512_set1_epi32(0xffff);
    __m512i high = _mm512_setzero_si512(), low = high;
    for (int k = 0; k < 5; k++) {
        const __m512i t = _mm512_set1_epi32(vqx_motion_taps[k]);
        high = _mm512_add_epi32(high, _mm512_madd_epi16(_mm512_srli_epi32(v[k], 16), t));
        low = _mm512_add_epi32(low, _mm512_mullo_epi32(_mm512_and_si512(v[k], low16), t));
    }
    low = _mm512_srli_epi32(_mm512_add_epi32(low, _mm512_set1_epi32(1 << 15)), 16);
    return _mm512_abs_epi32(_mm512_add_epi32(high, low));
}

MOTION_ROW_SAD(vqx_motion_row_sad_avx512)
{
    const int iw = (int)w;
    for (int m = 1; m <= VQX_MOTION_RADIUS; m++) {
        mid[-m] = mid[m];
        mid[iw - 1 + m] = mid[iw - 1 - m];
    }
    __m512i sum = _mm512_setzero_si512(), v[5];
    unsigned x = 0;
    for (; x + 16 <= w; x += 16) {
        for (int k = 0; k < 5; k++) v[k] = _mm512_loadu_si512(mid + x - VQX_MOTION_RADIUS + k);
        sum = _mm512_add_epi32(sum, abs_blur16(v));
    }
    if (x < w) {
        const __mmask16 lanes = (__mmask16)((1u << (w - x)) - 1);
        for (int k = 0; k < 5; k++)
            v[k] = _mm512_maskz_loadu_epi32(lanes, mid + x - VQX_MOTION_RADIUS + k);
        sum = _mm512_add_epi32(sum, abs_blur16(v));
    }
    return (uint32_t)_mm512_reduce_add_epi32(sum);
}
