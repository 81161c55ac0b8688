/* The CUDA twins of speed_chroma and speed_temporal: the device runs each
 * analysed plane's chain (cuda/speed_kernels.h) up to the per-block
 * variances and reads back, per plane, the eigenvalues, the singular flag
 * and the variances; the host forms the entropies and the scores with
 * speed.c's own statements, frames in order. */
#include <stdint.h>
#include <string.h>

#include "cuda/device.h"
#include "cuda/kernels.h"
#include "cuda/speed_kernels.h"
#include "feature/speed.h"

/* The device side of an engine: the job without its per-frame planes. */
static int job_init(VqxCudaSpeedJob *job, const SpeedPlan *plan, unsigned planes, unsigned bpc,
                    VqxDevice *dev, VqxSink *sink)
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
    /* vqx_float_rows' conversion: a power of two's reciprocal, exact */
    job->inv_scale = 1.0f / (float)(1u << (bpc - 8));
    job->offset = -128.0f;
    job->image_pitch = g->in_w;
    job->record_bytes = vqx_cuda_speed_record_bytes(g->n_blocks);
    vqx_device_result_bytes(dev, planes * job->record_bytes);

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

    const VqxResampler *rs = &plan->prescale;
    job->method = (int)rs->method;
    job->taps = rs->taps;
    job->scaled_pitch = g->scaled_w;
    ret = vqx_device_alloc(dev, sizeof(float) * planes * g->scaled_w * g->scaled_h,
                           (void **)&job->scaled, sink);
    const size_t rows = (size_t)rs->taps * g->scaled_h, cols = (size_t)rs->taps * g->scaled_w;
    void **tables[] = { (void **)&job->row_index, (void **)&job->row_weight,
                        (void **)&job->col_index, (void **)&job->col_weight };
    const void *host[] = { rs->rows.index, rs->rows.weight, rs->cols.index, rs->cols.weight };
    const size_t bytes[] = { sizeof(int) * rows, sizeof(float) * rows, sizeof(int) * cols,
                             sizeof(float) * cols };
    for (unsigned i = 0; i < 4 && !ret; i++) {
        ret = vqx_device_alloc(dev, bytes[i], tables[i], sink);
        if (!ret) ret = vqx_device_upload_table(dev, *tables[i], host[i], bytes[i], sink);
    }
    return ret;
}

/* The statistics of read-back record `index`, into `out`; the host's part
 * of vqx_speed_analyse. */
static void stats_of(const SpeedPlan *plan, const void *result, size_t record_bytes,
                     unsigned index, SpeedStats *out)
{
    const VqxCudaSpeedRecord *rec =
        (const VqxCudaSpeedRecord *)((const char *)result + index * record_bytes);
    out->singular = rec->singular != 0;
    memcpy(out->variance, rec->variance, sizeof(float) * plan->geo.n_blocks);
    vqx_speed_entropies(&plan->geo, rec->eig, plan->params.sigma_nn, out);
}

/* ---- speed_chroma: records ref U, dis U, ref V, dis V ---- */

typedef struct SpeedChromaTwin {
    SpeedChromaState cpu; /* first: the options live there */
    VqxCudaSpeedJob job;
} SpeedChromaTwin;

static int chroma_device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev,
                              VqxSink *sink)
{
    SpeedChromaTwin *t = priv;
    const int ret = vqx_speed_chroma_setup(&t->cpu, fmt, sink);
    if (ret) return ret;
    vqx_device_use_planes(dev, VQX_DEVICE_CHROMA);
    return job_init(&t->job, &t->cpu.engine.plan, 4, fmt->bpc, dev, sink);
}

static int chroma_record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    SpeedChromaTwin *t = priv;
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

static int chroma_collect(void *priv, const void *result, unsigned frame, VqxSink *sink)
{
    SpeedChromaTwin *t = priv;
    SpeedEngine *e = &t->cpu.engine;
    float score[2];
    bool singular[2];
    for (unsigned c = 0; c < 2; c++) {
        stats_of(&e->plan, result, t->job.record_bytes, 2 * c, &e->ref);
        stats_of(&e->plan, result, t->job.record_bytes, 2 * c + 1, &e->dis);
        score[c] = vqx_speed_score(&e->plan, &e->ref, &e->dis);
        singular[c] = e->ref.singular || e->dis.singular;
    }
    return vqx_speed_chroma_emit(&t->cpu, score[0], score[1], singular[0], singular[1], frame,
                                 sink);
}

const VqxFeatureExtractor vqx_fex_speed_chroma_cuda = {
    .name = "speed_chroma",
    .backend = VQX_BACKEND_CUDA,
    .flags = VQX_FEX_NEEDS_CHROMA,
    .keys = vqx_speed_chroma_keys,
    .options = vqx_speed_chroma_options,
    .state_size = sizeof(SpeedChromaTwin),
    .close = vqx_speed_chroma_close,
    .device_init = chroma_device_init,
    .record = chroma_record,
    .collect = chroma_collect,
};

/* ---- speed_temporal: records ref difference, dis difference ---- */

typedef struct SpeedTemporalTwin {
    SpeedTemporalState cpu; /* first: the options live there */
    VqxCudaSpeedJob job;
    /* the previous frame's luma of each picture: the graphs run in frame
     * order on one stream and each reads it before replacing it */
    void *prev_ref, *prev_dis;
    size_t luma_bytes;
} SpeedTemporalTwin;

static int temporal_device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev,
                                VqxSink *sink)
{
    SpeedTemporalTwin *t = priv;
    int ret = vqx_speed_temporal_setup(&t->cpu, fmt, sink);
    if (ret) return ret;
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA);
    t->luma_bytes = (size_t)fmt->w * fmt->h * (fmt->bpc == 8 ? 1 : 2);
    ret = job_init(&t->job, &t->cpu.engine.plan, 2, fmt->bpc, dev, sink);
    if (!ret) ret = vqx_device_alloc(dev, t->luma_bytes, &t->prev_ref, sink);
    if (!ret) ret = vqx_device_alloc(dev, t->luma_bytes, &t->prev_dis, sink);
    return ret;
}

static int temporal_record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    SpeedTemporalTwin *t = priv;
    const unsigned bps = t->job.bpc == 8 ? 1 : 2;
    VqxCudaSpeedJob job = t->job;
    job.minuend[0] = t->prev_ref;
    job.subtrahend[0] = f->ref[0];
    job.minuend[1] = t->prev_dis;
    job.subtrahend[1] = t->cpu.use_ref_diff ? f->ref[0] : f->dis[0];
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

static int temporal_collect(void *priv, const void *result, unsigned frame, VqxSink *sink)
{
    SpeedTemporalTwin *t = priv;
    SpeedEngine *e = &t->cpu.engine;
    float score = 0.0f;
    if (t->cpu.have_prev) { /* the first frame has no difference: 0, as on the CPU */
        stats_of(&e->plan, result, t->job.record_bytes, 0, &e->ref);
        stats_of(&e->plan, result, t->job.record_bytes, 1, &e->dis);
        score = vqx_speed_score(&e->plan, &e->ref, &e->dis);
    }
    t->cpu.have_prev = true;
    /* not clipped to speed_max_val, as in libvmaf */
    return vqx_emit(sink, 0, frame, score);
}

const VqxFeatureExtractor vqx_fex_speed_temporal_cuda = {
    .name = "speed_temporal",
    .backend = VQX_BACKEND_CUDA,
    .flags = VQX_FEX_TEMPORAL,
    .keys = vqx_speed_temporal_keys,
    .options = vqx_speed_temporal_options,
    .state_size = sizeof(SpeedTemporalTwin),
    .close = vqx_speed_temporal_close,
    .device_init = temporal_device_init,
    .record = temporal_record,
    .collect = temporal_collect,
};
