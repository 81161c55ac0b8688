/* The CUDA twin of psnr: the device sums each plane's squared errors; the
 * host scores them with psnr.c's own statements. */
#include <stdint.h>

#include "cuda/device.h"
#include "cuda/kernels.h"
#include "feature/psnr.h"

typedef struct PsnrTwin {
    PsnrState cpu; /* first: the options live there */
    unsigned w[3], h[3];
} PsnrTwin;

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    PsnrTwin *t = priv;
    const int ret = vqx_psnr_init(&t->cpu, fmt, sink);
    if (ret) return ret;
    const unsigned ss_x = fmt->layout == VQX_PIX_420 || fmt->layout == VQX_PIX_422;
    const unsigned ss_y = fmt->layout == VQX_PIX_420;
    for (unsigned p = 0; p < 3; p++) {
        t->w[p] = p ? (fmt->w + ss_x) >> ss_x : fmt->w;
        t->h[p] = p ? (fmt->h + ss_y) >> ss_y : fmt->h;
    }
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA | (t->cpu.n_planes == 3 ? VQX_DEVICE_CHROMA : 0));
    vqx_device_result_bytes(dev, 3 * sizeof(uint64_t));
    return 0;
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

static int collect(void *priv, const void *result, unsigned frame, VqxSink *sink)
{
    PsnrTwin *t = priv;
    const uint64_t *sse = result;
    int err = 0;
    for (unsigned p = 0; p < t->cpu.n_planes; p++)
        err |= vqx_psnr_emit_plane(&t->cpu, p, sse[p], (uint64_t)t->w[p] * t->h[p], frame, sink);
    return err;
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
    .collect = collect,
};
