/* Integer VIF's DSP table: the scalar C of the stages that do not depend on
 * the sample type, and the dispatch. */
#include "feature/vif_dsp.h"

#if VQX_ARCH_X86
#include "x86/vif.h"
#endif

/* One tap of the horizontal statistics pass (first tap sets, others add). */
static void horizontal_tap(const uint32_t *restrict a, const uint32_t *restrict b,
                           const uint32_t *restrict x, const uint32_t *restrict y,
                           const uint32_t *restrict z, uint32_t t, unsigned w, int first,
                           uint32_t *restrict mu1, uint32_t *restrict mu2,
                           uint64_t *restrict ref_sq, uint64_t *restrict dis_sq,
                           uint64_t *restrict ref_dis)
{
    if (first) {
        for (unsigned j = 0; j < w; j++) {
            mu1[j] = vif_tap(t, a[j]);
            mu2[j] = vif_tap(t, b[j]);
            ref_sq[j] = vif_tap_64(t, x[j]);
            dis_sq[j] = vif_tap_64(t, y[j]);
            ref_dis[j] = vif_tap_64(t, z[j]);
        }
    } else {
        for (unsigned j = 0; j < w; j++) {
            mu1[j] += vif_tap(t, a[j]);
            mu2[j] += vif_tap(t, b[j]);
            ref_sq[j] += vif_tap_64(t, x[j]);
            dis_sq[j] += vif_tap_64(t, y[j]);
            ref_dis[j] += vif_tap_64(t, z[j]);
        }
    }
}

VIF_HORIZONTAL(vqx_vif_horizontal_c)
{
    const int half = (int)(f->width / 2);
    for (unsigned k = 0; k < f->width; k++) {
        const int o = (int)k - half;
        horizontal_tap(in->mu1 + o, in->mu2 + o, in->ref_sq + o, in->dis_sq + o,
                       in->ref_dis + o, f->taps[k], w, k == 0, out->mu1, out->mu2,
                       out->ref_sq, out->dis_sq, out->ref_dis);
    }
}

VIF_DECIMATE(vqx_vif_decimate_c)
{
    const unsigned half = f->width / 2;
    for (unsigned j = 0; j < dst_w; j++) {
        ref_out[j] = vif_decimated(f->taps, f->width, ref + 2 * j - half);
        dis_out[j] = vif_decimated(f->taps, f->width, dis + 2 * j - half);
    }
}

VIF_ADD_ROW(vqx_vif_add_row_c)
{
    for (unsigned j = 0; j < w; j++)
        vif_add_pixel(sums, log2_table, gain_limit, h->mu1[j], h->mu2[j], h->ref_sq[j],
                      h->dis_sq[j], h->ref_dis[j]);
}

/* Mirror `half` entries beyond each end of a row of w entries. */
static void mirror_ends(uint32_t *row, unsigned w, unsigned half)
{
    for (unsigned f = 1; f <= half; f++) {
        row[-(int)f] = row[f];
        row[w - 1 + f] = row[w - 1 - f];
    }
}

void vqx_vif_mirror_columns(const VifColumns *c, unsigned w, const VifFilter *f)
{
    const unsigned half = f->width / 2;
    mirror_ends(c->mu1, w, half);
    mirror_ends(c->mu2, w, half);
    mirror_ends(c->ref_sq, w, half);
    mirror_ends(c->dis_sq, w, half);
    mirror_ends(c->ref_dis, w, half);
}

void vqx_vif_dsp_init(VifDSPContext *c, unsigned bpc, unsigned cpu_flags)
{
    c->row_stats[0] = bpc == 8 ? vqx_vif_row_stats_8bpc : vqx_vif_row_stats_16bpc;
    c->row_stats[1] = vqx_vif_row_stats_16bpc;
    c->columns_means[0] = bpc == 8 ? vqx_vif_columns_means_8bpc : vqx_vif_columns_means_16bpc;
    c->columns_means[1] = vqx_vif_columns_means_16bpc;
    c->decimate = vqx_vif_decimate_c;
#if VQX_ARCH_X86
    vqx_vif_dsp_init_x86(c, bpc, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
