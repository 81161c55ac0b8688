/* PSNR's DSP table: the dispatch (the C entries are psnr_tmpl.c's). */
#include "feature/psnr.h"
#include "feature/psnr_dsp.h"

#if VQX_ARCH_X86
#include "x86/psnr.h"
#endif

void vqx_psnr_dsp_init(PsnrDSPContext *c, unsigned bpc, unsigned cpu_flags)
{
    c->row_sse = bpc == 8 ? vqx_row_sse_8bpc : vqx_row_sse_16bpc;
#if VQX_ARCH_X86
    vqx_psnr_dsp_init_x86(c, bpc, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
