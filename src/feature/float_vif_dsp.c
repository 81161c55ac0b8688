/* Float VIF's DSP table: the scalar C of its stages and the dispatch. */
#include <math.h>
#include <stdint.h>
#include <string.h>

#include "feature/float_vif_dsp.h"

#if VQX_ARCH_X86
#include "x86/float_vif.h"
#endif

FLOAT_VIF_FILTER_COLUMNS(vqx_float_vif_filter_columns_c)
{
    for (int j = 0; j < w; j++) {
        float sum = 0.0f + f[0] * rows[0][j];
        for (int k = 1; k < width; k++) sum += f[k] * rows[k][j];
        out[j] = sum;
    }
}

FLOAT_VIF_MOMENT_COLUMNS(vqx_float_vif_moment_columns_c)
{
    for (int j = 0; j < w; j++) {
        float m1 = 0.0f, m2 = 0.0f, rr = 0.0f, dd = 0.0f, rd = 0.0f;
        for (int k = 0; k < width; k++) {
            const float c = f[k], r = ref[k][j], d = dis[k][j];
            m1 += c * r;
            m2 += c * d;
            rr += c * (r * r);
            dd += c * (d * d);
            rd += c * (r * d);
        }
        mu1[j] = m1;
        mu2[j] = m2;
        xx[j] = rr;
        yy[j] = dd;
        xy[j] = rd;
    }
}

FLOAT_VIF_FILTER_ROW(vqx_float_vif_filter_row_c)
{
    const int half = width / 2;
    for (int j = 0; j < w; j++) {
        const float *in_j = in + j - half;
        float sum = 0.0f;
        for (int k = 0; k < width; k++) sum += f[k] * in_j[k];
        out[j] = sum;
    }
}

static float log2_fast(float x)
{
    if (x == 0) return -INFINITY;
    if (x < 0) return NAN;
    uint32_t bits;
    memcpy(&bits, &x, sizeof(bits));
    const int32_t exponent = (int32_t)((bits & 0x7F800000u) >> 23) - 127;
    const uint32_t mantissa_bits = (bits & 0x007FFFFFu) | 0x3F800000u;
    float mantissa;
    memcpy(&mantissa, &mantissa_bits, sizeof(mantissa));
    const float m = mantissa - 1.0f;
    float p = 0;
    for (unsigned i = 0; i < FLOAT_VIF_LOG2_TERMS; i++) p = p * m + vqx_float_vif_log2_poly[i];
    return (float)exponent + p;
}

/* vif_statistic_s of one pixel; below the noise floor the linear fallback
 * replaces both logs. */
static void pixel_stat(const FloatVifStat *st, float mu1, float mu2, float xx, float yy,
                       float xy, float *num, float *den)
{
    const float eps = FLOAT_VIF_EPS;
    float sigma1_sq = xx - mu1 * mu1;
    float sigma2_sq = yy - mu2 * mu2;
    const float sigma12 = xy - mu1 * mu2;
    sigma1_sq = sigma1_sq > 0.0f ? sigma1_sq : 0.0f;
    sigma2_sq = sigma2_sq > 0.0f ? sigma2_sq : 0.0f;
    float g, sv_sq;
    if (sigma1_sq < eps) {
        g = 0.0f;
        sv_sq = sigma2_sq;
        sigma1_sq = 0.0f;
    } else {
        g = sigma12 / (sigma1_sq + eps);
        sv_sq = sigma2_sq - g * sigma12;
    }
    if (sigma1_sq < st->sigma_nsq) {
        *num = 1.0f - sigma2_sq * st->sigma_max_inv;
        *den = 1.0f;
        return;
    }
    if (sigma2_sq < eps) {
        g = 0.0f;
        sv_sq = 0.0f;
    }
    if (g < 0.0f) {
        sv_sq = sigma2_sq;
        g = 0.0f;
    }
    sv_sq = sv_sq > eps ? sv_sq : eps;
    g = g < st->gain_limit ? g : st->gain_limit;
    *num = sigma12 < 0.0f ? 0.0f
                          : log2_fast((float)(1.0f + (g * g * sigma1_sq) / (sv_sq + st->sigma_nsq)));
    *den = log2_fast((float)(1.0f + sigma1_sq / st->sigma_nsq));
}

FLOAT_VIF_PIXEL_STATS(vqx_float_vif_pixel_stats_c)
{
    for (int j = 0; j < w; j++)
        pixel_stat(st, mu1[j], mu2[j], xx[j], yy[j], xy[j], &num[j], &den[j]);
}

void vqx_float_vif_dsp_init(FloatVifDSPContext *c, unsigned cpu_flags)
{
    c->filter_columns = vqx_float_vif_filter_columns_c;
    c->moment_columns = vqx_float_vif_moment_columns_c;
    c->filter_row = vqx_float_vif_filter_row_c;
    c->pixel_stats = vqx_float_vif_pixel_stats_c;
#if VQX_ARCH_X86
    vqx_float_vif_dsp_init_x86(c, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
