/* The host part of cambi's device twins (cambi_twin.h). */
#include "device/cambi_twin.h"

unsigned vqx_cambi_twin_pictures(const CambiState *s)
{
    return s->full_ref ? 2 : 1;
}

const CambiGeometry *vqx_cambi_twin_geometry(const CambiState *s, unsigned pic)
{
    return pic == CAMBI_DIS ? &s->dis : &s->src;
}

void vqx_cambi_twin_largest(const CambiState *s, size_t *samples, size_t *scale0)
{
    *samples = *scale0 = 0;
    for (unsigned pic = 0; pic < vqx_cambi_twin_pictures(s); pic++) {
        const CambiGeometry *g = vqx_cambi_twin_geometry(s, pic);
        unsigned w0, h0;
        vqx_cambi_scale_size(s, g, 0, &w0, &h0);
        *samples = (size_t)g->w * g->h > *samples ? (size_t)g->w * g->h : *samples;
        *scale0 = (size_t)w0 * h0 > *scale0 ? (size_t)w0 * h0 : *scale0;
    }
}

unsigned vqx_cambi_twin_max_pad(const CambiState *s)
{
    return s->full_ref && s->src.window > s->dis.window ? s->src.window >> 1 : s->dis.window >> 1;
}

int vqx_cambi_twin_emit(const CambiState *s, unsigned frame, const double mean[2][CAMBI_SCALES],
                        VqxSink *sink)
{
    const double dis_score = vqx_cambi_score(&s->dis, mean[CAMBI_DIS]);
    const int err = vqx_cambi_emit_distorted(s, frame, dis_score, sink);
    if (err || !s->full_ref) return err;
    return vqx_cambi_emit_full_ref(s, frame, dis_score, vqx_cambi_score(&s->src, mean[CAMBI_SRC]),
                                   sink);
}
