/* The CUDA twin of float_moment: the device gives the luma's four chains
 * (kernels.h); the host scores them with float_moment.c's own statements. */
#include <errno.h>

#include "cuda/device.h"
#include "cuda/kernels.h"
#include "feature/float_moment.h"

typedef struct FloatMomentTwin {
    unsigned w, h, bpc;
} FloatMomentTwin;

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    FloatMomentTwin *t = priv;
    if ((unsigned long long)fmt->w * fmt->h >= 1ull << 32)
        return vqx_fail(sink, -ENOTSUP, "float_moment: no CUDA twin for frames of 2^32 samples");
    *t = (FloatMomentTwin){ fmt->w, fmt->h, fmt->bpc };
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA);
    vqx_device_result_bytes(dev, sizeof(VqxCudaFloatSums));
    return 0;
}

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    const FloatMomentTwin *t = priv;
    return vqx_device_launched(dev, vqx_cuda_float_sums(
        f->ref[0], f->dis[0], f->pitch[0] / (t->bpc == 8 ? 1 : 2), t->w, t->h, t->bpc,
        VQX_CUDA_FLOAT_MOMENT, 0, f->result, f->stream), "float_moment");
}

static int collect(void *priv, const void *result, unsigned frame, VqxSink *sink)
{
    const FloatMomentTwin *t = priv;
    double sum[FLOAT_MOMENT_SUMS];
    for (unsigned k = 0; k < FLOAT_MOMENT_SUMS; k++) sum[k] = vqx_cuda_float_sum(result, k);
    return vqx_float_moment_emit(sum, t->w, t->h, frame, sink);
}

const VqxFeatureExtractor vqx_fex_float_moment_cuda = {
    .name = "float_moment",
    .backend = VQX_BACKEND_CUDA,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = vqx_float_moment_keys,
    .state_size = sizeof(FloatMomentTwin),
    .device_init = device_init,
    .record = record,
    .collect = collect,
};
