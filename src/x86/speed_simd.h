/*
 * SpEED's entries at one vector width: included by speed_avx2.c and
 * speed_avx512.c, which first define
 *   VECF, LANES           the float vector type and its lanes
 *   VF(op)                the intrinsic _mm<bits>_op_ps
 *   VECD, LANES_D, VD(op) the same for doubles
 *   CENTRED_ROW(c, p, m)  c[0..4] = (double)p[0..4] - m[0..4] (m in double),
 *                         writing no further than c[LANES_D - 1]
 *   NAME(f)               f with the ISA's suffix
 */
#ifndef VQX_X86_SPEED_SIMD_H
#define VQX_X86_SPEED_SIMD_H

#include "x86/speed.h"
#include "x86/steps.h"

/* The columns from the first span to the last at once, LANES a step (a
 * product, then a sum, tap by tap, as in the C), gaps included: the spans
 * are 9 of every 16 columns. Fewer than LANES columns go to the C. */
SPEED_DECIMATE_COLUMNS(NAME(vqx_speed_decimate_columns))
{
    const unsigned first = spans[0].first;
    const unsigned end = spans[n_spans - 1].first + spans[n_spans - 1].count;
    if (end - first < LANES) {
        vqx_speed_decimate_columns_c(rows, taps, n_taps, spans, n_spans, row);
        return;
    }
    FOR_EACH_STEP(x, first, end, {
        VECF acc = VF(setzero)();
        for (int t = 0; t < n_taps; t++)
            acc = VF(add)(acc, VF(mul)(VF(set1)(taps[t]), VF(loadu)(rows[t] + x)));
        VF(storeu)(row + x, acc);
    });
}

/* Accumulator row x holds pairs (x, y) at y in [0, x] and, up to the next
 * multiple of LANES_D, lanes that are added to and never read: 32 doubles
 * a row cover 25 at both widths. */
#define ROW_PAD 32

/* Each pair's sum is a chain of additions over the positions in raster
 * order, which a vector cannot split; the vectors run across the pairs
 * instead: at every position, row x of the accumulators adds c_x * c_y for
 * LANES_D y at a time (a product, then a sum, as in the C). */
SPEED_COVARIANCE_SUMS(NAME(vqx_speed_covariance_sums))
{
    _Alignas(64) double acc[SPEED_DSP_DIM][ROW_PAD] = { { 0 } };
    _Alignas(64) double c[ROW_PAD + LANES_D] = { 0 };
    double mean_d[SPEED_DSP_DIM + LANES_D] = { 0 };
    for (int o = 0; o < SPEED_DSP_DIM; o++) mean_d[o] = mean[o];
    for (unsigned i = 0; i < cov_h; i++) {
        for (unsigned j = 0; j < cov_w; j++) {
            const float *p = dec + i * dec_stride + j;
            for (int r = 0; r < 5; r++) CENTRED_ROW(c + 5 * r, p + r * dec_stride, mean_d + 5 * r);
            for (int x = 0; x < SPEED_DSP_DIM; x++) {
                const VECD cx = VD(set1)(c[x]);
                for (int y = 0; y <= x; y += LANES_D) {
                    const VECD product = VD(mul)(cx, VD(load)(c + y));
                    VD(store)(acc[x] + y, VD(add)(VD(load)(acc[x] + y), product));
                }
            }
        }
    }
    double *s = sums;
    for (int x = 0; x < SPEED_DSP_DIM; x++)
        for (int y = 0; y <= x; y++) *s++ = acc[x][y];
}

/* LANES entries of a row of out a step, each a chain over k in a register
 * (a product, then a sum, as in the C); b narrower than LANES goes to the
 * C. */
SPEED_MATRIX_PRODUCT(NAME(vqx_speed_matrix_product))
{
    if (cols < LANES) {
        vqx_speed_matrix_product_c(a, b, cols, out);
        return;
    }
    for (int i = 0; i < SPEED_DSP_DIM; i++) {
        const float *ai = a + i * SPEED_DSP_DIM;
        float *o = out + (size_t)i * cols;
        FOR_EACH_STEP(j, 0, cols, {
            VECF acc = VF(setzero)();
            for (int k = 0; k < SPEED_DSP_DIM; k++)
                acc = VF(add)(acc, VF(mul)(VF(set1)(ai[k]), VF(loadu)(b + (size_t)k * cols + j)));
            VF(storeu)(o + j, acc);
        });
    }
}

/* LANES floats a step; a row narrower than LANES goes to the C (out is
 * neither a nor b: the last step overlaps the one before). */
SPEED_DIFFERENCE(NAME(vqx_speed_difference))
{
    if (w < LANES) {
        vqx_speed_difference_c(out, a, b, stride, w, h);
        return;
    }
    for (unsigned y = 0; y < h; y++) {
        const float *ra = a + (ptrdiff_t)y * stride, *rb = b + (ptrdiff_t)y * stride;
        float *ro = out + (ptrdiff_t)y * stride;
        FOR_EACH_STEP(x, 0, w, VF(storeu)(ro + x, VF(sub)(VF(loadu)(ra + x), VF(loadu)(rb + x))););
    }
}

#endif
