/* The resampler's x86 row entries (resample_avx2.c, resample_avx512.c,
 * each built with its own -m flags) and where they replace the C. */
#ifndef VQX_X86_RESAMPLE_H
#define VQX_X86_RESAMPLE_H

#include "cpu.h"
#include "feature/resample.h"

RESAMPLE_ROW(vqx_resample_row_nearest_avx2);
RESAMPLE_ROW(vqx_resample_row_bilinear_avx2);
RESAMPLE_ROW(vqx_resample_row_bicubic_avx2);
RESAMPLE_ROW(vqx_resample_row_lanczos4_avx2);
RESAMPLE_ROW(vqx_resample_row_nearest_avx512);
RESAMPLE_ROW(vqx_resample_row_bilinear_avx512);
RESAMPLE_ROW(vqx_resample_row_bicubic_avx512);
RESAMPLE_ROW(vqx_resample_row_lanczos4_avx512);

static inline void vqx_resample_dsp_init_x86(ResampleDSPContext *c, unsigned flags)
{
    if (flags & VQX_CPU_AVX2) {
        c->row[VQX_RESAMPLE_NEAREST] = vqx_resample_row_nearest_avx2;
        c->row[VQX_RESAMPLE_BILINEAR] = vqx_resample_row_bilinear_avx2;
        c->row[VQX_RESAMPLE_BICUBIC] = vqx_resample_row_bicubic_avx2;
        c->row[VQX_RESAMPLE_LANCZOS4] = vqx_resample_row_lanczos4_avx2;
    }
    if (flags & VQX_CPU_AVX512) {
        c->row[VQX_RESAMPLE_NEAREST] = vqx_resample_row_nearest_avx512;
        c->row[VQX_RESAMPLE_BILINEAR] = vqx_resample_row_bilinear_avx512;
        c->row[VQX_RESAMPLE_BICUBIC] = vqx_resample_row_bicubic_avx512;
        c->row[VQX_RESAMPLE_LANCZOS4] = vqx_resample_row_lanczos4_avx512;
    }
}

#endif
