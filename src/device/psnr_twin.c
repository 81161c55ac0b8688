/* The host part of psnr's device twins (psnr_twin.h). */
#include "device/psnr_twin.h"

#include <stdint.h>

int vqx_psnr_twin_init(PsnrTwin *t, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    const int ret = vqx_psnr_init(&t->cpu, fmt, sink);
    if (ret) return ret;
    for (unsigned p = 0; p < 3; p++) {
        t->w[p] = vqx_plane_w(fmt, p);
        t->h[p] = vqx_plane_h(fmt, p);
    }
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA | (t->cpu.n_planes == 3 ? VQX_DEVICE_CHROMA : 0));
    vqx_device_result_bytes(dev, 3 * sizeof(uint64_t));
    return 0;
}

int vqx_psnr_twin_collect(void *state, const void *result, unsigned frame, VqxSink *sink)
{
    PsnrTwin *t = state;
    const uint64_t *sse = result;
    int err = 0;
    for (unsigned p = 0; p < t->cpu.n_planes; p++)
        err |= vqx_psnr_emit_plane(&t->cpu, p, sse[p], (uint64_t)t->w[p] * t->h[p], frame, sink);
    return err;
}
