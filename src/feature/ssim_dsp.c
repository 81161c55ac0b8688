/* The SSIM DSP table: the scalar C entries (the definition of every value,
 * libvmaf's iqa arithmetic operation for operation: ssim_pixel.h's
 * statements, which the CUDA twins run too) and the dispatch. */
#include "feature/ssim_dsp.h"

#if VQX_ARCH_X86
#include "x86/ssim.h"
#endif

const float vqx_ssim_gauss[VQX_SSIM_WINDOW] = { VQX_SSIM_GAUSS_TAPS };
const float vqx_ssim_lpf[VQX_SSIM_LPF_RADIUS + 1][VQX_SSIM_LPF_RADIUS + 1] = {
    VQX_SSIM_LPF_TAPS
};
const float vqx_ssim_c1 = VQX_SSIM_C1;
const float vqx_ssim_c2 = VQX_SSIM_C2;
const float vqx_ssim_c3 = VQX_SSIM_C3;

SSIM_FILTER(vqx_ssim_filter_c)
{
    for (unsigned x = 0; x < n; x++) out[x] = vqx_ssim_gauss_sum(rows, x);
}

SSIM_SCORE(vqx_ssim_score_c)
{
    for (unsigned x = 0; x < n; x++) {
        float stats[VQX_SSIM_N_STATS];
        for (unsigned q = 0; q < VQX_SSIM_N_STATS; q++) stats[q] = st[q][x];
        double t[VQX_SSIM_N_TERMS];
        vqx_ssim_terms(stats, t);
        for (unsigned k = 0; k < VQX_SSIM_N_SUMS; k++) sums[k] += vqx_ssim_sum_term(t, k);
    }
}

SSIM_BOX_ROW(vqx_ssim_box_row_c)
{
    const unsigned dw = vqx_ssim_decimated(w, factor);
    for (unsigned x = 0; x < dw; x++) out[x] = vqx_ssim_box_sample(rows, w, factor, x);
}

SSIM_LPF_DECIMATE(vqx_ssim_lpf_decimate_c)
{
    const unsigned dw = vqx_ssim_decimated(w, 2), dh = vqx_ssim_decimated(h, 2);
    for (unsigned y = 0; y < dh; y++) {
        const float *rows[2 * VQX_SSIM_LPF_RADIUS + 1];
        vqx_ssim_lpf_rows(src, src_stride, h, y, rows);
        for (unsigned x = 0; x < dw; x++)
            dst[(ptrdiff_t)y * dst_stride + x] = vqx_ssim_lpf_sample(rows, w, x);
    }
}

void vqx_ssim_dsp_init(SsimDSPContext *c, unsigned cpu_flags)
{
    c->filter = vqx_ssim_filter_c;
    c->score = vqx_ssim_score_c;
    c->box_row = vqx_ssim_box_row_c;
    c->lpf_decimate = vqx_ssim_lpf_decimate_c;
#if VQX_ARCH_X86
    vqx_ssim_dsp_init_x86(c, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
