/* The CUDA twin of integer vif: the device computes every scale's four
 * integer sums; the host makes the scores with vif.c's own statements. */
#include <stdbool.h>
#include <stdint.h>

#include "cuda/device.h"
#include "cuda/kernels.h"
#include "feature/vif.h"

typedef struct VifTwin {
    VifState cpu; /* first: the options and the log2 table live there */
    unsigned w[VIF_SCALES], h[VIF_SCALES], rows[VIF_SCALES];
    uint16_t *ref[VIF_SCALES], *dis[VIF_SCALES]; /* scales 1..3 */
    uint16_t *log2_table;
} VifTwin;

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    VifTwin *t = priv;
    int ret = vqx_vif_setup(&t->cpu, fmt, sink);
    if (ret) return ret;
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA);
    vqx_device_result_bytes(dev, VIF_SCALES * sizeof(VifSums));
    for (unsigned sc = 0; sc < VIF_SCALES && !ret; sc++) {
        t->w[sc] = fmt->w >> sc;
        t->h[sc] = fmt->h >> sc;
        t->rows[sc] = vqx_cuda_vif_rows(t->w[sc], t->h[sc], sc == 0 && fmt->bpc == 8, sc);
        if (!sc) continue;
        const size_t bytes = (size_t)t->w[sc] * t->h[sc] * sizeof(uint16_t);
        ret = vqx_device_alloc(dev, bytes, (void **)&t->ref[sc], sink);
        if (!ret) ret = vqx_device_alloc(dev, bytes, (void **)&t->dis[sc], sink);
    }
    if (!ret) ret = vqx_device_alloc(dev, sizeof(t->cpu.log2_table), (void **)&t->log2_table, sink);
    if (!ret) ret = vqx_device_upload_table(dev, t->log2_table, t->cpu.log2_table,
                                            sizeof(t->cpu.log2_table), sink);
    return ret;
}

/* One kernel per scale: its sums and the next scale's planes (with
 * vif_skip_scale0, scale 0 only makes scale 1, as on the CPU). */
static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    VifTwin *t = priv;
    const unsigned bpc = t->cpu.bpc, bps = bpc == 8 ? 1 : 2;
    VifSums *sums = f->result;
    int ret = 0;
    for (unsigned sc = 0; sc < VIF_SCALES && !ret; sc++) {
        const VifShifts sh = vqx_vif_shifts(sc, bpc);
        const bool last = sc + 1 == VIF_SCALES;
        const VqxCudaVifScale job = {
            /* scale 0 reads the samples, later scales 16-bit means */
            .ref = sc ? (const void *)t->ref[sc] : f->ref[0],
            .dis = sc ? (const void *)t->dis[sc] : f->dis[0],
            .pitch = sc ? t->w[sc] : f->pitch[0] / bps,
            .w = t->w[sc], .h = t->h[sc], .bytes1 = sc == 0 && bpc == 8, .scale = sc,
            .mean_shift = sh.mean, .sq_shift = sh.sq,
            .log2_table = t->log2_table, .gain_limit = t->cpu.gain_limit,
            .sums = sc == 0 && t->cpu.skip_scale0 ? NULL : (long long *)&sums[sc],
            .next_ref = last ? NULL : t->ref[sc + 1], .next_dis = last ? NULL : t->dis[sc + 1],
            .next_w = last ? 0 : t->w[sc + 1], .next_h = last ? 0 : t->h[sc + 1],
            .next_shift = sc == 0 ? bpc : 16,
            .rows = t->rows[sc],
        };
        ret = vqx_device_launched(dev, vqx_cuda_vif_scale(&job, NULL, f->stream), "vif");
    }
    return ret;
}

static int collect(void *priv, const void *result, unsigned frame, VqxSink *sink)
{
    VifTwin *t = priv;
    const VifSums *sums = result;
    float num[VIF_SCALES] = { 0 }, den[VIF_SCALES] = { 0 };
    for (unsigned sc = t->cpu.skip_scale0 ? 1 : 0; sc < VIF_SCALES; sc++)
        vqx_vif_scale_result(&sums[sc], &num[sc], &den[sc]);
    return vqx_vif_emit(&t->cpu, num, den, frame, sink);
}

const VqxFeatureExtractor vqx_fex_vif_cuda = {
    .name = "vif",
    .backend = VQX_BACKEND_CUDA,
    .keys = vqx_vif_keys,
    .options = vqx_vif_options,
    .state_size = sizeof(VifTwin),
    .device_init = device_init,
    .record = record,
    .collect = collect,
};
