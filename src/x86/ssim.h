/* The SSIM table's x86 entries (ssim_avx2.c, ssim_avx512.c, each built
 * with its own -m flags) and where they replace the C. */
#ifndef VQX_X86_SSIM_H
#define VQX_X86_SSIM_H

#include "cpu.h"
#include "feature/ssim_dsp.h"

SSIM_FILTER(vqx_ssim_filter_avx2);
SSIM_SCORE(vqx_ssim_score_avx2);
SSIM_BOX_ROW(vqx_ssim_box_row_avx2);
SSIM_LPF_DECIMATE(vqx_ssim_lpf_decimate_avx2);

SSIM_FILTER(vqx_ssim_filter_avx512);
SSIM_SCORE(vqx_ssim_score_avx512);
SSIM_BOX_ROW(vqx_ssim_box_row_avx512);
SSIM_LPF_DECIMATE(vqx_ssim_lpf_decimate_avx512);

static inline void vqx_ssim_dsp_init_x86(SsimDSPContext *c, unsigned flags)
{
    if (flags & VQX_CPU_AVX2) {
        c->filter = vqx_ssim_filter_avx2;
        c->score = vqx_ssim_score_avx2;
        c->box_row = vqx_ssim_box_row_avx2;
        c->lpf_decimate = vqx_ssim_lpf_decimate_avx2;
    }
    if (flags & VQX_CPU_AVX512) {
        c->filter = vqx_ssim_filter_avx512;
        c->score = vqx_ssim_score_avx512;
        c->box_row = vqx_ssim_box_row_avx512;
        c->lpf_decimate = vqx_ssim_lpf_decimate_avx512;
    }
}

#endif
