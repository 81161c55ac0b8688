/* The SSIM DSP table: the scalar C entries (the definition of every value,
 * libvmaf's iqa arithmetic operation for operation) and the dispatch. */
#include <math.h>

#include "feature/ssim_dsp.h"

#if VQX_ARCH_X86
#include "x86/ssim.h"
#endif

/* Separable taps of the 11x11 circular Gaussian window (sigma 1.5), from
 * libvmaf src/feature/iqa/ssim_tools.h (Netflix, BSD+Patent). */
const float vqx_ssim_gauss[VQX_SSIM_WINDOW] = {
    0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f,
    0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f,
};

/* The 9x9 low-pass of the 9/7 biorthogonal wavelet, from libvmaf
 * src/feature/ms_ssim.c (Netflix, BSD+Patent). The table there is
 * symmetric in rows, columns and diagonal; this is its quadrant, indexed
 * by the distance from the centre. */
const float vqx_ssim_lpf[VQX_SSIM_LPF_RADIUS + 1][VQX_SSIM_LPF_RADIUS + 1] = {
    { 0.363505f, 0.160885f, -0.047149f, -0.010146f, 0.016114f },
    { 0.160885f, 0.071207f, -0.020867f, -0.004490f, 0.007132f },
    { -0.047149f, -0.020867f, 0.006115f, 0.001316f, -0.002090f },
    { -0.010146f, -0.004490f, 0.001316f, 0.000283f, -0.000450f },
    { 0.016114f, 0.007132f, -0.002090f, -0.000450f, 0.000714f },
};

/* (K L)^2 with K1 = 0.01, K2 = 0.03 and L = 255, computed in float as
 * libvmaf's iqa does. */
#define K1L (0.01f * 255)
#define K2L (0.03f * 255)
const float vqx_ssim_c1 = K1L * K1L;
const float vqx_ssim_c2 = K2L * K2L;
const float vqx_ssim_c3 = K2L * K2L / 2.0f;

SSIM_FILTER(vqx_ssim_filter_c)
{
    for (unsigned x = 0; x < n; x++) {
        double sum = 0.0;
        for (unsigned k = 0; k < VQX_SSIM_WINDOW; k++)
            sum += (double)(rows[k][x] * vqx_ssim_gauss[k]);
        out[x] = (float)sum;
    }
}

/* The float/double mix is libvmaf's: means, variances and the structure
 * term are float, luminance and contrast are double quotients of a double
 * numerator and a float denominator. */
SSIM_SCORE(vqx_ssim_score_c)
{
    const float C1 = vqx_ssim_c1, C2 = vqx_ssim_c2, C3 = vqx_ssim_c3;
    for (unsigned x = 0; x < n; x++) {
        const float mu_ref = st[VQX_SSIM_MU_REF][x];
        const float mu_cmp = st[VQX_SSIM_MU_CMP][x];
        float var_ref = st[VQX_SSIM_SQ_REF][x] - mu_ref * mu_ref;
        float var_cmp = st[VQX_SSIM_SQ_CMP][x] - mu_cmp * mu_cmp;
        var_ref = 0.0 > var_ref ? 0.0f : var_ref;
        var_cmp = 0.0 > var_cmp ? 0.0f : var_cmp;
        const float covar = st[VQX_SSIM_CROSS][x] - mu_ref * mu_cmp;
        const float sd_product = (float)sqrt(var_ref * var_cmp);

        const double l = (2.0 * mu_ref * mu_cmp + C1) / (mu_ref * mu_ref + mu_cmp * mu_cmp + C1);
        const double c = (2.0 * sd_product + C2) / (var_ref + var_cmp + C2);
        /* Identical flat windows can leave a tiny negative covariance from
         * float rounding; libvmaf treats it as 0 so that SSIM stays 1. */
        const float covar_kept = covar < 0.0f && sd_product <= 0.0f ? 0.0f : covar;
        const double s = (covar_kept + C3) / (sd_product + C3);

        sums[VQX_SSIM_SUM_SSIM] += l * c * s;
        sums[VQX_SSIM_SUM_L] += l;
        sums[VQX_SSIM_SUM_C] += c;
        sums[VQX_SSIM_SUM_S] += s;
    }
}

/* Products summed in double row by row. */
float vqx_ssim_box_sample(const float *const *rows, unsigned w, unsigned factor, unsigned x)
{
    const float tap = 1.0f / (float)(factor * factor);
    const int lo = vqx_ssim_box_lo(factor), hi = vqx_ssim_box_hi(factor);
    const int cx = (int)(x * factor);
    double sum = 0.0;
    for (unsigned v = 0; v < factor; v++)
        for (int u = lo; u <= hi; u++)
            sum += (double)(rows[v][vqx_ssim_mirror(cx + u, (int)w)] * tap);
    return (float)sum;
}

SSIM_BOX_ROW(vqx_ssim_box_row_c)
{
    const unsigned dw = vqx_ssim_decimated(w, factor);
    for (unsigned x = 0; x < dw; x++) out[x] = vqx_ssim_box_sample(rows, w, factor, x);
}

float vqx_ssim_lpf_sample(const float *const rows[2 * VQX_SSIM_LPF_RADIUS + 1], unsigned w,
                          unsigned x)
{
    const int r = VQX_SSIM_LPF_RADIUS;
    int cols[2 * VQX_SSIM_LPF_RADIUS + 1];
    for (int u = -r; u <= r; u++) cols[u + r] = vqx_ssim_mirror((int)(2 * x) + u, (int)w);
    double sum = 0.0;
    for (int v = -r; v <= r; v++) {
        const float *taps = vqx_ssim_lpf[v < 0 ? -v : v];
        for (int u = -r; u <= r; u++)
            sum += (double)(rows[v + r][cols[u + r]] * taps[u < 0 ? -u : u]);
    }
    return (float)sum;
}

void vqx_ssim_lpf_rows(const float *src, ptrdiff_t src_stride, unsigned h, unsigned y,
                       const float *rows[2 * VQX_SSIM_LPF_RADIUS + 1])
{
    const int r = VQX_SSIM_LPF_RADIUS;
    for (int v = -r; v <= r; v++)
        rows[v + r] = src + (ptrdiff_t)vqx_ssim_mirror((int)(2 * y) + v, (int)h) * src_stride;
}

SSIM_LPF_DECIMATE(vqx_ssim_lpf_decimate_c)
{
    const unsigned dw = vqx_ssim_decimated(w, 2), dh = vqx_ssim_decimated(h, 2);
    for (unsigned y = 0; y < dh; y++) {
        const float *rows[2 * VQX_SSIM_LPF_RADIUS + 1];
        vqx_ssim_lpf_rows(src, src_stride, h, y, rows);
        for (unsigned x = 0; x < dw; x++)
            dst[(ptrdiff_t)y * dst_stride + x] = vqx_ssim_lpf_sample(rows, w, x);
    }
}

void vqx_ssim_dsp_init(SsimDSPContext *c, unsigned cpu_flags)
{
    c->filter = vqx_ssim_filter_c;
    c->score = vqx_ssim_score_c;
    c->box_row = vqx_ssim_box_row_c;
    c->lpf_decimate = vqx_ssim_lpf_decimate_c;
#if VQX_ARCH_X86
    vqx_ssim_dsp_init_x86(c, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
