/*
 * The resampler's rows at one vector width: included by resample_avx2.c
 * and resample_avx512.c, which first define
 *   VECF, VECI, LANES     the float and int32 vector types and their lanes
 *   VF(op), VI(op)        the intrinsics _mm<bits>_op_ps and _op_epi32
 *   LOAD_I(p)             LANES int32 from p
 *   GATHER_F(base, i)     base[i] per lane, floats; GATHER_I likewise, int32
 *   LANE_INDEX            0, 1, ... LANES - 1
 *   NAME(f)               f with the ISA's suffix
 * Lane l computes output x + l with the C's expression for it: the source
 * indices and column weights of its window are gathered from the axis
 * tables, the samples from the rows, and the products and sums are the
 * C's, in its order (no fused multiply-add; the division is IEEE's). A row
 * narrower than LANES goes to the C; the steps are steps.h's.
 */
#ifndef VQX_X86_RESAMPLE_SIMD_H
#define VQX_X86_RESAMPLE_SIMD_H

#include <stdbool.h>

#include "x86/resample.h"
#include "x86/steps.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

RESAMPLE_ROW(NAME(vqx_resample_row_nearest))
{
    if (dst_w < LANES) {
        vqx_resample_row_nearest_c(rows, wy, cols, dst_w, out);
        return;
    }
    FOR_EACH_STEP(x, 0, dst_w, VF(storeu)(out + x, GATHER_F(rows[0], LOAD_I(cols->index + x))););
}

RESAMPLE_ROW(NAME(vqx_resample_row_bilinear))
{
    if (dst_w < LANES) {
        vqx_resample_row_bilinear_c(rows, wy, cols, dst_w, out);
        return;
    }
    const VECF wy0 = VF(set1)(wy[0]), wy1 = VF(set1)(wy[1]);
    const VECI pairs = VI(add)(LANE_INDEX, LANE_INDEX); /* 2 l: lane l's pair in the axis */
    FOR_EACH_STEP(x, 0, dst_w,
        const VECI p0 = VI(add)(pairs, VI(set1)((int)(2 * x))), p1 = VI(add)(p0, VI(set1)(1));
        const VECI x1 = GATHER_I(cols->index, p0), x2 = GATHER_I(cols->index, p1);
        const VECF wx0 = GATHER_F(cols->weight, p0), wx1 = GATHER_F(cols->weight, p1);
        VECF v = VF(mul)(VF(mul)(wy0, wx0), GATHER_F(rows[0], x1));
        v = VF(add)(v, VF(mul)(VF(mul)(wy0, wx1), GATHER_F(rows[0], x2)));
        v = VF(add)(v, VF(mul)(VF(mul)(wy1, wx0), GATHER_F(rows[1], x1)));
        v = VF(add)(v, VF(mul)(VF(mul)(wy1, wx1), GATHER_F(rows[1], x2)));
        VF(storeu)(out + x, v);
    );
}

/* bicubic and lanczos4: nt taps, a constant once inlined. */
ALWAYS_INLINE void NAME(window_row)(const float *const rows[], const float *wy,
                                    const VqxResampleAxis *cols, unsigned dst_w, float *out,
                                    unsigned nt, bool normalise)
{
    const VECI windows = VI(mullo)(LANE_INDEX, VI(set1)((int)nt)); /* nt l: lane l's window */
    FOR_EACH_STEP(x, 0, dst_w,
        VECI cx[VQX_RESAMPLE_MAX_TAPS];
        VECF wx[VQX_RESAMPLE_MAX_TAPS];
        for (unsigned tx = 0; tx < nt; tx++) {
            const VECI p = VI(add)(windows, VI(set1)((int)(x * nt + tx)));
            cx[tx] = GATHER_I(cols->index, p);
            wx[tx] = GATHER_F(cols->weight, p);
        }
        VECF value = VF(setzero)(), weight_sum = VF(setzero)();
        for (unsigned ty = 0; ty < nt; ty++) {
            const VECF w_row = VF(set1)(wy[ty]);
            for (unsigned tx = 0; tx < nt; tx++) {
                const VECF weight = VF(mul)(wx[tx], w_row);
                if (normalise) weight_sum = VF(add)(weight_sum, weight);
                value = VF(add)(value, VF(mul)(GATHER_F(rows[ty], cx[tx]), weight));
            }
        }
        VF(storeu)(out + x, normalise ? VF(div)(value, weight_sum) : value);
    );
}

RESAMPLE_ROW(NAME(vqx_resample_row_bicubic))
{
    if (dst_w < LANES) vqx_resample_row_bicubic_c(rows, wy, cols, dst_w, out);
    else NAME(window_row)(rows, wy, cols, dst_w, out, 4, false);
}

RESAMPLE_ROW(NAME(vqx_resample_row_lanczos4))
{
    if (dst_w < LANES) vqx_resample_row_lanczos4_c(rows, wy, cols, dst_w, out);
    else NAME(window_row)(rows, wy, cols, dst_w, out, VQX_RESAMPLE_MAX_TAPS, true);
}

#endif
