/* The CUDA twin of integer adm: the device computes every level's nine
 * integer sums (kernels.h); the host part (device/adm_twin.h) scores them. */
#include <stdint.h>

#include "cuda/adm_twin.h"
#include "cuda/device.h"
#include "device/adm_twin.h"

typedef struct AdmCudaTwin {
    AdmTwin host; /* first: the CPU's state leads it */
    int32_t *approx[2][2];               /* [picture][level parity] */
    VqxCudaAdmWork work;
    /* every level's row sums, level 0 first, then a block counter per
     * level: zeroed at the head of each frame */
    unsigned long long *row_acc;
    size_t row_acc_off[ADM_SCALES], row_acc_words;
} AdmCudaTwin;

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    AdmCudaTwin *t = priv;
    int ret = vqx_adm_twin_init(&t->host, fmt, dev, sink);
    if (ret) return ret;
    const AdmState *s = &t->host.cpu;
    const size_t plane = (size_t)s->stride * (size_t)((s->h + 1) / 2) * sizeof(int32_t);
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
        rows += (size_t)(s->level[k].roi.bottom - s->level[k].roi.top) * VQX_ADM_TWIN_SUMS;
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
        .level = k, .scored = vqx_adm_twin_scored(s, k),
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
    AdmCudaTwin *t = priv;
    const AdmState *s = &t->host.cpu;
    const unsigned bps = s->bpc == 8 ? 1 : 2;
    uint64_t *sums = f->result;
    int ret = vqx_device_launched(dev, vqx_cuda_zero(t->row_acc, t->row_acc_words *
                                                     sizeof(unsigned long long), f->stream),
                                  "adm rows");
    for (int k = 0; k < ADM_SCALES && !ret; k++) {
        int in_w, in_h;
        vqx_adm_twin_input(s, k, &in_w, &in_h);
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
            s->cos_1deg_sq, s->gain_limit, (unsigned long long *)sums + k * VQX_ADM_TWIN_SUMS,
            NULL, f->stream), "adm");
    }
    return ret;
}

const VqxFeatureExtractor vqx_fex_adm_cuda = {
    .name = "adm",
    .backend = VQX_BACKEND_CUDA,
    .keys = vqx_adm_keys,
    .options = vqx_adm_options,
    .state_size = sizeof(AdmCudaTwin),
    .device_init = device_init,
    .record = record,
    .collect = vqx_adm_twin_collect,
};
