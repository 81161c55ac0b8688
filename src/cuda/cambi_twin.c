/* The CUDA twin of cambi: the device loads, smooths, masks, and at every
 * scale halves, filters and computes the contrast values of each picture,
 * and pools each scale's top-k mean; the host forms the scores from the
 * five means (device/cambi_twin.h), and writes the heatmaps the device
 * made with cambi.c's file code. */
#include <errno.h>
#include <stdint.h>

#include "cuda/cambi_kernels.h"
#include "cuda/device.h"
#include "cuda/top_mean.h"
#include "device/cambi_twin.h"
#include "feature/top_mean.h"

/* vqx_cuda_top_mean takes fewer values than this (2^24). */
#define TOP_MEAN_LIMIT (1u << 24)

/* The twin's part of the result block; the heatmaps of the distorted
 * picture's scales follow it when asked. */
typedef struct CambiResult {
    double mean[2][CAMBI_SCALES];  /* [CAMBI_DIS / CAMBI_SRC][scale] */
} CambiResult;

typedef struct CambiTwin {
    CambiState cpu; /* first: the options and constants live there */
    unsigned *rows[2], *cols[2];   /* device copies of the geometries' maps */
    float *reciprocal;
    uint16_t *image[2];            /* the current scale and the next */
    uint8_t *mask[2];
    float *contrast;
    void *scratch;                 /* the top-k selection's */
    VqxCudaCambiContrast params;
    unsigned columns;              /* of a contrast block */
    size_t heat_at[CAMBI_SCALES];  /* byte offsets of the heatmaps in the result */
    unsigned in_w, in_h;           /* the input luma */
} CambiTwin;

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    CambiTwin *t = priv;
    CambiState *s = &t->cpu;
    int ret = vqx_cambi_setup(s, fmt, sink);
    if (ret) return ret;
    const unsigned pictures = vqx_cambi_twin_pictures(s);
    size_t samples, pooled;
    vqx_cambi_twin_largest(s, &samples, &pooled);
    if (pooled >= TOP_MEAN_LIMIT) {
        vqx_cambi_close(s); /* the CPU extractor sets up again */
        return vqx_fail(sink, -ENOTSUP, "the device pools scales below %u pixels",
                        TOP_MEAN_LIMIT);
    }
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA);
    t->in_w = fmt->w;
    t->in_h = fmt->h;

    size_t result = sizeof(CambiResult);
    for (unsigned scale = 0; scale < CAMBI_SCALES && s->heatmaps_path; scale++) {
        unsigned w, h;
        vqx_cambi_scale_size(s, &s->dis, scale, &w, &h);
        t->heat_at[scale] = result;
        result += (size_t)w * h * sizeof(uint16_t);
    }
    vqx_device_result_bytes(dev, (result + 7) & ~(size_t)7);

    for (unsigned i = 0; i < 2 && !ret; i++) {
        ret = vqx_device_alloc(dev, samples * sizeof(uint16_t), (void **)&t->image[i], sink);
        if (!ret) ret = vqx_device_alloc(dev, samples, (void **)&t->mask[i], sink);
    }
    if (!ret) ret = vqx_device_alloc(dev, samples * sizeof(float), (void **)&t->contrast, sink);
    if (!ret) ret = vqx_device_alloc(dev, vqx_cuda_top_mean_scratch_bytes((unsigned)pooled),
                                     &t->scratch, sink);
    if (!ret) ret = vqx_device_alloc(dev, sizeof(s->reciprocal), (void **)&t->reciprocal, sink);
    if (!ret) ret = vqx_device_upload_table(dev, t->reciprocal, s->reciprocal,
                                            sizeof(s->reciprocal), sink);
    for (unsigned pic = 0; pic < pictures && !ret; pic++) {
        const CambiGeometry *g = vqx_cambi_twin_geometry(s, pic);
        ret = vqx_device_alloc(dev, g->h * sizeof(unsigned), (void **)&t->rows[pic], sink);
        if (!ret) ret = vqx_device_alloc(dev, g->w * sizeof(unsigned), (void **)&t->cols[pic], sink);
        if (!ret) ret = vqx_device_upload_table(dev, t->rows[pic], g->rows,
                                                g->h * sizeof(unsigned), sink);
        if (!ret) ret = vqx_device_upload_table(dev, t->cols[pic], g->cols,
                                                g->w * sizeof(unsigned), sink);
    }
    if (ret) return ret;

    VqxCudaCambiContrast *p = &t->params;
    p->n_steps = s->n_steps;
    p->band_lo = s->band_lo;
    p->band_size = s->band_size;
    p->vlt = s->vlt_luma;
    p->pad = s->dis.window >> 1;
    for (unsigned d = 0; d < CAMBI_MAX_STEPS; d++) {
        p->tvi[d] = s->tvi[d];
        p->weight[d] = vqx_cambi_step_weights[d];
    }
    p->reciprocal = t->reciprocal;
    int status = 0;
    t->columns = vqx_cuda_cambi_contrast_columns(s->band_size, vqx_cambi_twin_max_pad(s),
                                                 &status);
    if (!t->columns)
        return vqx_fail(sink, -EIO, "cambi: the device refuses the contrast kernel's shared "
                        "memory (CUDA error %d)", status);
    return 0;
}

/* Picture `pic` of the frame, from its device plane to the five means. */
static int record_picture(CambiTwin *t, const VqxDeviceFrame *f, unsigned pic, VqxDevice *dev)
{
    const CambiState *s = &t->cpu;
    const CambiGeometry *g = vqx_cambi_twin_geometry(s, pic);
    CambiResult *result = f->result;
    const void *plane = pic == CAMBI_DIS ? f->dis[0] : f->ref[0];
    const size_t pitch = f->pitch[0] / (s->bpc == 8 ? 1 : 2);
    void *stream = f->stream;
    int ret = vqx_device_launched(dev, vqx_cuda_cambi_load(
        plane, pitch, s->bpc, t->rows[pic], t->cols[pic], g->w, g->h, s->smooth, t->image[0],
        stream), "cambi load");
    if (!ret) ret = vqx_device_launched(dev, vqx_cuda_cambi_mask(
        t->image[0], g->w, g->h, g->mask_threshold, t->mask[0], stream), "cambi mask");

    VqxCudaCambiContrast params = t->params;
    params.pad = g->window >> 1;
    const double gain = vqx_cambi_heat_gain(s);
    unsigned image = 0, mask = 0, w = g->w, h = g->h;
    for (unsigned scale = 0; scale < CAMBI_SCALES && !ret; scale++) {
        const bool halve = scale || s->halve_first;
        ret = vqx_device_launched(dev, vqx_cuda_cambi_scale(
            t->image[image], t->mask[mask], w, h, halve, t->image[!image], t->mask[!mask], NULL,
            stream), "cambi scale");
        image = !image;
        if (halve) {
            mask = !mask;
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
        }
        uint16_t *heat = s->heatmaps_path && pic == CAMBI_DIS ?
                         (uint16_t *)((char *)f->result + t->heat_at[scale]) : NULL;
        if (!ret) ret = vqx_device_launched(dev, vqx_cuda_cambi_contrast(
            &params, t->image[image], t->mask[mask], w, h, t->columns, t->contrast, gain, heat,
            stream), "cambi contrast");
        const unsigned n = w * h;
        if (!ret) ret = vqx_device_launched(dev, vqx_cuda_top_mean(
            t->contrast, n, (unsigned)vqx_top_count((int)n, s->pool_topk), t->scratch,
            &result->mean[pic][scale], stream), "cambi top-k mean");
    }
    return ret;
}

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    CambiTwin *t = priv;
    int ret = record_picture(t, f, CAMBI_DIS, dev);
    if (!ret && t->cpu.full_ref) ret = record_picture(t, f, CAMBI_SRC, dev);
    return ret;
}

static int collect(void *priv, const void *block, unsigned frame, VqxSink *sink)
{
    CambiTwin *t = priv;
    const CambiState *s = &t->cpu;
    const CambiResult *r = block;
    int err = 0;
    for (unsigned scale = 0; scale < CAMBI_SCALES && s->heatmaps_path && !err; scale++) {
        unsigned w, h;
        vqx_cambi_scale_size(s, &s->dis, scale, &w, &h);
        err = vqx_cambi_write_heatmap(s, scale, w, h, frame,
                                      (const uint16_t *)((const char *)block + t->heat_at[scale]),
                                      sink);
    }
    return err ? err : vqx_cambi_twin_emit(s, frame, r->mean, sink);
}

const VqxFeatureExtractor vqx_fex_cambi_cuda = {
    .name = "cambi",
    .backend = VQX_BACKEND_CUDA,
    .keys = vqx_cambi_keys,
    .unsuffixed_keys = CAMBI_UNSUFFIXED_KEYS,
    .options = vqx_cambi_options,
    .state_size = sizeof(CambiTwin),
    .device_init = device_init,
    .record = record,
    .collect = collect,
    .close = vqx_cambi_close,
};
