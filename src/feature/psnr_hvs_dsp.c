/* psnr_hvs's DSP table: the scalar C of a row of blocks (each block's work
 * is psnr_hvs_block.h's, which the CUDA twin runs too) and of the plane's
 * sum, and the dispatch. */
#include <stdint.h>

#include "feature/psnr_hvs_block.h"
#include "feature/psnr_hvs_dsp.h"

#if VQX_ARCH_X86
#include "x86/psnr_hvs.h"
#endif

PSNR_HVS_BLOCK_TERMS(vqx_psnr_hvs_block_terms)
{
    const ptrdiff_t step = PSNR_HVS_STEP * (bpc > 8 ? 2 : 1);
    for (unsigned b = 0; b < n; b++, terms += PSNR_HVS_TERMS)
        vqx_psnr_hvs_block((const uint8_t *)ref + b * step, ref_stride,
                           (const uint8_t *)dis + b * step, dis_stride, bpc, weight_t, mask_t,
                           terms);
}

PSNR_HVS_ACCUMULATE(vqx_psnr_hvs_accumulate)
{
    for (size_t k = 0; k < n; k++) total += terms[k];
    return total;
}

void vqx_psnr_hvs_dsp_init(PsnrHvsDSPContext *c, unsigned bpc, unsigned cpu_flags)
{
    c->block_terms = vqx_psnr_hvs_block_terms;
    c->accumulate = vqx_psnr_hvs_accumulate;
#if VQX_ARCH_X86
    vqx_psnr_hvs_dsp_init_x86(c, bpc, cpu_flags);
#else
    (void)bpc;
    (void)cpu_flags;
#endif
}
