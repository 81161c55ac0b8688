/*
 * The per-sample statements of feature/resample.c that device kernels also
 * run (compiled by nvcc too).
 */
#ifndef VQX_FEATURE_RESAMPLE_SAMPLE_H
#define VQX_FEATURE_RESAMPLE_SAMPLE_H

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

#endif
