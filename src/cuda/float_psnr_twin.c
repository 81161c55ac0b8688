/* The CUDA twin of float_psnr: the device gives the luma's chain of
 * squared errors (kernels.h); the host scores it with float_psnr.c's own
 * statements. */
#include <errno.h>

#include "cuda/device.h"
#include "cuda/kernels.h"
#include "feature/float_psnr.h"

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    FloatPsnrState *s = priv;
    if ((unsigned long long)fmt->w * fmt->h >= 1ull << 32)
        return vqx_fail(sink, -ENOTSUP, "float_psnr: no CUDA twin for frames of 2^32 samples");
    vqx_float_psnr_setup(s, fmt);
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA);
    vqx_device_result_bytes(dev, sizeof(VqxCudaFloatSums));
    return 0;
}

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    const FloatPsnrState *s = priv;
    return vqx_device_launched(dev, vqx_cuda_float_sums(
        f->ref[0], f->dis[0], f->pitch[0] / (s->bpc == 8 ? 1 : 2), s->w, s->h, s->bpc,
        VQX_CUDA_FLOAT_PSNR, 0, f->result, f->stream), "float_psnr");
}

static int collect(void *priv, const void *result, unsigned frame, VqxSink *sink)
{
    return vqx_float_psnr_emit(priv, vqx_cuda_float_sum(result, 0), frame, sink);
}

const VqxFeatureExtractor vqx_fex_float_psnr_cuda = {
    .name = "float_psnr",
    .backend = VQX_BACKEND_CUDA,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = vqx_float_psnr_keys,
    .state_size = sizeof(FloatPsnrState),
    .device_init = device_init,
    .record = record,
    .collect = collect,
};
