/* Integer ADM's x86 entries (adm_avx2.c, adm_avx512.c, each built with its
 * own -m flags) and where they replace the C in the table. */
#ifndef VQX_X86_ADM_H
#define VQX_X86_ADM_H

#include "cpu.h"
#include "feature/adm_dsp.h"

ADM_DWT_VERTICAL_16(vqx_adm_dwt_vertical_16_avx2);
ADM_DWT_HORIZONTAL_16(vqx_adm_dwt_horizontal_16_avx2);
ADM_DWT_VERTICAL_32(vqx_adm_dwt_vertical_32_avx2);
ADM_DWT_HORIZONTAL_32(vqx_adm_dwt_horizontal_32_avx2);

ADM_DWT_VERTICAL_16(vqx_adm_dwt_vertical_16_avx512);
ADM_DWT_HORIZONTAL_16(vqx_adm_dwt_horizontal_16_avx512);
ADM_DWT_VERTICAL_32(vqx_adm_dwt_vertical_32_avx512);
ADM_DWT_HORIZONTAL_32(vqx_adm_dwt_horizontal_32_avx512);

static inline void vqx_adm_dsp_init_x86(AdmDSPContext *c, unsigned flags)
{
    if (flags & VQX_CPU_AVX2) {
        c->dwt_vertical_16 = vqx_adm_dwt_vertical_16_avx2;
        c->dwt_horizontal_16 = vqx_adm_dwt_horizontal_16_avx2;
        c->dwt_vertical_32 = vqx_adm_dwt_vertical_32_avx2;
        c->dwt_horizontal_32 = vqx_adm_dwt_horizontal_32_avx2;
    }
    if (flags & VQX_CPU_AVX512) {
        c->dwt_vertical_16 = vqx_adm_dwt_vertical_16_avx512;
        c->dwt_horizontal_16 = vqx_adm_dwt_horizontal_16_avx512;
        c->dwt_vertical_32 = vqx_adm_dwt_vertical_32_avx512;
        c->dwt_horizontal_32 = vqx_adm_dwt_horizontal_32_avx512;
    }
}

#endif
