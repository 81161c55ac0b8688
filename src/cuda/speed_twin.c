/* The CUDA twins of speed_chroma and speed_temporal: the device runs each
 * analysed plane's chain (cuda/speed_kernels.h) up to the per-block
 * variances; the host part (device/speed_twin.h) scores the records. */
#include <stdint.h>
#include <string.h>

#include "cuda/device.h"
#include "cuda/kernels.h"
#include "cuda/resampler.h"
#include "cuda/speed_kernels.h"
#include "device/speed_twin.h"

/* The device side of an engine: the job without its per-frame planes. */
static int job_init(VqxCudaSpeedJob *job, const SpeedPlan *plan, unsigned planes, unsigned bpc,
                    size_t record_bytes, VqxDevice *dev, VqxSink *sink)
{
    const SpeedGeometry *g = &plan->geo;
    memset(job, 0, sizeof(*job));
    job->planes = planes;
    job->geo = *g;
    memcpy(job->filters.antialias, plan->antialias, sizeof(plan->antialias));
    memcpy(job->filters.local_mean, plan->local_mean, sizeof(plan->local_mean));
    job->filters.antialias_len = plan->antialias_len;
    job->filters.local_mean_len = plan->local_mean_len;
    job->bpc = bpc;
    job->inv_scale = vqx_speed_twin_scale(bpc);
    job->offset = VQX_SPEED_TWIN_OFFSET;
    job->image_pitch = g->in_w;
    job->record_bytes = record_bytes;

    const size_t dec = (size_t)planes * g->dec_w * g->dec_h;
    int ret = vqx_device_alloc(dev, sizeof(float) * planes * g->in_w * g->in_h,
                               (void **)&job->image, sink);
    if (!ret) ret = vqx_device_alloc(dev, sizeof(float) * dec, (void **)&job->dec, sink);
    if (!ret) ret = vqx_device_alloc(dev, sizeof(float) * dec, (void **)&job->demeaned, sink);
    if (!ret) ret = vqx_device_alloc(dev, sizeof(float) * planes * SPEED_DIM, (void **)&job->eig, sink);
    const size_t matrices = sizeof(float) * planes * SPEED_DIM * SPEED_DIM;
    if (!ret) ret = vqx_device_alloc(dev, matrices, (void **)&job->cov, sink);
    if (!ret) ret = vqx_device_alloc(dev, matrices, (void **)&job->q, sink);
    if (!ret) ret = vqx_device_alloc(dev, matrices, (void **)&job->r, sink);
    if (ret || !g->rescale) return ret;

    job->scaled_pitch = g->scaled_w;
    ret = vqx_device_alloc(dev, sizeof(float) * planes * g->scaled_w * g->scaled_h,
                           (void **)&job->scaled, sink);
    if (!ret) ret = vqx_cuda_resampler_upload(&job->prescale, &plan->prescale, dev, sink);
    return ret;
}

/* ---- speed_chroma: records ref U, dis U, ref V, dis V ---- */

typedef struct SpeedChromaCudaTwin {
    SpeedChromaTwin host; /* first: the CPU's state leads it */
    VqxCudaSpeedJob job;
} SpeedChromaCudaTwin;

static int chroma_device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev,
                              VqxSink *sink)
{
    SpeedChromaCudaTwin *t = priv;
    const int ret = vqx_speed_chroma_twin_init(&t->host, fmt, dev, sink);
    if (ret) return ret;
    return job_init(&t->job, &t->host.cpu.engine.plan, VQX_SPEED_CHROMA_PLANES, fmt->bpc,
                    t->host.record_bytes, dev, sink);
}

static int chroma_record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    const SpeedChromaCudaTwin *t = priv;
    const unsigned bps = t->job.bpc == 8 ? 1 : 2;
    VqxCudaSpeedJob job = t->job;
    for (unsigned c = 0; c < 2; c++) {
        job.minuend[2 * c] = f->ref[1 + c];
        job.minuend[2 * c + 1] = f->dis[1 + c];
        job.pitch[2 * c] = job.pitch[2 * c + 1] = f->pitch[1 + c] / bps;
    }
    job.result = f->result;
    return vqx_device_launched(dev, vqx_cuda_speed_chain(&job, f->stream), "speed_chroma");
}

const VqxFeatureExtractor vqx_fex_speed_chroma_cuda = {
    .name = "speed_chroma",
    .backend = VQX_BACKEND_CUDA,
    .flags = VQX_FEX_NEEDS_CHROMA,
    .keys = vqx_speed_chroma_keys,
    .options = vqx_speed_chroma_options,
    .state_size = sizeof(SpeedChromaCudaTwin),
    .close = vqx_speed_chroma_close,
    .device_init = chroma_device_init,
    .record = chroma_record,
    .collect = vqx_speed_chroma_twin_collect,
};

/* ---- speed_temporal: records ref difference, dis difference ---- */

typedef struct SpeedTemporalCudaTwin {
    SpeedTemporalTwin host; /* first: the CPU's state leads it */
    VqxCudaSpeedJob job;
    /* the previous frame's luma of each picture: the graphs run in frame
     * order on one stream and each reads it before replacing it */
    void *prev_ref, *prev_dis;
    size_t luma_bytes;
} SpeedTemporalCudaTwin;

static int temporal_device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev,
                                VqxSink *sink)
{
    SpeedTemporalCudaTwin *t = priv;
    int ret = vqx_speed_temporal_twin_init(&t->host, fmt, dev, sink);
    if (ret) return ret;
    t->luma_bytes = (size_t)fmt->w * fmt->h * (fmt->bpc == 8 ? 1 : 2);
    ret = job_init(&t->job, &t->host.cpu.engine.plan, VQX_SPEED_TEMPORAL_PLANES, fmt->bpc,
                   t->host.record_bytes, dev, sink);
    if (!ret) ret = vqx_device_alloc(dev, t->luma_bytes, &t->prev_ref, sink);
    if (!ret) ret = vqx_device_alloc(dev, t->luma_bytes, &t->prev_dis, sink);
    return ret;
}

static int temporal_record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    const SpeedTemporalCudaTwin *t = priv;
    const unsigned bps = t->job.bpc == 8 ? 1 : 2;
    VqxCudaSpeedJob job = t->job;
    job.minuend[0] = t->prev_ref;
    job.subtrahend[0] = f->ref[0];
    job.minuend[1] = t->prev_dis;
    job.subtrahend[1] = t->host.cpu.use_ref_diff ? f->ref[0] : f->dis[0];
    job.pitch[0] = job.pitch[1] = f->pitch[0] / bps;
    job.result = f->result;
    /* the chain's load reads the previous lumas before these copies, behind
     * it on the stream, replace them; the luma planes are packed (pitch
     * w * bps): the copies keep that */
    int ret = vqx_device_launched(dev, vqx_cuda_speed_chain(&job, f->stream), "speed_temporal");
    if (!ret) ret = vqx_device_launched(dev, vqx_cuda_copy(t->prev_ref, f->ref[0], t->luma_bytes,
                                                           f->stream), "speed_temporal history");
    if (!ret) ret = vqx_device_launched(dev, vqx_cuda_copy(t->prev_dis, f->dis[0], t->luma_bytes,
                                                           f->stream), "speed_temporal history");
    return ret;
}

const VqxFeatureExtractor vqx_fex_speed_temporal_cuda = {
    .name = "speed_temporal",
    .backend = VQX_BACKEND_CUDA,
    .flags = VQX_FEX_TEMPORAL,
    .keys = vqx_speed_temporal_keys,
    .options = vqx_speed_temporal_options,
    .state_size = sizeof(SpeedTemporalCudaTwin),
    .close = vqx_speed_temporal_close,
    .device_init = temporal_device_init,
    .record = temporal_record,
    .collect = vqx_speed_temporal_twin_collect,
};
