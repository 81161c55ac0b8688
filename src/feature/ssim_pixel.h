/*
 * The per-sample statements of float_ssim and float_ms_ssim, compiled by
 * nvcc too: the CPU's table entries (ssim_dsp.c) and the CUDA twins
 * (cuda/ssim_kernels.cu) run them. The Gaussian window's taps and the
 * 9/7 low-pass are here once, as lists that both sides expand.
 */
#ifndef VQX_FEATURE_SSIM_PIXEL_H
#define VQX_FEATURE_SSIM_PIXEL_H

#include <math.h>
#include <stddef.h>

#include "hostdev.h"

/* Side of the Gaussian window: a plane needs at least this many rows and
 * columns to have one SSIM value. */
#define VQX_SSIM_WINDOW 11

/* Half width of MS-SSIM's 9x9 low-pass. */
#define VQX_SSIM_LPF_RADIUS 4

/* Separable taps of the 11x11 circular Gaussian window (sigma 1.5), from
 * libvmaf src/feature/iqa/ssim_tools.h (Netflix, BSD+Patent). */
#define VQX_SSIM_GAUSS_TAPS                                                     \
    0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f,           \
    0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f

/* The 9x9 low-pass of the 9/7 biorthogonal wavelet, from libvmaf
 * src/feature/ms_ssim.c (Netflix, BSD+Patent). The table there is
 * symmetric in rows, columns and diagonal; this is its quadrant, indexed
 * by the distance from the centre: tap (u, v) = [|v|][|u|]. */
#define VQX_SSIM_LPF_TAPS                                                       \
    { 0.363505f, 0.160885f, -0.047149f, -0.010146f, 0.016114f },                \
    { 0.160885f, 0.071207f, -0.020867f, -0.004490f, 0.007132f },                \
    { -0.047149f, -0.020867f, 0.006115f, 0.001316f, -0.002090f },               \
    { -0.010146f, -0.004490f, 0.001316f, 0.000283f, -0.000450f },               \
    { 0.016114f, 0.007132f, -0.002090f, -0.000450f, 0.000714f }

/* SSIM's stabilising constants: (K L)^2 with K1 = 0.01, K2 = 0.03 and
 * L = 255, computed in float as libvmaf's iqa does. */
#define VQX_SSIM_K1L (0.01f * 255)
#define VQX_SSIM_K2L (0.03f * 255)
#define VQX_SSIM_C1 (VQX_SSIM_K1L * VQX_SSIM_K1L)
#define VQX_SSIM_C2 (VQX_SSIM_K2L * VQX_SSIM_K2L)
#define VQX_SSIM_C3 (VQX_SSIM_K2L * VQX_SSIM_K2L / 2.0f)

/* The window statistics of one position, in the order score() takes them. */
enum { VQX_SSIM_MU_REF, VQX_SSIM_MU_CMP, VQX_SSIM_SQ_REF, VQX_SSIM_SQ_CMP, VQX_SSIM_CROSS,
       VQX_SSIM_N_STATS };
/* The running sums of score(). */
enum { VQX_SSIM_SUM_SSIM, VQX_SSIM_SUM_L, VQX_SSIM_SUM_C, VQX_SSIM_SUM_S, VQX_SSIM_N_SUMS };
/* A position's terms: luminance, contrast, structure. */
enum { VQX_SSIM_TERM_L, VQX_SSIM_TERM_C, VQX_SSIM_TERM_S, VQX_SSIM_N_TERMS };

/* Index of a position outside [0, n) mirrored back, edge sample repeated:
 * -1 -> 0, n -> n - 1 (the iqa "symmetric" border). */
VQX_HOSTDEV static inline int vqx_ssim_mirror(int i, int n)
{
    if (i < 0) return -1 - i;
    if (i >= n) return 2 * n - 1 - i;
    return i;
}

/* The quantities the window filters, of one sample pair: the samples, their
 * squares and their product (VQX_SSIM_MU_REF .. VQX_SSIM_CROSS). */
VQX_HOSTDEV static inline void vqx_ssim_inputs(float r, float c, float q[VQX_SSIM_N_STATS])
{
    q[VQX_SSIM_MU_REF] = r;
    q[VQX_SSIM_MU_CMP] = c;
    q[VQX_SSIM_SQ_REF] = r * r;
    q[VQX_SSIM_SQ_CMP] = c * c;
    q[VQX_SSIM_CROSS] = r * c;
}

/* One Gaussian output: the sum over k of (double)(rows[k][x] * tap[k]) in k
 * order from 0.0, rounded to float. */
VQX_HOSTDEV static inline float vqx_ssim_gauss_sum(const float *const rows[VQX_SSIM_WINDOW],
                                                  size_t x)
{
    const float taps[VQX_SSIM_WINDOW] = { VQX_SSIM_GAUSS_TAPS };
    double sum = 0.0;
    for (unsigned k = 0; k < VQX_SSIM_WINDOW; k++) sum += (double)(rows[k][x] * taps[k]);
    return (float)sum;
}

/* The SSIM terms of one position from its window statistics st[q]. The
 * float/double mix is libvmaf's: means, variances and the structure term
 * are float, luminance and contrast are double quotients of a double
 * numerator and a float denominator; the square root of the float variance
 * product is the double one, rounded to float. */
VQX_HOSTDEV static inline void vqx_ssim_terms(const float st[VQX_SSIM_N_STATS],
                                              double t[VQX_SSIM_N_TERMS])
{
    const float C1 = VQX_SSIM_C1, C2 = VQX_SSIM_C2, C3 = VQX_SSIM_C3;
    const float mu_ref = st[VQX_SSIM_MU_REF];
    const float mu_cmp = st[VQX_SSIM_MU_CMP];
    float var_ref = st[VQX_SSIM_SQ_REF] - mu_ref * mu_ref;
    float var_cmp = st[VQX_SSIM_SQ_CMP] - mu_cmp * mu_cmp;
    var_ref = 0.0 > var_ref ? 0.0f : var_ref;
    var_cmp = 0.0 > var_cmp ? 0.0f : var_cmp;
    const float covar = st[VQX_SSIM_CROSS] - mu_ref * mu_cmp;
    const float sd_product = (float)sqrt((double)(var_ref * var_cmp));

    t[VQX_SSIM_TERM_L] = (2.0 * mu_ref * mu_cmp + C1) / (mu_ref * mu_ref + mu_cmp * mu_cmp + C1);
    t[VQX_SSIM_TERM_C] = (2.0 * sd_product + C2) / (var_ref + var_cmp + C2);
    /* Identical flat windows can leave a tiny negative covariance from
     * float rounding; libvmaf treats it as 0 so that SSIM stays 1. */
    const float covar_kept = covar < 0.0f && sd_product <= 0.0f ? 0.0f : covar;
    t[VQX_SSIM_TERM_S] = (covar_kept + C3) / (sd_product + C3);
}

/* What a position adds to running sum k (VQX_SSIM_SUM_SSIM ..): l c s, or
 * one of the terms (selected, not indexed: a kernel keeps t in registers). */
VQX_HOSTDEV static inline double vqx_ssim_sum_term(const double t[VQX_SSIM_N_TERMS], unsigned k)
{
    switch (k) {
    case VQX_SSIM_SUM_SSIM: return t[VQX_SSIM_TERM_L] * t[VQX_SSIM_TERM_C] * t[VQX_SSIM_TERM_S];
    case VQX_SSIM_SUM_L: return t[VQX_SSIM_TERM_L];
    case VQX_SSIM_SUM_C: return t[VQX_SSIM_TERM_C];
    default: return t[VQX_SSIM_TERM_S];
    }
}

/* Whether sum k reads term i. */
VQX_HOSTDEV static inline int vqx_ssim_sum_reads(unsigned k, unsigned i)
{
    return k == VQX_SSIM_SUM_SSIM || k - VQX_SSIM_SUM_L == i - VQX_SSIM_TERM_L;
}

/* The box's reach around its sample: rows and columns lo .. hi (libvmaf's
 * centring at factor / 2: for even factors one less after the sample). */
VQX_HOSTDEV static inline int vqx_ssim_box_lo(unsigned factor)
{
    return -(int)(factor / 2);
}
VQX_HOSTDEV static inline int vqx_ssim_box_hi(unsigned factor)
{
    return (int)(factor / 2) - !(factor & 1);
}

/* The source row of vertical tap v (0 .. factor - 1) of output row y of a
 * plane h rows high. */
VQX_HOSTDEV static inline unsigned vqx_ssim_box_row(unsigned y, unsigned v, unsigned factor,
                                                    unsigned h)
{
    return (unsigned)vqx_ssim_mirror((int)(y * factor) + vqx_ssim_box_lo(factor) + (int)v, (int)h);
}

/* One source row's part of output x of float_ssim's box: its products with
 * the tap 1/factor^2 added to *sum in column order (the rows are added in
 * vertical tap order, from 0.0, and the sum rounded to float). */
VQX_HOSTDEV static inline void vqx_ssim_box_add_row(double *sum, const float *row, unsigned w,
                                                    unsigned factor, unsigned x)
{
    const float tap = 1.0f / (float)(factor * factor);
    const int lo = vqx_ssim_box_lo(factor), hi = vqx_ssim_box_hi(factor);
    const int cx = (int)(x * factor);
    for (int u = lo; u <= hi; u++) *sum += (double)(row[vqx_ssim_mirror(cx + u, (int)w)] * tap);
}

/* Output x of the box row whose vertical taps' rows are rows[0 .. factor). */
VQX_HOSTDEV static inline float vqx_ssim_box_sample(const float *const *rows, unsigned w,
                                                    unsigned factor, unsigned x)
{
    double sum = 0.0;
    for (unsigned v = 0; v < factor; v++) vqx_ssim_box_add_row(&sum, rows[v], w, factor, x);
    return (float)sum;
}

/* The 9 source rows of low-pass output row y (mirrored at the plane's
 * ends). */
VQX_HOSTDEV static inline void vqx_ssim_lpf_rows(const float *src, ptrdiff_t src_stride,
                                                 unsigned h, unsigned y,
                                                 const float *rows[2 * VQX_SSIM_LPF_RADIUS + 1])
{
    const int r = VQX_SSIM_LPF_RADIUS;
    for (int v = -r; v <= r; v++)
        rows[v + r] = src + (ptrdiff_t)vqx_ssim_mirror((int)(2 * y) + v, (int)h) * src_stride;
}

/* Output x of a low-pass row from its 9 source rows: the products summed in
 * double, rows then columns. */
VQX_HOSTDEV static inline float vqx_ssim_lpf_sample(
    const float *const rows[2 * VQX_SSIM_LPF_RADIUS + 1], unsigned w, unsigned x)
{
    const float lpf[VQX_SSIM_LPF_RADIUS + 1][VQX_SSIM_LPF_RADIUS + 1] = { VQX_SSIM_LPF_TAPS };
    const int r = VQX_SSIM_LPF_RADIUS;
    int cols[2 * VQX_SSIM_LPF_RADIUS + 1];
    for (int u = -r; u <= r; u++) cols[u + r] = vqx_ssim_mirror((int)(2 * x) + u, (int)w);
    double sum = 0.0;
    for (int v = -r; v <= r; v++) {
        const float *taps = lpf[v < 0 ? -v : v];
        for (int u = -r; u <= r; u++)
            sum += (double)(rows[v + r][cols[u + r]] * taps[u < 0 ? -u : u]);
    }
    return (float)sum;
}

#endif
