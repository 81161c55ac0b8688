/*
 * Float ANSNR's DSP table (as MotionDSPContext, feature/motion_dsp.h): the
 * 2-D filter of a row and the rows' energies, pure functions on rows of
 * floats, filled with the scalar C (float_ansnr_dsp.c) and then overridden
 * by the SIMD versions the CPU flags allow (src/x86/). Every entry gives
 * the C's floats bit for bit; tests/checkasm/float_ansnr.c compares them.
 */
#ifndef VQX_FEATURE_FLOAT_ANSNR_DSP_H
#define VQX_FEATURE_FLOAT_ANSNR_DSP_H

#include <stddef.h>

/* Taps of a filter side: 3 or 5. */
#define FLOAT_ANSNR_MAX_TAPS 5

/* out[x], x in [0, w): from 0, over tap rows i < n in order, the float sum
 * from 0 over j < n in order of filter[i * n + j] * rows[i][x - n / 2 + j];
 * the n / 2 entries each side of [0, w) of every row are already mirrored. */
#define FLOAT_ANSNR_FILTER_ROW(name) \
    void name(const float *filter, int n, const float *const rows[FLOAT_ANSNR_MAX_TAPS], int w, \
              float *out)
/* For rows r in [0, n) of ref and dis (rows `stride` floats apart): the
 * float sums from 0 in x order of ref^2 in signal[r] and of (ref - dis)^2
 * in noise[r]. */
#define FLOAT_ANSNR_ROW_ENERGIES(name) \
    void name(const float *ref, const float *dis, ptrdiff_t stride, int w, int n, float *signal, \
              float *noise)

typedef FLOAT_ANSNR_FILTER_ROW((*FloatAnsnrFilterRowFn));
typedef FLOAT_ANSNR_ROW_ENERGIES((*FloatAnsnrRowEnergiesFn));

typedef struct FloatAnsnrDSPContext {
    FloatAnsnrFilterRowFn filter_row;
    FloatAnsnrRowEnergiesFn row_energies;
} FloatAnsnrDSPContext;

/* The table with the SIMD entries that `cpu_flags` (cpu.h, already masked)
 * allow; 0: the scalar C alone. */
void vqx_float_ansnr_dsp_init(FloatAnsnrDSPContext *c, unsigned cpu_flags);

FLOAT_ANSNR_FILTER_ROW(vqx_float_ansnr_filter_row_c);
FLOAT_ANSNR_ROW_ENERGIES(vqx_float_ansnr_row_energies_c);

#endif
