/* The CUDA twin of psnr_hvs: the device makes every block's terms with the
 * CPU's per-block statements and finds each plane's sum of them as the
 * CPU's float chain gives it (psnr_hvs_kernels.h); the host scores the
 * three sums with psnr_hvs.c's own statements. */
#include "cuda/device.h"
#include "cuda/psnr_hvs_kernels.h"
#include "feature/psnr_hvs.h"

typedef struct PsnrHvsTwin {
    PsnrHvsState cpu; /* first: the CPU's scoring reads it */
    float *weights[3]; /* per plane: weight_t, then mask_t */
    float *terms[3];
    void *segments[3];
} PsnrHvsTwin;

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    PsnrHvsTwin *t = priv;
    int ret = vqx_psnr_hvs_setup(&t->cpu, fmt, sink);
    for (unsigned p = 0; p < 3 && !ret; p++) {
        const size_t n = (size_t)t->cpu.blocks_x[p] * t->cpu.blocks_y[p] * PSNR_HVS_TERMS;
        ret = vqx_device_alloc_floats(dev, 2 * PSNR_HVS_TERMS, &t->weights[p], sink);
        if (!ret) ret = vqx_device_upload_table(dev, t->weights[p], t->cpu.weight_t[p],
                                                sizeof(t->cpu.weight_t[p]), sink);
        if (!ret) ret = vqx_device_upload_table(dev, t->weights[p] + PSNR_HVS_TERMS,
                                                t->cpu.mask_t[p], sizeof(t->cpu.mask_t[p]), sink);
        if (!ret) ret = vqx_device_alloc_floats(dev, n, &t->terms[p], sink);
        if (!ret) ret = vqx_device_alloc(dev, vqx_cuda_psnr_hvs_segment_bytes(n), &t->segments[p],
                                         sink);
    }
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA | VQX_DEVICE_CHROMA);
    vqx_device_result_bytes(dev, sizeof(float[3]));
    return ret;
}

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    const PsnrHvsTwin *t = priv;
    VqxCudaPsnrHvsPlane planes[3];
    for (unsigned p = 0; p < 3; p++)
        planes[p] = (VqxCudaPsnrHvsPlane){
            .ref = f->ref[p], .dis = f->dis[p], .pitch_bytes = f->pitch[p],
            .blocks_x = t->cpu.blocks_x[p], .blocks_y = t->cpu.blocks_y[p],
            .weight_t = t->weights[p], .mask_t = t->weights[p] + PSNR_HVS_TERMS,
            .terms = t->terms[p], .segments = t->segments[p],
        };
    return vqx_device_launched(dev, vqx_cuda_psnr_hvs(planes, t->cpu.bpc, f->result, f->stream),
                               "psnr_hvs");
}

static int collect(void *priv, const void *result, unsigned frame, VqxSink *sink)
{
    return vqx_psnr_hvs_emit(priv, result, frame, sink);
}

const VqxFeatureExtractor vqx_fex_psnr_hvs_cuda = {
    .name = "psnr_hvs",
    .backend = VQX_BACKEND_CUDA,
    .flags = VQX_FEX_NEEDS_CHROMA,
    .keys = vqx_psnr_hvs_keys,
    .state_size = sizeof(PsnrHvsTwin),
    .device_init = device_init,
    .record = record,
    .collect = collect,
};
