/*
 * Float moment's DSP table (as MotionDSPContext, feature/motion_dsp.h): a
 * row's sums, a pure function on rows of floats, filled with the scalar C
 * (float_moment_dsp.c) and then overridden by the SIMD versions the CPU
 * flags allow (src/x86/). Every entry gives the C's doubles bit for bit;
 * tests/checkasm/float_moment.c compares them.
 */
#ifndef VQX_FEATURE_FLOAT_MOMENT_DSP_H
#define VQX_FEATURE_FLOAT_MOMENT_DSP_H

/* The sums, in this order. */
enum { FLOAT_MOMENT_REF1, FLOAT_MOMENT_DIS1, FLOAT_MOMENT_REF2, FLOAT_MOMENT_DIS2,
       FLOAT_MOMENT_SUMS };

/* Adds to sum[], for x in [0, w) in order, ref[x], dis[x] and their float
 * squares, each in double. */
#define FLOAT_MOMENT_ROW_SUMS(name) \
    void name(const float *ref, const float *dis, int w, double sum[FLOAT_MOMENT_SUMS])

typedef FLOAT_MOMENT_ROW_SUMS((*FloatMomentRowSumsFn));

typedef struct FloatMomentDSPContext {
    FloatMomentRowSumsFn row_sums;
} FloatMomentDSPContext;

/* The table with the SIMD entries that `cpu_flags` (cpu.h, already masked)
 * allow; 0: the scalar C alone. */
void vqx_float_moment_dsp_init(FloatMomentDSPContext *c, unsigned cpu_flags);

FLOAT_MOMENT_ROW_SUMS(vqx_float_moment_row_sums_c);

#endif
