/* The CUDA twin of float_adm: the device makes every level's DWT of both
 * lumas, decouples, masks and sums the p-norm's cubes as the CPU does
 * (kernels.h); the host takes the roots and scores with float_adm.c's own
 * statements. Other p-norms than 3 run on the CPU extractor. */
#include <errno.h>

#include "cuda/device.h"
#include "cuda/kernels.h"
#include "feature/float_adm.h"

typedef struct FloatAdmTwin {
    FloatAdmState cpu; /* first: the options live there */
    float *approx[2][2]; /* [picture][level parity] */
    VqxCudaFloatAdmBands bands[2], restored, additive;
    float *taps, *cubes, *row_sums;
    uint32_t *recip;
} FloatAdmTwin;

static int alloc_bands(VqxDevice *dev, size_t n, VqxCudaFloatAdmBands *b, VqxSink *sink)
{
    int ret = 0;
    for (int k = 0; k < 3 && !ret; k++) ret = vqx_device_alloc_floats(dev, n, &b->band[k], sink);
    return ret;
}

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    FloatAdmTwin *t = priv;
    int ret = vqx_float_adm_setup(&t->cpu, fmt, sink);
    if (ret) return ret;
    if (t->cpu.p_norm != 3.0)
        return vqx_fail(sink, -ENOTSUP, "float_adm: no CUDA twin for adm_p_norm other than 3");
    const size_t band = (size_t)t->cpu.level[0].w * t->cpu.level[0].h;
    for (int p = 0; p < 2 && !ret; p++) {
        ret = vqx_device_alloc_floats(dev, band, &t->approx[p][0], sink);
        if (!ret) ret = vqx_device_alloc_floats(dev, band, &t->approx[p][1], sink);
        if (!ret) ret = alloc_bands(dev, band, &t->bands[p], sink);
    }
    if (!ret) ret = alloc_bands(dev, band, &t->restored, sink);
    if (!ret) ret = alloc_bands(dev, band, &t->additive, sink);
    if (!ret) ret = vqx_device_alloc_floats(dev, 3 * FLOAT_ADM_SUMS * band, &t->cubes, sink);
    if (!ret) ret = vqx_device_alloc_floats(dev, 3 * FLOAT_ADM_SUMS * (size_t)t->cpu.level[0].h,
                                 &t->row_sums, sink);
    if (!ret) ret = vqx_device_alloc_floats(dev, 8, &t->taps, sink);
    if (!ret) ret = vqx_device_upload_table(dev, t->taps, vqx_float_adm_db2_lo, 4 * sizeof(float),
                                            sink);
    if (!ret) ret = vqx_device_upload_table(dev, t->taps + 4, vqx_float_adm_db2_hi,
                                            4 * sizeof(float), sink);
    if (!ret) ret = vqx_device_alloc(dev, sizeof(t->cpu.recip_table), (void **)&t->recip, sink);
    if (!ret) ret = vqx_device_upload_table(dev, t->recip, t->cpu.recip_table,
                                            sizeof(t->cpu.recip_table), sink);
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA);
    vqx_device_result_bytes(dev, sizeof(FloatAdmLevelSums[ADM_SCALES]));
    return ret;
}

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    const FloatAdmTwin *t = priv;
    FloatAdmLevelSums *sums = f->result;
    FloatAdmDecoupleParams decouple = t->cpu.decouple;
    decouple.recip = t->recip;
    int ret = 0;
    for (int k = 0; k < ADM_SCALES && !ret; k++) {
        const FloatAdmLevel *lv = &t->cpu.level[k];
        const bool first = k == 0;
        VqxCudaFloatAdmLevelJob job = {
            .level = k, .scored = !(first && t->cpu.skip_scale0),
            .src = { first ? f->ref[0] : t->approx[0][(k - 1) & 1],
                     first ? f->dis[0] : t->approx[1][(k - 1) & 1] },
            .src_pitch = first ? f->pitch[0] / (t->cpu.bpc == 8 ? 1 : 2)
                               : (size_t)t->cpu.level[k - 1].w,
            .src_w = first ? t->cpu.w : t->cpu.level[k - 1].w,
            .src_h = first ? t->cpu.h : t->cpu.level[k - 1].h,
            .bpc = t->cpu.bpc, .lo_taps = t->taps, .hi_taps = t->taps + 4,
            .w = lv->w, .h = lv->h,
            .approx = { t->approx[0][k & 1], t->approx[1][k & 1] },
            .bands = { t->bands[0], t->bands[1] }, .restored = t->restored,
            .additive = t->additive, .decouple = decouple,
            .weight = { lv->weight[0], lv->weight[1], lv->weight[2] },
            .top = lv->roi.top, .bottom = lv->roi.bottom, .left = lv->roi.left,
            .right = lv->roi.right, .bypass_cm = t->cpu.bypass_cm,
            .cubes = t->cubes, .row_sums = t->row_sums, .sums = &sums[k][0][0],
        };
        ret = vqx_device_launched(dev, vqx_cuda_float_adm_level(&job, f->stream), "float_adm");
    }
    return ret;
}

static int collect(void *priv, const void *result, unsigned frame, VqxSink *sink)
{
    return vqx_float_adm_emit(priv, result, frame, sink);
}

const VqxFeatureExtractor vqx_fex_float_adm_cuda = {
    .name = "float_adm",
    .backend = VQX_BACKEND_CUDA,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = vqx_float_adm_keys,
    .unsuffixed_keys = 1u << 7, /* as the CPU extractor's */
    .options = vqx_float_adm_options,
    .state_size = sizeof(FloatAdmTwin),
    .device_init = device_init,
    .record = record,
    .collect = collect,
};
