#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "feature/resample.h"
#include "feature/resample_sample.h"

#if VQX_ARCH_X86
#include "x86/resample.h"
#endif

#define PI 3.14159265358979323846 /* M_PI, which strict C11 does not declare */

const char *const vqx_resample_names[] = { "nearest", "bilinear", "bicubic", "lanczos4", NULL };

/* Source samples per output sample along one axis, per method. */
enum { BICUBIC_TAPS = 4, LANCZOS4_TAPS = VQX_RESAMPLE_MAX_TAPS };
static const unsigned method_taps[] = { 1, 2, BICUBIC_TAPS, LANCZOS4_TAPS };

enum VqxResampleMethod vqx_resample_method(const char *name)
{
    for (unsigned m = 0; vqx_resample_names[m]; m++)
        if (!strcmp(name, vqx_resample_names[m])) return (enum VqxResampleMethod)m;
    return VQX_RESAMPLE_NEAREST;
}

/* Reflection about the first and last sample (no repeat), in float. */
static float mirror(float i, float last)
{
    return i < 0 ? -i : i > last ? 2 * last - i : i;
}

static float bicubic_weight(float t)
{
    const float a = -0.75;
    if (t < 0) t = -t;
    if (t < 1) return ((a + 2) * t - (a + 3)) * t * t + 1;
    if (t < 2) return (((t - 5) * t + 8) * t - 4) * a;
    return 0;
}

static float lanczos4_weight(float x)
{
    const float a = 4;
    if (x == 0.0) return 1.0;
    if (x > -a && x < a) return a * sin(PI * x) * sin(PI * x / a) / (PI * PI * x * x);
    return 0.0;
}

/* Positions and weights of n_dst outputs from n_src inputs along one axis,
 * with libvmaf's coordinate arithmetic: the centre of output o falls at
 * (o + 0.5) * ratio - 0.5, computed in double and kept as a float. */
static void axis_init(VqxResampleAxis *ax, enum VqxResampleMethod m, unsigned taps,
                      unsigned n_src, unsigned n_dst)
{
    const float ratio = (float)n_src / n_dst;
    const float last = (float)((int)n_src - 1);
    for (unsigned o = 0; o < n_dst; o++) {
        int *idx = ax->index + (size_t)o * taps;
        float *wt = ax->weight + (size_t)o * taps;
        if (m == VQX_RESAMPLE_NEAREST) {
            idx[0] = (int)((float)o * ratio);
            wt[0] = 1;
            continue;
        }
        const float pos = (float)((o + 0.5) * ratio - 0.5);
        if (m == VQX_RESAMPLE_BILINEAR) {
            idx[0] = (int)mirror((float)floor(pos), last);
            idx[1] = (int)mirror((float)ceil(pos), last);
            const float frac = pos - (float)idx[0];
            wt[0] = 1 - frac;
            wt[1] = frac;
            continue;
        }
        const int origin = (int)floor(pos);
        const float frac = pos - (float)origin;
        const int reach = m == VQX_RESAMPLE_BICUBIC ? 1 : 4;
        for (unsigned t = 0; t < taps; t++) {
            const int i = (int)t - reach;
            idx[t] = (int)mirror((float)(origin + i), last);
            wt[t] = m == VQX_RESAMPLE_BICUBIC ? bicubic_weight((float)i - frac)
                                              : lanczos4_weight((float)i - frac);
        }
    }
}

/* One output row of bicubic or lanczos4 (nt taps, a constant once inlined,
 * so that the window loops unroll). */
static inline void window_row(const float *const rows[], const float *wy,
                              const VqxResampleAxis *cols, unsigned dst_w, float *out,
                              unsigned nt, bool normalise)
{
    for (unsigned x = 0; x < dst_w; x++)
        out[x] = vqx_resample_window(rows, wy, cols->index + (size_t)x * nt,
                                     cols->weight + (size_t)x * nt, nt, normalise);
}

RESAMPLE_ROW(vqx_resample_row_nearest_c)
{
    (void)wy;
    for (unsigned x = 0; x < dst_w; x++)
        out[x] = rows[0][cols->index[x]];
}

RESAMPLE_ROW(vqx_resample_row_bilinear_c)
{
    const float *r1 = rows[0], *r2 = rows[1];
    for (unsigned x = 0; x < dst_w; x++)
        out[x] = vqx_resample_bilinear(wy, cols->weight + 2 * x, r1, r2, cols->index[2 * x],
                                       cols->index[2 * x + 1]);
}

RESAMPLE_ROW(vqx_resample_row_bicubic_c)
{
    window_row(rows, wy, cols, dst_w, out, BICUBIC_TAPS, false);
}

RESAMPLE_ROW(vqx_resample_row_lanczos4_c)
{
    window_row(rows, wy, cols, dst_w, out, LANCZOS4_TAPS, true);
}

void vqx_resample_dsp_init(ResampleDSPContext *c, unsigned cpu_flags)
{
    c->row[VQX_RESAMPLE_NEAREST] = vqx_resample_row_nearest_c;
    c->row[VQX_RESAMPLE_BILINEAR] = vqx_resample_row_bilinear_c;
    c->row[VQX_RESAMPLE_BICUBIC] = vqx_resample_row_bicubic_c;
    c->row[VQX_RESAMPLE_LANCZOS4] = vqx_resample_row_lanczos4_c;
#if VQX_ARCH_X86
    vqx_resample_dsp_init_x86(c, cpu_flags);
#else
    (void)cpu_flags;
#endif
}

int vqx_resampler_init(VqxResampler *r, enum VqxResampleMethod method,
                       unsigned src_w, unsigned src_h, unsigned dst_w, unsigned dst_h,
                       unsigned cpu_flags)
{
    const unsigned taps = method_taps[method];
    ResampleDSPContext dsp;
    vqx_resample_dsp_init(&dsp, cpu_flags);
    *r = (VqxResampler){ .method = method, .taps = taps, .dst_w = dst_w, .dst_h = dst_h,
                         .row = dsp.row[method] };
    r->cols.index = malloc(sizeof(int) * dst_w * taps);
    r->cols.weight = malloc(sizeof(float) * dst_w * taps);
    r->rows.index = malloc(sizeof(int) * dst_h * taps);
    r->rows.weight = malloc(sizeof(float) * dst_h * taps);
    if (!r->cols.index || !r->cols.weight || !r->rows.index || !r->rows.weight) {
        vqx_resampler_free(r);
        return -ENOMEM;
    }
    axis_init(&r->cols, method, taps, src_w, dst_w);
    axis_init(&r->rows, method, taps, src_h, dst_h);
    return 0;
}

void vqx_resampler_free(VqxResampler *r)
{
    free(r->cols.index);
    free(r->cols.weight);
    free(r->rows.index);
    free(r->rows.weight);
    r->cols = r->rows = (VqxResampleAxis){ 0 };
}

void vqx_resample(const VqxResampler *r, const float *src, ptrdiff_t src_stride,
                  float *dst, ptrdiff_t dst_stride)
{
    const unsigned nt = r->taps;
    const float *rows[VQX_RESAMPLE_MAX_TAPS];
    for (unsigned y = 0; y < r->dst_h; y++) {
        const int *ry = r->rows.index + (size_t)y * nt;
        for (unsigned t = 0; t < nt; t++) rows[t] = src + ry[t] * src_stride;
        r->row(rows, r->rows.weight + (size_t)y * nt, &r->cols, r->dst_w,
               dst + (ptrdiff_t)y * dst_stride);
    }
}
