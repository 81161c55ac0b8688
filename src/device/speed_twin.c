/* The host part of SpEED's device twins (speed_twin.h). */
#include "device/speed_twin.h"

#include <stdint.h>
#include <string.h>

float vqx_speed_twin_scale(unsigned bpc)
{
    /* a power of two's reciprocal: exact */
    return 1.0f / (float)(1u << (bpc - 8));
}

/* The statistics of read-back record `index`, into `out`; the host's part
 * of vqx_speed_analyse. */
static void stats_of(const SpeedPlan *plan, const void *result, size_t record_bytes,
                     unsigned index, SpeedStats *out)
{
    const char *rec = (const char *)result + index * record_bytes;
    const float *words = (const float *)rec;
    uint32_t singular;
    memcpy(&singular, rec + sizeof(float) * VQX_SPEED_RECORD_SINGULAR, sizeof(singular));
    out->singular = singular != 0;
    memcpy(out->variance, words + VQX_SPEED_RECORD_VARIANCE, sizeof(float) * plan->geo.n_blocks);
    vqx_speed_entropies(&plan->geo, words + VQX_SPEED_RECORD_EIG, plan->params.sigma_nn, out);
}

int vqx_speed_chroma_twin_init(SpeedChromaTwin *t, const VqxFrameFormat *fmt, VqxDevice *dev,
                               VqxSink *sink)
{
    const int ret = vqx_speed_chroma_setup(&t->cpu, fmt, sink);
    if (ret) return ret;
    vqx_device_use_planes(dev, VQX_DEVICE_CHROMA);
    t->record_bytes = vqx_speed_record_bytes(t->cpu.engine.plan.geo.n_blocks);
    vqx_device_result_bytes(dev, VQX_SPEED_CHROMA_PLANES * t->record_bytes);
    return 0;
}

int vqx_speed_chroma_twin_collect(void *state, const void *result, unsigned frame,
                                  VqxSink *sink)
{
    SpeedChromaTwin *t = state;
    SpeedEngine *e = &t->cpu.engine;
    float score[2];
    bool singular[2];
    for (unsigned c = 0; c < 2; c++) {
        stats_of(&e->plan, result, t->record_bytes, 2 * c, &e->ref);
        stats_of(&e->plan, result, t->record_bytes, 2 * c + 1, &e->dis);
        score[c] = vqx_speed_score(&e->plan, &e->ref, &e->dis);
        singular[c] = e->ref.singular || e->dis.singular;
    }
    return vqx_speed_chroma_emit(&t->cpu, score[0], score[1], singular[0], singular[1], frame,
                                 sink);
}

int vqx_speed_temporal_twin_init(SpeedTemporalTwin *t, const VqxFrameFormat *fmt,
                                 VqxDevice *dev, VqxSink *sink)
{
    const int ret = vqx_speed_temporal_setup(&t->cpu, fmt, sink);
    if (ret) return ret;
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA);
    t->record_bytes = vqx_speed_record_bytes(t->cpu.engine.plan.geo.n_blocks);
    vqx_device_result_bytes(dev, VQX_SPEED_TEMPORAL_PLANES * t->record_bytes);
    return 0;
}

int vqx_speed_temporal_twin_collect(void *state, const void *result, unsigned frame,
                                    VqxSink *sink)
{
    SpeedTemporalTwin *t = state;
    SpeedEngine *e = &t->cpu.engine;
    float score = 0.0f;
    if (t->cpu.have_prev) { /* the first frame has no difference: 0, as on the CPU */
        stats_of(&e->plan, result, t->record_bytes, 0, &e->ref);
        stats_of(&e->plan, result, t->record_bytes, 1, &e->dis);
        score = vqx_speed_score(&e->plan, &e->ref, &e->dis);
    }
    t->cpu.have_prev = true;
    /* not clipped to speed_max_val, as in libvmaf */
    return vqx_emit(sink, 0, frame, score);
}
