/*
 * Integer motion's DSP table (as VifDSPContext, feature/vif_dsp.h): the
 * blur's two passes as pure functions on buffers and strides, filled with
 * the scalar C (motion_tmpl.c per bit depth, motion.c) and then overridden
 * by the SIMD versions the CPU flags allow (src/x86/). Every entry gives
 * the C's result bit for bit; tests/checkasm/motion.c compares them.
 */
#ifndef VQX_FEATURE_MOTION_DSP_H
#define VQX_FEATURE_MOTION_DSP_H

#include <stddef.h>
#include <stdint.h>

/* Row y of prev - cur blurred down the columns into mid[0..w), rows mirrored
 * at the plane's ends (w, h >= 3); returns the OR of the w values. */
#define MOTION_BLUR_COLUMNS(name) \
    int32_t name(const void *prev, ptrdiff_t prev_stride, const void *cur, \
                 ptrdiff_t cur_stride, unsigned y, unsigned w, unsigned h, unsigned bpc, \
                 int32_t *mid)
/* Sum of |blur along the row| of mid[0..w), modulo 2^32; mirrors mid into
 * its VQX_MOTION_RADIUS margins first (w >= 3). The values are the column
 * pass's, so |mid[x]| <= 65535 (the SIMD entries rely on it). */
#define MOTION_ROW_SAD(name) uint32_t name(int32_t *mid, unsigned w)

typedef MOTION_BLUR_COLUMNS((*MotionBlurColumnsFn));
typedef MOTION_ROW_SAD((*MotionRowSadFn));

typedef struct MotionDSPContext {
    MotionBlurColumnsFn blur_columns; /* over the picture's samples */
    MotionRowSadFn row_sad;
} MotionDSPContext;

/* The table for pictures of `bpc` bits, with the SIMD entries that
 * `cpu_flags` (cpu.h, already masked) allow; 0: the scalar C alone. */
void vqx_motion_dsp_init(MotionDSPContext *c, unsigned bpc, unsigned cpu_flags);

/* Sum over the plane of |blur(prev - cur)| through the table. `row` holds
 * w + 2 * VQX_MOTION_RADIUS values. */
uint64_t vqx_motion_plane_sad(const MotionDSPContext *c, const void *prev,
                              ptrdiff_t prev_stride, const void *cur, ptrdiff_t cur_stride,
                              int32_t *row, unsigned w, unsigned h, unsigned bpc);

#endif
