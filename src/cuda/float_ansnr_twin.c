/* The CUDA twin of float_ansnr: the device filters both lumas and sums
 * the energies as the CPU does (kernels.h); the host scores them with
 * float_ansnr.c's own statements. */
#include <string.h>

#include "cuda/device.h"
#include "cuda/kernels.h"
#include "feature/float_ansnr.h"

typedef struct FloatAnsnrTwin {
    FloatAnsnrState cpu; /* first: the CPU's scoring reads it */
    unsigned bpc;
    float *taps, *terms, *row_sums;
} FloatAnsnrTwin;

enum { N_REF_TAPS = FLOAT_ANSNR_REF_TAPS * FLOAT_ANSNR_REF_TAPS,
       N_DIS_TAPS = FLOAT_ANSNR_DIS_TAPS * FLOAT_ANSNR_DIS_TAPS };

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    FloatAnsnrTwin *t = priv;
    int ret = vqx_float_ansnr_setup(&t->cpu, fmt, sink);
    if (ret) return ret;
    t->bpc = fmt->bpc;
    float taps[N_REF_TAPS + N_DIS_TAPS];
    memcpy(taps, vqx_float_ansnr_ref_filter, sizeof(vqx_float_ansnr_ref_filter));
    memcpy(taps + N_REF_TAPS, vqx_float_ansnr_dis_filter, sizeof(vqx_float_ansnr_dis_filter));
    if (!ret) ret = vqx_device_alloc(dev, sizeof(taps), (void **)&t->taps, sink);
    if (!ret) ret = vqx_device_upload_table(dev, t->taps, taps, sizeof(taps), sink);
    if (!ret) ret = vqx_device_alloc_floats(dev, 2 * (size_t)fmt->w * fmt->h, &t->terms, sink);
    if (!ret) ret = vqx_device_alloc_floats(dev, 2 * (size_t)fmt->h, &t->row_sums, sink);
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA);
    vqx_device_result_bytes(dev, 2 * sizeof(float));
    return ret;
}

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    const FloatAnsnrTwin *t = priv;
    const VqxCudaFloatAnsnr job = {
        .ref = f->ref[0], .dis = f->dis[0], .pitch = f->pitch[0] / (t->bpc == 8 ? 1 : 2),
        .w = t->cpu.w, .h = t->cpu.h, .bpc = t->bpc, .taps = t->taps,
        .terms = t->terms, .row_sums = t->row_sums,
    };
    return vqx_device_launched(dev, vqx_cuda_float_ansnr(&job, f->result, f->stream),
                               "float_ansnr");
}

static int collect(void *priv, const void *result, unsigned frame, VqxSink *sink)
{
    const float *energy = result;
    return vqx_float_ansnr_emit(priv, energy[0], energy[1], frame, sink);
}

const VqxFeatureExtractor vqx_fex_float_ansnr_cuda = {
    .name = "float_ansnr",
    .backend = VQX_BACKEND_CUDA,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = vqx_float_ansnr_keys,
    .state_size = sizeof(FloatAnsnrTwin),
    .device_init = device_init,
    .record = record,
    .collect = collect,
};
