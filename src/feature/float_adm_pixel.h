/*
 * float_adm's per-sample statements (libvmaf's adm.c and adm_tools.c):
 * the DWT's taps, the decoupling by the reciprocal estimate, the masking
 * terms and threshold and the cubes, compiled by nvcc too: the CPU's
 * extractor and table entries and the CUDA twin run them.
 */
#ifndef VQX_FEATURE_FLOAT_ADM_PIXEL_H
#define VQX_FEATURE_FLOAT_ADM_PIXEL_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

#include "feature/float_adm_dsp.h"
#include "hostdev.h"

/* masking weights of a neighbour and of the centre, applied in double
 * (libvmaf's adm_tools.c; Netflix, BSD+Patent) */
#define FLOAT_ADM_ONE_BY_30 0.0333333351
#define FLOAT_ADM_ONE_BY_15 0.0666666701

/* A 4-tap filter's float sum from 0, in tap order. */
VQX_HOSTDEV static inline float vqx_float_adm_taps(const float f[4], float s0, float s1,
                                                   float s2, float s3)
{
    float acc = 0;
    acc += f[0] * s0;
    acc += f[1] * s1;
    acc += f[2] * s2;
    acc += f[3] * s3;
    return acc;
}

/* libvmaf divides by an SSE reciprocal estimate refined by one Newton step;
 * the estimate scales exactly with the exponent of x. */
VQX_HOSTDEV static inline float vqx_float_adm_reciprocal(const uint32_t *table, float x)
{
    const uint32_t u = vqx_bits_of_float(x);
    const uint32_t sign = u & 0x80000000u, exponent = (u >> 23) & 0xff;
    if (exponent == 0) return sign ? -INFINITY : INFINITY; /* zero, subnormal */
    if (exponent == 0xff) return u & 0x7fffff ? x : sign ? -0.0f : 0.0f;
    if (exponent >= 253) return sign ? -0.0f : 0.0f;       /* result subnormal */
    return vqx_float_of_bits(sign | (253 - exponent) << 23 | table[(u >> 11) & 0xfff]);
}

/* One position's decoupling: of the reference's and the distorted's bands
 * (h, v, d), the restored and additive parts. */
VQX_HOSTDEV static inline void vqx_float_adm_decouple(const float ref[3], const float dis[3],
                                                      const FloatAdmDecoupleParams *p,
                                                      float restored[3], float additive[3])
{
    const float oh = ref[0], ov = ref[1];
    const float th = dis[0], tv = dis[1];
    const float dot = oh * th + ov * tv;
    const float o_sq = oh * oh + ov * ov;
    const float t_sq = th * th + tv * tv;
    const bool same_angle = dot >= 0.0f && dot * dot >= p->cos_1deg_sq * o_sq * t_sq;
    for (int b = 0; b < 3; b++) {
        const float ob = ref[b], tb = dis[b];
        const float d = ob + p->eps, e = vqx_float_adm_reciprocal(p->recip, d);
        float k = tb * (e + e * (1.0f - d * e));
        k = k < 0.0f ? 0.0f : (k > 1.0f ? 1.0f : k);
        float r = k * ob;
        if (same_angle && r > 0.0) {
            const double g = r * p->gain_limit;
            r = (float)(g < tb ? g : tb);
        }
        if (same_angle && r < 0.0) {
            const double g = r * p->gain_limit;
            r = (float)(g > tb ? g : tb);
        }
        restored[b] = r;
        additive[b] = tb - r;
    }
}

/* A masking term: |weighted band| / 30, in double. */
VQX_HOSTDEV static inline float vqx_float_adm_mask(float weighted_abs)
{
    return (float)(FLOAT_ADM_ONE_BY_30 * weighted_abs);
}

/* One orientation's threshold: the 3x3 window of masking terms (rows u, m,
 * d at columns -1, 0, +1), the centre replaced by |weighted| / 15 added in
 * double, in libvmaf's order. */
VQX_HOSTDEV static inline float vqx_float_adm_window(const float u[3], const float m[3],
                                                     const float d[3], float centre_abs)
{
    float sum = 0;
    sum += u[0];
    sum += u[1];
    sum += u[2];
    sum += m[0];
    sum = (float)(sum + FLOAT_ADM_ONE_BY_15 * centre_abs);
    sum += m[2];
    sum += d[0];
    sum += d[1];
    sum += d[2];
    return sum;
}

/* A cube of the p-norm (p = 3): v = |x * weight| - thr raised to 0, v * v * v. */
VQX_HOSTDEV static inline float vqx_float_adm_cube(float x, float weight, float thr)
{
    float v = fabsf(x * weight) - thr;
    v = v < 0.0f ? 0.0f : v;
    return v * v * v;
}

#endif
