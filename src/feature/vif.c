/*
 * Integer VIF (visual information fidelity), as libvmaf's "vif" extractor
 * computes it on its scalar path: a four-scale Gaussian pyramid in fixed
 * point, local means, variances and covariance from separable 17/9/5/3-tap
 * filters, and per pixel the information ratio
 *   num = log2(1 + g^2 sigma1^2 / (sv^2 + sigma_n^2)),
 *   den = log2(1 + sigma1^2 / sigma_n^2),
 * with log2 from a 2048-scaled table of 16-bit mantissas, and a linear
 * fallback where the reference variance is below the noise floor.
 * Per scale, score = sum(num) / sum(den).
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "feature/extractor.h"
#include "feature/vif.h"

/* Filter taps per scale (vif_pixel.h). */
static const uint16_t taps_scale0[17] = VIF_TAPS_SCALE0;
static const uint16_t taps_scale1[9] = VIF_TAPS_SCALE1;
static const uint16_t taps_scale2[5] = VIF_TAPS_SCALE2;
static const uint16_t taps_scale3[3] = VIF_TAPS_SCALE3;

const VifFilter vqx_vif_filters[VIF_SCALES] = {
    { taps_scale0, 17 }, { taps_scale1, 9 }, { taps_scale2, 5 }, { taps_scale3, 3 },
};

/* Smallest frame for which every scale's mirror stays inside the image:
 * the coarsest scale (w >> 3) must be wider than its filter's half width. */
#define VIF_MIN_SIZE 16

/* Noise variance 2, in the 16.16 fixed point of the variances. */

#define DEFAULT_GAIN_LIMIT 100.0


enum {
    KEY_SCALE0, KEY_SCALE1, KEY_SCALE2, KEY_SCALE3,
    KEY_VIF, KEY_NUM, KEY_DEN,
    KEY_NUM_SCALE0, KEY_DEN_SCALE0, /* then num, den of scales 1..3 */
};

const char *const vqx_vif_keys[] = {
    "VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score",
    "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score",
    "integer_vif", "integer_vif_num", "integer_vif_den",
    "integer_vif_num_scale0", "integer_vif_den_scale0",
    "integer_vif_num_scale1", "integer_vif_den_scale1",
    "integer_vif_num_scale2", "integer_vif_den_scale2",
    "integer_vif_num_scale3", "integer_vif_den_scale3",
    NULL
};

const VqxOption vqx_vif_options[] = {
    { .name = "debug", .help = "also write integer_vif, its numerator and denominator, per scale",
      .type = VQX_OPT_BOOL, .offset = offsetof(VifState, debug), .def.b = false },
    { .name = "vif_enhn_gain_limit", .alias = "egl",
      .help = "enhancement gain imposed on vif, >= 1.0, where 1.0 disables the gain",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(VifState, gain_limit),
      .def.d = DEFAULT_GAIN_LIMIT, .min = 1.0, .max = DEFAULT_GAIN_LIMIT,
      .flags = VQX_OPT_NAMES_KEY },
    { .name = "vif_skip_scale0", .alias = "ssclz", .help = "skip scale 0 (its score reads 0)",
      .type = VQX_OPT_BOOL, .offset = offsetof(VifState, skip_scale0), .def.b = false,
      .flags = VQX_OPT_NAMES_KEY },
    { 0 }
};

/* Carves 64-byte aligned arrays out of one block. */
static void *carve(uint8_t **at, size_t bytes)
{
    void *p = *at;
    *at += (bytes + 63) & ~(size_t)63;
    return p;
}

int vqx_vif_setup(VifState *s, const VqxFrameFormat *fmt, VqxSink *sink)
{
    if (fmt->w < VIF_MIN_SIZE || fmt->h < VIF_MIN_SIZE)
        return vqx_fail(sink, -EINVAL,
                        "vif: frame %ux%u is too small, the four-scale pyramid needs at least %ux%u",
                        fmt->w, fmt->h, VIF_MIN_SIZE, VIF_MIN_SIZE);
    s->bpc = fmt->bpc;
    vqx_vif_dsp_init(&s->dsp, fmt->bpc, fmt->cpu_flags);
    for (unsigned i = 32767; i < 65536; i++) s->log2_table[i] = vif_log2_entry(i);
    return 0;
}

static int init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    VifState *s = priv;
    const int ret = vqx_vif_setup(s, fmt, sink);
    if (ret) return ret;

    const size_t w = fmt->w;
    const size_t padded = w + 2 * VIF_MAX_HALF;
    size_t bytes = 5 * ((padded * sizeof(uint32_t) + 63) & ~(size_t)63) +
                   3 * ((w * sizeof(uint64_t) + 63) & ~(size_t)63) +
                   2 * ((w * sizeof(uint32_t) + 63) & ~(size_t)63) +
                   3 * ((w * sizeof(uint64_t) + 63) & ~(size_t)63) +
                   ((VIF_ROW_SCRATCH(w) + 63) & ~(size_t)63);
    for (unsigned sc = 1; sc < VIF_SCALES; sc++)
        bytes += 2 * (((size_t)(fmt->w >> sc) * (fmt->h >> sc) * sizeof(uint16_t) + 63) & ~(size_t)63);
    s->mem = aligned_alloc(64, bytes);
    if (!s->mem) return vqx_fail(sink, -ENOMEM, "vif: out of memory");

    uint8_t *at = s->mem;
    uint32_t **col_arrays[5] = { &s->cols.mu1, &s->cols.mu2, &s->cols.ref_sq,
                                 &s->cols.dis_sq, &s->cols.ref_dis };
    for (unsigned i = 0; i < 5; i++)
        *col_arrays[i] = (uint32_t *)carve(&at, padded * sizeof(uint32_t)) + VIF_MAX_HALF;
    for (unsigned i = 0; i < 3; i++)
        s->cols.scratch[i] = carve(&at, w * sizeof(uint64_t));
    s->h_mu1 = carve(&at, w * sizeof(uint32_t));
    s->h_mu2 = carve(&at, w * sizeof(uint32_t));
    s->h_ref_sq = carve(&at, w * sizeof(uint64_t));
    s->h_dis_sq = carve(&at, w * sizeof(uint64_t));
    s->h_ref_dis = carve(&at, w * sizeof(uint64_t));
    /* zeroed once: SIMD forms may read (and ignore) its words past the row */
    s->row_scratch = memset(carve(&at, VIF_ROW_SCRATCH(w)), 0, VIF_ROW_SCRATCH(w));
    for (unsigned sc = 1; sc < VIF_SCALES; sc++) {
        VifPlane *p = &s->planes[sc];
        p->w = fmt->w >> sc;
        p->h = fmt->h >> sc;
        p->ref_stride = p->dis_stride = (ptrdiff_t)(p->w * sizeof(uint16_t));
        p->ref = carve(&at, (size_t)p->w * p->h * sizeof(uint16_t));
        p->dis = carve(&at, (size_t)p->w * p->h * sizeof(uint16_t));
    }

    return 0;
}

/* Mirror `half` entries beyond each end of a row of w entries. */
static void mirror_ends(uint32_t *row, unsigned w, unsigned half)
{
    for (unsigned f = 1; f <= half; f++) {
        row[-(int)f] = row[f];
        row[w - 1 + f] = row[w - 1 - f];
    }
}

void vqx_vif_scale_result(const VifSums *sums, float *num, float *den)
{
    *num = (float)(sums->num_log / 2048.0 +
                   (sums->den_non_log - (sums->num_non_log / 16384.0) / 65025.0));
    *den = (float)(sums->den_log / 2048.0 + sums->den_non_log);
}

static VifRow h_row(const VifState *s)
{
    return (VifRow){ s->h_mu1, s->h_mu2, s->h_ref_sq, s->h_dis_sq, s->h_ref_dis };
}

void vqx_vif_filter_row(VifState *s, unsigned w, const VifFilter *f)
{
    vqx_vif_mirror_columns(&s->cols, w, f);
    const VifRow out = h_row(s);
    vqx_vif_horizontal_c(&s->cols, w, f, &out);
}

void vqx_vif_add_row(const VifState *s, unsigned w, VifSums *sums)
{
    const VifRow h = h_row(s);
    vqx_vif_add_row_c(&h, w, s->log2_table, s->gain_limit, sums);
}

VifShifts vqx_vif_shifts(unsigned scale, unsigned bpc)
{
    /* Scale 0 works on the samples as they are; from scale 1 on, samples
     * are 16-bit means whatever the input depth. */
    if (scale) return (VifShifts){ 16, 32768, 16, 32768 };
    const unsigned sq = 2 * (bpc - 8);
    return (VifShifts){ bpc, 1u << (bpc - 1), sq, sq ? (uint64_t)1 << (sq - 1) : 0 };
}

/* Numerator and denominator of one scale. */
static void scale_stats(VifState *s, unsigned scale, float *num, float *den)
{
    const VifPlane *p = &s->planes[scale];
    const VifFilter *f = &vqx_vif_filters[scale];
    const VifShifts sh = vqx_vif_shifts(scale, s->bpc);
    const VifRowStatsFn stats = s->dsp.row_stats[scale > 0];
    VifSums sums = { 0 };
    for (unsigned i = 0; i < p->h; i++)
        stats(p, i, f, &sh, &s->cols, s->row_scratch, s->log2_table, s->gain_limit, &sums);
    vqx_vif_scale_result(&sums, num, den);
}

void vqx_vif_downsample(VifState *s, const VifPlane *src, const VifPlane *dst, unsigned scale)
{
    const VifFilter *f = &vqx_vif_filters[scale];
    const unsigned half = f->width / 2;
    const VifColumnsMeansFn columns = s->dsp.columns_means[scale > 1];
    const unsigned shift = scale == 1 ? s->bpc : 16;
    uint32_t *cr = s->cols.mu1, *cd = s->cols.mu2;
    uint16_t *out_ref = (uint16_t *)dst->ref, *out_dis = (uint16_t *)dst->dis;
    for (unsigned i = 0; i < dst->h; i++) {
        columns(src, 2 * i, f, shift, 1u << (shift - 1), cr, cd);
        mirror_ends(cr, src->w, half);
        mirror_ends(cd, src->w, half);
        s->dsp.decimate(cr, cd, dst->w, f, out_ref, out_dis);
        out_ref += dst->ref_stride / (ptrdiff_t)sizeof(uint16_t);
        out_dis += dst->dis_stride / (ptrdiff_t)sizeof(uint16_t);
    }
}

void vqx_vif_compute(VifState *s, const VqxPicture *ref, const VqxPicture *dis,
                     float num[VIF_SCALES], float den[VIF_SCALES])
{
    s->planes[0] = (VifPlane){
        .ref = ref->data[0], .dis = dis->data[0],
        .ref_stride = ref->stride[0], .dis_stride = dis->stride[0],
        .w = ref->w[0], .h = ref->h[0],
    };
    for (unsigned sc = 0; sc < VIF_SCALES; sc++) num[sc] = den[sc] = 0.0f;
    for (unsigned sc = s->skip_scale0 ? 1 : 0; sc < VIF_SCALES; sc++) {
        if (sc > 0) vqx_vif_downsample(s, &s->planes[sc - 1], &s->planes[sc], sc);
        scale_stats(s, sc, &num[sc], &den[sc]);
    }
}

static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    VifState *s = priv;
    float num[VIF_SCALES], den[VIF_SCALES];
    vqx_vif_compute(s, ref, dis, num, den);
    return vqx_vif_emit(s, num, den, frame, sink);
}

int vqx_vif_emit(const VifState *s, const float num[VIF_SCALES], const float den[VIF_SCALES],
                 unsigned frame, VqxSink *sink)
{
    const unsigned first = s->skip_scale0 ? 1 : 0;
    int err = 0;
    err |= vqx_emit(sink, KEY_SCALE0, frame, s->skip_scale0 ? 0.0 : (double)(num[0] / den[0]));
    for (unsigned sc = 1; sc < VIF_SCALES; sc++)
        err |= vqx_emit(sink, KEY_SCALE0 + sc, frame, (double)(num[sc] / den[sc]));
    if (!s->debug) return err;

    double score_num = 0.0, score_den = 0.0;
    for (unsigned sc = first; sc < VIF_SCALES; sc++) {
        score_num += num[sc];
        score_den += den[sc];
    }
    err |= vqx_emit(sink, KEY_VIF, frame, score_den == 0.0 ? 1.0 : score_num / score_den);
    err |= vqx_emit(sink, KEY_NUM, frame, score_num);
    err |= vqx_emit(sink, KEY_DEN, frame, score_den);
    for (unsigned sc = 0; sc < VIF_SCALES; sc++) {
        const bool skipped = sc < first;
        err |= vqx_emit(sink, KEY_NUM_SCALE0 + 2 * sc, frame, skipped ? 0.0 : num[sc]);
        err |= vqx_emit(sink, KEY_DEN_SCALE0 + 2 * sc, frame, skipped ? -1.0 : den[sc]);
    }
    return err;
}

static void close_vif(void *priv)
{
    VifState *s = priv;
    free(s->mem);
    s->mem = NULL;
}

const VqxFeatureExtractor vqx_fex_vif = {
    .name = "vif",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = vqx_vif_keys,
    .options = vqx_vif_options,
    .state_size = sizeof(VifState),
    .init = init,
    .extract = extract,
    .close = close_vif,
};
