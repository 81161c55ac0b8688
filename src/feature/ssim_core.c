#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "feature/ssim_core.h"

int vqx_ssim_scratch_init(VqxSsimScratch *s, unsigned max_w, unsigned cpu_flags)
{
    const size_t ow = max_w - (VQX_SSIM_WINDOW - 1);
    s->max_w = max_w;
    s->products = malloc(3 * (size_t)max_w * sizeof(float));
    s->ring = malloc(VQX_SSIM_N_STATS * VQX_SSIM_WINDOW * ow * sizeof(float));
    s->stats = malloc(VQX_SSIM_N_STATS * ow * sizeof(float));
    vqx_ssim_dsp_init(&s->dsp, cpu_flags);
    if (!s->products || !s->ring || !s->stats) {
        vqx_ssim_scratch_free(s);
        return -ENOMEM;
    }
    return 0;
}

void vqx_ssim_scratch_free(VqxSsimScratch *s)
{
    free(s->products);
    free(s->ring);
    free(s->stats);
    *s = (VqxSsimScratch){ 0 };
}

void vqx_ssim_plane(VqxSsimScratch *s, const float *ref, const float *cmp,
                    ptrdiff_t stride, unsigned w, unsigned h, VqxSsimMeans *out)
{
    const SsimDSPContext *dsp = &s->dsp;
    const unsigned ow = w - (VQX_SSIM_WINDOW - 1);
    float *const sq_ref = s->products;
    float *const sq_cmp = sq_ref + s->max_w;
    float *const cross = sq_cmp + s->max_w;
    const size_t ring_w = s->max_w - (VQX_SSIM_WINDOW - 1);
    double sums[VQX_SSIM_N_SUMS] = { 0 };

    for (unsigned y = 0; y < h; y++) {
        const float *r = ref + (ptrdiff_t)y * stride;
        const float *c = cmp + (ptrdiff_t)y * stride;
        for (unsigned x = 0; x < w; x++) {
            float q[VQX_SSIM_N_STATS];
            vqx_ssim_inputs(r[x], c[x], q);
            sq_ref[x] = q[VQX_SSIM_SQ_REF];
            sq_cmp[x] = q[VQX_SSIM_SQ_CMP];
            cross[x] = q[VQX_SSIM_CROSS];
        }
        const float *const in[VQX_SSIM_N_STATS] = { r, c, sq_ref, sq_cmp, cross };
        const unsigned slot = y % VQX_SSIM_WINDOW;
        for (unsigned q = 0; q < VQX_SSIM_N_STATS; q++) {
            const float *shifted[VQX_SSIM_WINDOW];
            for (unsigned k = 0; k < VQX_SSIM_WINDOW; k++) shifted[k] = in[q] + k;
            dsp->filter(shifted, ow, s->ring + (q * VQX_SSIM_WINDOW + slot) * ring_w);
        }

        if (y < VQX_SSIM_WINDOW - 1) continue;
        const unsigned top = y - (VQX_SSIM_WINDOW - 1);
        const float *st[VQX_SSIM_N_STATS];
        for (unsigned q = 0; q < VQX_SSIM_N_STATS; q++) {
            const float *rows[VQX_SSIM_WINDOW];
            for (unsigned k = 0; k < VQX_SSIM_WINDOW; k++)
                rows[k] = s->ring + (q * VQX_SSIM_WINDOW + (top + k) % VQX_SSIM_WINDOW) * ring_w;
            float *dst = s->stats + q * ring_w;
            dsp->filter(rows, ow, dst);
            st[q] = dst;
        }
        dsp->score(st, ow, sums);
    }

    vqx_ssim_means(sums, w, h, out);
}

void vqx_ssim_means(const double sums[VQX_SSIM_N_SUMS], unsigned w, unsigned h,
                    VqxSsimMeans *out)
{
    const double n = (double)((w - (VQX_SSIM_WINDOW - 1)) * (h - (VQX_SSIM_WINDOW - 1)));
    out->ssim = (float)(sums[VQX_SSIM_SUM_SSIM] / n);
    out->l = (float)(sums[VQX_SSIM_SUM_L] / n);
    out->c = (float)(sums[VQX_SSIM_SUM_C] / n);
    out->s = (float)(sums[VQX_SSIM_SUM_S] / n);
}

double vqx_ssim_max_db(unsigned bpc, unsigned w, unsigned h, int clip)
{
    if (!clip) return INFINITY;
    const unsigned peak = (1u << bpc) - 1;
    const double mse = 0.5 / (w * h);
    return ceil(10. * log10(peak * peak / mse));
}

double vqx_ssim_to_db(double score, double max_db)
{
    const double db = -10. * log10(1 - score);
    return db < max_db ? db : max_db;
}
