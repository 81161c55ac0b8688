/*
 * Float motion's DSP table (as MotionDSPContext, feature/motion_dsp.h): the
 * blur's two passes and the rows' absolute differences, pure functions on
 * rows of floats, filled with the scalar C (float_motion_dsp.c) and then
 * overridden by the SIMD versions the CPU flags allow (src/x86/). Every
 * entry gives the C's floats bit for bit; tests/checkasm/float_motion.c
 * compares them.
 */
#ifndef VQX_FEATURE_FLOAT_MOTION_DSP_H
#define VQX_FEATURE_FLOAT_MOTION_DSP_H

#include <stddef.h>

/* Taps of a blur: 3 or 5. */
#define FLOAT_MOTION_MAX_TAPS 5

/* mid[x], x in [0, w): the sum from 0 over k < n_taps, in k order, of
 * taps[k] * rows[k][x]. */
#define FLOAT_MOTION_BLUR_COLUMNS(name) \
    void name(const float *taps, int n_taps, const float *const rows[FLOAT_MOTION_MAX_TAPS], \
              int w, float *mid)
/* out[x], x in [0, w): the same sum over mid[x - n_taps / 2 + k], whose
 * n_taps / 2 entries each side of [0, w) are already mirrored. */
#define FLOAT_MOTION_BLUR_ROW(name) \
    void name(const float *taps, int n_taps, const float *mid, int w, float *out)
/* line[r], r in [0, n): the sum from 0 over x in order of |a - b| along row
 * r of a and b (rows `stride` floats apart), in float as libvmaf adds. */
#define FLOAT_MOTION_ROW_SADS(name) \
    void name(const float *a, const float *b, ptrdiff_t stride, int w, int n, float *line)

typedef FLOAT_MOTION_BLUR_COLUMNS((*FloatMotionBlurColumnsFn));
typedef FLOAT_MOTION_BLUR_ROW((*FloatMotionBlurRowFn));
typedef FLOAT_MOTION_ROW_SADS((*FloatMotionRowSadsFn));

typedef struct FloatMotionDSPContext {
    FloatMotionBlurColumnsFn blur_columns;
    FloatMotionBlurRowFn blur_row;
    FloatMotionRowSadsFn row_sads;
} FloatMotionDSPContext;

/* The table with the SIMD entries that `cpu_flags` (cpu.h, already masked)
 * allow; 0: the scalar C alone. */
void vqx_float_motion_dsp_init(FloatMotionDSPContext *c, unsigned cpu_flags);

FLOAT_MOTION_BLUR_COLUMNS(vqx_float_motion_blur_columns_c);
FLOAT_MOTION_BLUR_ROW(vqx_float_motion_blur_row_c);
FLOAT_MOTION_ROW_SADS(vqx_float_motion_row_sads_c);

#endif
