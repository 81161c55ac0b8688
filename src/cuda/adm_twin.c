/* The CUDA twin of integer adm: the device computes every level's nine
 * integer sums; the host makes the norms and scores with adm.c's own
 * statements. */
#include <stdint.h>

#include "cuda/device.h"
#include "cuda/kernels.h"
#include "feature/adm_fixed.h"

typedef struct AdmTwin {
    AdmState cpu; /* first: the options and the per-level constants live there */
    int32_t *approx[2][2];               /* [picture][level parity] */
    VqxCudaAdmBands band[2], restored, additive;
    uint32_t *mask[4];                   /* sum, centre: of additive, of restored */
} AdmTwin;

/* Per level: ref h, v, d (uint64), num h, v, d, aim h, v, d (int64). */
#define SUMS_PER_LEVEL 9

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    AdmTwin *t = priv;
    int ret = vqx_adm_setup(&t->cpu, fmt, sink);
    if (ret) return ret;
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA);
    vqx_device_result_bytes(dev, ADM_SCALES * SUMS_PER_LEVEL * sizeof(uint64_t));
    t->cpu.stride = (t->cpu.w + 1) / 2;
    const size_t plane = (size_t)t->cpu.stride * (size_t)((t->cpu.h + 1) / 2) * sizeof(int32_t);
    void **bufs[] = {
        (void **)&t->approx[0][0], (void **)&t->approx[0][1], (void **)&t->approx[1][0],
        (void **)&t->approx[1][1],
        (void **)&t->band[0].band[0], (void **)&t->band[0].band[1], (void **)&t->band[0].band[2],
        (void **)&t->band[1].band[0], (void **)&t->band[1].band[1], (void **)&t->band[1].band[2],
        (void **)&t->restored.band[0], (void **)&t->restored.band[1], (void **)&t->restored.band[2],
        (void **)&t->additive.band[0], (void **)&t->additive.band[1], (void **)&t->additive.band[2],
        (void **)&t->mask[0], (void **)&t->mask[1], (void **)&t->mask[2], (void **)&t->mask[3],
    };
    for (unsigned i = 0; i < sizeof(bufs) / sizeof(bufs[0]) && !ret; i++)
        ret = vqx_device_alloc(dev, plane, bufs[i], sink);
    return ret;
}

static VqxCudaAdmLevel level_params(const AdmTwin *t, int k)
{
    const AdmLevel *lv = &t->cpu.level[k];
    VqxCudaAdmLevel p = {
        .level = k, .w = lv->w, .h = lv->h, .stride = (int)t->cpu.stride,
        .roi_top = lv->roi.top, .roi_bottom = lv->roi.bottom,
        .roi_left = lv->roi.left, .roi_right = lv->roi.right,
        .grown_top = lv->grown.top, .grown_bottom = lv->grown.bottom,
        .grown_left = lv->grown.left, .grown_right = lv->grown.right,
        .row_shift = lv->row_shift,
        .ref_cube_shift = lv->ref_cube_shift, .ref_row_shift = lv->ref_row_shift,
        .skip_aim = t->cpu.skip_aim,
    };
    for (int b = 0; b < 3; b++) {
        p.q_weight[b] = lv->q_weight[b];
        p.cube_shift[b] = lv->cube_shift[b];
    }
    return p;
}

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    AdmTwin *t = priv;
    const AdmState *s = &t->cpu;
    const unsigned bps = s->bpc == 8 ? 1 : 2;
    uint64_t *sums = f->result;
    int ret = 0;
    for (int k = 0; k < ADM_SCALES && !ret; k++) {
        const int in_w = k ? s->level[k - 1].w : s->w, in_h = k ? s->level[k - 1].h : s->h;
        for (int pic = 0; pic < 2 && !ret; pic++) {
            const void *src = k ? (const void *)t->approx[pic][(k - 1) & 1]
                                : (pic ? f->dis[0] : f->ref[0]);
            const size_t pitch = k ? (size_t)s->stride : f->pitch[0] / bps;
            ret = vqx_device_launched(dev, vqx_cuda_adm_dwt(
                src, pitch, in_w, in_h, k, s->bpc, (int)s->stride, t->approx[pic][k & 1],
                &t->band[pic], f->stream), "adm dwt");
        }
        if (ret || (k == 0 && s->skip_scale0)) continue;
        const VqxCudaAdmLevel p = level_params(t, k);
        ret = vqx_device_launched(dev, vqx_cuda_adm_level(
            &p, &t->band[0], &t->band[1], &t->restored, &t->additive, t->mask, s->cos_1deg_sq,
            s->gain_limit, (unsigned long long *)sums + k * SUMS_PER_LEVEL, f->stream), "adm");
    }
    return ret;
}

static int collect(void *priv, const void *result, unsigned frame, VqxSink *sink)
{
    AdmTwin *t = priv;
    const AdmState *s = &t->cpu;
    const uint64_t *sums = result;
    float num[ADM_SCALES], den[ADM_SCALES], aim[ADM_SCALES];
    for (int k = 0; k < ADM_SCALES; k++) {
        const uint64_t *lv = sums + k * SUMS_PER_LEVEL;
        num[k] = den[k] = aim[k] = 0.0f;
        if (k == 0 && s->skip_scale0) {
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

const VqxFeatureExtractor vqx_fex_adm_cuda = {
    .name = "adm",
    .backend = VQX_BACKEND_CUDA,
    .keys = vqx_adm_keys,
    .options = vqx_adm_options,
    .state_size = sizeof(AdmTwin),
    .device_init = device_init,
    .record = record,
    .collect = collect,
};
