/* Float PSNR's x86 entries (float_psnr_avx2.c, float_psnr_avx512.c, each
 * built with its own -m flags) and where they replace the C. */
#ifndef VQX_X86_FLOAT_PSNR_H
#define VQX_X86_FLOAT_PSNR_H

#include "cpu.h"
#include "feature/float_psnr_dsp.h"

FLOAT_PSNR_ROW_NOISE(vqx_float_psnr_row_noise_avx2);
FLOAT_PSNR_ROW_NOISE(vqx_float_psnr_row_noise_avx512);

static inline void vqx_float_psnr_dsp_init_x86(FloatPsnrDSPContext *c, unsigned flags)
{
    if (flags & VQX_CPU_AVX2) c->row_noise = vqx_float_psnr_row_noise_avx2;
    if (flags & VQX_CPU_AVX512) c->row_noise = vqx_float_psnr_row_noise_avx512;
}

#endif
