/* The CUDA twins of float_ssim and float_ms_ssim: the device converts both
 * lumas, decimates them (float_ssim's box, float_ms_ssim's pyramid), makes
 * every position's SSIM terms and adds each sum as the CPU's chain
 * (ssim_kernels.h); the host makes the means and scores them with ssim.c's
 * and ms_ssim.c's own statements. */
#include "cuda/device.h"
#include "cuda/kernels.h"
#include "cuda/ssim_kernels.h"
#include "feature/ssim.h"

_Static_assert(VQX_MS_SSIM_SCALES <= VQX_CUDA_SSIM_MAX_PLANES, "a chain per scale");

/* Positions of the valid region of a w x h plane. */
static size_t positions(unsigned w, unsigned h)
{
    return (size_t)(w - (VQX_SSIM_WINDOW - 1)) * (h - (VQX_SSIM_WINDOW - 1));
}

/* The device buffers of the SSIM of planes up to w x h: the horizontal
 * pass, shared by the planes (they run in stream order) ... */
static int alloc_work(VqxDevice *dev, unsigned w, unsigned h, float **horizontal,
                      VqxSink *sink)
{
    return vqx_device_alloc_floats(dev, (size_t)VQX_SSIM_N_STATS * (w - (VQX_SSIM_WINDOW - 1)) * h,
                                   horizontal, sink);
}

/* ... and a plane's terms. */
static int alloc_terms(VqxDevice *dev, unsigned w, unsigned h, double **terms, VqxSink *sink)
{
    return vqx_device_alloc(dev, VQX_SSIM_N_TERMS * positions(w, h) * sizeof(double),
                            (void **)terms, sink);
}

/* Both lumas as floats (float_picture.h, no offset) into ref, cmp. */
static int convert(const VqxDeviceFrame *f, unsigned bpc, unsigned w, unsigned h, float *ref,
                   float *cmp, VqxDevice *dev, const char *name)
{
    const size_t pitch = f->pitch[0] / (bpc == 8 ? 1 : 2);
    int ret = vqx_device_launched(dev, vqx_cuda_float_convert(f->ref[0], pitch, (int)w, (int)h,
                                                              bpc, 0.0f, ref, f->stream), name);
    if (!ret)
        ret = vqx_device_launched(dev, vqx_cuda_float_convert(f->dis[0], pitch, (int)w, (int)h,
                                                              bpc, 0.0f, cmp, f->stream), name);
    return ret;
}

static int terms(const float *ref, const float *cmp, unsigned w, unsigned h, float *horizontal,
                 double *out, const VqxDeviceFrame *f, VqxDevice *dev, const char *name)
{
    const VqxCudaSsimPlane plane = { .ref = ref, .cmp = cmp, .w = (int)w, .h = (int)h,
                                     .horizontal = horizontal, .terms = out };
    return vqx_device_launched(dev, vqx_cuda_ssim_terms(&plane, f->stream), name);
}

/* ---- float_ssim ---- */

typedef struct SsimTwin {
    SsimState cpu; /* first: the options live there */
    unsigned bpc;
    float *full[2];  /* factor > 1: the converted lumas */
    float *plane[2]; /* the lumas SSIM sees */
    float *horizontal;
    double *terms;
} SsimTwin;

static int ssim_device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    SsimTwin *t = priv;
    SsimState *s = &t->cpu;
    int ret = vqx_float_ssim_setup(s, fmt, sink);
    if (ret) return ret;
    t->bpc = fmt->bpc;
    for (int i = 0; i < 2 && !ret; i++) {
        ret = vqx_device_alloc_floats(dev, (size_t)s->dw * s->dh, &t->plane[i], sink);
        if (!ret && s->factor > 1)
            ret = vqx_device_alloc_floats(dev, (size_t)s->w * s->h, &t->full[i], sink);
    }
    if (!ret) ret = alloc_work(dev, s->dw, s->dh, &t->horizontal, sink);
    if (!ret) ret = alloc_terms(dev, s->dw, s->dh, &t->terms, sink);
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA);
    vqx_device_result_bytes(dev, sizeof(double[VQX_SSIM_N_SUMS]));
    return ret;
}

static int ssim_record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    const SsimTwin *t = priv;
    const SsimState *s = &t->cpu;
    float *const *converted = s->factor > 1 ? t->full : t->plane;
    int ret = convert(f, t->bpc, s->w, s->h, converted[0], converted[1], dev, "float_ssim");
    for (int i = 0; i < 2 && !ret && s->factor > 1; i++)
        ret = vqx_device_launched(dev, vqx_cuda_ssim_box(t->full[i], (int)s->w, (int)s->h,
                                                         s->factor, t->plane[i], (int)s->dw,
                                                         (int)s->dh, f->stream), "float_ssim");
    if (!ret)
        ret = terms(t->plane[0], t->plane[1], s->dw, s->dh, t->horizontal, t->terms, f, dev,
                    "float_ssim");
    if (ret) return ret;
    /* without enable_lcs only the SSIM sum is read */
    const VqxCudaSsimChains chains = {
        .terms = { t->terms }, .positions = { positions(s->dw, s->dh) }, .n_planes = 1,
        .sums = s->enable_lcs ? (1u << VQX_SSIM_N_SUMS) - 1 : 1u << VQX_SSIM_SUM_SSIM,
    };
    return vqx_device_launched(dev, vqx_cuda_ssim_sums(&chains, f->result, f->stream),
                               "float_ssim");
}

static int ssim_collect(void *priv, const void *result, unsigned frame, VqxSink *sink)
{
    const SsimTwin *t = priv;
    VqxSsimMeans m;
    vqx_ssim_means(result, t->cpu.dw, t->cpu.dh, &m);
    return vqx_float_ssim_emit(&t->cpu, &m, frame, sink);
}

const VqxFeatureExtractor vqx_fex_float_ssim_cuda = {
    .name = "float_ssim",
    .backend = VQX_BACKEND_CUDA,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = vqx_float_ssim_keys,
    .options = vqx_float_ssim_options,
    .state_size = sizeof(SsimTwin),
    .device_init = ssim_device_init,
    .record = ssim_record,
    .collect = ssim_collect,
};

/* ---- float_ms_ssim ---- */

#define SCALES VQX_MS_SSIM_SCALES

typedef struct MsSsimTwin {
    MsSsimState cpu; /* first: the options live there */
    unsigned bpc;
    float *ref[SCALES], *cmp[SCALES]; /* the pyramids */
    float *horizontal;
    double *terms[SCALES]; /* per scale: the chains run after the last scale */
} MsSsimTwin;

static int ms_ssim_device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev,
                               VqxSink *sink)
{
    MsSsimTwin *t = priv;
    const MsSsimState *s = &t->cpu;
    int ret = vqx_float_ms_ssim_setup(&t->cpu, fmt, sink);
    if (ret) return ret;
    t->bpc = fmt->bpc;
    for (unsigned i = 0; i < SCALES && !ret; i++) {
        const size_t n = (size_t)s->w[i] * s->h[i];
        ret = vqx_device_alloc_floats(dev, n, &t->ref[i], sink);
        if (!ret) ret = vqx_device_alloc_floats(dev, n, &t->cmp[i], sink);
        if (!ret) ret = alloc_terms(dev, s->w[i], s->h[i], &t->terms[i], sink);
    }
    if (!ret) ret = alloc_work(dev, s->w[0], s->h[0], &t->horizontal, sink);
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA);
    vqx_device_result_bytes(dev, sizeof(double[SCALES][VQX_SSIM_N_SUMS]));
    return ret;
}

static int ms_ssim_record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    const MsSsimTwin *t = priv;
    const MsSsimState *s = &t->cpu;
    int ret = convert(f, t->bpc, s->w[0], s->h[0], t->ref[0], t->cmp[0], dev, "float_ms_ssim");
    for (unsigned i = 0; i < SCALES && !ret; i++) {
        if (i) {
            ret = vqx_device_launched(dev, vqx_cuda_ssim_lpf(t->ref[i - 1], (int)s->w[i - 1],
                                                             (int)s->h[i - 1], t->ref[i],
                                                             (int)s->w[i], (int)s->h[i],
                                                             f->stream), "float_ms_ssim");
            if (!ret)
                ret = vqx_device_launched(dev, vqx_cuda_ssim_lpf(t->cmp[i - 1], (int)s->w[i - 1],
                                                                 (int)s->h[i - 1], t->cmp[i],
                                                                 (int)s->w[i], (int)s->h[i],
                                                                 f->stream), "float_ms_ssim");
        }
        if (!ret)
            ret = terms(t->ref[i], t->cmp[i], s->w[i], s->h[i], t->horizontal, t->terms[i], f,
                        dev, "float_ms_ssim");
    }
    if (ret) return ret;
    /* MS-SSIM reads the means of l, c and s, not of their product */
    VqxCudaSsimChains chains = {
        .n_planes = SCALES,
        .sums = 1u << VQX_SSIM_SUM_L | 1u << VQX_SSIM_SUM_C | 1u << VQX_SSIM_SUM_S,
    };
    for (unsigned i = 0; i < SCALES; i++) {
        chains.terms[i] = t->terms[i];
        chains.positions[i] = positions(s->w[i], s->h[i]);
    }
    return vqx_device_launched(dev, vqx_cuda_ssim_sums(&chains, f->result, f->stream),
                               "float_ms_ssim");
}

static int ms_ssim_collect(void *priv, const void *result, unsigned frame, VqxSink *sink)
{
    const MsSsimTwin *t = priv;
    const double(*sums)[VQX_SSIM_N_SUMS] = result;
    VqxSsimMeans m[SCALES];
    for (unsigned i = 0; i < SCALES; i++) vqx_ssim_means(sums[i], t->cpu.w[i], t->cpu.h[i], &m[i]);
    return vqx_float_ms_ssim_emit(&t->cpu, m, frame, sink);
}

const VqxFeatureExtractor vqx_fex_float_ms_ssim_cuda = {
    .name = "float_ms_ssim",
    .backend = VQX_BACKEND_CUDA,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = vqx_float_ms_ssim_keys,
    .options = vqx_float_ms_ssim_options,
    .state_size = sizeof(MsSsimTwin),
    .device_init = ms_ssim_device_init,
    .record = ms_ssim_record,
    .collect = ms_ssim_collect,
};
