/*
 * Integer motion's blur in AVX2, 16 columns (the column pass) or 8 (the row
 * pass) at a time, with the C's integer results. The 16-bit column sums
 * need 33 bits: they are taken as the difference of two unsigned 32-bit
 * sums, rounded through their high and low parts. The row pass's 64-bit
 * sums are split the same way, by the high and low 16 bits of each value.
 * A column pass narrower than 16 goes to the C; a wider one ends with a
 * chunk that overlaps the previous one and rewrites its values unchanged.
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

/* Columns 0-3 and 8-11 of lo, 4-7 and 12-15 of hi (unpack order) to mid. */
ALWAYS_INLINE void store16(int32_t *mid, __m256i lo, __m256i hi)
{
    _mm256_storeu_si256((__m256i *)mid, _mm256_permute2x128_si256(lo, hi, 0x20));
    _mm256_storeu_si256((__m256i *)(mid + 8), _mm256_permute2x128_si256(lo, hi, 0x31));
}

ALWAYS_INLINE int32_t or_lanes(__m256i v)
{
    __m128i x = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
    x = _mm_or_si128(x, _mm_shuffle_epi32(x, 0x4e));
    x = _mm_or_si128(x, _mm_shuffle_epi32(x, 0xb1));
    return _mm_cvtsi128_si32(x);
}

/* 8 bits: differences fit 16 bits and their sums 32, as in the C. */
ALWAYS_INLINE __m256i diff8(const uint8_t *p, const uint8_t *c)
{
    return _mm256_sub_epi16(_mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)p)),
                            _mm256_cvtepu8_epi16(_mm_loadu_si128((const __m128i *)c)));
}

MOTION_BLUR_COLUMNS(vqx_motion_blur_columns_8bpc_avx2)
{
    if (w < 16)
        return vqx_motion_blur_columns_8bpc(prev, prev_stride, cur, cur_stride, y, w, h, bpc,
                                            mid);
    const uint8_t *p[5], *c[5];
    tap_rows(prev, prev_stride, cur, cur_stride, y, h, p, c);
    const int32_t *t = vqx_motion_taps;
    const __m256i t01 = _mm256_set1_epi32((int32_t)((uint32_t)t[1] << 16 | (uint32_t)t[0]));
    const __m256i t23 = _mm256_set1_epi32((int32_t)((uint32_t)t[3] << 16 | (uint32_t)t[2]));
    const __m256i t4 = _mm256_set1_epi32(t[4]), round = _mm256_set1_epi32(128);
    const __m256i zero = _mm256_setzero_si256();
    __m256i any = zero;
    for (unsigned x = 0;; x += 16) {
        if (x > w - 16) x = w - 16;
        const __m256i d0 = diff8(p[0] + x, c[0] + x), d1 = diff8(p[1] + x, c[1] + x);
        const __m256i d2 = diff8(p[2] + x, c[2] + x), d3 = diff8(p[3] + x, c[3] + x);
        const __m256i d4 = diff8(p[4] + x, c[4] + x);
        __m256i lo = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpacklo_epi16(d0, d1), t01),
                                      _mm256_madd_epi16(_mm256_unpacklo_epi16(d2, d3), t23));
        __m256i hi = _mm256_add_epi32(_mm256_madd_epi16(_mm256_unpackhi_epi16(d0, d1), t01),
                                      _mm256_madd_epi16(_mm256_unpackhi_epi16(d2, d3), t23));
        lo = _mm256_add_epi32(lo, _mm256_madd_epi16(_mm256_unpacklo_epi16(d4, zero), t4));
        hi = _mm256_add_epi32(hi, _mm256_madd_epi16(_mm256_unpackhi_epi16(d4, zero), t4));
        lo = _mm256_srai_epi32(_mm256_add_epi32(lo, round), 8);
        hi = _mm256_srai_epi32(_mm256_add_epi32(hi, round), 8);
        any = _mm256_or_si256(any, _mm256_or_si256(lo, hi));
        store16(mid + x, lo, hi);
        if (x == w - 16) break;
    }
    return or_lanes(any);
}

/* Sum over the taps of tap * sample of 16 columns, as exact unsigned 32-bit
 * words (each below 65535 * 65536), in unpack order. */
ALWAYS_INLINE void tap_sums16(const uint8_t *const *rows, unsigned x, __m256i *lo, __m256i *hi)
{
    *lo = *hi = _mm256_setzero_si256();
    for (int k = 0; k < 5; k++) {
        const __m256i s = _mm256_loadu_si256((const __m256i *)((const uint16_t *)rows[k] + x));
        const __m256i t = _mm256_set1_epi16((int16_t)vqx_motion_taps[k]);
        const __m256i pl = _mm256_mullo_epi16(s, t), ph = _mm256_mulhi_epu16(s, t);
        *lo = _mm256_add_epi32(*lo, _mm256_unpacklo_epi16(pl, ph));
        *hi = _mm256_add_epi32(*hi, _mm256_unpackhi_epi16(pl, ph));
    }
}

/* (a - b + round) >> shift of the 33-bit difference a - b of unsigned
 * words: (a >> s) - (b >> s) + ((a & m) - (b & m) + round) >> s. */
ALWAYS_INLINE __m256i round_diff(__m256i a, __m256i b, __m128i shift, __m256i mask,
                                 __m256i round)
{
    const __m256i high = _mm256_sub_epi32(_mm256_srl_epi32(a, shift), _mm256_srl_epi32(b, shift));
    const __m256i low = _mm256_sub_epi32(_mm256_and_si256(a, mask), _mm256_and_si256(b, mask));
    return _mm256_add_epi32(high, _mm256_sra_epi32(_mm256_add_epi32(low, round), shift));
}

MOTION_BLUR_COLUMNS(vqx_motion_blur_columns_16bpc_avx2)
{
    if (w < 16)
        return vqx_motion_blur_columns_16bpc(prev, prev_stride, cur, cur_stride, y, w, h, bpc,
                                             mid);
    const uint8_t *p[5], *c[5];
    tap_rows(prev, prev_stride, cur, cur_stride, y, h, p, c);
    const __m128i shift = _mm_cvtsi32_si128((int)bpc);
    const __m256i mask = _mm256_set1_epi32((int32_t)((1u << bpc) - 1));
    const __m256i round = _mm256_set1_epi32((int32_t)(1u << (bpc - 1)));
    __m256i any = _mm256_setzero_si256();
    for (unsigned x = 0;; x += 16) {
        if (x > w - 16) x = w - 16;
        __m256i pl, ph, cl, ch;
        tap_sums16(p, x, &pl, &ph);
        tap_sums16(c, x, &cl, &ch);
        const __m256i lo = round_diff(pl, cl, shift, mask, round);
        const __m256i hi = round_diff(ph, ch, shift, mask, round);
        any = _mm256_or_si256(any, _mm256_or_si256(lo, hi));
        store16(mid + x, lo, hi);
        if (x == w - 16) break;
    }
    return or_lanes(any);
}

/* |(sum of tap * v + 2^15) >> 16| of 8 outputs from the 5 windows v[k]:
 * with v = 2^16 H + L, the sum is 2^16 sum(tap H) + sum(tap L), the first
 * within 32 bits signed, the second unsigned. Lanes of v all zero give 0. */
ALWAYS_INLINE __m256i abs_blur8(const __m256i v[5])
{
    const __m256i low16 = _mm256_set1_epi32(0xffff);
    __m256i high = _mm256_setzero_si256(), low = high;
    for (int k = 0; k < 5; k++) {
        const __m256i t = _mm256_set1_epi32(vqx_motion_taps[k]);
        high = _mm256_add_epi32(high, _mm256_madd_epi16(_mm256_srli_epi32(v[k], 16), t));
        low = _mm256_add_epi32(low, _mm256_mullo_epi32(_mm256_and_si256(v[k], low16), t));
    }
    low = _mm256_srli_epi32(_mm256_add_epi32(low, _mm256_set1_epi32(1 << 15)), 16);
    return _mm256_abs_epi32(_mm256_add_epi32(high, low));
}

MOTION_ROW_SAD(vqx_motion_row_sad_avx2)
{
    const int iw = (int)w;
    for (int m = 1; m <= VQX_MOTION_RADIUS; m++) {
        mid[-m] = mid[m];
        mid[iw - 1 + m] = mid[iw - 1 - m];
    }
    __m256i sum = _mm256_setzero_si256(), v[5];
    unsigned x = 0;
    for (; x + 8 <= w; x += 8) {
        for (int k = 0; k < 5; k++)
            v[k] = _mm256_loadu_si256((const __m256i *)(mid + x - VQX_MOTION_RADIUS + k));
        sum = _mm256_add_epi32(sum, abs_blur8(v));
    }
    if (x < w) {
        const __m256i lanes = _mm256_cmpgt_epi32(_mm256_set1_epi32((int)(w - x)),
                                                 _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
        for (int k = 0; k < 5; k++)
            v[k] = _mm256_maskload_epi32(mid + x - VQX_MOTION_RADIUS + k, lanes);
        sum = _mm256_add_epi32(sum, abs_blur8(v));
    }
    __m128i s = _mm_add_epi32(_mm256_castsi256_si128(sum), _mm256_extracti128_si256(sum, 1));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4e));
    s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xb1));
    return (uint32_t)_mm_cvtsi128_si32(s);
}
