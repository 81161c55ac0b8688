/* The host part of integer vif's device twins (vif_twin.h). */
#include "device/vif_twin.h"

int vqx_vif_twin_init(VifTwin *t, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    const int ret = vqx_vif_setup(&t->cpu, fmt, sink);
    if (ret) return ret;
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA);
    vqx_device_result_bytes(dev, VIF_SCALES * sizeof(VifSums));
    for (unsigned sc = 0; sc < VIF_SCALES; sc++) {
        t->w[sc] = fmt->w >> sc;
        t->h[sc] = fmt->h >> sc;
    }
    return 0;
}

bool vqx_vif_twin_scored(const VifTwin *t, unsigned scale)
{
    return scale > 0 || !t->cpu.skip_scale0;
}

int vqx_vif_twin_collect(void *state, const void *result, unsigned frame, VqxSink *sink)
{
    VifTwin *t = state;
    const VifSums *sums = result;
    float num[VIF_SCALES] = { 0 }, den[VIF_SCALES] = { 0 };
    for (unsigned sc = 0; sc < VIF_SCALES; sc++)
        if (vqx_vif_twin_scored(t, sc)) vqx_vif_scale_result(&sums[sc], &num[sc], &den[sc]);
    return vqx_vif_emit(&t->cpu, num, den, frame, sink);
}
