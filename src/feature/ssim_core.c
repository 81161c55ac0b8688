#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "feature/ssim_core.h"

#define RADIUS (VQX_SSIM_WINDOW / 2)

/* Separable taps of the 11x11 circular Gaussian window (sigma 1.5), from
 * libvmaf src/feature/iqa/ssim_tools.h (Netflix, BSD+Patent). */
static const float gauss[VQX_SSIM_WINDOW] = {
    0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f,
    0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f,
};

/* The 9x9 low-pass of the 9/7 biorthogonal wavelet, from libvmaf
 * src/feature/ms_ssim.c (Netflix, BSD+Patent). The table there is
 * symmetric in rows, columns and diagonal; this is its quadrant, indexed
 * by the distance from the centre: tap(u, v) = lpf_quadrant[|v|][|u|]. */
#define LPF_RADIUS 4
static const float lpf_quadrant[LPF_RADIUS + 1][LPF_RADIUS + 1] = {
    { 0.363505f, 0.160885f, -0.047149f, -0.010146f, 0.016114f },
    { 0.160885f, 0.071207f, -0.020867f, -0.004490f, 0.007132f },
    { -0.047149f, -0.020867f, 0.006115f, 0.001316f, -0.002090f },
    { -0.010146f, -0.004490f, 0.001316f, 0.000283f, -0.000450f },
    { 0.016114f, 0.007132f, -0.002090f, -0.000450f, 0.000714f },
};

/* Stabilising constants of SSIM: (K L)^2 with K1 = 0.01, K2 = 0.03 and
 * L = 255, computed in float as libvmaf's iqa does. */
#define K1L (0.01f * 255)
#define K2L (0.03f * 255)
static const float C1 = K1L * K1L;
static const float C2 = K2L * K2L;
static const float C3 = K2L * K2L / 2.0f;

enum { MU_REF, MU_CMP, SQ_REF, SQ_CMP, CROSS, N_STATS };

int vqx_ssim_scratch_init(VqxSsimScratch *s, unsigned max_w)
{
    const size_t ow = max_w - (VQX_SSIM_WINDOW - 1);
    s->max_w = max_w;
    s->products = malloc(3 * (size_t)max_w * sizeof(float));
    s->ring = malloc(N_STATS * VQX_SSIM_WINDOW * ow * sizeof(float));
    s->stats = malloc(N_STATS * ow * sizeof(float));
    s->acc = malloc(ow * sizeof(double));
    if (!s->products || !s->ring || !s->stats || !s->acc) {
        vqx_ssim_scratch_free(s);
        return -ENOMEM;
    }
    return 0;
}

void vqx_ssim_scratch_free(VqxSsimScratch *s)
{
    free(s->products);
    free(s->ring);
    free(s->stats);
    free(s->acc);
    *s = (VqxSsimScratch){ 0 };
}

/* One Gaussian pass: out[x] = sum over k of taps[k] * rows[k][x], each
 * product rounded to float, summed in double, the sum rounded to float.
 * Horizontal: rows[k] = row + k; vertical: rows[k] = the k-th of eleven
 * horizontally filtered rows. */
static void gauss_pass(const float *const rows[VQX_SSIM_WINDOW], unsigned n,
                       double *acc, float *out)
{
    for (unsigned x = 0; x < n; x++) acc[x] = 0.0;
    for (unsigned k = 0; k < VQX_SSIM_WINDOW; k++) {
        const float g = gauss[k];
        const float *p = rows[k];
        for (unsigned x = 0; x < n; x++) acc[x] += (double)(p[x] * g);
    }
    for (unsigned x = 0; x < n; x++) out[x] = (float)acc[x];
}

typedef struct SsimSums {
    double ssim, l, c, s;
} SsimSums;

/* SSIM terms of one output row. The float/double mix is libvmaf's: means,
 * variances and the structure term are float, luminance and contrast are
 * double quotients of a double numerator and a float denominator. */
static void score_row(const float *const st[N_STATS], unsigned n, SsimSums *sum)
{
    for (unsigned x = 0; x < n; x++) {
        const float mu_ref = st[MU_REF][x];
        const float mu_cmp = st[MU_CMP][x];
        float var_ref = st[SQ_REF][x] - mu_ref * mu_ref;
        float var_cmp = st[SQ_CMP][x] - mu_cmp * mu_cmp;
        var_ref = 0.0 > var_ref ? 0.0f : var_ref;
        var_cmp = 0.0 > var_cmp ? 0.0f : var_cmp;
        const float covar = st[CROSS][x] - mu_ref * mu_cmp;
        const float sd_product = (float)sqrt(var_ref * var_cmp);

        const double l = (2.0 * mu_ref * mu_cmp + C1) / (mu_ref * mu_ref + mu_cmp * mu_cmp + C1);
        const double c = (2.0 * sd_product + C2) / (var_ref + var_cmp + C2);
        /* Identical flat windows can leave a tiny negative covariance from
         * float rounding; libvmaf treats it as 0 so that SSIM stays 1. */
        const float covar_kept = covar < 0.0f && sd_product <= 0.0f ? 0.0f : covar;
        const double s = (covar_kept + C3) / (sd_product + C3);

        sum->ssim += l * c * s;
        sum->l += l;
        sum->c += c;
        sum->s += s;
    }
}

void vqx_ssim_plane(VqxSsimScratch *s, const float *ref, const float *cmp,
                    ptrdiff_t stride, unsigned w, unsigned h, VqxSsimMeans *out)
{
    const unsigned ow = w - (VQX_SSIM_WINDOW - 1);
    const unsigned oh = h - (VQX_SSIM_WINDOW - 1);
    float *const sq_ref = s->products;
    float *const sq_cmp = sq_ref + s->max_w;
    float *const cross = sq_cmp + s->max_w;
    const size_t ring_w = s->max_w - (VQX_SSIM_WINDOW - 1);
    SsimSums sum = { 0 };

    for (unsigned y = 0; y < h; y++) {
        const float *r = ref + (ptrdiff_t)y * stride;
        const float *c = cmp + (ptrdiff_t)y * stride;
        for (unsigned x = 0; x < w; x++) {
            sq_ref[x] = r[x] * r[x];
            sq_cmp[x] = c[x] * c[x];
            cross[x] = r[x] * c[x];
        }
        const float *const in[N_STATS] = { r, c, sq_ref, sq_cmp, cross };
        const unsigned slot = y % VQX_SSIM_WINDOW;
        for (unsigned q = 0; q < N_STATS; q++) {
            const float *shifted[VQX_SSIM_WINDOW];
            for (unsigned k = 0; k < VQX_SSIM_WINDOW; k++) shifted[k] = in[q] + k;
            gauss_pass(shifted, ow, s->acc, s->ring + (q * VQX_SSIM_WINDOW + slot) * ring_w);
        }

        if (y < VQX_SSIM_WINDOW - 1) continue;
        const unsigned top = y - (VQX_SSIM_WINDOW - 1);
        const float *st[N_STATS];
        for (unsigned q = 0; q < N_STATS; q++) {
            const float *rows[VQX_SSIM_WINDOW];
            for (unsigned k = 0; k < VQX_SSIM_WINDOW; k++)
                rows[k] = s->ring + (q * VQX_SSIM_WINDOW + (top + k) % VQX_SSIM_WINDOW) * ring_w;
            float *dst = s->stats + q * ring_w;
            gauss_pass(rows, ow, s->acc, dst);
            st[q] = dst;
        }
        score_row(st, ow, &sum);
    }

    const double n = (double)(ow * oh);
    out->ssim = (float)(sum.ssim / n);
    out->l = (float)(sum.l / n);
    out->c = (float)(sum.c / n);
    out->s = (float)(sum.s / n);
}

double vqx_ssim_max_db(unsigned bpc, unsigned w, unsigned h, int clip)
{
    if (!clip) return INFINITY;
    const unsigned peak = (1u << bpc) - 1;
    const double mse = 0.5 / (w * h);
    return ceil(10. * log10(peak * peak / mse));
}

double vqx_ssim_to_db(double score, double max_db)
{
    const double db = -10. * log10(1 - score);
    return db < max_db ? db : max_db;
}

/* Index of a position outside [0, n) mirrored back, edge sample repeated:
 * -1 -> 0, n -> n - 1 (the iqa "symmetric" border). */
static inline int mirror(int i, int n)
{
    if (i < 0) return -1 - i;
    if (i >= n) return 2 * n - 1 - i;
    return i;
}

void vqx_ssim_box_decimate(const float *src, ptrdiff_t src_stride, unsigned w, unsigned h,
                           unsigned factor, float *dst, ptrdiff_t dst_stride)
{
    /* libvmaf's low-pass: taps 1/f^2 in float, centred at f/2, reaching
     * f/2 before the sample and, for even f, one less after it. */
    const float tap = 1.0f / (float)(factor * factor);
    const int lo = -(int)(factor / 2);
    const int hi = (int)(factor / 2) - !(factor & 1);
    const unsigned dw = vqx_ssim_decimated(w, factor), dh = vqx_ssim_decimated(h, factor);

    for (unsigned y = 0; y < dh; y++) {
        float *out = dst + (ptrdiff_t)y * dst_stride;
        for (unsigned x = 0; x < dw; x++) {
            const int cx = (int)(x * factor), cy = (int)(y * factor);
            double sum = 0.0;
            for (int v = lo; v <= hi; v++) {
                const float *row = src + (ptrdiff_t)mirror(cy + v, (int)h) * src_stride;
                for (int u = lo; u <= hi; u++)
                    sum += (double)(row[mirror(cx + u, (int)w)] * tap);
            }
            out[x] = (float)sum;
        }
    }
}

/* One output sample of the 9x9 low-pass; cols[u] is the column of cx + u. */
static inline float lpf_sample(const float *const rows[2 * LPF_RADIUS + 1], const int *cols)
{
    double sum = 0.0;
    for (int v = -LPF_RADIUS; v <= LPF_RADIUS; v++) {
        const float *row = rows[v + LPF_RADIUS];
        const float *taps = lpf_quadrant[v < 0 ? -v : v];
        for (int u = -LPF_RADIUS; u <= LPF_RADIUS; u++)
            sum += (double)(row[cols[u]] * taps[u < 0 ? -u : u]);
    }
    return (float)sum;
}

void vqx_ssim_lpf_decimate(const float *src, ptrdiff_t src_stride, unsigned w, unsigned h,
                           float *dst, ptrdiff_t dst_stride)
{
    const unsigned dw = vqx_ssim_decimated(w, 2), dh = vqx_ssim_decimated(h, 2);
    for (unsigned y = 0; y < dh; y++) {
        const float *rows[2 * LPF_RADIUS + 1];
        for (int v = -LPF_RADIUS; v <= LPF_RADIUS; v++)
            rows[v + LPF_RADIUS] = src + (ptrdiff_t)mirror((int)(2 * y) + v, (int)h) * src_stride;
        float *out = dst + (ptrdiff_t)y * dst_stride;
        for (unsigned x = 0; x < dw; x++) {
            const int cx = (int)(2 * x);
            int cols[2 * LPF_RADIUS + 1];
            for (int u = -LPF_RADIUS; u <= LPF_RADIUS; u++)
                cols[u + LPF_RADIUS] = mirror(cx + u, (int)w);
            out[x] = lpf_sample(rows, cols + LPF_RADIUS);
        }
    }
}
