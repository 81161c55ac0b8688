/*
 * Float PSNR of the luma, libvmaf's "float_psnr": samples scaled to the
 * 8-bit range as floats, squared differences summed in double,
 * psnr = min(10 log10(peak^2 / max(mse, 1e-10)), 6 * bpc + 12).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "feature/float_picture.h"
#include "feature/float_psnr.h"

const char *const vqx_float_psnr_keys[] = { "float_psnr", NULL };

void vqx_float_psnr_setup(FloatPsnrState *s, const VqxFrameFormat *fmt)
{
    s->peak = vqx_float_peak(fmt->bpc);
    s->psnr_max = 6.0 * fmt->bpc + 12.0;
    s->w = fmt->w;
    s->h = fmt->h;
    s->bpc = fmt->bpc;
}

int vqx_float_psnr_emit(const FloatPsnrState *s, double noise, unsigned frame, VqxSink *sink)
{
    noise /= (double)s->w * s->h;
    const double psnr = 10 * log10(s->peak * s->peak / (noise > 1e-10 ? noise : 1e-10));
    return vqx_emit(sink, 0, frame, psnr < s->psnr_max ? psnr : s->psnr_max);
}

static int init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    (void)sink;
    FloatPsnrState *s = priv;
    vqx_float_psnr_setup(s, fmt);
    vqx_float_psnr_dsp_init(&s->dsp, fmt->cpu_flags);
    vqx_float_picture_dsp_init(&s->pic_dsp, fmt->cpu_flags);
    s->ref_row = malloc(sizeof(float) * fmt->w);
    s->dis_row = malloc(sizeof(float) * fmt->w);
    return s->ref_row && s->dis_row ? 0 : -ENOMEM;
}

static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    FloatPsnrState *s = priv;
    const int w = (int)ref->w[0], h = (int)ref->h[0];
    double noise = 0;
    for (int y = 0; y < h; y++) {
        vqx_float_rows(&s->pic_dsp, s->ref_row, 0, ref, 0, (unsigned)y, 1, 0.0f);
        vqx_float_rows(&s->pic_dsp, s->dis_row, 0, dis, 0, (unsigned)y, 1, 0.0f);
        noise = s->dsp.row_noise(s->ref_row, s->dis_row, w, noise);
    }
    return vqx_float_psnr_emit(s, noise, frame, sink);
}

static void close_float_psnr(void *priv)
{
    FloatPsnrState *s = priv;
    free(s->ref_row);
    free(s->dis_row);
}

const VqxFeatureExtractor vqx_fex_float_psnr = {
    .name = "float_psnr",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = vqx_float_psnr_keys,
    .state_size = sizeof(FloatPsnrState),
    .init = init,
    .extract = extract,
    .close = close_float_psnr,
};
