/*
 * Anti-noise SNR, libvmaf's "float_ansnr": the reference luma (floats
 * offset by -128) smoothed by a 3x3 filter is the signal; its difference to
 * the distorted luma smoothed by a 5x5 filter is the noise.
 * float_ansnr = 10 log10(signal energy / noise energy) (psnr cap when the
 * noise is 0); float_anpsnr = min(10 log10(peak^2 * w * h / max(noise, 1e-10)),
 * 6 * bpc + 12). Energies are float sums per row, then over rows.
 *
 * The 2-D filters are applied as libvmaf applies them, tap row by tap row in
 * float, with borders mirrored around the half sample (-1 -> 1, w -> w - 1),
 * one output row at a time.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "feature/extractor.h"
#include "feature/float_picture.h"

#define MARGIN 2

/* Filters, from libvmaf ansnr_tools.c, Netflix, BSD+Patent. */
#define F16(n) ((float)((n) / 16.0))
static const float ref_filter[3 * 3] = {
    F16(1.0), F16(2.0), F16(1.0),
    F16(2.0), F16(4.0), F16(2.0),
    F16(1.0), F16(2.0), F16(1.0),
};
#define F571(n) ((float)((n) / 571.0))
static const float dis_filter[5 * 5] = {
    F571(2.0),  F571(7.0),  F571(12.0),  F571(7.0),  F571(2.0),
    F571(7.0),  F571(31.0), F571(52.0),  F571(31.0), F571(7.0),
    F571(12.0), F571(52.0), F571(127.0), F571(52.0), F571(12.0),
    F571(7.0),  F571(31.0), F571(52.0),  F571(31.0), F571(7.0),
    F571(2.0),  F571(7.0),  F571(12.0),  F571(7.0),  F571(2.0),
};

typedef struct FloatAnsnrState {
    double peak, psnr_max;
    int w, h;
    ptrdiff_t stride;
    float *ref, *dis;       /* planes with MARGIN mirrored columns each side */
    float *ref_row, *dis_row;
} FloatAnsnrState;

enum { KEY_ANSNR, KEY_ANPSNR };

static const char *const keys[] = { "float_ansnr", "float_anpsnr", NULL };

static inline int mirror(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - i - 1 : i;
}

static int init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    FloatAnsnrState *s = priv;
    if (fmt->w < 3 || fmt->h < 3)
        return vqx_fail(sink, -EINVAL, "float_ansnr: frames must be at least 3x3, not %ux%u",
                        fmt->w, fmt->h);
    s->peak = vqx_float_peak(fmt->bpc);
    s->psnr_max = 6.0 * fmt->bpc + 12.0;
    s->w = (int)fmt->w;
    s->h = (int)fmt->h;
    s->stride = (ptrdiff_t)vqx_float_stride(fmt->w + 2 * MARGIN);
    s->ref = malloc(sizeof(float) * (size_t)s->stride * fmt->h);
    s->dis = malloc(sizeof(float) * (size_t)s->stride * fmt->h);
    s->ref_row = malloc(sizeof(float) * fmt->w);
    s->dis_row = malloc(sizeof(float) * fmt->w);
    return s->ref && s->dis && s->ref_row && s->dis_row ? 0 : -ENOMEM;
}

static void load_plane(const FloatAnsnrState *s, float *dst, const VqxPicture *pic)
{
    vqx_float_plane(dst + MARGIN, s->stride, pic, 0, -128.0f);
    for (int y = 0; y < s->h; y++) {
        float *row = dst + y * s->stride + MARGIN;
        for (int m = 1; m <= MARGIN; m++) {
            row[-m] = row[mirror(-m, s->w)];
            row[s->w - 1 + m] = row[mirror(s->w - 1 + m, s->w)];
        }
    }
}

/* Row y of src filtered by the n x n filter f. */
static void filter_row(const float *f, int n, const float *src, ptrdiff_t stride,
                       int w, int h, int y, float *out)
{
    const int radius = n / 2;
    for (int x = 0; x < w; x++) out[x] = 0;
    for (int i = 0; i < n; i++) {
        const float *row = src + mirror(y - radius + i, h) * stride + MARGIN - radius;
        const float *fr = f + i * n;
        for (int x = 0; x < w; x++) {
            float inner = 0;
            for (int j = 0; j < n; j++)
                inner += fr[j] * row[x + j];
            out[x] += inner;
        }
    }
}

static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    FloatAnsnrState *s = priv;
    load_plane(s, s->ref, ref);
    load_plane(s, s->dis, dis);

    float signal = 0, noise = 0;
    for (int y = 0; y < s->h; y++) {
        filter_row(ref_filter, 3, s->ref, s->stride, s->w, s->h, y, s->ref_row);
        filter_row(dis_filter, 5, s->dis, s->stride, s->w, s->h, y, s->dis_row);
        float row_signal = 0, row_noise = 0;
        for (int x = 0; x < s->w; x++) {
            const float r = s->ref_row[x], d = s->dis_row[x];
            row_signal += r * r;
            row_noise += (r - d) * (r - d);
        }
        signal += row_signal;
        noise += row_noise;
    }

    const double ansnr = noise == 0 ? s->psnr_max : 10.0 * log10(signal / noise);
    const double floor_noise = noise > 1e-10 ? noise : 1e-10;
    const double anpsnr = 10 * log10(s->peak * s->peak * s->w * s->h / floor_noise);
    const int err = vqx_emit(sink, KEY_ANSNR, frame, ansnr);
    return err | vqx_emit(sink, KEY_ANPSNR, frame, anpsnr < s->psnr_max ? anpsnr : s->psnr_max);
}

static void close_float_ansnr(void *priv)
{
    FloatAnsnrState *s = priv;
    free(s->ref);
    free(s->dis);
    free(s->ref_row);
    free(s->dis_row);
}

const VqxFeatureExtractor vqx_fex_float_ansnr = {
    .name = "float_ansnr",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = keys,
    .state_size = sizeof(FloatAnsnrState),
    .init = init,
    .extract = extract,
    .close = close_float_ansnr,
};
