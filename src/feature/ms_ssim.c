/*
 * float_ms_ssim: multi-scale SSIM of the luma (Wang, Simoncelli, Bovik
 * 2003) over five scales of a 9/7 wavelet low-pass pyramid, equal to
 * libvmaf's float_ms_ssim.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "feature/extractor.h"
#include "feature/float_picture.h"
#include "feature/ssim_core.h"

#define SCALES 5

/* Exponents of luminance, contrast and structure at each scale, from
 * libvmaf src/feature/ms_ssim.c (Netflix, BSD+Patent). */
static const float alphas[SCALES] = { 0.0000f, 0.0000f, 0.0000f, 0.0000f, 0.1333f };
static const float betas[SCALES] = { 0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f };
static const float gammas[SCALES] = { 0.0448f, 0.2856f, 0.3001f, 0.2363f, 0.1333f };

typedef struct MsSsimState {
    bool enable_lcs;
    bool enable_db;
    bool clip_db;

    double max_db;
    unsigned w[SCALES], h[SCALES];
    float *ref[SCALES], *cmp[SCALES]; /* the pyramid, each scale at stride w[i] */
    VqxSsimScratch scratch;
    FloatPictureDSPContext pic_dsp; /* the samples' conversion to floats */
} MsSsimState;

/* Per-scale keys in libvmaf's order: l for every scale, then c, then s. */
enum { KEY_MS_SSIM, KEY_L0, KEY_C0 = KEY_L0 + SCALES, KEY_S0 = KEY_C0 + SCALES };

static const char *const keys[] = {
    "float_ms_ssim",
    "float_ms_ssim_l_scale0", "float_ms_ssim_l_scale1", "float_ms_ssim_l_scale2",
    "float_ms_ssim_l_scale3", "float_ms_ssim_l_scale4",
    "float_ms_ssim_c_scale0", "float_ms_ssim_c_scale1", "float_ms_ssim_c_scale2",
    "float_ms_ssim_c_scale3", "float_ms_ssim_c_scale4",
    "float_ms_ssim_s_scale0", "float_ms_ssim_s_scale1", "float_ms_ssim_s_scale2",
    "float_ms_ssim_s_scale3", "float_ms_ssim_s_scale4",
    NULL
};

static const VqxOption options[] = {
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

static int init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    MsSsimState *s = priv;
    vqx_float_picture_dsp_init(&s->pic_dsp, fmt->cpu_flags);
    if (fmt->w < MIN_SIDE || fmt->h < MIN_SIDE)
        return vqx_fail(sink, -EINVAL,
                        "float_ms_ssim: %ux%u luma is too small for %d scales; "
                        "width and height must be at least %d",
                        fmt->w, fmt->h, SCALES, MIN_SIDE);

    s->max_db = vqx_ssim_max_db(fmt->bpc, fmt->w, fmt->h, s->clip_db);

    for (unsigned i = 0; i < SCALES; i++) {
        s->w[i] = i ? vqx_ssim_decimated(s->w[i - 1], 2) : fmt->w;
        s->h[i] = i ? vqx_ssim_decimated(s->h[i - 1], 2) : fmt->h;
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

    double ms_ssim = 1.0;
    double l[SCALES], c[SCALES], st[SCALES];
    for (unsigned i = 0; i < SCALES; i++) {
        if (i) {
            const SsimDSPContext *dsp = &s->scratch.dsp;
            dsp->lpf_decimate(s->ref[i - 1], s->w[i - 1], s->w[i - 1], s->h[i - 1], s->ref[i],
                              s->w[i]);
            dsp->lpf_decimate(s->cmp[i - 1], s->w[i - 1], s->w[i - 1], s->h[i - 1], s->cmp[i],
                              s->w[i]);
        }
        VqxSsimMeans m;
        vqx_ssim_plane(&s->scratch, s->ref[i], s->cmp[i], s->w[i], s->w[i], s->h[i], &m);
        ms_ssim *= pow(m.l, alphas[i]) * pow(m.c, betas[i]) * pow(m.s, gammas[i]);
        l[i] = m.l;
        c[i] = m.c;
        st[i] = m.s;
    }

    if (s->enable_db) ms_ssim = vqx_ssim_to_db(ms_ssim, s->max_db);
    int err = vqx_emit(sink, KEY_MS_SSIM, frame, ms_ssim);
    if (s->enable_lcs) {
        for (unsigned i = 0; i < SCALES; i++) {
            err |= vqx_emit(sink, KEY_L0 + i, frame, l[i]);
            err |= vqx_emit(sink, KEY_C0 + i, frame, c[i]);
            err |= vqx_emit(sink, KEY_S0 + i, frame, st[i]);
        }
    }
    return err;
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
    .keys = keys,
    .options = options,
    .state_size = sizeof(MsSsimState),
    .init = init,
    .extract = extract,
    .close = close_ms_ssim,
};
