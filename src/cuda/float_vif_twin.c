/* The CUDA twin of float_vif: the device converts both lumas, filters and
 * scores every scale and makes the next scale's planes, with the CPU's
 * statements and sums (kernels.h); the host scores the sums with
 * float_vif.c's own statements. With vif_prescale the converted lumas are
 * resampled first (cuda/resample_kernels.h), as the CPU does. */
#include <errno.h>

#include "cuda/device.h"
#include "cuda/kernels.h"
#include "cuda/resampler.h"
#include "feature/float_vif.h"

typedef struct FloatVifTwin {
    FloatVifState cpu; /* first: the options live there */
    unsigned bpc;
    float *ref[FLOAT_VIF_SCALES], *dis[FLOAT_VIF_SCALES];
    /* with vif_prescale: the converted lumas at the frame's size, and the
     * resampler that makes scale 0 from them */
    float *input_ref, *input_dis;
    VqxCudaResampler prescale;
    float *filter[FLOAT_VIF_SCALES];
    float *moments, *terms, *row_sums, *rows;
} FloatVifTwin;

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    FloatVifTwin *t = priv;
    int ret = vqx_float_vif_setup(&t->cpu, fmt, sink);
    if (ret) return ret;
    t->bpc = fmt->bpc;
    const FloatVifPlane *p0 = &t->cpu.planes[0];
    /* scale 0 is the largest plane the scales read; vif_prescale may make
     * it larger or smaller than the frame */
    const size_t plane = (size_t)p0->w * p0->h;
    if (t->cpu.resample) {
        const size_t input = (size_t)fmt->w * fmt->h;
        ret = vqx_device_alloc_floats(dev, input, &t->input_ref, sink);
        if (!ret) ret = vqx_device_alloc_floats(dev, input, &t->input_dis, sink);
        if (!ret) ret = vqx_cuda_resampler_upload(&t->prescale, &t->cpu.resampler, dev, sink);
    }
    for (unsigned sc = 0; sc < FLOAT_VIF_SCALES && !ret; sc++) {
        const FloatVifPlane *p = &t->cpu.planes[sc];
        ret = vqx_device_alloc_floats(dev, (size_t)p->w * p->h, &t->ref[sc], sink);
        if (!ret) ret = vqx_device_alloc_floats(dev, (size_t)p->w * p->h, &t->dis[sc], sink);
        if (!ret) ret = vqx_device_alloc_floats(dev, t->cpu.filter_width[sc], &t->filter[sc], sink);
        if (!ret) ret = vqx_device_upload_table(dev, t->filter[sc], t->cpu.filter[sc],
                                                sizeof(float) * t->cpu.filter_width[sc], sink);
    }
    if (!ret) ret = vqx_device_alloc_floats(dev, 5 * plane, &t->moments, sink);
    if (!ret) ret = vqx_device_alloc_floats(dev, 2 * plane, &t->terms, sink);
    if (!ret) ret = vqx_device_alloc_floats(dev, 2 * (size_t)p0->h, &t->row_sums, sink);
    if (!ret) ret = vqx_device_alloc_floats(dev, plane / 2 + p0->w, &t->rows, sink);
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA);
    vqx_device_result_bytes(dev, sizeof(float[FLOAT_VIF_SCALES][2]));
    return ret;
}

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    const FloatVifTwin *t = priv;
    const FloatVifPlane *in = &t->cpu.input;
    const size_t pitch = f->pitch[0] / (t->bpc == 8 ? 1 : 2);
    float (*totals)[2] = f->result;
    /* as extract: both lumas to floats at the frame's size, then, with
     * vif_prescale, each resampled to scale 0 */
    float *conv_ref = t->cpu.resample ? t->input_ref : t->ref[0];
    float *conv_dis = t->cpu.resample ? t->input_dis : t->dis[0];
    int ret = vqx_device_launched(dev, vqx_cuda_float_convert(
        f->ref[0], pitch, (int)in->w, (int)in->h, t->bpc, -128.0f, conv_ref, f->stream),
        "float_vif");
    if (!ret) ret = vqx_device_launched(dev, vqx_cuda_float_convert(
        f->dis[0], pitch, (int)in->w, (int)in->h, t->bpc, -128.0f, conv_dis, f->stream),
        "float_vif");
    if (t->cpu.resample) {
        const FloatVifPlane *p0 = &t->cpu.planes[0];
        if (!ret) ret = vqx_device_launched(dev, vqx_cuda_resample(
            &t->prescale, conv_ref, in->stride, 0, t->ref[0], p0->stride, 0, 1, f->stream),
            "float_vif prescale");
        if (!ret) ret = vqx_device_launched(dev, vqx_cuda_resample(
            &t->prescale, conv_dis, in->stride, 0, t->dis[0], p0->stride, 0, 1, f->stream),
            "float_vif prescale");
    }
    for (unsigned sc = t->cpu.skip_scale0 ? 1 : 0; sc < FLOAT_VIF_SCALES && !ret; sc++) {
        const FloatVifPlane *p = &t->cpu.planes[sc];
        if (sc > 0) {
            const FloatVifPlane *src = &t->cpu.planes[sc - 1];
            const VqxCudaFloatVifDown down = {
                .src_ref = t->ref[sc - 1], .src_dis = t->dis[sc - 1],
                .src_w = (int)src->w, .src_h = (int)src->h, .ref = t->ref[sc], .dis = t->dis[sc],
                .w = (int)p->w, .h = (int)p->h, .filter = t->filter[sc],
                .width = (int)t->cpu.filter_width[sc], .rows = t->rows,
            };
            ret = vqx_device_launched(dev, vqx_cuda_float_vif_downsample(&down, f->stream),
                                      "float_vif");
            if (ret) break;
        }
        const VqxCudaFloatVifScale job = {
            .ref = t->ref[sc], .dis = t->dis[sc], .w = (int)p->w, .h = (int)p->h,
            .filter = t->filter[sc], .width = (int)t->cpu.filter_width[sc],
            .stat = vqx_float_vif_stat(&t->cpu), .moments = t->moments, .terms = t->terms,
            .row_sums = t->row_sums, .total = totals[sc],
        };
        ret = vqx_device_launched(dev, vqx_cuda_float_vif_scale(&job, f->stream), "float_vif");
    }
    return ret;
}

static int collect(void *priv, const void *result, unsigned frame, VqxSink *sink)
{
    const float (*totals)[2] = result;
    float num[FLOAT_VIF_SCALES], den[FLOAT_VIF_SCALES];
    for (unsigned sc = 0; sc < FLOAT_VIF_SCALES; sc++) {
        num[sc] = totals[sc][0];
        den[sc] = totals[sc][1];
    }
    return vqx_float_vif_emit(priv, num, den, frame, sink);
}

const VqxFeatureExtractor vqx_fex_float_vif_cuda = {
    .name = "float_vif",
    .backend = VQX_BACKEND_CUDA,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = vqx_float_vif_keys,
    .options = vqx_float_vif_options,
    .state_size = sizeof(FloatVifTwin),
    .close = vqx_float_vif_close,
    .device_init = device_init,
    .record = record,
    .collect = collect,
};
