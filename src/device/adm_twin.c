/* The host part of integer adm's device twins (adm_twin.h). */
#include "device/adm_twin.h"

#include <stdint.h>

int vqx_adm_twin_init(AdmTwin *t, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    const int ret = vqx_adm_setup(&t->cpu, fmt, sink);
    if (ret) return ret;
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA);
    vqx_device_result_bytes(dev, ADM_SCALES * VQX_ADM_TWIN_SUMS * sizeof(uint64_t));
    t->cpu.stride = (t->cpu.w + 1) / 2; /* as adm.c's init */
    return 0;
}

void vqx_adm_twin_input(const AdmState *s, int k, int *w, int *h)
{
    *w = k ? s->level[k - 1].w : s->w;
    *h = k ? s->level[k - 1].h : s->h;
}

bool vqx_adm_twin_scored(const AdmState *s, int k)
{
    return !(k == 0 && s->skip_scale0);
}

int vqx_adm_twin_collect(void *state, const void *result, unsigned frame, VqxSink *sink)
{
    AdmTwin *t = state;
    const AdmState *s = &t->cpu;
    const uint64_t *sums = result;
    float num[ADM_SCALES], den[ADM_SCALES], aim[ADM_SCALES];
    for (int k = 0; k < ADM_SCALES; k++) {
        const uint64_t *lv = sums + k * VQX_ADM_TWIN_SUMS;
        num[k] = den[k] = aim[k] = 0.0f;
        if (!vqx_adm_twin_scored(s, k)) {
            den[k] = (float)1e-10; /* as adm.c */
            continue;
        }
        const int64_t masked[3] = { (int64_t)lv[3], (int64_t)lv[4], (int64_t)lv[5] };
        const int64_t impair[3] = { (int64_t)lv[6], (int64_t)lv[7], (int64_t)lv[8] };
        den[k] = vqx_adm_reference_norm(s, k, lv);
        num[k] = vqx_adm_masked_norm(s, k, masked, s->level[k].noise);
        if (!s->skip_aim) aim[k] = vqx_adm_masked_norm(s, k, impair, 0.0f);
    }
    return vqx_adm_emit(s, num, den, aim, frame, sink);
}
