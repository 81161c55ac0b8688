/* The CUDA twin of integer vif: one kernel per scale computes its sums and
 * the next scale's planes; the host part is in device/vif_twin.h. */
#include <stdbool.h>
#include <stdint.h>

#include "cuda/device.h"
#include "cuda/kernels.h"
#include "device/vif_twin.h"

typedef struct VifCudaTwin {
    VifTwin host; /* first: the CPU's state leads it */
    unsigned rows[VIF_SCALES];
    uint16_t *ref[VIF_SCALES], *dis[VIF_SCALES]; /* scales 1..3 */
    uint16_t *log2_table;
} VifCudaTwin;

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    VifCudaTwin *t = priv;
    int ret = vqx_vif_twin_init(&t->host, fmt, dev, sink);
    if (ret) return ret;
    const unsigned *w = t->host.w, *h = t->host.h;
    for (unsigned sc = 0; sc < VIF_SCALES && !ret; sc++) {
        t->rows[sc] = vqx_cuda_vif_rows(w[sc], h[sc], sc == 0 && fmt->bpc == 8, sc);
        if (!sc) continue;
        const size_t bytes = (size_t)w[sc] * h[sc] * sizeof(uint16_t);
        ret = vqx_device_alloc(dev, bytes, (void **)&t->ref[sc], sink);
        if (!ret) ret = vqx_device_alloc(dev, bytes, (void **)&t->dis[sc], sink);
    }
    const VifState *cpu = &t->host.cpu;
    if (!ret) ret = vqx_device_alloc(dev, sizeof(cpu->log2_table), (void **)&t->log2_table, sink);
    if (!ret) ret = vqx_device_upload_table(dev, t->log2_table, cpu->log2_table,
                                            sizeof(cpu->log2_table), sink);
    return ret;
}

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    VifCudaTwin *t = priv;
    const VifState *cpu = &t->host.cpu;
    const unsigned *w = t->host.w, *h = t->host.h;
    const unsigned bpc = cpu->bpc, bps = bpc == 8 ? 1 : 2;
    VifSums *sums = f->result;
    int ret = 0;
    for (unsigned sc = 0; sc < VIF_SCALES && !ret; sc++) {
        const VifShifts sh = vqx_vif_shifts(sc, bpc);
        const bool last = sc + 1 == VIF_SCALES;
        const VqxCudaVifScale job = {
            /* scale 0 reads the samples, later scales 16-bit means */
            .ref = sc ? (const void *)t->ref[sc] : f->ref[0],
            .dis = sc ? (const void *)t->dis[sc] : f->dis[0],
            .pitch = sc ? w[sc] : f->pitch[0] / bps,
            .w = w[sc], .h = h[sc], .bytes1 = sc == 0 && bpc == 8, .scale = sc,
            .mean_shift = sh.mean, .sq_shift = sh.sq,
            .log2_table = t->log2_table, .gain_limit = cpu->gain_limit,
            .sums = vqx_vif_twin_scored(&t->host, sc) ? (long long *)&sums[sc] : NULL,
            .next_ref = last ? NULL : t->ref[sc + 1], .next_dis = last ? NULL : t->dis[sc + 1],
            .next_w = last ? 0 : w[sc + 1], .next_h = last ? 0 : h[sc + 1],
            .next_shift = sc == 0 ? bpc : 16,
            .rows = t->rows[sc],
        };
        ret = vqx_device_launched(dev, vqx_cuda_vif_scale(&job, NULL, f->stream), "vif");
    }
    return ret;
}

const VqxFeatureExtractor vqx_fex_vif_cuda = {
    .name = "vif",
    .backend = VQX_BACKEND_CUDA,
    .keys = vqx_vif_keys,
    .options = vqx_vif_options,
    .state_size = sizeof(VifCudaTwin),
    .device_init = device_init,
    .record = record,
    .collect = vqx_vif_twin_collect,
};
