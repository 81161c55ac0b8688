/* Integer motion's x86 entries (motion_avx2.c, motion_avx512.c, each built
 * with its own -m flags) and where they replace the C in the table. */
#ifndef VQX_X86_MOTION_H
#define VQX_X86_MOTION_H

#include "cpu.h"
#include "feature/motion_dsp.h"

MOTION_BLUR_COLUMNS(vqx_motion_blur_columns_8bpc_avx2);
MOTION_BLUR_COLUMNS(vqx_motion_blur_columns_16bpc_avx2);
MOTION_ROW_SAD(vqx_motion_row_sad_avx2);

MOTION_BLUR_COLUMNS(vqx_motion_blur_columns_8bpc_avx512);
MOTION_BLUR_COLUMNS(vqx_motion_blur_columns_16bpc_avx512);
MOTION_ROW_SAD(vqx_motion_row_sad_avx512);

static inline void vqx_motion_dsp_init_x86(MotionDSPContext *c, unsigned bpc, unsigned flags)
{
    if (flags & VQX_CPU_AVX2) {
        c->blur_columns = bpc == 8 ? vqx_motion_blur_columns_8bpc_avx2
                                   : vqx_motion_blur_columns_16bpc_avx2;
        c->row_sad = vqx_motion_row_sad_avx2;
    }
    if (flags & VQX_CPU_AVX512) {
        c->blur_columns = bpc == 8 ? vqx_motion_blur_columns_8bpc_avx512
                                   : vqx_motion_blur_columns_16bpc_avx512;
        c->row_sad = vqx_motion_row_sad_avx512;
    }
}

#endif
