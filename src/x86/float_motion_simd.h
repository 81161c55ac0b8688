/*
 * Float motion's blur at one vector width: included by float_motion_avx2.c
 * and float_motion_avx512.c, which first define
 *   VECF, LANES         the float vector type and its lanes
 *   VF(op)              the intrinsic _mm<bits>_op_ps (add, mul, ...)
 *   NAME(f)             f with the ISA's suffix
 * Each output is the C's sum, tap by tap from 0, with the same float
 * products and additions (no fused multiply-add): LANES outputs a step. A
 * row narrower than LANES goes to the C; a wider one ends with a step that
 * overlaps the one before and writes its outputs again, unchanged.
 */
#ifndef VQX_X86_FLOAT_MOTION_SIMD_H
#define VQX_X86_FLOAT_MOTION_SIMD_H

#include "x86/float_motion.h"

FLOAT_MOTION_BLUR_COLUMNS(NAME(vqx_float_motion_blur_columns))
{
    if (w < LANES) return vqx_float_motion_blur_columns_c(taps, n_taps, rows, w, mid);
    VECF t[FLOAT_MOTION_MAX_TAPS];
    for (int k = 0; k < n_taps; k++) t[k] = VF(set1)(taps[k]);
    for (int x = 0;; x += LANES) {
        if (x > w - LANES) x = w - LANES;
        VECF acc = VF(setzero)();
        for (int k = 0; k < n_taps; k++) acc = VF(add)(acc, VF(mul)(t[k], VF(loadu)(rows[k] + x)));
        VF(storeu)(mid + x, acc);
        if (x == w - LANES) break;
    }
}

FLOAT_MOTION_BLUR_ROW(NAME(vqx_float_motion_blur_row))
{
    if (w < LANES) return vqx_float_motion_blur_row_c(taps, n_taps, mid, w, out);
    const int radius = n_taps / 2;
    VECF t[FLOAT_MOTION_MAX_TAPS];
    for (int k = 0; k < n_taps; k++) t[k] = VF(set1)(taps[k]);
    for (int x = 0;; x += LANES) {
        if (x > w - LANES) x = w - LANES;
        VECF acc = VF(setzero)();
        for (int k = 0; k < n_taps; k++)
            acc = VF(add)(acc, VF(mul)(t[k], VF(loadu)(mid + x - radius + k)));
        VF(storeu)(out + x, acc);
        if (x == w - LANES) break;
    }
}

#endif
