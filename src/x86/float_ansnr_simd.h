/*
 * Float ANSNR's filter at one vector width: included by float_ansnr_avx2.c
 * and float_ansnr_avx512.c, which first define
 *   VECF, LANES         the float vector type and its lanes
 *   VF(op)              the intrinsic _mm<bits>_op_ps (add, mul, ...)
 *   NAME(f)             f with the ISA's suffix
 * Each output is the C's sum, tap row by tap row and tap by tap from 0,
 * with the same float products and additions (no fused multiply-add):
 * LANES outputs a step. A row narrower than LANES goes to the C; a wider
 * one ends with a step that overlaps the one before and writes its outputs
 * again, unchanged.
 */
#ifndef VQX_X86_FLOAT_ANSNR_SIMD_H
#define VQX_X86_FLOAT_ANSNR_SIMD_H

#include "x86/float_ansnr.h"

/* Outputs x .. x + LANES - 1. */
ALWAYS_INLINE VECF NAME(filter_at)(const VECF *taps, const int n,
                                   const float *const rows[FLOAT_ANSNR_MAX_TAPS], int x)
{
    VECF acc = VF(setzero)();
    for (int i = 0; i < n; i++) {
        VECF inner = VF(setzero)();
        for (int j = 0; j < n; j++)
            inner = VF(add)(inner, VF(mul)(taps[i * n + j], VF(loadu)(rows[i] + x - n / 2 + j)));
        acc = VF(add)(acc, inner);
    }
    return acc;
}

/* n as a constant once inlined, so that the taps' loops unroll; two steps
 * at a time, whose chains of additions overlap. */
ALWAYS_INLINE void NAME(filter_taps)(const float *filter, const int n,
                                     const float *const rows[FLOAT_ANSNR_MAX_TAPS], int w,
                                     float *out)
{
    VECF taps[FLOAT_ANSNR_MAX_TAPS * FLOAT_ANSNR_MAX_TAPS];
    for (int k = 0; k < n * n; k++) taps[k] = VF(set1)(filter[k]);
    int x = 0;
    for (; x + 2 * LANES <= w; x += 2 * LANES) {
        const VECF a = NAME(filter_at)(taps, n, rows, x);
        const VECF b = NAME(filter_at)(taps, n, rows, x + LANES);
        VF(storeu)(out + x, a);
        VF(storeu)(out + x + LANES, b);
    }
    if (x < w) {
        x = x + LANES <= w ? x : w - LANES;
        VF(storeu)(out + x, NAME(filter_at)(taps, n, rows, x));
        if (x + LANES < w) VF(storeu)(out + w - LANES, NAME(filter_at)(taps, n, rows, w - LANES));
    }
}

FLOAT_ANSNR_FILTER_ROW(NAME(vqx_float_ansnr_filter_row))
{
    if (w < LANES || (n != 3 && n != 5))
        return vqx_float_ansnr_filter_row_c(filter, n, rows, w, out);
    if (n == 5) NAME(filter_taps)(filter, 5, rows, w, out);
    else NAME(filter_taps)(filter, 3, rows, w, out);
}

#endif
