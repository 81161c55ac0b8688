/*
 * float_ms_ssim: multi-scale SSIM of the luma (Wang, Simoncelli, Bovik
 * 2003) over five scales of a 9/7 wavelet low-pass pyramid, equal to
 * libvmaf's float_ms_ssim.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "feature/ssim.h"

#define SCALES VQX_MS_SSIM_SCALES

/* Exponents of luminance, contrast and structure at each scale, from
 * libvmaf src/feature/ms_ssim.c (Netflix, BSD+Patent). */
static const float alphas[SCALES] = { 0.0000f, 0.0000f, 0.0000f, 0.0000f, 0.1333f };
static const float betas[SCALES] = { 0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f };
static const float gammas[SCALES] = { 0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f };

/* Per-scale keys in libvmaf's order: l for every scale, then c, then s. */
enum { KEY_MS_SSIM, KEY_L0, KEY_C0 = KEY_L0 + SCALES, KEY_S0 = KEY_C0 + SCALES };

const char *const vqx_float_ms_ssim_keys[] = {
    "float_ms_ssim",
    "float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1", "float_ms_ssim_l_scale2",
    "float_ms_ssim_l_scale3", "float_ms_ssim_l_scale4",
    "float_ms_ssim_c_scale0", "float_ms_ssim_c_scale1", "float_ms_ssim_c_scale2",
    "float_ms_ssim_c_scale3", "float_ms_ssim_c_scale4",
    "float_ms_ssim_s_scale0", "float_ms_ssim_s_scale1", "float_ms_ssim_s_scale2",
    "float_ms_ssim_s_scale3", "float_ms_ssim_s_scale4",
    NULL
};

const VqxOption vqx_float_ms_ssim_options[] = {
    { .name = "enable_lcs", .help = "also write luminance, contrast and structure of every scale",
      .type = VQX_OPT_BOOL, .offset = offsetof(MsSsimState, enable_lcs), .def.b = false },
    { .name = "enable_db", .help = "write MS-SSIM as dB: -10 log10(1 - ms_ssim)",
      .type = VQX_OPT_BOOL, .offset = offsetof(MsSsimState, enable_db), .def.b = false },
    { .name = "clip_db", .help = "cap the dB value (from an MSE of 0.5 / pixels)",
      .type = VQX_OPT_BOOL, .offset = offsetof(MsSsimState, clip_db), .def.b = false },
    { 0 }
};

/* libvmaf checks the five scales with sizes halved downwards, w / 16 >= 11,
 * while the pyramid itself rounds up; vqx accepts exactly what it accepts. */
#define MIN_SIDE (VQX_SSIM_WINDOW << (SCALES - 1))

int vqx_float_ms_ssim_setup(MsSsimState *s, const VqxFrameFormat *fmt, VqxSink *sink)
{
    if (fmt->w < MIN_SIDE || fmt->h < MIN_SIDE)
        return vqx_fail(sink, -EINVAL,
                        "float_ms_ssim: %ux%u luma is too small for %d scales; "
                        "width and height must be at least %d",
                        fmt->w, fmt->h, SCALES, MIN_SIDE);
    s->max_db = vqx_ssim_max_db(fmt->bpc, fmt->w, fmt->h, s->clip_db);
    for (unsigned i = 0; i < SCALES; i++) {
        s->w[i] = i ? vqx_ssim_decimated(s->w[i - 1], 2) : fmt->w;
        s->h[i] = i ? vqx_ssim_decimated(s->h[i - 1], 2) : fmt->h;
    }
    return 0;
}

int vqx_float_ms_ssim_emit(const MsSsimState *s, const VqxSsimMeans m[SCALES], unsigned frame,
                           VqxSink *sink)
{
    double ms_ssim = 1.0;
    for (unsigned i = 0; i < SCALES; i++)
        ms_ssim *= pow(m[i].l, alphas[i]) * pow(m[i].c, betas[i]) * pow(m[i].s, gammas[i]);

    if (s->enable_db) ms_ssim = vqx_ssim_to_db(ms_ssim, s->max_db);
    int err = vqx_emit(sink, KEY_MS_SSIM, frame, ms_ssim);
    if (s->enable_lcs) {
        for (unsigned i = 0; i < SCALES; i++) {
            err |= vqx_emit(sink, KEY_L0 + i, frame, m[i].l);
            err |= vqx_emit(sink, KEY_C0 + i, frame, m[i].c);
            err |= vqx_emit(sink, KEY_S0 + i, frame, m[i].s);
        }
    }
    return err;
}

static int init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    MsSsimState *s = priv;
    vqx_float_picture_dsp_init(&s->pic_dsp, fmt->cpu_flags);
    const int ret = vqx_float_ms_ssim_setup(s, fmt, sink);
    if (ret) return ret;
    for (unsigned i = 0; i < SCALES; i++) {
        const size_t n = (size_t)s->w[i] * s->h[i];
        s->ref[i] = malloc(n * sizeof(float));
        s->cmp[i] = malloc(n * sizeof(float));
        if (!s->ref[i] || !s->cmp[i]) return -ENOMEM;
    }
    return vqx_ssim_scratch_init(&s->scratch, fmt->w, fmt->cpu_flags);
}

static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    MsSsimState *s = priv;
    vqx_float_plane(&s->pic_dsp, s->ref[0], s->w[0], ref, 0, 0.0f);
    vqx_float_plane(&s->pic_dsp, s->cmp[0], s->w[0], dis, 0, 0.0f);

    VqxSsimMeans m[SCALES];
    for (unsigned i = 0; i < SCALES; i++) {
        if (i) {
            const SsimDSPContext *dsp = &s->scratch.dsp;
            dsp->lpf_decimate(s->ref[i - 1], s->w[i - 1], s->w[i - 1], s->h[i - 1], s->ref[i],
                              s->w[i]);
            dsp->lpf_decimate(s->cmp[i - 1], s->w[i - 1], s->w[i - 1], s->h[i - 1], s->cmp[i],
                              s->w[i]);
        }
        vqx_ssim_plane(&s->scratch, s->ref[i], s->cmp[i], s->w[i], s->w[i], s->h[i], &m[i]);
    }
    return vqx_float_ms_ssim_emit(s, m, frame, sink);
}

static void close_ms_ssim(void *priv)
{
    MsSsimState *s = priv;
    for (unsigned i = 0; i < SCALES; i++) {
        free(s->ref[i]);
        free(s->cmp[i]);
    }
    vqx_ssim_scratch_free(&s->scratch);
}

const VqxFeatureExtractor vqx_fex_float_ms_ssim = {
    .name = "float_ms_ssim",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = vqx_float_ms_ssim_keys,
    .options = vqx_float_ms_ssim_options,
    .state_size = sizeof(MsSsimState),
    .init = init,
    .extract = extract,
    .close = close_ms_ssim,
};
