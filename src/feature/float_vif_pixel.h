/*
 * float_vif's per-sample statements (a tap of the moments, libvmaf's
 * vif_statistic_s and its polynomial log2), compiled by nvcc too: the CPU's
 * table entries and the CUDA twin run them.
 */
#ifndef VQX_FEATURE_FLOAT_VIF_PIXEL_H
#define VQX_FEATURE_FLOAT_VIF_PIXEL_H

#include <math.h>
#include <stdint.h>

#include "feature/float_vif_dsp.h"
#include "hostdev.h"

VQX_HOSTDEV static inline float vqx_float_vif_log2(float x)
{
    if (x == 0) return -INFINITY;
    if (x < 0) return NAN;
    const uint32_t bits = vqx_bits_of_float(x);
    const int32_t exponent = (int32_t)((bits & 0x7F800000u) >> 23) - 127;
    const uint32_t mantissa_bits = (bits & 0x007FFFFFu) | 0x3F800000u;
    const float mantissa = vqx_float_of_bits(mantissa_bits);
    const float m = mantissa - 1.0f;
    const float poly[FLOAT_VIF_LOG2_TERMS] = { FLOAT_VIF_LOG2_POLY };
    float p = 0;
    for (unsigned i = 0; i < FLOAT_VIF_LOG2_TERMS; i++) p = p * m + poly[i];
    return (float)exponent + p;
}

/* One tap of the vertical moments: acc (mu1, mu2, xx, yy, xy) plus c times
 * r, d, r * r, d * d and r * d. */
VQX_HOSTDEV static inline void vqx_float_vif_moment_tap(float c, float r, float d, float acc[5])
{
    acc[0] += c * r;
    acc[1] += c * d;
    acc[2] += c * (r * r);
    acc[3] += c * (d * d);
    acc[4] += c * (r * d);
}

/* vif_statistic_s of one pixel; below the noise floor the linear fallback
 * replaces both logs. */
VQX_HOSTDEV static inline void vqx_float_vif_pixel_stat(const FloatVifStat *st, float mu1,
                                                     float mu2, float xx, float yy, float xy,
                                                     float *num, float *den)
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
                          : vqx_float_vif_log2(
                                (float)(1.0f + (g * g * sigma1_sq) / (sv_sq + st->sigma_nsq)));
    *den = vqx_float_vif_log2((float)(1.0f + sigma1_sq / st->sigma_nsq));
}

#endif
