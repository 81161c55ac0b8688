/* CAMBI's DSP table: the scalar C of the row stages and the dispatch. */
#include <string.h>

#include "feature/cambi.h"
#include "feature/top_mean.h"

#if VQX_ARCH_X86
#include "x86/cambi.h"
#endif

CAMBI_FLAT_ROW(vqx_cambi_flat_row_c)
{
    if (below) {
        for (unsigned x = 0; x + 1 < w; x++)
            out[x] = (row[x] == row[x + 1]) & (row[x] == below[x]);
        out[w - 1] = row[w - 1] == below[w - 1];
    } else {
        for (unsigned x = 0; x + 1 < w; x++)
            out[x] = row[x] == row[x + 1];
        out[w - 1] = 1;
    }
}

/* Running sum along the row of the column sums. */
CAMBI_MASK_ROW(vqx_cambi_mask_row_c)
{
    const unsigned r = CAMBI_MASK_SIZE / 2;
    if (enter)
        for (unsigned x = 0; x < w; x++) cols[x] += enter[x];
    if (leave)
        for (unsigned x = 0; x < w; x++) cols[x] -= leave[x];
    unsigned sum = 0;
    for (unsigned x = 0; x < r && x < w; x++) sum += cols[x];
    for (unsigned x = 0; x < w; x++) {
        if (x + r < w) sum += cols[x + r];
        if (x > r) sum -= cols[x - r - 1];
        mask[x] = sum > threshold;
    }
}

CAMBI_HALVE_ROW(vqx_cambi_halve_row_c)
{
    for (unsigned x = 0; x < hw; x++) {
        img_out[x] = img[2 * x];
        mask_out[x] = mask[2 * x];
    }
}

CAMBI_MODE_ROW(vqx_cambi_mode_row_c)
{
    out[0] = in[0];
    for (unsigned x = 1; x + 1 < w; x++)
        out[x] = vqx_cambi_mode3(in[x - 1], in[x], in[x + 1]);
    out[w - 1] = in[w - 1];
}

CAMBI_MODE_COLUMNS(vqx_cambi_mode_columns_c)
{
    for (unsigned x = 0; x < w; x++)
        out[x] = vqx_cambi_mode3(a[x], b[x], c[x]);
}

CAMBI_SLIDE(vqx_cambi_slide_c)
{
    const unsigned span = 2 * pad + 1;
    for (unsigned x = 0; x < w; x++) {
        /* the histogram row of each pixel, NULL when it does not count */
        uint16_t *restrict in = NULL, *restrict out = NULL;
        if (in_img && in_mask[x] && (unsigned)in_img[x] - band_lo < band_size)
            in = hist + (in_img[x] - band_lo) * stride + x;
        if (out_img && out_mask[x] && (unsigned)out_img[x] - band_lo < band_size)
            out = hist + (out_img[x] - band_lo) * stride + x;
        if (in == out) continue; /* nothing, or the same value out and in */
        if (in && out) {
            for (unsigned i = 0; i < span; i++) {
                in[i]++;
                out[i]--;
            }
        } else if (in) {
            for (unsigned i = 0; i < span; i++) in[i]++;
        } else {
            for (unsigned i = 0; i < span; i++) out[i]--;
        }
    }
}

CAMBI_CONTRAST_ROW(vqx_cambi_contrast_row_c)
{
    const unsigned n = p->n_steps, band_lo = p->band_lo, band_size = p->band_size;
    for (unsigned x = 0; x < w; x++) {
        const unsigned band = (unsigned)img[x] - band_lo;
        float best = 0.0f;
        if (mask[x] && band < band_size) {
            const uint16_t *col = hist + x;
            const unsigned p0 = col[band * stride];
            for (unsigned d = 0; d < n; d++) {
                if (!vqx_cambi_step_counts(img[x], n, d, p->tvi[d], p->vlt)) continue;
                const unsigned up = col[(band + d + 1) * stride];
                const unsigned down = band > d ? col[(band - d - 1) * stride] : 0;
                const unsigned p1 = up > down ? up : down;
                const float v = vqx_cambi_step_contrast(p->weights[d], p0, p1, p->reciprocal);
                if (v > best) best = v;
            }
        }
        out[x] = best;
    }
}

void vqx_cambi_dsp_init(CambiDSPContext *c, unsigned bpc, unsigned cpu_flags)
{
    c->load = bpc == 8 ? vqx_cambi_load_10bit_8bpc : vqx_cambi_load_10bit_16bpc;
    c->smooth = vqx_cambi_smooth_2x2;
    c->flat_row = vqx_cambi_flat_row_c;
    c->mask_row = vqx_cambi_mask_row_c;
    c->halve_row = vqx_cambi_halve_row_c;
    c->mode_row = vqx_cambi_mode_row_c;
    c->mode_columns = vqx_cambi_mode_columns_c;
    c->slide = vqx_cambi_slide_c;
    c->contrast_row = vqx_cambi_contrast_row_c;
    c->mean_of_top = vqx_mean_of_top;
#if VQX_ARCH_X86
    vqx_cambi_dsp_init_x86(c, bpc, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
