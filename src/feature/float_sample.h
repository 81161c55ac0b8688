/*
 * The per-sample statements of the float features that their device twins
 * also run (compiled by nvcc too): a sample as libvmaf's float extractors
 * see it (float_picture.h), the float terms float_psnr, float_moment and
 * float_ansnr add up, and the filter taps of float_ansnr and float_motion
 * (their borders are hostdev.h's).
 */
#ifndef VQX_FEATURE_FLOAT_SAMPLE_H
#define VQX_FEATURE_FLOAT_SAMPLE_H

#include <math.h>

#include "hostdev.h"

/* libvmaf divides by 1 (no division), 4, 16 or 256. A power of two and its
 * reciprocal are exact floats, and a sample (below 2^16) scaled by either
 * is exact too, so the product with the reciprocal is the same float as
 * the quotient, at every depth. */
VQX_HOSTDEV static inline float vqx_float_inverse_scale(unsigned bpc)
{
    return 1.0f / (float)(1u << (bpc - 8));
}

VQX_HOSTDEV static inline float vqx_float_sample(unsigned sample, float inv_scale, float offset)
{
    return (float)sample * inv_scale + offset;
}

/* float_psnr's term: the float square of the float difference. */
VQX_HOSTDEV static inline float vqx_float_squared_error(float ref, float dis)
{
    const float diff = ref - dis;
    return diff * diff;
}

/* float_ansnr's filters' sides: the reference's 3x3, the distorted's 5x5. */
#define FLOAT_ANSNR_REF_TAPS 3
#define FLOAT_ANSNR_DIS_TAPS 5

/* float_motion's term: |a - b|. */
VQX_HOSTDEV static inline float vqx_float_abs_diff(float a, float b)
{
    return fabsf(a - b);
}

/* A filter's taps on samples (float_ansnr's tap rows, float_motion's
 * passes): the float sum from 0, in order, of taps[j] * v[j], j < n. */
VQX_HOSTDEV static inline float vqx_float_tap_sum(const float *taps, const float *v, int n)
{
    float inner = 0;
    for (int j = 0; j < n; j++) inner += taps[j] * v[j];
    return inner;
}

#endif
