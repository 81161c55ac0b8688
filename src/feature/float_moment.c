/*
 * First and second moments of the luma, libvmaf's "float_moment": the mean
 * of the samples and of their squares, samples scaled to the 8-bit range as
 * floats (squared in float), summed in double.
 */
#include <errno.h>
#include <stdlib.h>

#include "feature/float_moment.h"
#include "feature/float_picture.h"

typedef struct FloatMomentState {
    float *ref_row, *dis_row;
    FloatMomentDSPContext dsp;
    FloatPictureDSPContext pic_dsp; /* the samples' conversion to floats */
} FloatMomentState;

/* in the order of the sums (float_moment_dsp.h) */
const char *const vqx_float_moment_keys[] = {
    "float_moment_ref1st", "float_moment_dis1st", "float_moment_ref2nd", "float_moment_dis2nd", NULL
};

int vqx_float_moment_emit(const double sum[FLOAT_MOMENT_SUMS], unsigned w, unsigned h,
                          unsigned frame, VqxSink *sink)
{
    int err = 0;
    for (unsigned k = 0; k < FLOAT_MOMENT_SUMS; k++)
        err |= vqx_emit(sink, k, frame, sum[k] / ((double)w * h));
    return err;
}

static int init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    (void)sink;
    FloatMomentState *s = priv;
    vqx_float_picture_dsp_init(&s->pic_dsp, fmt->cpu_flags);
    vqx_float_moment_dsp_init(&s->dsp, fmt->cpu_flags);
    s->ref_row = malloc(sizeof(float) * fmt->w);
    s->dis_row = malloc(sizeof(float) * fmt->w);
    return s->ref_row && s->dis_row ? 0 : -ENOMEM;
}

static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    FloatMomentState *s = priv;
    const int w = (int)ref->w[0], h = (int)ref->h[0];
    double sum[FLOAT_MOMENT_SUMS] = { 0 };
    for (int y = 0; y < h; y++) {
        vqx_float_rows(&s->pic_dsp, s->ref_row, 0, ref, 0, (unsigned)y, 1, 0.0f);
        vqx_float_rows(&s->pic_dsp, s->dis_row, 0, dis, 0, (unsigned)y, 1, 0.0f);
        s->dsp.row_sums(s->ref_row, s->dis_row, w, sum);
    }
    return vqx_float_moment_emit(sum, (unsigned)w, (unsigned)h, frame, sink);
}

static void close_float_moment(void *priv)
{
    FloatMomentState *s = priv;
    free(s->ref_row);
    free(s->dis_row);
}

const VqxFeatureExtractor vqx_fex_float_moment = {
    .name = "float_moment",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = vqx_float_moment_keys,
    .state_size = sizeof(FloatMomentState),
    .init = init,
    .extract = extract,
    .close = close_float_moment,
};
