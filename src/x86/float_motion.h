/* Float motion's x86 entries (float_motion_avx2.c, float_motion_avx512.c,
 * each built with its own -m flags) and where they replace the C. */
#ifndef VQX_X86_FLOAT_MOTION_H
#define VQX_X86_FLOAT_MOTION_H

#include "cpu.h"
#include "feature/float_motion_dsp.h"

FLOAT_MOTION_BLUR_COLUMNS(vqx_float_motion_blur_columns_avx2);
FLOAT_MOTION_BLUR_ROW(vqx_float_motion_blur_row_avx2);
FLOAT_MOTION_ROW_SADS(vqx_float_motion_row_sads_avx2);

FLOAT_MOTION_BLUR_COLUMNS(vqx_float_motion_blur_columns_avx512);
FLOAT_MOTION_BLUR_ROW(vqx_float_motion_blur_row_avx512);

static inline void vqx_float_motion_dsp_init_x86(FloatMotionDSPContext *c, unsigned flags)
{
    if (flags & VQX_CPU_AVX2) {
        c->blur_columns = vqx_float_motion_blur_columns_avx2;
        c->blur_row = vqx_float_motion_blur_row_avx2;
        c->row_sads = vqx_float_motion_row_sads_avx2;
    }
    /* the row sums run across 8 rows, which AVX2 already does */
    if (flags & VQX_CPU_AVX512) {
        c->blur_columns = vqx_float_motion_blur_columns_avx512;
        c->blur_row = vqx_float_motion_blur_row_avx512;
    }
}

#endif
