/*
 * Floating-point VIF, as libvmaf's "float_vif" extractor computes it on its
 * scalar path (float_vif.c, vif.c, vif_tools.c): luma to float with an
 * offset of -128, an optional resampling (vif_prescale), then four scales of
 * Gaussian filtering (sizes 17, 9, 5, 3 times vif_kernelscale) and the
 * "matching_matlab" statistic per pixel, summed in float row by row. The
 * float and double steps, and their order, are libvmaf's.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "feature/float_picture.h"
#include "feature/float_vif.h"
#include "feature/vif.h"
#include "feature/vif_gaussian.h"

#define SCALES FLOAT_VIF_SCALES

enum {
    KEY_SCALE0, KEY_SCALE1, KEY_SCALE2, KEY_SCALE3,
    KEY_VIF, KEY_NUM, KEY_DEN,
    KEY_NUM_SCALE0, KEY_DEN_SCALE0, /* then num, den of scales 1..3 */
};

const char *const vqx_float_vif_keys[] = {
    "VMAF_feature_vif_scale0_score", "VMAF_feature_vif_scale1_score",
    "VMAF_feature_vif_scale2_score", "VMAF_feature_vif_scale3_score",
    "vif", "vif_num", "vif_den",
    "vif_num_scale0", "vif_den_scale0", "vif_num_scale1", "vif_den_scale1",
    "vif_num_scale2", "vif_den_scale2", "vif_num_scale3", "vif_den_scale3",
    NULL
};

#define SCALE_MIN_OPTION(n)                                                         \
    { .name = "vif_scale" #n "_min_val", .alias = "s" #n "miv",                      \
      .help = "smallest scale " #n " score; lower ones are raised to it",            \
      .type = VQX_OPT_DOUBLE, .offset = offsetof(FloatVifState, scale_min[n]),      \
      .def.d = 0.0, .min = 0.0, .max = 1.0, .flags = VQX_OPT_NAMES_KEY }

const VqxOption vqx_float_vif_options[] = {
    { .name = "debug", .help = "also write vif, its numerator and denominator, per scale",
      .type = VQX_OPT_BOOL, .offset = offsetof(FloatVifState, debug), .def.b = false },
    { .name = "vif_enhn_gain_limit", .alias = "egl",
      .help = "enhancement gain imposed on vif, >= 1.0, where 1.0 disables the gain",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(FloatVifState, gain_limit),
      .def.d = 100.0, .min = 1.0, .max = 100.0, .flags = VQX_OPT_NAMES_KEY },
    { .name = "vif_kernelscale", .alias = "ks",
      .help = "scale of the Gaussian kernels (2.0 doubles their deviation and size)",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(FloatVifState, kernelscale),
      .def.d = 1.0, .values = vqx_vif_kernelscales, .n_values = VQX_VIF_N_KERNELSCALES,
      .tolerance = VQX_VIF_KERNELSCALE_TOLERANCE,
      .flags = VQX_OPT_NAMES_KEY | VQX_OPT_VALUES_FLOAT },
    { .name = "vif_prescale", .alias = "ps",
      .help = "resize factor applied to the frame first (2.0 doubles each dimension)",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(FloatVifState, prescale),
      .def.d = 1.0, .min = 0.1, .max = 4.0, .flags = VQX_OPT_NAMES_KEY },
    SCALE_MIN_OPTION(1),
    SCALE_MIN_OPTION(2),
    SCALE_MIN_OPTION(3),
    { .name = "vif_prescale_method", .alias = "pm",
      .help = "resampler for vif_prescale: nearest, bilinear, bicubic or lanczos4",
      .type = VQX_OPT_STRING, .offset = offsetof(FloatVifState, prescale_method),
      .def.s = "nearest", .choices = vqx_resample_names, .flags = VQX_OPT_NAMES_KEY },
    { .name = "vif_sigma_nsq", .alias = "snsq", .help = "neural noise variance",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(FloatVifState, sigma_nsq),
      .def.d = 2.0, .min = 0.0, .max = 5.0, .flags = VQX_OPT_NAMES_KEY },
    { .name = "vif_skip_scale0", .alias = "ssclz", .help = "skip scale 0 (its score reads 0)",
      .type = VQX_OPT_BOOL, .offset = offsetof(FloatVifState, skip_scale0), .def.b = false,
      .flags = VQX_OPT_NAMES_KEY },
    { 0 }
};

static void *carve(uint8_t **at, size_t bytes)
{
    void *p = *at;
    *at += (bytes + 63) & ~(size_t)63;
    return p;
}

static size_t rounded(size_t bytes)
{
    return (bytes + 63) & ~(size_t)63;
}

int vqx_float_vif_setup(FloatVifState *s, const VqxFrameFormat *fmt, VqxSink *sink)
{
    const float ks = (float)s->kernelscale; /* one of libvmaf's: the option table's set */
    s->src_w = fmt->w;
    s->src_h = fmt->h;
    const unsigned w = (unsigned)(int)(fmt->w * s->prescale + 0.5);
    const unsigned h = (unsigned)(int)(fmt->h * s->prescale + 0.5);
    s->resample = w != fmt->w || h != fmt->h;
    vqx_float_vif_dsp_init(&s->dsp, fmt->cpu_flags);
    vqx_float_picture_dsp_init(&s->pic_dsp, fmt->cpu_flags);

    const unsigned first = s->skip_scale0 ? 1 : 0;
    for (unsigned sc = 0; sc < SCALES; sc++) {
        s->filter_width[sc] = vqx_vif_filter_size(sc, ks);
        vqx_vif_gaussian(s->filter[sc], s->filter_width[sc], s->filter_width[sc] / 5.0f);
        const unsigned half = s->filter_width[sc] / 2;
        /* libvmaf mirrors once at the borders: each scale must be wider
         * and taller than its filter's half width. */
        if (sc >= first && ((w >> sc) <= half || (h >> sc) <= half))
            return vqx_fail(sink, -EINVAL,
                            "float_vif: frame %ux%u (%ux%u after vif_prescale) is too small: "
                            "scale %u would be %ux%u, but its %u-tap filter needs both sides "
                            "above %u",
                            fmt->w, fmt->h, w, h, sc, w >> sc, h >> sc,
                            s->filter_width[sc], half);
    }
    if (s->resample && (fmt->w < 8 || fmt->h < 8))
        return vqx_fail(sink, -EINVAL,
                        "float_vif: vif_prescale needs a frame of at least 8x8, not %ux%u",
                        fmt->w, fmt->h);
    s->input = (FloatVifPlane){ .w = fmt->w, .h = fmt->h, .stride = fmt->w };
    for (unsigned sc = 0; sc < SCALES; sc++)
        s->planes[sc] = sc == 0 && !s->resample ? s->input :
                        (FloatVifPlane){ .w = w >> sc, .h = h >> sc, .stride = w >> sc };
    if (s->resample &&
        vqx_resampler_init(&s->resampler, vqx_resample_method(s->prescale_method), fmt->w,
                           fmt->h, w, h, fmt->cpu_flags))
        return vqx_fail(sink, -ENOMEM, "float_vif: out of memory");
    return 0;
}

static int init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    FloatVifState *s = priv;
    int ret = vqx_float_vif_setup(s, fmt, sink);
    if (ret) return ret;
    const unsigned w = s->planes[0].w, h = s->planes[0].h;
    unsigned max_half = 0;
    for (unsigned sc = s->skip_scale0 ? 1 : 0; sc < SCALES; sc++)
        if (s->filter_width[sc] / 2 > max_half) max_half = s->filter_width[sc] / 2;

    size_t bytes = 2 * rounded((size_t)fmt->w * fmt->h * sizeof(float));
    for (unsigned sc = s->resample ? 0 : 1; sc < SCALES; sc++)
        bytes += 2 * rounded((size_t)(w >> sc) * (h >> sc) * sizeof(float));
    bytes += 5 * rounded((w + 2 * (size_t)max_half) * sizeof(float));
    bytes += 5 * rounded(w * sizeof(float));
    s->mem = aligned_alloc(64, bytes);
    if (!s->mem) return vqx_fail(sink, -ENOMEM, "float_vif: out of memory");

    uint8_t *at = s->mem;
    s->input.ref = carve(&at, (size_t)fmt->w * fmt->h * sizeof(float));
    s->input.dis = carve(&at, (size_t)fmt->w * fmt->h * sizeof(float));
    for (unsigned sc = 0; sc < SCALES; sc++) {
        FloatVifPlane *p = &s->planes[sc];
        if (sc == 0 && !s->resample) {
            *p = s->input;
            continue;
        }
        p->ref = carve(&at, (size_t)p->w * p->h * sizeof(float));
        p->dis = carve(&at, (size_t)p->w * p->h * sizeof(float));
    }
    float **vert[5] = { &s->v_mu1, &s->v_mu2, &s->v_xx, &s->v_yy, &s->v_xy };
    float **horz[5] = { &s->h_mu1, &s->h_mu2, &s->h_xx, &s->h_yy, &s->h_xy };
    for (unsigned i = 0; i < 5; i++) {
        *vert[i] = (float *)carve(&at, (w + 2 * (size_t)max_half) * sizeof(float)) + max_half;
        *horz[i] = carve(&at, w * sizeof(float));
    }
    return 0;
}

static void mirror_ends(float *row, unsigned w, unsigned half)
{
    for (unsigned f = 1; f <= half; f++) {
        row[-(int)f] = row[f];
        row[w - 1 + f] = row[w - 1 - f];
    }
}

/* The rows of a filter's taps around row `center` of a plane, mirrored. */
static void tap_rows(const float *plane, ptrdiff_t stride, unsigned h, int center, unsigned width,
                     const float **rows)
{
    const int half = (int)width / 2;
    for (unsigned k = 0; k < width; k++)
        rows[k] = plane + (ptrdiff_t)vif_mirror(center - half + (int)k, h) * stride;
}

FloatVifStat vqx_float_vif_stat(const FloatVifState *s)
{
    return (FloatVifStat){
        .gain_limit = (float)s->gain_limit,
        .sigma_nsq = s->sigma_nsq,
        .sigma_max_inv = (float)(powf((float)s->sigma_nsq, 2.0f) / (255.0 * 255.0)),
    };
}

static void scale_stats(FloatVifState *s, const FloatVifPlane *p, const float *f, unsigned width,
                        float *num, float *den)
{
    const FloatVifDSPContext *c = &s->dsp;
    const unsigned w = p->w, h = p->h, half = width / 2;
    const FloatVifStat st = vqx_float_vif_stat(s);
    float *v[5] = { s->v_mu1, s->v_mu2, s->v_xx, s->v_yy, s->v_xy };
    float *o[5] = { s->h_mu1, s->h_mu2, s->h_xx, s->h_yy, s->h_xy };
    /* the vertical sums are spent once filtered: they take the statistic */
    float *pixel_num = s->v_mu1, *pixel_den = s->v_mu2;
    const float *ref_rows[FLOAT_VIF_MAX_TAPS], *dis_rows[FLOAT_VIF_MAX_TAPS];
    float total_num = 0.0f, total_den = 0.0f;
    for (unsigned i = 0; i < h; i++) {
        tap_rows(p->ref, p->stride, h, (int)i, width, ref_rows);
        tap_rows(p->dis, p->stride, h, (int)i, width, dis_rows);
        c->moment_columns(f, (int)width, ref_rows, dis_rows, (int)w, v[0], v[1], v[2], v[3], v[4]);
        for (unsigned a = 0; a < 5; a++) {
            mirror_ends(v[a], w, half);
            c->filter_row(f, (int)width, v[a], (int)w, o[a]);
        }
        c->pixel_stats(&st, o[0], o[1], o[2], o[3], o[4], (int)w, pixel_num, pixel_den);
        float row_num = 0, row_den = 0;
        for (unsigned j = 0; j < w; j++) {
            row_num += pixel_num[j];
            row_den += pixel_den[j];
        }
        total_num += row_num;
        total_den += row_den;
    }
    *num = total_num;
    *den = total_den;
}

/* Next scale: filter with the next scale's kernel and keep even rows and
 * columns; only the kept rows are filtered, and a kept column is the same
 * sum as in the full row. */
static void downsample(FloatVifState *s, const FloatVifPlane *src, const FloatVifPlane *dst, const float *f,
                       unsigned width)
{
    const FloatVifDSPContext *c = &s->dsp;
    const unsigned half = width / 2;
    float *vr = s->v_mu1, *vd = s->v_mu2, *hr = s->h_mu1, *hd = s->h_mu2;
    const float *rows[FLOAT_VIF_MAX_TAPS];
    for (unsigned i = 0; i < dst->h; i++) {
        tap_rows(src->ref, src->stride, src->h, (int)(2 * i), width, rows);
        c->filter_columns(f, (int)width, rows, (int)src->w, vr);
        tap_rows(src->dis, src->stride, src->h, (int)(2 * i), width, rows);
        c->filter_columns(f, (int)width, rows, (int)src->w, vd);
        mirror_ends(vr, src->w, half);
        mirror_ends(vd, src->w, half);
        c->filter_row(f, (int)width, vr, (int)src->w, hr);
        c->filter_row(f, (int)width, vd, (int)src->w, hd);
        float *out_r = dst->ref + (ptrdiff_t)i * dst->stride;
        float *out_d = dst->dis + (ptrdiff_t)i * dst->stride;
        for (unsigned j = 0; j < dst->w; j++) {
            out_r[j] = hr[2 * j];
            out_d[j] = hd[2 * j];
        }
    }
}

static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    FloatVifState *s = priv;
    vqx_float_plane(&s->pic_dsp, s->input.ref, s->input.stride, ref, 0, -128.0f);
    vqx_float_plane(&s->pic_dsp, s->input.dis, s->input.stride, dis, 0, -128.0f);
    if (s->resample) {
        const FloatVifPlane *p = &s->planes[0];
        vqx_resample(&s->resampler, s->input.ref, s->input.stride, p->ref, p->stride);
        vqx_resample(&s->resampler, s->input.dis, s->input.stride, p->dis, p->stride);
    }

    float num[SCALES] = { 0 }, den[SCALES] = { 0 };
    const unsigned first = s->skip_scale0 ? 1 : 0;
    for (unsigned sc = first; sc < SCALES; sc++) {
        if (sc > 0)
            downsample(s, &s->planes[sc - 1], &s->planes[sc], s->filter[sc], s->filter_width[sc]);
        scale_stats(s, &s->planes[sc], s->filter[sc], s->filter_width[sc], &num[sc], &den[sc]);
    }
    return vqx_float_vif_emit(s, num, den, frame, sink);
}

int vqx_float_vif_emit(const FloatVifState *s, const float num[FLOAT_VIF_SCALES],
                       const float den[FLOAT_VIF_SCALES], unsigned frame, VqxSink *sink)
{
    int err = 0;
    err |= vqx_emit(sink, KEY_SCALE0, frame, s->skip_scale0 ? 0.0 : (double)num[0] / den[0]);
    for (unsigned sc = 1; sc < SCALES; sc++) {
        const double score = (double)num[sc] / den[sc];
        err |= vqx_emit(sink, KEY_SCALE0 + sc, frame,
                        score > s->scale_min[sc] ? score : s->scale_min[sc]);
    }
    if (!s->debug) return err;

    const unsigned first = s->skip_scale0 ? 1 : 0;
    double score_num = 0.0, score_den = 0.0;
    for (unsigned sc = first; sc < SCALES; sc++) {
        score_num += num[sc];
        score_den += den[sc];
    }
    err |= vqx_emit(sink, KEY_VIF, frame, score_den == 0.0 ? 1.0 : score_num / score_den);
    err |= vqx_emit(sink, KEY_NUM, frame, score_num);
    err |= vqx_emit(sink, KEY_DEN, frame, score_den);
    for (unsigned sc = 0; sc < SCALES; sc++) {
        const bool skipped = sc < first;
        err |= vqx_emit(sink, KEY_NUM_SCALE0 + 2 * sc, frame, skipped ? 0.0 : num[sc]);
        err |= vqx_emit(sink, KEY_DEN_SCALE0 + 2 * sc, frame, skipped ? -1.0 : den[sc]);
    }
    return err;
}

void vqx_float_vif_close(void *priv)
{
    FloatVifState *s = priv;
    free(s->mem);
    s->mem = NULL;
    vqx_resampler_free(&s->resampler);
}

const VqxFeatureExtractor vqx_fex_float_vif = {
    .name = "float_vif",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = vqx_float_vif_keys,
    .options = vqx_float_vif_options,
    .state_size = sizeof(FloatVifState),
    .init = init,
    .extract = extract,
    .close = vqx_float_vif_close,
};
