/* PSNR's x86 entries (psnr_avx2.c, psnr_avx512.c, each built with its own
 * -m flags) and where they replace the C. */
#ifndef VQX_X86_PSNR_H
#define VQX_X86_PSNR_H

#include "cpu.h"
#include "feature/psnr_dsp.h"

PSNR_ROW_SSE(vqx_psnr_row_sse_8bpc_avx2);
PSNR_ROW_SSE(vqx_psnr_row_sse_16bpc_avx2);
PSNR_ROW_SSE(vqx_psnr_row_sse_8bpc_avx512);
PSNR_ROW_SSE(vqx_psnr_row_sse_16bpc_avx512);

static inline void vqx_psnr_dsp_init_x86(PsnrDSPContext *c, unsigned bpc, unsigned flags)
{
    if (flags & VQX_CPU_AVX2)
        c->row_sse = bpc == 8 ? vqx_psnr_row_sse_8bpc_avx2 : vqx_psnr_row_sse_16bpc_avx2;
    if (flags & VQX_CPU_AVX512)
        c->row_sse = bpc == 8 ? vqx_psnr_row_sse_8bpc_avx512 : vqx_psnr_row_sse_16bpc_avx512;
}

#endif
