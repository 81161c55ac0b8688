/*
 * Integer motion's blur at one vector width, with the C's integer results:
 * included by motion_avx2.c and motion_avx512.c, which first define
 *   VEC                 the integer vector type; LANES its 32-bit lanes
 *   VI(op)              the intrinsic _mm<bits>_op (add_epi32, ...)
 *   VZERO(), VOR(a, b), VAND(a, b), VLOAD(p)   the si<bits> operations
 *   NAME(f)             f with the ISA's suffix
 *   diff8(p, c)         prev - cur of 2 LANES 8-bit samples, as 16-bit lanes
 *   store_cols(mid, lo, hi)   2 LANES columns of unpack order to mid
 *   or_lanes(v), add_lanes(v) the OR and the sum of the lanes of v
 *   BLEND_ODD16(a, b)   the even 16-bit lanes of a with the odd ones of b
 *   TailMask, tail_mask(n), load_masked(p, m)   loads of the first n < LANES
 *                       32-bit lanes, the others 0
 * The column pass does 2 LANES columns a step (the 16-bit column sums need
 * 33 bits: they are taken as the difference of two unsigned 32-bit sums,
 * rounded through their high and low parts), the row pass LANES (its 33-bit
 * sums split by each value's high 16 bits and lowest bit, see abs_blur).
 * A column pass narrower than 2 LANES goes to the C; a wider one ends with
 * a chunk that overlaps the previous one and rewrites its values unchanged;
 * the row pass ends with masked loads.
 */
#ifndef VQX_X86_MOTION_SIMD_H
#define VQX_X86_MOTION_SIMD_H

#include "feature/motion.h"
#include "x86/motion.h"

#define COLS (2 * LANES)

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

/* A madd's pair of factors in every 32-bit lane: lo in its low 16 bits, hi
 * in its high ones. */
static inline VEC tap_pair(int32_t lo, int32_t hi)
{
    return VI(set1_epi32)((int32_t)((uint32_t)hi << 16 | (uint32_t)lo));
}

/* 8 bits: differences fit 16 bits and their sums 32, as in the C. The taps
 * are symmetric, so the outer and inner pairs of rows are added first (9-bit
 * differences, 10-bit sums); the rounding rides in the centre row's madd. */
MOTION_BLUR_COLUMNS(NAME(vqx_motion_blur_columns_8bpc))
{
    if (w < COLS)
        return vqx_motion_blur_columns_8bpc(prev, prev_stride, cur, cur_stride, y, w, h, bpc,
                                            mid);
    const uint8_t *p[5], *c[5];
    tap_rows(prev, prev_stride, cur, cur_stride, y, h, p, c);
    const int32_t *t = vqx_motion_taps;
    const VEC outer_inner = tap_pair(t[0], t[1]), centre_round = tap_pair(t[2], 128);
    const VEC one = VI(set1_epi16)(1);
    VEC any = VZERO();
    for (unsigned x = 0;; x += COLS) {
        if (x > w - COLS) x = w - COLS;
        const VEC outer = VI(add_epi16)(diff8(p[0] + x, c[0] + x), diff8(p[4] + x, c[4] + x));
        const VEC inner = VI(add_epi16)(diff8(p[1] + x, c[1] + x), diff8(p[3] + x, c[3] + x));
        const VEC centre = diff8(p[2] + x, c[2] + x);
        VEC lo = VI(add_epi32)(VI(madd_epi16)(VI(unpacklo_epi16)(outer, inner), outer_inner),
                               VI(madd_epi16)(VI(unpacklo_epi16)(centre, one), centre_round));
        VEC hi = VI(add_epi32)(VI(madd_epi16)(VI(unpackhi_epi16)(outer, inner), outer_inner),
                               VI(madd_epi16)(VI(unpackhi_epi16)(centre, one), centre_round));
        lo = VI(srai_epi32)(lo, 8);
        hi = VI(srai_epi32)(hi, 8);
        any = VOR(any, VOR(lo, hi));
        store_cols(mid + x, lo, hi);
        if (x == w - COLS) break;
    }
    return or_lanes(any);
}

/* Sum over the taps of tap * sample of 2 LANES columns, as exact unsigned
 * 32-bit words (each below 65535 * 65536), in unpack order. */
ALWAYS_INLINE void tap_sums16(const uint8_t *const *rows, unsigned x, VEC *lo, VEC *hi)
{
    *lo = *hi = VZERO();
    for (int k = 0; k < 5; k++) {
        const VEC s = VLOAD((const uint16_t *)rows[k] + x);
        const VEC t = VI(set1_epi16)((int16_t)vqx_motion_taps[k]);
        const VEC pl = VI(mullo_epi16)(s, t), ph = VI(mulhi_epu16)(s, t);
        *lo = VI(add_epi32)(*lo, VI(unpacklo_epi16)(pl, ph));
        *hi = VI(add_epi32)(*hi, VI(unpackhi_epi16)(pl, ph));
    }
}

/* (a - b + round) >> shift of the 33-bit difference a - b of unsigned
 * words: (a >> s) - (b >> s) + ((a & m) - (b & m) + round) >> s. */
ALWAYS_INLINE VEC round_diff(VEC a, VEC b, __m128i shift, VEC mask, VEC round)
{
    const VEC high = VI(sub_epi32)(VI(srl_epi32)(a, shift), VI(srl_epi32)(b, shift));
    const VEC low = VI(sub_epi32)(VAND(a, mask), VAND(b, mask));
    return VI(add_epi32)(high, VI(sra_epi32)(VI(add_epi32)(low, round), shift));
}

MOTION_BLUR_COLUMNS(NAME(vqx_motion_blur_columns_16bpc))
{
    if (w < COLS)
        return vqx_motion_blur_columns_16bpc(prev, prev_stride, cur, cur_stride, y, w, h, bpc,
                                             mid);
    const uint8_t *p[5], *c[5];
    tap_rows(prev, prev_stride, cur, cur_stride, y, h, p, c);
    const __m128i shift = _mm_cvtsi32_si128((int)bpc);
    const VEC mask = VI(set1_epi32)((int32_t)((1u << bpc) - 1));
    const VEC round = VI(set1_epi32)((int32_t)(1u << (bpc - 1)));
    VEC any = VZERO();
    for (unsigned x = 0;; x += COLS) {
        if (x > w - COLS) x = w - COLS;
        VEC pl, ph, cl, ch;
        tap_sums16(p, x, &pl, &ph);
        tap_sums16(c, x, &cl, &ch);
        const VEC lo = round_diff(pl, cl, shift, mask, round);
        const VEC hi = round_diff(ph, ch, shift, mask, round);
        any = VOR(any, VOR(lo, hi));
        store_cols(mid + x, lo, hi);
        if (x == w - COLS) break;
    }
    return or_lanes(any);
}

/* |(sum of tap * m + 2^15) >> 16| of LANES outputs from the 5 windows v[k]
 * of column-pass values (|m| <= 65535): with m = 2 a + b (a = m >> 1 fits
 * 16 bits signed, b = m & 1) the sum is 2 A + B, A = sum(tap a) and B =
 * sum(tap b), each by madd on windows k and k + 1 paired in a lane's halves,
 * and (2 A + B + 2^15) >> 16 = (A + ((B + 2^15) >> 1)) >> 15, where every
 * step stays within 32 bits signed. */
ALWAYS_INLINE VEC abs_blur(const VEC v[5])
{
    const int32_t *t = vqx_motion_taps;
    const VEC t01 = tap_pair(t[0], t[1]), t23 = tap_pair(t[2], t[3]), t4 = tap_pair(t[4], 0);
    const VEC bit0 = VI(set1_epi32)(0x00010001);
    VEC a = VI(madd_epi16)(BLEND_ODD16(VI(srai_epi32)(v[0], 1), VI(slli_epi32)(v[1], 15)), t01);
    a = VI(add_epi32)(a, VI(madd_epi16)(BLEND_ODD16(VI(srai_epi32)(v[2], 1),
                                                    VI(slli_epi32)(v[3], 15)), t23));
    a = VI(add_epi32)(a, VI(madd_epi16)(VI(srai_epi32)(v[4], 1), t4));
    VEC b = VI(madd_epi16)(VAND(BLEND_ODD16(v[0], VI(slli_epi32)(v[1], 16)), bit0), t01);
    b = VI(add_epi32)(b, VI(madd_epi16)(VAND(BLEND_ODD16(v[2], VI(slli_epi32)(v[3], 16)), bit0),
                                        t23));
    b = VI(add_epi32)(b, VI(madd_epi16)(VAND(v[4], bit0), t4));
    const VEC half_b = VI(srli_epi32)(VI(add_epi32)(b, VI(set1_epi32)(1 << 15)), 1);
    return VI(abs_epi32)(VI(srai_epi32)(VI(add_epi32)(a, half_b), 15));
}

MOTION_ROW_SAD(NAME(vqx_motion_row_sad))
{
    const int iw = (int)w;
    for (int m = 1; m <= VQX_MOTION_RADIUS; m++) {
        mid[-m] = mid[m];
        mid[iw - 1 + m] = mid[iw - 1 - m];
    }
    VEC sum = VZERO(), v[5];
    unsigned x = 0;
    for (; x + LANES <= w; x += LANES) {
        for (int k = 0; k < 5; k++) v[k] = VLOAD(mid + x - VQX_MOTION_RADIUS + k);
        sum = VI(add_epi32)(sum, abs_blur(v));
    }
    if (x < w) {
        const TailMask lanes = tail_mask(w - x);
        for (int k = 0; k < 5; k++) v[k] = load_masked(mid + x - VQX_MOTION_RADIUS + k, lanes);
        sum = VI(add_epi32)(sum, abs_blur(v));
    }
    return add_lanes(sum);
}

#endif
