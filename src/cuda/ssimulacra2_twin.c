/* The CUDA twin of ssimulacra2: the device makes both pictures' linear
 * planes (the host's table), every scale's halving, XYB, products, blurs
 * and error terms, and adds each sum as the CPU's chain
 * (ssimulacra2_kernels.h); the host scores the sums with ssimulacra2.c's
 * own statements. */
#include <errno.h>
#include <stdlib.h>

#include "cuda/device.h"
#include "cuda/ssimulacra2_kernels.h"
#include "feature/ssimulacra2.h"

typedef struct Ssimu2Twin {
    Ssimu2State cpu; /* first: the options live there */
    VqxCudaSsimu2 job;
} Ssimu2Twin;

_Static_assert(SSIMU2_CUDA_SCALES == SSIMU2_SCALES && SSIMU2_CUDA_SUMS == SSIMU2_SUMS,
               "the device's sums are the CPU's");

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    Ssimu2Twin *t = priv;
    int ret = vqx_ssimu2_setup(&t->cpu, fmt, sink);
    if (ret) return ret;
    VqxCudaSsimu2 *job = &t->job;
    job->pics.ssx = fmt->layout != VQX_PIX_444;
    job->pics.ssy = fmt->layout == VQX_PIX_420;
    job->pics.bpc = fmt->bpc;
    job->yuv = t->cpu.yuv;
    job->gauss = t->cpu.gauss;
    job->neg_bias_cbrt = vqx_ssimu2_neg_bias_cbrt();
    job->n_scales = vqx_ssimu2_scale_sizes(t->cpu.w, t->cpu.h, job->w, job->h);
    job->plane = (size_t)job->w[0] * job->h[0];
    size_t lin_floats = 0, terms = 0;
    for (int sc = 0; sc < job->n_scales; sc++) {
        const size_t n = (size_t)job->w[sc] * job->h[sc];
        lin_floats += 6 * n;
        job->term_offset[sc] = terms;
        terms += 6 * n;
    }
    /* The table of the CPU's init, made by its statement, copied once. */
    float *table = malloc(sizeof(float) * 65536);
    if (!table) return vqx_fail(sink, -ENOMEM, "out of memory");
    for (unsigned v = 0; v < 65536; v++) table[v] = ssimu2_linear_from_u16(v);
    float *lin = NULL;
    ret = vqx_device_alloc_floats(dev, 65536, (float **)&job->linear_of_u16, sink);
    if (!ret)
        ret = vqx_device_upload_table(dev, (void *)job->linear_of_u16, table,
                                      sizeof(float) * 65536, sink);
    free(table);
    if (!ret) ret = vqx_device_alloc_floats(dev, lin_floats, &lin, sink);
    for (int sc = 0; sc < job->n_scales && !ret; sc++) {
        const size_t n = (size_t)job->w[sc] * job->h[sc];
        for (int k = 0; k < 6; k++) job->lin[sc][k] = lin, lin += n;
    }
    if (!ret) ret = vqx_device_alloc_floats(dev, SSIMU2_CUDA_MAPS * job->plane, &job->maps, sink);
    if (!ret) ret = vqx_device_alloc_floats(dev, SSIMU2_CUDA_MAPS * job->plane, &job->scratch, sink);
    if (!ret) ret = vqx_device_alloc_floats(dev, SSIMU2_CUDA_MAPS * job->plane, &job->blurred, sink);
    if (!ret) ret = vqx_device_alloc(dev, terms * sizeof(double), (void **)&job->terms, sink);
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA | VQX_DEVICE_CHROMA);
    vqx_device_result_bytes(dev, sizeof(double[SSIMU2_SCALES][3][SSIMU2_SUMS]));
    return ret;
}

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    const Ssimu2Twin *t = priv;
    VqxCudaSsimu2 job = t->job;
    const size_t bps = job.pics.bpc == 8 ? 1 : 2;
    for (int p = 0; p < 3; p++) {
        job.pics.ref[p] = f->ref[p];
        job.pics.dis[p] = f->dis[p];
        job.pics.pitch[p] = f->pitch[p] / bps;
    }
    return vqx_device_launched(dev, vqx_cuda_ssimu2(&job, f->result, f->stream), "ssimulacra2");
}

static int collect(void *priv, const void *result, unsigned frame, VqxSink *sink)
{
    const Ssimu2Twin *t = priv;
    return vqx_ssimu2_emit(&t->cpu, (const double(*)[3][SSIMU2_SUMS])result, t->job.n_scales,
                           frame, sink);
}

const VqxFeatureExtractor vqx_fex_ssimulacra2_cuda = {
    .name = "ssimulacra2",
    .backend = VQX_BACKEND_CUDA,
    .flags = VQX_FEX_NEEDS_CHROMA,
    .keys = vqx_ssimu2_keys,
    .options = vqx_ssimu2_options,
    .state_size = sizeof(Ssimu2Twin),
    .close = vqx_ssimu2_close,
    .device_init = device_init,
    .record = record,
    .collect = collect,
};
