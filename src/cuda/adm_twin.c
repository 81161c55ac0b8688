/* The CUDA twin of integer adm: the device computes every level's nine
 * integer sums; the host makes the norms and scores with adm.c's own
 * statements. */
#include <stdint.h>

#include "cuda/adm_twin.h"
#include "cuda/device.h"

typedef struct AdmTwin {
    AdmState cpu; /* first: the options and the per-level constants live there */
    int32_t *approx[2][2];               /* [picture][level parity] */
    VqxCudaAdmWork work;
    /* every level's row sums, level 0 first, then a block counter per
     * level: zeroed at the head of each frame */
    unsigned long long *row_acc;
    size_t row_acc_off[ADM_SCALES], row_acc_words;
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
    VqxCudaAdmWork *w = &t->work;
    void **bufs[] = {
        (void **)&t->approx[0][0], (void **)&t->approx[0][1], (void **)&t->approx[1][0],
        (void **)&t->approx[1][1],
        (void **)&w->restored.band[0], (void **)&w->restored.band[1], (void **)&w->restored.band[2],
        (void **)&w->additive.band[0], (void **)&w->additive.band[1], (void **)&w->additive.band[2],
        (void **)&w->mask[0], (void **)&w->mask[1], (void **)&w->mask[2], (void **)&w->mask[3],
    };
    for (unsigned i = 0; i < sizeof(bufs) / sizeof(bufs[0]) && !ret; i++)
        ret = vqx_device_alloc(dev, plane, bufs[i], sink);
    size_t rows = 0;
    for (int k = 0; k < ADM_SCALES; k++) {
        t->row_acc_off[k] = rows;
        rows += (size_t)(t->cpu.level[k].roi.bottom - t->cpu.level[k].roi.top) * SUMS_PER_LEVEL;
    }
    t->row_acc_words = rows + ADM_SCALES;
    if (!ret) ret = vqx_device_alloc(dev, t->row_acc_words * sizeof(unsigned long long),
                                     (void **)&t->row_acc, sink);
    return ret;
}

VqxCudaAdmLevel vqx_cuda_adm_params(const AdmState *s, int k)
{
    const AdmLevel *lv = &s->level[k];
    VqxCudaAdmLevel p = {
        .level = k, .scored = !(k == 0 && s->skip_scale0),
        .w = lv->w, .h = lv->h, .stride = (int)s->stride,
        .roi_top = lv->roi.top, .roi_bottom = lv->roi.bottom,
        .roi_left = lv->roi.left, .roi_right = lv->roi.right,
        .grown_top = lv->grown.top, .grown_bottom = lv->grown.bottom,
        .grown_left = lv->grown.left, .grown_right = lv->grown.right,
        .row_shift = lv->row_shift,
        .ref_cube_shift = lv->ref_cube_shift, .ref_row_shift = lv->ref_row_shift,
        .skip_aim = s->skip_aim,
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
    int ret = vqx_device_launched(dev, vqx_cuda_zero(t->row_acc, t->row_acc_words *
                                                     sizeof(unsigned long long), f->stream),
                                  "adm rows");
    for (int k = 0; k < ADM_SCALES && !ret; k++) {
        const int in_w = k ? s->level[k - 1].w : s->w, in_h = k ? s->level[k - 1].h : s->h;
        const void *src[2] = { f->ref[0], f->dis[0] };
        if (k) {
            src[0] = t->approx[0][(k - 1) & 1];
            src[1] = t->approx[1][(k - 1) & 1];
        }
        int32_t *const approx[2] = { t->approx[0][k & 1], t->approx[1][k & 1] };
        VqxCudaAdmWork work = t->work;
        work.row_acc = t->row_acc + t->row_acc_off[k];
        work.blocks_done = (unsigned *)(t->row_acc + t->row_acc_words - ADM_SCALES + k);
        const VqxCudaAdmLevel p = vqx_cuda_adm_params(s, k);
        ret = vqx_device_launched(dev, vqx_cuda_adm_level(
            &p, src, k ? (size_t)s->stride : f->pitch[0] / bps, in_w, in_h, s->bpc, approx, &work,
            s->cos_1deg_sq, s->gain_limit, (unsigned long long *)sums + k * SUMS_PER_LEVEL, NULL,
            f->stream), "adm");
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
