/*
 * float_ssim: SSIM of the luma (Wang et al. 2004, 11x11 Gaussian window),
 * after libvmaf's automatic downscaling, equal to libvmaf's float_ssim.
 */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "feature/ssim.h"

enum { KEY_SSIM, KEY_L, KEY_C, KEY_S };

const char *const vqx_float_ssim_keys[] = {
    "float_ssim", "float_ssim_l", "float_ssim_c", "float_ssim_s", NULL
};

const VqxOption vqx_float_ssim_options[] = {
    { .name = "enable_lcs", .help = "also write the luminance, contrast and structure means",
      .type = VQX_OPT_BOOL, .offset = offsetof(SsimState, enable_lcs), .def.b = false },
    { .name = "enable_db", .help = "write SSIM as dB: -10 log10(1 - ssim)",
      .type = VQX_OPT_BOOL, .offset = offsetof(SsimState, enable_db), .def.b = false },
    { .name = "clip_db", .help = "cap the dB value (from an MSE of 0.5 / pixels)",
      .type = VQX_OPT_BOOL, .offset = offsetof(SsimState, clip_db), .def.b = false },
    { .name = "scale", .help = "decimation factor: 0 automatic (round(min(w, h) / 256)), 1 none",
      .type = VQX_OPT_INT, .offset = offsetof(SsimState, scale), .def.i = 0, .min = 0, .max = 10 },
    { 0 }
};

/* libvmaf's iqa rounds a positive float half away from zero. */
static unsigned automatic_factor(unsigned w, unsigned h)
{
    const float q = (float)(w < h ? w : h) / 256.0f;
    const int whole = (int)q;
    const int rounded = q - whole >= 0.5 ? whole + 1 : whole;
    return rounded > 1 ? (unsigned)rounded : 1;
}

/* The source rows output row y's box reads: first .. last. */
static void box_span(const SsimState *s, unsigned y, unsigned *first, unsigned *last)
{
    *first = *last = vqx_ssim_box_row(y, 0, s->factor, s->h);
    for (unsigned v = 1; v < s->factor; v++) {
        const unsigned r = vqx_ssim_box_row(y, v, s->factor, s->h);
        if (r < *first) *first = r;
        if (r > *last) *last = r;
    }
}

/* The decimated luma of pic into dst: each output row's source rows are
 * converted to floats just before they are filtered, so the full-size
 * plane never goes through memory. */
static void decimate(SsimState *s, const VqxPicture *pic, float *dst)
{
    for (unsigned y = 0; y < s->dh; y++) {
        unsigned first, last;
        box_span(s, y, &first, &last);
        vqx_float_rows(&s->pic_dsp, s->band, s->w, pic, 0, first, last - first + 1, 0.0f);
        for (unsigned v = 0; v < s->factor; v++)
            s->box_rows[v] = s->band + (size_t)(vqx_ssim_box_row(y, v, s->factor, s->h) - first) * s->w;
        s->scratch.dsp.box_row(s->box_rows, s->w, s->factor, dst + (size_t)y * s->dw);
    }
}

int vqx_float_ssim_setup(SsimState *s, const VqxFrameFormat *fmt, VqxSink *sink)
{
    s->w = fmt->w;
    s->h = fmt->h;
    s->factor = s->scale > 0 ? (unsigned)s->scale : automatic_factor(fmt->w, fmt->h);
    s->dw = s->factor > 1 ? vqx_ssim_decimated(fmt->w, s->factor) : fmt->w;
    s->dh = s->factor > 1 ? vqx_ssim_decimated(fmt->h, s->factor) : fmt->h;
    if (s->dw < VQX_SSIM_WINDOW || s->dh < VQX_SSIM_WINDOW)
        return vqx_fail(sink, -EINVAL,
                        "float_ssim: %ux%u luma is %ux%u after downscaling by %u, "
                        "below the %ux%u SSIM window",
                        fmt->w, fmt->h, s->dw, s->dh, s->factor, VQX_SSIM_WINDOW, VQX_SSIM_WINDOW);
    s->max_db = vqx_ssim_max_db(fmt->bpc, fmt->w, fmt->h, s->clip_db);
    return 0;
}

int vqx_float_ssim_emit(const SsimState *s, const VqxSsimMeans *m, unsigned frame, VqxSink *sink)
{
    double score = m->ssim;
    if (s->enable_db) score = vqx_ssim_to_db(score, s->max_db);
    int err = vqx_emit(sink, KEY_SSIM, frame, score);
    if (s->enable_lcs) {
        err |= vqx_emit(sink, KEY_L, frame, m->l);
        err |= vqx_emit(sink, KEY_C, frame, m->c);
        err |= vqx_emit(sink, KEY_S, frame, m->s);
    }
    return err;
}

static int init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    SsimState *s = priv;
    vqx_float_picture_dsp_init(&s->pic_dsp, fmt->cpu_flags);
    const int ret = vqx_float_ssim_setup(s, fmt, sink);
    if (ret) return ret;

    const size_t n = (size_t)s->dw * s->dh;
    s->ref = malloc(n * sizeof(float));
    s->cmp = malloc(n * sizeof(float));
    if (!s->ref || !s->cmp) return -ENOMEM;
    if (s->factor > 1) {
        for (unsigned y = 0; y < s->dh; y++) {
            unsigned first, last;
            box_span(s, y, &first, &last);
            if (last - first + 1 > s->band_rows) s->band_rows = last - first + 1;
        }
        s->band = malloc((size_t)s->band_rows * s->w * sizeof(float));
        s->box_rows = malloc(s->factor * sizeof(*s->box_rows));
        if (!s->band || !s->box_rows) return -ENOMEM;
    }
    return vqx_ssim_scratch_init(&s->scratch, s->dw, fmt->cpu_flags);
}

static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    SsimState *s = priv;
    if (s->factor > 1) {
        decimate(s, ref, s->ref);
        decimate(s, dis, s->cmp);
    } else {
        vqx_float_plane(&s->pic_dsp, s->ref, s->w, ref, 0, 0.0f);
        vqx_float_plane(&s->pic_dsp, s->cmp, s->w, dis, 0, 0.0f);
    }

    VqxSsimMeans m;
    vqx_ssim_plane(&s->scratch, s->ref, s->cmp, s->dw, s->dw, s->dh, &m);
    return vqx_float_ssim_emit(s, &m, frame, sink);
}

static void close_ssim(void *priv)
{
    SsimState *s = priv;
    free(s->ref);
    free(s->cmp);
    free(s->band);
    free(s->box_rows);
    vqx_ssim_scratch_free(&s->scratch);
}

const VqxFeatureExtractor vqx_fex_float_ssim = {
    .name = "float_ssim",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = vqx_float_ssim_keys,
    .options = vqx_float_ssim_options,
    .state_size = sizeof(SsimState),
    .init = init,
    .extract = extract,
    .close = close_ssim,
};
