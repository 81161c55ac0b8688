/*
 * SpEED's DSP table (as FloatMotionDSPContext, feature/float_motion_dsp.h):
 * the decimation's vertical pass, the covariance's pair sums, the matrix
 * products of the Householder QR and its solve, and speed_temporal's frame
 * difference, pure functions on
 * buffers, filled with the scalar C (speed_dsp.c) and then
 * overridden by the SIMD versions the CPU flags allow (src/x86/). Every
 * entry gives the C's doubles and floats bit for bit;
 * tests/checkasm/speed.c compares them. The other stages stay scalar: the
 * decimation's horizontal pass (1 output in 16 columns), the means, the
 * local-mean filter (on the decimated image), the linear algebra
 * is speed_linalg.h's code shared with the CUDA twin (but for the
 * products, which speed_linalg.c runs on the CPU alone), and the entropies
 * call log2.
 */
#ifndef VQX_FEATURE_SPEED_DSP_H
#define VQX_FEATURE_SPEED_DSP_H

#include <stddef.h>

#define SPEED_DSP_DIM 25 /* SPEED_DIM: the 25 offsets of a 5x5 neighbourhood */

/* A run of columns (or rows): first, count. */
typedef struct SpeedSpan {
    unsigned first, count;
} SpeedSpan;
/* Pairs (x, y <= x) of offsets, packed by rows: pair (x, y) at x (x + 1) / 2 + y. */
#define SPEED_PAIRS (SPEED_DSP_DIM * (SPEED_DSP_DIM + 1) / 2)

/* row[x], x in the spans (which ascend and do not overlap): the float sum
 * from 0, over t < n_taps in order, of taps[t] * rows[t][x]. row's other
 * entries between the first and the last span may be overwritten. */
#define SPEED_DECIMATE_COLUMNS(name) \
    void name(const float *const *rows, const float *taps, int n_taps, const SpeedSpan *spans, \
              unsigned n_spans, float *row)
/* sums[pair (x, y)] = the sum from 0, over the positions (i, j) of
 * [0, cov_h) x [0, cov_w) in raster order, of c_x * c_y in double, where
 * c_o = (double)dec[(i + o / 5) * dec_stride + j + o % 5] - (double)mean[o]. */
#define SPEED_COVARIANCE_SUMS(name) \
    void name(const float *dec, ptrdiff_t dec_stride, unsigned cov_w, unsigned cov_h, \
              const float mean[SPEED_DSP_DIM], double sums[SPEED_PAIRS])
/* out = a b, a: 25 x 25, b: 25 x cols, rows packed: out[i cols + j] = the
 * float sum from 0, over k in order, of a[i 25 + k] * b[k cols + j]. out is
 * neither a nor b. */
#define SPEED_MATRIX_PRODUCT(name) \
    void name(const float *a, const float *b, unsigned cols, float *out)
/* out = a - b over w x h floats, rows `stride` floats apart in all three. */
#define SPEED_DIFFERENCE(name) \
    void name(float *out, const float *a, const float *b, ptrdiff_t stride, unsigned w, \
              unsigned h)

typedef SPEED_DECIMATE_COLUMNS((*SpeedDecimateColumnsFn));
typedef SPEED_COVARIANCE_SUMS((*SpeedCovarianceSumsFn));
typedef SPEED_MATRIX_PRODUCT((*SpeedMatrixProductFn));
typedef SPEED_DIFFERENCE((*SpeedDifferenceFn));

typedef struct SpeedDSPContext {
    SpeedDecimateColumnsFn decimate_columns;
    SpeedCovarianceSumsFn covariance_sums;
    SpeedMatrixProductFn matrix_product;
    SpeedDifferenceFn difference;
} SpeedDSPContext;

/* The table with the SIMD entries that `cpu_flags` (cpu.h, already masked)
 * allow; 0: the scalar C alone. */
void vqx_speed_dsp_init(SpeedDSPContext *c, unsigned cpu_flags);

SPEED_DECIMATE_COLUMNS(vqx_speed_decimate_columns_c);
SPEED_COVARIANCE_SUMS(vqx_speed_covariance_sums_c);
SPEED_MATRIX_PRODUCT(vqx_speed_matrix_product_c);
SPEED_DIFFERENCE(vqx_speed_difference_c);

#endif
