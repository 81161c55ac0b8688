/* The CUDA twin of psnr: the device sums each plane's squared errors; the
 * host part (device/psnr_twin.h) scores them. */
#include "cuda/device.h"
#include "cuda/kernels.h"
#include "device/psnr_twin.h"

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    return vqx_psnr_twin_init(priv, fmt, dev, sink);
}

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    PsnrTwin *t = priv;
    const unsigned bps = t->cpu.bpc == 8 ? 1 : 2;
    for (unsigned p = 0; p < t->cpu.n_planes; p++) {
        const int ret = vqx_device_launched(dev, vqx_cuda_psnr_sse(
            f->ref[p], f->dis[p], f->pitch[p] / bps, t->w[p], t->h[p], t->cpu.bpc,
            (unsigned long long *)f->result + p, NULL, f->stream), "psnr");
        if (ret) return ret;
    }
    return 0;
}

const VqxFeatureExtractor vqx_fex_psnr_cuda = {
    .name = "psnr",
    .backend = VQX_BACKEND_CUDA,
    .keys = vqx_psnr_keys,
    .options = vqx_psnr_options,
    .state_size = sizeof(PsnrTwin),
    .flush = vqx_psnr_flush,
    .device_init = device_init,
    .record = record,
    .collect = vqx_psnr_twin_collect,
};
