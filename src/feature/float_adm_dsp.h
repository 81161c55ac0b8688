/*
 * Float ADM's DSP table (as FloatMotionDSPContext, float_motion_dsp.h): the
 * decoupling of the distorted bands into restored and additive parts and
 * the rows' sums of masked cubes, pure functions on rows of floats, filled with the scalar C
 * (float_adm_dsp.c) and then overridden by the SIMD versions the CPU flags
 * allow (src/x86/). Every entry gives the C's floats bit for bit;
 * tests/checkasm/float_adm.c compares them.
 */
#ifndef VQX_FEATURE_FLOAT_ADM_DSP_H
#define VQX_FEATURE_FLOAT_ADM_DSP_H

#include <stdint.h>

/* A level's sums of the p-norms, in float: of the reference, of the
 * restored part masked by the additive one, and of the additive part masked
 * by the restored one (AIM). */
enum { FLOAT_ADM_DEN, FLOAT_ADM_NUM, FLOAT_ADM_AIM, FLOAT_ADM_SUMS };

/* Entries of the reciprocal table: the top 12 mantissa bits of x index it. */
#define FLOAT_ADM_RECIP_ENTRIES 4096

typedef struct FloatAdmDecoupleParams {
    /* the estimate's mantissa bits for x in [1, 2), shifted into place (bits
     * 11..22), as float_adm.c measures them on AMD Zen */
    const uint32_t *recip;
    float eps;         /* added to the reference before the division */
    float cos_1deg_sq; /* the angle test's threshold */
    double gain_limit; /* largest enhancement gain credited */
} FloatAdmDecoupleParams;

/* For x in [0, n) and each band b (h, v, d): k = dis / (ref + eps) by the
 * table's estimate and one Newton step, clipped to [0, 1]; restored[b][x] =
 * k * ref, raised up to dis by at most gain_limit where ref and dis (h, v)
 * point within 1 degree of each other; additive[b][x] = dis - restored. */
#define FLOAT_ADM_DECOUPLE_ROW(name) \
    void name(const float *const ref[3], const float *const dis[3], int n, \
              const FloatAdmDecoupleParams *p, float *const restored[3], float *const additive[3])

/* sum[b], b in [0, 3): the sum from 0 in x order, x in [0, n), of v^3 (as
 * v * v * v) with v = |x[b][x] * weight[b]| - thr[x] raised to 0, in float
 * as libvmaf adds (the p-norm's p = 3). */
#define FLOAT_ADM_CUBE_SUMS(name) \
    void name(const float *const x[3], const float weight[3], const float *thr, int n, \
              float sum[3])

typedef FLOAT_ADM_DECOUPLE_ROW((*FloatAdmDecoupleRowFn));
typedef FLOAT_ADM_CUBE_SUMS((*FloatAdmCubeSumsFn));

typedef struct FloatAdmDSPContext {
    FloatAdmDecoupleRowFn decouple_row;
    FloatAdmCubeSumsFn cube_sums;
} FloatAdmDSPContext;

/* The table with the SIMD entries that `cpu_flags` (cpu.h, already masked)
 * allow; 0: the scalar C alone. */
void vqx_float_adm_dsp_init(FloatAdmDSPContext *c, unsigned cpu_flags);

FLOAT_ADM_DECOUPLE_ROW(vqx_float_adm_decouple_row_c);
FLOAT_ADM_CUBE_SUMS(vqx_float_adm_cube_sums_c);

#endif
