/* psnr_hvs's x86 entries (psnr_hvs_avx2.c, psnr_hvs_avx512.c, each built
 * with its own -m flags) and where they replace the C in the table. */
#ifndef VQX_X86_PSNR_HVS_H
#define VQX_X86_PSNR_HVS_H

#include "cpu.h"
#include "feature/psnr_hvs_dsp.h"

PSNR_HVS_BLOCK_TERMS(vqx_psnr_hvs_block_terms_8bpc_avx2);
PSNR_HVS_BLOCK_TERMS(vqx_psnr_hvs_block_terms_16bpc_avx2);
PSNR_HVS_ACCUMULATE(vqx_psnr_hvs_accumulate_avx2);

PSNR_HVS_BLOCK_TERMS(vqx_psnr_hvs_block_terms_8bpc_avx512);
PSNR_HVS_BLOCK_TERMS(vqx_psnr_hvs_block_terms_16bpc_avx512);
PSNR_HVS_ACCUMULATE(vqx_psnr_hvs_accumulate_avx512);

static inline void vqx_psnr_hvs_dsp_init_x86(PsnrHvsDSPContext *c, unsigned bpc, unsigned flags)
{
    /* the SIMD DCT is the 32-bit one; deeper input keeps the C's 64-bit DCT */
    const int narrow = bpc <= PSNR_HVS_NARROW_MAX_BPC;
    if (flags & VQX_CPU_AVX2) {
        if (narrow)
            c->block_terms = bpc == 8 ? vqx_psnr_hvs_block_terms_8bpc_avx2
                                      : vqx_psnr_hvs_block_terms_16bpc_avx2;
        c->accumulate = vqx_psnr_hvs_accumulate_avx2;
    }
    if (flags & VQX_CPU_AVX512) {
        if (narrow)
            c->block_terms = bpc == 8 ? vqx_psnr_hvs_block_terms_8bpc_avx512
                                      : vqx_psnr_hvs_block_terms_16bpc_avx512;
        c->accumulate = vqx_psnr_hvs_accumulate_avx512;
    }
}

#endif
