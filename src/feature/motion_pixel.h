/*
 * Integer motion's per-sample statements, in libvmaf 3.2's integer_motion
 * fixed point, compiled by nvcc too: the scalar C (motion_tmpl.c,
 * motion_dsp.c) and the CUDA kernel (src/cuda/motion_kernels.cu) run them.
 * Borders mirror without repeating the edge sample (hostdev.h's
 * vqx_reflect101).
 */
#ifndef VQX_FEATURE_MOTION_PIXEL_H
#define VQX_FEATURE_MOTION_PIXEL_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "hostdev.h"

#include "feature/motion_taps.h"

/* The initializer of the C's array below and of the device's constant
 * array. */
#define VQX_MOTION_TAPS { VQX_MOTION_TAP_VALUES }

#ifndef __CUDACC__
static const int32_t vqx_motion_taps[VQX_MOTION_TAPS_N] = VQX_MOTION_TAPS;
#endif

/* The sample the blur runs on: the previous frame's minus the current's. */
VQX_HOSTDEV static inline int32_t vqx_motion_diff(uint32_t prev, uint32_t cur)
{
    return (int32_t)prev - (int32_t)cur;
}

/*
 * One output of the column pass: the taps on the differences d[k * step]
 * (k < VQX_MOTION_TAPS_N), summed in acc_t and rounded off `shift` bits (8,
 * or bpc above 8 bits: 8-bit-equivalent precision with 8 fractional bits).
 * 32-bit sums hold 8-bit samples' (|sum| <= 255 * 65536); 16-bit samples
 * need 64 (65535 * 65536 needs 33 bits).
 */
#define VQX_MOTION_COLUMN(name, acc_t) \
    VQX_HOSTDEV static inline int32_t name(const int32_t *taps, const int32_t *d, \
                                           ptrdiff_t step, int shift) \
    { \
        acc_t acc = 0; \
        for (int k = 0; k < VQX_MOTION_TAPS_N; k++) acc += taps[k] * (acc_t)d[k * step]; \
        return (int32_t)((acc + ((acc_t)1 << (shift - 1))) >> shift); \
    }
VQX_MOTION_COLUMN(vqx_motion_column_32, int32_t)
VQX_MOTION_COLUMN(vqx_motion_column_64, int64_t)
#undef VQX_MOTION_COLUMN

/* One output of the row pass as its term of the row's sum: |the taps on
 * m[k] (k < VQX_MOTION_TAPS_N), rounded off 16 bits|, as the unsigned word
 * libvmaf adds to the row's 32-bit (wrapping) sum. */
VQX_HOSTDEV static inline uint32_t vqx_motion_row_term(const int32_t *taps, const int32_t *m)
{
    int64_t acc = 0;
    for (int k = 0; k < VQX_MOTION_TAPS_N; k++) acc += (int64_t)taps[k] * m[k];
    return (uint32_t)abs((int32_t)((acc + (1 << 15)) >> 16));
}

#endif
