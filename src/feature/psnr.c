/*
 * PSNR per plane from the integer sum of squared errors, as libvmaf's
 * integer_psnr computes it: psnr = min(10 log10(peak^2 / max(mse, 1e-16)),
 * cap), cap = 6 * bpc + 12 dB, or derived from min_sse when that is set.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "feature/extractor.h"
#include "feature/psnr.h"


enum { KEY_PSNR_Y, KEY_PSNR_CB, KEY_PSNR_CR, KEY_MSE_Y, KEY_MSE_CB, KEY_MSE_CR };

const char *const vqx_psnr_keys[] = {
    "psnr_y", "psnr_cb", "psnr_cr", "mse_y", "mse_cb", "mse_cr", NULL
};

const VqxOption vqx_psnr_options[] = {
    { .name = "enable_chroma", .help = "also score the chroma planes",
      .type = VQX_OPT_BOOL, .offset = offsetof(PsnrState, enable_chroma), .def.b = true },
    { .name = "enable_mse", .help = "also write mse_y, mse_cb, mse_cr",
      .type = VQX_OPT_BOOL, .offset = offsetof(PsnrState, enable_mse), .def.b = false },
    { .name = "enable_apsnr", .help = "write the aggregate PSNR over all frames",
      .type = VQX_OPT_BOOL, .offset = offsetof(PsnrState, enable_apsnr), .def.b = false },
    { .name = "reduced_hbd_peak", .help = "use 255 << (bpc - 8) as peak for high bit depths",
      .type = VQX_OPT_BOOL, .offset = offsetof(PsnrState, reduced_hbd_peak), .def.b = false },
    { .name = "min_sse", .help = "smallest SSE assumed; sets the PSNR cap",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(PsnrState, min_sse), .def.d = 0.0,
      .min = 0.0, .max = DBL_MAX },
    { 0 }
};

int vqx_psnr_init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    (void)sink;
    PsnrState *s = priv;
    s->bpc = fmt->bpc;
    vqx_psnr_dsp_init(&s->dsp, fmt->bpc, fmt->cpu_flags);
    s->peak = s->reduced_hbd_peak ? 255u << (fmt->bpc - 8) : (1u << fmt->bpc) - 1;
    s->n_planes = s->enable_chroma && fmt->layout != VQX_PIX_400 ? 3 : 1;

    for (unsigned p = 0; p < 3; p++) {
        if (s->min_sse != 0.0) {
            const double mse = s->min_sse / ((double)vqx_plane_w(fmt, p) * vqx_plane_h(fmt, p));
            s->psnr_max[p] = ceil(10. * log10(s->peak * s->peak / mse));
        } else {
            s->psnr_max[p] = (6 * fmt->bpc) + 12;
        }
    }
    return 0;
}

int vqx_psnr_emit_plane(PsnrState *s, unsigned p, uint64_t sse, uint64_t n, unsigned frame,
                        VqxSink *sink)
{
    s->total_sse[p] += sse;
    s->total_pixels[p] += n;

    const double mse = (double)sse / n;
    const double psnr = fmin(10. * log10(s->peak * s->peak / fmax(mse, 1e-16)), s->psnr_max[p]);
    int err = vqx_emit(sink, KEY_PSNR_Y + p, frame, psnr);
    if (s->enable_mse)
        err |= vqx_emit(sink, KEY_MSE_Y + p, frame, mse);
    return err;
}

static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    PsnrState *s = priv;
    int err = 0;
    for (unsigned p = 0; p < s->n_planes; p++) {
        uint64_t sse = 0;
        for (unsigned y = 0; y < ref->h[p]; y++)
            sse += s->dsp.row_sse((const uint8_t *)ref->data[p] + (ptrdiff_t)y * ref->stride[p],
                                  (const uint8_t *)dis->data[p] + (ptrdiff_t)y * dis->stride[p],
                                  ref->w[p]);
        err |= vqx_psnr_emit_plane(s, p, sse, (uint64_t)ref->w[p] * ref->h[p], frame, sink);
    }
    return err;
}

void vqx_psnr_merge(void *into, const void *from)
{
    PsnrState *a = into;
    const PsnrState *b = from;
    for (unsigned p = 0; p < 3; p++) {
        a->total_sse[p] += b->total_sse[p];
        a->total_pixels[p] += b->total_pixels[p];
    }
}

int vqx_psnr_flush(void *priv, VqxSink *sink)
{
    static const char *const names[3] = { "apsnr_y", "apsnr_cb", "apsnr_cr" };
    PsnrState *s = priv;
    if (!s->enable_apsnr) return 0;
    int err = 0;
    for (unsigned p = 0; p < s->n_planes; p++) {
        const double apsnr = 10 * (log10(s->peak * s->peak) + log10(s->total_pixels[p]) -
                                   log10(s->total_sse[p]));
        const double max_apsnr = ceil(10 * log10(s->peak * s->peak * s->total_pixels[p] * 2));
        err |= vqx_emit_aggregate(sink, names[p], fmin(apsnr, max_apsnr));
    }
    return err;
}

const VqxFeatureExtractor vqx_fex_psnr = {
    .name = "psnr",
    .backend = VQX_BACKEND_CPU,
    .keys = vqx_psnr_keys,
    .options = vqx_psnr_options,
    .state_size = sizeof(PsnrState),
    .init = vqx_psnr_init,
    .extract = extract,
    .merge = vqx_psnr_merge,
    .flush = vqx_psnr_flush,
};
