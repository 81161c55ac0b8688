/* The CUDA twin of integer vif: the device computes every scale's four
 * integer sums; the host makes the scores with vif.c's own statements. */
#include <stdint.h>

#include "cuda/device.h"
#include "cuda/kernels.h"
#include "feature/vif.h"

typedef struct VifTwin {
    VifState cpu; /* first: the options and the log2 table live there */
    unsigned w[VIF_SCALES], h[VIF_SCALES];
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

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    VifTwin *t = priv;
    const unsigned bpc = t->cpu.bpc, bps = bpc == 8 ? 1 : 2;
    VifSums *sums = f->result;
    int ret = 0;
    for (unsigned sc = t->cpu.skip_scale0 ? 1 : 0; sc < VIF_SCALES && !ret; sc++) {
        /* scale 0 reads the samples, with the bit depth's shifts; later
         * scales read 16-bit means */
        const void *ref = sc ? (const void *)t->ref[sc] : f->ref[0];
        const void *dis = sc ? (const void *)t->dis[sc] : f->dis[0];
        const size_t pitch = sc ? t->w[sc] : f->pitch[0] / bps;
        if (sc) {
            const void *src_ref = sc == 1 ? f->ref[0] : (const void *)t->ref[sc - 1];
            const void *src_dis = sc == 1 ? f->dis[0] : (const void *)t->dis[sc - 1];
            const size_t src_pitch = sc == 1 ? f->pitch[0] / bps : t->w[sc - 1];
            ret = vqx_device_launched(dev, vqx_cuda_vif_downsample(
                src_ref, src_dis, src_pitch, t->w[sc - 1], t->h[sc - 1], sc == 1 && bpc == 8, sc,
                sc == 1 ? bpc : 16, t->ref[sc], t->dis[sc], t->w[sc], t->h[sc], f->stream),
                "vif downsample");
            if (ret) break;
        }
        const VifShifts sh = vqx_vif_shifts(sc, bpc);
        ret = vqx_device_launched(dev, vqx_cuda_vif_scale(
            ref, dis, pitch, t->w[sc], t->h[sc], sc == 0 && bpc == 8, sc, sh.mean, sh.sq,
            t->log2_table, t->cpu.gain_limit,
            (long long *)&sums[sc], NULL, f->stream), "vif");
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
