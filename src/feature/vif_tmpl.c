/* The scalar C of the stages that read samples (the reference of their SIMD
 * forms). */
#include "bitdepth.h"
#include "feature/vif.h"

/* Sums of filtered squares fit 32 bits for 8-bit samples, wider samples
 * need 64 (vif_pixel.h's moment statements). Narrow types let the compiler
 * use widening multiplies. */
#if BITDEPTH == 8
typedef uint32_t sq_sum;
#define product_tap vif_product_tap_32
#define round_moment vif_round_moment_32
#else
typedef uint64_t sq_sum;
#define product_tap vif_product_tap_64
#define round_moment vif_round_moment_64
#endif

/* One filter tap of the statistics pass over a row pair: the first tap
 * sets the sums, the others add to them. Restrict parameters let the
 * compiler vectorize across columns. */
static void stats_tap(const pixel *restrict r, const pixel *restrict d, uint16_t c,
                      unsigned w, int first, uint32_t *restrict mu1, uint32_t *restrict mu2,
                      sq_sum *restrict rr, sq_sum *restrict dd, sq_sum *restrict rd)
{
    if (first) {
        for (unsigned j = 0; j < w; j++) {
            mu1[j] = vif_tap(c, r[j]);
            mu2[j] = vif_tap(c, d[j]);
            rr[j] = product_tap(c, r[j], r[j]);
            dd[j] = product_tap(c, d[j], d[j]);
            rd[j] = product_tap(c, r[j], d[j]);
        }
    } else {
        for (unsigned j = 0; j < w; j++) {
            mu1[j] += vif_tap(c, r[j]);
            mu2[j] += vif_tap(c, d[j]);
            rr[j] += product_tap(c, r[j], r[j]);
            dd[j] += product_tap(c, d[j], d[j]);
            rd[j] += product_tap(c, r[j], d[j]);
        }
    }
}

static void stats_shift(unsigned w, const VifShifts *sh, uint32_t *restrict mu1,
                        uint32_t *restrict mu2, const sq_sum *restrict rr,
                        const sq_sum *restrict dd, const sq_sum *restrict rd,
                        uint32_t *restrict ref_sq, uint32_t *restrict dis_sq,
                        uint32_t *restrict ref_dis)
{
    const uint32_t mean_round = sh->mean_round;
    const unsigned mean_shift = sh->mean, sq_shift = sh->sq;
    const sq_sum sq_round = (sq_sum)sh->sq_round;
    for (unsigned j = 0; j < w; j++) {
        mu1[j] = vif_round_mean(mu1[j], mean_round, mean_shift);
        mu2[j] = vif_round_mean(mu2[j], mean_round, mean_shift);
        ref_sq[j] = round_moment(rr[j], sq_round, sq_shift);
        dis_sq[j] = round_moment(dd[j], sq_round, sq_shift);
        ref_dis[j] = round_moment(rd[j], sq_round, sq_shift);
    }
}

VIF_COLUMNS_STATS(BF(vqx_vif_columns_stats))
{
    const int top = (int)row - (int)(f->width / 2);
    sq_sum *rr = out->scratch[0], *dd = out->scratch[1], *rd = out->scratch[2];
    /* Taps outermost: each pass streams one row of each plane. Integer sums
     * do not depend on the order of the terms. */
    for (unsigned k = 0; k < f->width; k++) {
        const unsigned y = vif_mirror(top + (int)k, p->h);
        stats_tap(PIXEL_ROW(pixel, p->ref, p->ref_stride, y),
                  PIXEL_ROW(pixel, p->dis, p->dis_stride, y), f->taps[k], p->w, k == 0,
                  out->mu1, out->mu2, rr, dd, rd);
    }
    stats_shift(p->w, sh, out->mu1, out->mu2, rr, dd, rd, out->ref_sq, out->dis_sq, out->ref_dis);
}

VIF_ROW_STATS(BF(vqx_vif_row_stats))
{
    BF(vqx_vif_columns_stats)(p, row, f, sh, cols);
    vqx_vif_mirror_columns(cols, p->w, f);
    uint32_t *mu = scratch;
    uint64_t *sq = (uint64_t *)(mu + 2 * (size_t)p->w);
    const VifRow h = { mu, mu + p->w, sq, sq + p->w, sq + 2 * (size_t)p->w };
    vqx_vif_horizontal_c(cols, p->w, f, &h);
    vqx_vif_add_row_c(&h, p->w, log2_table, gain_limit, sums);
}

static void means_tap(const pixel *restrict r, const pixel *restrict d, uint16_t c,
                      unsigned w, int first, uint32_t *restrict ref_out,
                      uint32_t *restrict dis_out)
{
    if (first) {
        for (unsigned j = 0; j < w; j++) {
            ref_out[j] = vif_tap(c, r[j]);
            dis_out[j] = vif_tap(c, d[j]);
        }
    } else {
        for (unsigned j = 0; j < w; j++) {
            ref_out[j] += vif_tap(c, r[j]);
            dis_out[j] += vif_tap(c, d[j]);
        }
    }
}

VIF_COLUMNS_MEANS(BF(vqx_vif_columns_means))
{
    const int top = (int)row - (int)(f->width / 2);
    for (unsigned k = 0; k < f->width; k++) {
        const unsigned y = vif_mirror(top + (int)k, p->h);
        means_tap(PIXEL_ROW(pixel, p->ref, p->ref_stride, y),
                  PIXEL_ROW(pixel, p->dis, p->dis_stride, y), f->taps[k], p->w, k == 0,
                  ref_out, dis_out);
    }
    for (unsigned j = 0; j < p->w; j++) {
        ref_out[j] = vif_round_mean(ref_out[j], round, shift);
        dis_out[j] = vif_round_mean(dis_out[j], round, shift);
    }
}
