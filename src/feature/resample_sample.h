/*
 * The per-sample statements of feature/resample.c that device kernels also
 * run (compiled by nvcc too).
 */
#ifndef VQX_FEATURE_RESAMPLE_SAMPLE_H
#define VQX_FEATURE_RESAMPLE_SAMPLE_H

#include <stdbool.h>

#include "hostdev.h"

/* A bilinear output from rows r1 and r2 at columns x1 and x2, with the
 * axes' weights wy[2] and wx[2]:
 * (1 - dy)(1 - dx) r1[x1] + (1 - dy) dx r1[x2] + dy (1 - dx) r2[x1] + dy dx r2[x2],
 * in libvmaf's order. */
VQX_HOSTDEV static inline float vqx_resample_bilinear(const float *wy, const float *wx,
                                                      const float *r1, const float *r2, int x1,
                                                      int x2)
{
    return wy[0] * wx[0] * r1[x1] + wy[0] * wx[1] * r1[x2] + wy[1] * wx[0] * r2[x1] +
           wy[1] * wx[1] * r2[x2];
}

/* A bicubic or lanczos4 output: the window's rows rows[ty] (ty < nt)
 * outer, its columns cx[tx] inner, each weight the product wx[tx] * wy[ty]
 * of the two axis weights, as libvmaf sums them; normalise (lanczos4)
 * divides by the sum of the weights. */
VQX_HOSTDEV static inline float vqx_resample_window(const float *const *rows, const float *wy,
                                                    const int *cx, const float *wx, unsigned nt,
                                                    bool normalise)
{
    float value = 0, weight_sum = 0;
    for (unsigned ty = 0; ty < nt; ty++) {
        const float *row = rows[ty];
        for (unsigned tx = 0; tx < nt; tx++) {
            const float weight = wx[tx] * wy[ty];
            if (normalise) weight_sum += weight;
            value += row[cx[tx]] * weight;
        }
    }
    return normalise ? value / weight_sum : value;
}

#endif
