/* Float ANSNR's x86 entries (float_ansnr_avx2.c, float_ansnr_avx512.c,
 * each built with its own -m flags) and where they replace the C. */
#ifndef VQX_X86_FLOAT_ANSNR_H
#define VQX_X86_FLOAT_ANSNR_H

#include "cpu.h"
#include "feature/float_ansnr_dsp.h"

FLOAT_ANSNR_FILTER_ROW(vqx_float_ansnr_filter_row_avx2);
FLOAT_ANSNR_ROW_ENERGIES(vqx_float_ansnr_row_energies_avx2);

FLOAT_ANSNR_FILTER_ROW(vqx_float_ansnr_filter_row_avx512);

static inline void vqx_float_ansnr_dsp_init_x86(FloatAnsnrDSPContext *c, unsigned flags)
{
    if (flags & VQX_CPU_AVX2) {
        c->filter_row = vqx_float_ansnr_filter_row_avx2;
        c->row_energies = vqx_float_ansnr_row_energies_avx2;
    }
    /* the energies run across 8 rows, which AVX2 already does */
    if (flags & VQX_CPU_AVX512) c->filter_row = vqx_float_ansnr_filter_row_avx512;
}

#endif
