/*
 * CAMBI's stages at one vector width, with the C's results: included by
 * cambi_avx2.c and cambi_avx512.c, which first define
 *   VEC, VECF, VECD     the integer, float and double vector types
 *   V16, V32            its 16-bit and 32-bit lanes
 *   VI(op)              the intrinsic _mm<bits>_op (add_epi16, ...)
 *   VZERO(), VAND, VOR, VANDNOT, VLOAD, VSTORE   the si<bits> operations
 *   VCASTPS(f)          the bits of a float vector
 *   NAME(f)             f with the ISA's suffix
 *   eq16, eq32, gt8, gt16, gt32 (signed)   comparisons: all-ones lanes
 *   blend(m, a, b)      m ? b : a; any(m), all(m); bits16(m): a bit a lane
 *   gather16(base, idx, m), gather_ps(table, idx, m)   base[idx] where m, else 0
 *   load_u16_32, load_u8_32, load_u8_16   widening loads of a vector's lanes
 *   store_flags16(out, m)   the 16-bit lanes of m as bytes of 0 or 1
 *   shift_in16(prev, v)     v moved up a lane, the last lane of prev first
 *   halve_chunk(img, mask, img_out, mask_out)   V16 outputs of every other sample
 *   load_ps, add_pd(lo, hi, f), sum_pd   floats summed as doubles
 *   max_lanes32, min_lanes32 (unsigned), add_lanes32
 * Widths below one vector (and, for the contrast values, a row without
 * window padding) go to the C. The pure stages end with a chunk that
 * overlaps the previous one and rewrites its values unchanged; the
 * in-place ones (smoothing, halving, the column sums) end in scalar code.
 */
#ifndef VQX_X86_CAMBI_SIMD_H
#define VQX_X86_CAMBI_SIMD_H

#include <math.h>
#include <string.h>

#include "feature/cambi.h"
#include "feature/top_mean.h"
#include "x86/cambi.h"

/* the lane numbers, as 16-bit and 32-bit words */
static const uint16_t iota16[32] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
    16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
};
static const uint32_t iota32[16] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

/* ---- load ---- */

/* Do the columns of a chunk follow each other in the input (the maps
 * ascend, so the ends tell)? */
ALWAYS_INLINE int contiguous(const unsigned *cols, unsigned x, unsigned n)
{
    return cols[x + n - 1] - cols[x] == n - 1;
}

CAMBI_LOAD(NAME(vqx_cambi_load_10bit_8bpc))
{
    for (unsigned y = 0; y < out_h; y++) {
        const uint8_t *in = (const uint8_t *)data + (ptrdiff_t)rows[y] * stride;
        uint16_t *o = out + (size_t)y * out_w;
        unsigned x = 0;
        for (; x + V16 <= out_w; x += V16) {
            if (contiguous(cols, x, V16)) {
                VSTORE(o + x, VI(slli_epi16)(load_u8_16(in + cols[x]), 2));
            } else {
                for (unsigned i = x; i < x + V16; i++) o[i] = vqx_cambi_to_10bit(in[cols[i]], bpc);
            }
        }
        for (; x < out_w; x++) o[x] = vqx_cambi_to_10bit(in[cols[x]], bpc);
    }
}

/* ((v << up) + half) >> down as (v >> down) + bit down - 1 of v, which
 * cannot overflow 16 bits */
CAMBI_LOAD(NAME(vqx_cambi_load_10bit_16bpc))
{
    const unsigned up = bpc < 10 ? 10 - bpc : 0, down = bpc > 10 ? bpc - 10 : 0;
    const __m128i shift_up = _mm_cvtsi32_si128((int)up);
    const __m128i shift_down = _mm_cvtsi32_si128((int)down);
    const __m128i shift_round = _mm_cvtsi32_si128(down ? (int)down - 1 : 0);
    const VEC one = VI(set1_epi16)(1);
    for (unsigned y = 0; y < out_h; y++) {
        const uint16_t *in = PIXEL_ROW(uint16_t, data, stride, rows[y]);
        uint16_t *o = out + (size_t)y * out_w;
        unsigned x = 0;
        for (; x + V16 <= out_w; x += V16) {
            if (contiguous(cols, x, V16)) {
                const VEC v = VLOAD(in + cols[x]);
                VSTORE(o + x, down ? VI(add_epi16)(VI(srl_epi16)(v, shift_down),
                                                   VAND(VI(srl_epi16)(v, shift_round), one))
                                   : VI(sll_epi16)(v, shift_up));
            } else {
                for (unsigned i = x; i < x + V16; i++) o[i] = vqx_cambi_to_10bit(in[cols[i]], bpc);
            }
        }
        for (; x < out_w; x++) o[x] = vqx_cambi_to_10bit(in[cols[x]], bpc);
    }
}

/* ---- smoothing, mask, halving, mode filter ---- */

/* 10-bit samples: a sum of four fits 16 bits. */
CAMBI_SMOOTH(NAME(vqx_cambi_smooth_2x2))
{
    for (unsigned y = 0; y + 1 < h; y++) {
        uint16_t *row = img + (size_t)y * w;
        const uint16_t *below = row + w;
        unsigned x = 0;
        for (; x + V16 < w; x += V16) {
            const VEC top = VI(add_epi16)(VLOAD(row + x), VLOAD(row + x + 1));
            const VEC bottom = VI(add_epi16)(VLOAD(below + x), VLOAD(below + x + 1));
            VSTORE(row + x, VI(srli_epi16)(VI(add_epi16)(top, bottom), 2));
        }
        for (; x + 1 < w; x++)
            row[x] = (uint16_t)((row[x] + row[x + 1] + below[x] + below[x + 1]) >> 2);
        row[w - 1] = (uint16_t)((row[w - 1] + below[w - 1]) >> 1);
    }
    uint16_t *last = img + (size_t)(h - 1) * w;
    unsigned x = 0;
    for (; x + V16 < w; x += V16)
        VSTORE(last + x, VI(srli_epi16)(VI(add_epi16)(VLOAD(last + x), VLOAD(last + x + 1)), 1));
    for (; x + 1 < w; x++)
        last[x] = (uint16_t)((last[x] + last[x + 1]) >> 1);
}

CAMBI_FLAT_ROW(NAME(vqx_cambi_flat_row))
{
    if (w < V16 + 1) {
        vqx_cambi_flat_row_c(row, below, w, out);
        return;
    }
    const unsigned last = w - 1 - V16; /* every column but the last has a right neighbour */
    for (unsigned x = 0;; x += V16) {
        if (x > last) x = last;
        const VEC v = VLOAD(row + x);
        VEC flat = eq16(v, VLOAD(row + x + 1));
        if (below) flat = VAND(flat, eq16(v, VLOAD(below + x)));
        store_flags16(out + x, flat);
        if (x == last) break;
    }
    out[w - 1] = below ? row[w - 1] == below[w - 1] : 1;
}

/* Column sums are at most 7 (flags of 7 rows), so 7 of them fit a signed
 * byte. */
CAMBI_MASK_ROW(NAME(vqx_cambi_mask_row))
{
    enum { V8 = 2 * V16, R = CAMBI_MASK_SIZE / 2 };
    if (w < V8 + 2 * R) {
        vqx_cambi_mask_row_c(cols, enter, leave, w, threshold, mask);
        return;
    }
    unsigned x = 0;
    for (; x + V8 <= w; x += V8) {
        VEC c = VLOAD(cols + x);
        if (enter) c = VI(add_epi8)(c, VLOAD(enter + x));
        if (leave) c = VI(sub_epi8)(c, VLOAD(leave + x));
        VSTORE(cols + x, c);
    }
    for (; x < w; x++) {
        if (enter) cols[x] += enter[x];
        if (leave) cols[x] -= leave[x];
    }
    const VEC t = VI(set1_epi8)((char)(threshold < 127 ? threshold : 127));
    const VEC one = VI(set1_epi8)(1);
    const unsigned last = w - R - V8;
    for (x = R;; x += V8) {
        if (x > last) x = last;
        VEC sum = VLOAD(cols + x - R);
        for (int i = 1 - R; i <= R; i++) sum = VI(add_epi8)(sum, VLOAD(cols + x + i));
        VSTORE(mask + x, VAND(gt8(sum, t), one));
        if (x == last) break;
    }
    /* the edges: the block clipped to the row */
    for (unsigned e = 0; e < 2 * R; e++) {
        const unsigned at = e < R ? e : w - 2 * R + e;
        const unsigned from = at >= R ? at - R : 0, to = at + R < w ? at + R : w - 1;
        unsigned sum = 0;
        for (unsigned i = from; i <= to; i++) sum += cols[i];
        mask[at] = sum > threshold;
    }
}

/* In place on row 0: a chunk reads [2x, 2x + 2 V16) before it writes
 * [x, x + V16), below every later read. */
CAMBI_HALVE_ROW(NAME(vqx_cambi_halve_row))
{
    unsigned x = 0;
    for (; x + V16 < hw; x += V16)
        halve_chunk(img + 2 * x, mask + 2 * x, img_out + x, mask_out + x);
    for (; x < hw; x++) {
        img_out[x] = img[2 * x];
        mask_out[x] = mask[2 * x];
    }
}

/* vqx_cambi_mode3 of 16-bit lanes: the median, min(max(lo, c), hi), when
 * two agree, else the minimum */
ALWAYS_INLINE VEC mode3(VEC a, VEC b, VEC c)
{
    const VEC lo = VI(min_epu16)(a, b), hi = VI(max_epu16)(a, b);
    const VEC median = VI(min_epu16)(VI(max_epu16)(lo, c), hi);
    const VEC shared = VOR(VOR(eq16(a, b), eq16(a, c)), eq16(b, c));
    return blend(shared, VI(min_epu16)(lo, c), median);
}

CAMBI_MODE_ROW(NAME(vqx_cambi_mode_row))
{
    if (w < V16 + 2) {
        vqx_cambi_mode_row_c(in, w, out);
        return;
    }
    const unsigned last = w - 1 - V16;
    for (unsigned x = 1;; x += V16) {
        if (x > last) x = last;
        VSTORE(out + x, mode3(VLOAD(in + x - 1), VLOAD(in + x), VLOAD(in + x + 1)));
        if (x == last) break;
    }
    out[0] = in[0];
    out[w - 1] = in[w - 1];
}

CAMBI_MODE_COLUMNS(NAME(vqx_cambi_mode_columns))
{
    if (w < V16) {
        vqx_cambi_mode_columns_c(a, b, c, w, out);
        return;
    }
    for (unsigned x = 0;; x += V16) {
        if (x > w - V16) x = w - V16;
        VSTORE(out + x, mode3(VLOAD(a + x), VLOAD(b + x), VLOAD(c + x)));
        if (x == w - V16) break;
    }
}

/* ---- the sliding histograms ---- */

/* A pixel's key: its histogram row, or NONE when it is not counted. */
#define NONE 0xffffu

/* Adds (sub: subtracts) to hist row `key` what the counted pixels of
 * columns [x0, x1), all of that value, add one by one: position p gets the
 * number of them within 2 pad to its left, min(p, x1 - 1) - max(p - 2 pad,
 * x0) + 1 when positive. Chunks stay inside the row: the last one is moved
 * back and its lanes below where it should start get nothing. */
static void add_run(uint16_t *hist, size_t stride, unsigned key, unsigned x0, unsigned x1,
                    unsigned pad, int sub)
{
    uint16_t *row = hist + key * stride;
    const unsigned end = x1 + 2 * pad;
    const VEC iota = VLOAD(iota16), zero = VZERO(), one = VI(set1_epi16)(1);
    const VEC first = VI(set1_epi16)((short)x0), last = VI(set1_epi16)((short)(x1 - 1));
    const VEC reach = VI(set1_epi16)((short)(2 * pad));
    for (unsigned q = x0; q < end; q += V16) {
        const unsigned base = q + V16 <= stride ? q : (unsigned)stride - V16;
        const VEC p = VI(add_epi16)(VI(set1_epi16)((short)base), iota);
        VEC c = VI(sub_epi16)(VI(min_epi16)(p, last), VI(max_epi16)(VI(sub_epi16)(p, reach), first));
        c = VI(max_epi16)(VI(add_epi16)(c, one), zero);
        if (base < q) c = VANDNOT(gt16(VI(set1_epi16)((short)q), p), c);
        const VEC h = VLOAD(row + base);
        VSTORE(row + base, sub ? VI(sub_epi16)(h, c) : VI(add_epi16)(h, c));
    }
}

ALWAYS_INLINE VEC keys16(const uint16_t *img, const uint8_t *mask, VEC lo, VEC top)
{
    const VEC band = VI(sub_epi16)(VLOAD(img), lo);
    const VEC in_band = eq16(VI(min_epu16)(band, top), band);
    const VEC counted = VANDNOT(eq16(load_u8_16(mask), VZERO()), in_band);
    return blend(counted, VI(set1_epi16)(-1), band);
}

static inline unsigned key_of(const uint16_t *img, const uint8_t *mask, unsigned x,
                              unsigned band_lo, unsigned band_size)
{
    if (!img || !mask[x]) return NONE;
    const unsigned band = (unsigned)img[x] - band_lo;
    return band < band_size ? band : NONE;
}

/* The run of equal keys open at column `start`. */
typedef struct Run {
    unsigned start, key;
} Run;

/* Column x starts a run of `key`: the open run ends there. */
ALWAYS_INLINE void run_to(Run *r, unsigned x, unsigned key, uint16_t *hist, size_t stride,
                          unsigned pad, int sub)
{
    if (r->key != NONE) add_run(hist, stride, r->key, r->start, x, pad, sub);
    r->start = x;
    r->key = key;
}

/* Runs of pixels of one value (flat areas, which the mask keeps) add a
 * window's width and their length instead of both multiplied; a pixel
 * that enters and leaves with the same value changes nothing. */
CAMBI_SLIDE(NAME(vqx_cambi_slide))
{
    if (!band_size || stride < V16 || w < V16) {
        vqx_cambi_slide_c(hist, stride, in_img, in_mask, out_img, out_mask, w, pad, band_lo,
                          band_size);
        return;
    }
    const VEC lo = VI(set1_epi16)((short)band_lo), top = VI(set1_epi16)((short)(band_size - 1));
    const VEC none = VI(set1_epi16)(-1);
    const uint32_t lanes = (uint32_t)(((uint64_t)1 << V16) - 1);
    Run in = { 0, NONE }, out = { 0, NONE };
    VEC prev_in = none, prev_out = none;
    unsigned x = 0;
    for (; x + V16 <= w; x += V16) {
        VEC ki = in_img ? keys16(in_img + x, in_mask + x, lo, top) : none;
        VEC ko = out_img ? keys16(out_img + x, out_mask + x, lo, top) : none;
        const VEC same = eq16(ki, ko);
        ki = VOR(ki, same);
        ko = VOR(ko, same);
        uint32_t starts_in = ~bits16(eq16(ki, shift_in16(prev_in, ki))) & lanes;
        uint32_t starts_out = ~bits16(eq16(ko, shift_in16(prev_out, ko))) & lanes;
        if (starts_in | starts_out) {
            uint16_t key_in[V16], key_out[V16];
            VSTORE(key_in, ki);
            VSTORE(key_out, ko);
            for (; starts_in; starts_in &= starts_in - 1) {
                const unsigned i = (unsigned)__builtin_ctz(starts_in);
                run_to(&in, x + i, key_in[i], hist, stride, pad, 0);
            }
            for (; starts_out; starts_out &= starts_out - 1) {
                const unsigned i = (unsigned)__builtin_ctz(starts_out);
                run_to(&out, x + i, key_out[i], hist, stride, pad, 1);
            }
        }
        prev_in = ki;
        prev_out = ko;
    }
    for (; x < w; x++) {
        unsigned ki = key_of(in_img, in_mask, x, band_lo, band_size);
        unsigned ko = key_of(out_img, out_mask, x, band_lo, band_size);
        if (ki == ko) ki = ko = NONE;
        if (ki != in.key) run_to(&in, x, ki, hist, stride, pad, 0);
        if (ko != out.key) run_to(&out, x, ko, hist, stride, pad, 1);
    }
    run_to(&in, w, NONE, hist, stride, pad, 0);
    run_to(&out, w, NONE, hist, stride, pad, 1);
}

/* ---- contrast values ---- */

/* weight * p0 * p1 (32-bit, as the C's int) to float, times 1 / (p0 + p1)
 * from the table, for the lanes of m (the others 0): the C's statements,
 * lane by lane */
ALWAYS_INLINE VECF step_value(VEC p0, VEC p1, int weight, const float *reciprocal, VEC m)
{
    const VEC prod = VI(mullo_epi32)(VI(mullo_epi32)(p0, p1), VI(set1_epi32)(weight));
    return VI(mul_ps)(VI(cvtepi32_ps)(prod), gather_ps(reciprocal, VI(add_epi32)(p0, p1), m));
}

/* V32 pixels of one value, all counted: the counts are contiguous. */
ALWAYS_INLINE VECF contrast_flat(const uint16_t *col, size_t stride, unsigned value,
                                 const CambiContrastParams *p)
{
    const unsigned n = p->n_steps, band = value - p->band_lo;
    const VEC p0 = load_u16_32(col + band * stride), all_lanes = VI(set1_epi32)(-1);
    VECF best = VI(setzero_ps)();
    for (unsigned d = 0; d < n; d++) {
        if (!vqx_cambi_step_counts(value, n, d, p->tvi[d], p->vlt)) continue;
        const VEC up = load_u16_32(col + (band + d + 1) * stride);
        const VEC down = band > d ? load_u16_32(col + (band - d - 1) * stride) : VZERO();
        best = VI(max_ps)(best, step_value(p0, VI(max_epi32)(up, down), p->weights[d],
                                           p->reciprocal, all_lanes));
    }
    return best;
}

/* Any V32 pixels (counted: the lanes that count), through gathers; the
 * gathers read a 32-bit word, so one count past the last (a padding
 * column). */
ALWAYS_INLINE VECF contrast_any(const uint16_t *hist, size_t stride, unsigned x, VEC v,
                                VEC band, VEC counted, const CambiContrastParams *p)
{
    const unsigned n = p->n_steps;
    const VEC at = VI(add_epi32)(VI(mullo_epi32)(band, VI(set1_epi32)((int)stride)),
                                 VI(add_epi32)(VI(set1_epi32)((int)x), VLOAD(iota32)));
    const VEC p0 = gather16(hist, at, counted);
    const VEC level = VI(add_epi32)(v, VI(set1_epi32)((int)n));
    const VEC vlt = VI(set1_epi32)((int)p->vlt);
    VECF best = VI(setzero_ps)();
    for (unsigned d = 0; d < n; d++) {
        VEC m = VANDNOT(gt32(level, VI(set1_epi32)(p->tvi[d])), counted);
        m = VAND(m, gt32(VI(add_epi32)(level, VI(set1_epi32)((int)d + 1)), vlt));
        if (!any(m)) continue;
        const VEC step = VI(set1_epi32)((int)((d + 1) * stride));
        const VEC up = gather16(hist, VI(add_epi32)(at, step), m);
        const VEC has_down = VAND(m, gt32(band, VI(set1_epi32)((int)d)));
        const VEC down = gather16(hist, VI(sub_epi32)(at, step), has_down);
        best = VI(max_ps)(best, step_value(p0, VI(max_epi32)(up, down), p->weights[d],
                                           p->reciprocal, m));
    }
    return best;
}

/* A maximum of non-negative floats does not depend on the order. */
CAMBI_CONTRAST_ROW(NAME(vqx_cambi_contrast_row))
{
    if (stride <= w || w < V32 || !p->band_size) {
        vqx_cambi_contrast_row_c(hist, stride, img, mask, w, p, out);
        return;
    }
    const VEC lo = VI(set1_epi32)((int)p->band_lo), top = VI(set1_epi32)((int)p->band_size - 1);
    for (unsigned x = 0;; x += V32) {
        if (x > w - V32) x = w - V32;
        const VEC v = load_u16_32(img + x);
        const VEC band = VI(sub_epi32)(v, lo);
        const VEC counted = VANDNOT(eq32(load_u8_32(mask + x), VZERO()),
                                    eq32(VI(min_epu32)(band, top), band));
        VECF best = VI(setzero_ps)();
        if (all(counted) && all(eq32(v, VI(set1_epi32)(img[x]))))
            best = contrast_flat(hist + x, stride, img[x], p);
        else if (any(counted))
            best = contrast_any(hist, stride, x, v, band, counted, p);
        VI(storeu_ps)(out + x, best);
        if (x == w - V32) break;
    }
}

/* ---- pooling ---- */

/* When the values not zero are at most k, the k largest are all of them
 * and zeros. Their sum is then exact in any order when it stays below
 * 2^53 units of the smallest value's last place (all values are multiples
 * of it): every partial sum is then a double, so libvmaf's order of
 * summation gives this same sum. A sum at or past that bound cannot round
 * below it, so it is never taken for exact. Otherwise, and for negative,
 * infinite or NaN values, the C. */
CAMBI_MEAN_OF_TOP(NAME(vqx_cambi_mean_of_top))
{
    const int k = vqx_top_count(n, fraction);
    const VEC one = VI(set1_epi32)(1);
    /* largest bits, smallest bits less 1 (zeros wrap to the largest), count
     * of values not 0 */
    VEC top = VZERO(), least = VI(set1_epi32)(-1), count = VZERO();
    VECD s0 = VI(setzero_pd)(), s1 = s0, s2 = s0, s3 = s0;
    int i = 0;
    for (; i + 2 * V32 <= n; i += 2 * V32) {
        const VECF f0 = load_ps(v + i), f1 = load_ps(v + i + V32);
        const VEC b0 = VCASTPS(f0), b1 = VCASTPS(f1);
        top = VI(max_epu32)(top, VI(max_epu32)(b0, b1));
        least = VI(min_epu32)(least, VI(min_epu32)(VI(sub_epi32)(b0, one), VI(sub_epi32)(b1, one)));
        count = VI(add_epi32)(count, VI(add_epi32)(VI(min_epu32)(b0, one), VI(min_epu32)(b1, one)));
        add_pd(&s0, &s1, f0);
        add_pd(&s2, &s3, f1);
    }
    uint32_t top_bits = max_lanes32(top), least_bits = min_lanes32(least);
    unsigned nonzero = add_lanes32(count);
    double tail = 0.0;
    for (; i < n; i++) {
        uint32_t b;
        memcpy(&b, v + i, sizeof(b));
        top_bits = b > top_bits ? b : top_bits;
        least_bits = b - 1 < least_bits ? b - 1 : least_bits;
        nonzero += b != 0;
        tail += v[i];
    }
    if (top_bits > 0x7f7fffffu || nonzero > (unsigned)k) return vqx_mean_of_top(v, n, fraction);
    const double sum = sum_pd(VI(add_pd)(VI(add_pd)(s0, s1), VI(add_pd)(s2, s3))) + tail;
    /* the smallest value not 0 is m 2^(e - 150), m an integer (e >= 1) */
    const int e = (int)((least_bits + 1) >> 23);
    if (sum < ldexp(1.0, (e > 1 ? e : 1) - 150 + 53)) return sum / k;
    return vqx_mean_of_top(v, n, fraction);
}

#undef NONE

#endif
