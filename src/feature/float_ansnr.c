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
 * through the DSP table (float_ansnr_dsp.h), a block of rows at a time, on
 * rows converted to floats when first needed (so that they are still in
 * the cache).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "feature/float_ansnr.h"
#include "feature/float_picture.h"
#include "feature/float_sample.h"

#define MARGIN 2
/* Rows filtered before their energies: the SIMD energies run across rows. */
#define BLOCK 8
/* Converted rows kept: the filters read 5 consecutive rows. Row j is in
 * slot j % RING. */
#define RING 8

/* Filters, from libvmaf ansnr_tools.c, Netflix, BSD+Patent. */
#define F16(n) ((float)((n) / 16.0))
const float vqx_float_ansnr_ref_filter[FLOAT_ANSNR_REF_TAPS * FLOAT_ANSNR_REF_TAPS] = {
    F16(1.0), F16(2.0), F16(1.0),
    F16(2.0), F16(4.0), F16(2.0),
    F16(1.0), F16(2.0), F16(1.0),
};
#define F571(n) ((float)((n) / 571.0))
const float vqx_float_ansnr_dis_filter[FLOAT_ANSNR_DIS_TAPS * FLOAT_ANSNR_DIS_TAPS] = {
    F571(2.0),  F571(7.0),  F571(12.0),  F571(7.0),  F571(2.0),
    F571(7.0),  F571(31.0), F571(52.0),  F571(31.0), F571(7.0),
    F571(12.0), F571(52.0), F571(127.0), F571(52.0), F571(12.0),
    F571(7.0),  F571(31.0), F571(52.0),  F571(31.0), F571(7.0),
    F571(2.0),  F571(7.0),  F571(12.0),  F571(7.0),  F571(2.0),
};


enum { KEY_ANSNR, KEY_ANPSNR };

const char *const vqx_float_ansnr_keys[] = { "float_ansnr", "float_anpsnr", NULL };

int vqx_float_ansnr_setup(FloatAnsnrState *s, const VqxFrameFormat *fmt, VqxSink *sink)
{
    if (fmt->w < 3 || fmt->h < 3)
        return vqx_fail(sink, -EINVAL, "float_ansnr: frames must be at least 3x3, not %ux%u",
                        fmt->w, fmt->h);
    s->peak = vqx_float_peak(fmt->bpc);
    s->psnr_max = 6.0 * fmt->bpc + 12.0;
    s->w = (int)fmt->w;
    s->h = (int)fmt->h;
    return 0;
}

int vqx_float_ansnr_emit(const FloatAnsnrState *s, float signal, float noise, unsigned frame,
                         VqxSink *sink)
{
    const double ansnr = noise == 0 ? s->psnr_max : 10.0 * log10(signal / noise);
    const double floor_noise = noise > 1e-10 ? noise : 1e-10;
    const double anpsnr = 10 * log10(s->peak * s->peak * s->w * s->h / floor_noise);
    const int err = vqx_emit(sink, KEY_ANSNR, frame, ansnr);
    return err | vqx_emit(sink, KEY_ANPSNR, frame, anpsnr < s->psnr_max ? anpsnr : s->psnr_max);
}

static int init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    FloatAnsnrState *s = priv;
    const int ret = vqx_float_ansnr_setup(s, fmt, sink);
    if (ret) return ret;
    s->stride = (ptrdiff_t)vqx_float_stride(fmt->w + 2 * MARGIN);
    s->ref = malloc(sizeof(float) * (size_t)s->stride * RING);
    s->dis = malloc(sizeof(float) * (size_t)s->stride * RING);
    s->ref_rows = malloc(sizeof(float) * BLOCK * fmt->w);
    s->dis_rows = malloc(sizeof(float) * BLOCK * fmt->w);
    vqx_float_ansnr_dsp_init(&s->dsp, fmt->cpu_flags);
    vqx_float_picture_dsp_init(&s->pic_dsp, fmt->cpu_flags);
    return s->ref && s->dis && s->ref_rows && s->dis_rows ? 0 : -ENOMEM;
}

/* Row j of pic's luma as floats offset by -128, columns mirrored: rows up
 * to j converted into the ring first. */
static const float *ring_row(const FloatAnsnrState *s, float *ring, int *next,
                             const VqxPicture *pic, int j)
{
    for (; *next <= j; (*next)++) {
        float *row = ring + (*next % RING) * s->stride + MARGIN;
        vqx_float_rows(&s->pic_dsp, row, 0, pic, 0, (unsigned)*next, 1, -128.0f);
        for (int m = 1; m <= MARGIN; m++) {
            row[-m] = row[vqx_mirror_hybrid(-m, s->w)];
            row[s->w - 1 + m] = row[vqx_mirror_hybrid(s->w - 1 + m, s->w)];
        }
    }
    return ring + (j % RING) * s->stride + MARGIN;
}

/* Row y of pic filtered by the n x n filter f. */
static void filter_row(const FloatAnsnrState *s, const float *f, int n, float *ring, int *next,
                       const VqxPicture *pic, int y, float *out)
{
    const float *rows[FLOAT_ANSNR_MAX_TAPS];
    for (int i = 0; i < n; i++)
        rows[i] = ring_row(s, ring, next, pic, vqx_mirror_hybrid(y - n / 2 + i, s->h));
    s->dsp.filter_row(f, n, rows, s->w, out);
}

static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    FloatAnsnrState *s = priv;
    s->ref_next = s->dis_next = 0;

    float signal = 0, noise = 0;
    for (int y0 = 0; y0 < s->h; y0 += BLOCK) {
        const int n = s->h - y0 < BLOCK ? s->h - y0 : BLOCK;
        for (int r = 0; r < n; r++) {
            filter_row(s, vqx_float_ansnr_ref_filter, FLOAT_ANSNR_REF_TAPS, s->ref, &s->ref_next,
                       ref, y0 + r, s->ref_rows + r * s->w);
            filter_row(s, vqx_float_ansnr_dis_filter, FLOAT_ANSNR_DIS_TAPS, s->dis, &s->dis_next,
                       dis, y0 + r, s->dis_rows + r * s->w);
        }
        float row_signal[BLOCK], row_noise[BLOCK];
        s->dsp.row_energies(s->ref_rows, s->dis_rows, s->w, s->w, n, row_signal, row_noise);
        for (int r = 0; r < n; r++) {
            signal += row_signal[r];
            noise += row_noise[r];
        }
    }

    return vqx_float_ansnr_emit(s, signal, noise, frame, sink);
}

static void close_float_ansnr(void *priv)
{
    FloatAnsnrState *s = priv;
    free(s->ref);
    free(s->dis);
    free(s->ref_rows);
    free(s->dis_rows);
}

const VqxFeatureExtractor vqx_fex_float_ansnr = {
    .name = "float_ansnr",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = vqx_float_ansnr_keys,
    .state_size = sizeof(FloatAnsnrState),
    .init = init,
    .extract = extract,
    .close = close_float_ansnr,
};
