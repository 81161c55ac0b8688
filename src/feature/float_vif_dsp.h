/*
 * Float VIF's DSP table (as FloatMotionDSPContext): the Gaussian filter's
 * column and row passes and the per-pixel statistic, pure functions on rows
 * of floats, filled with the scalar C (float_vif_dsp.c) and then overridden
 * by the SIMD versions the CPU flags allow (src/x86/). Every entry gives the
 * C's floats bit for bit; tests/checkasm/float_vif.c compares them. The sums
 * over a row and a frame stay in float_vif.c, in libvmaf's order.
 */
#ifndef VQX_FEATURE_FLOAT_VIF_DSP_H
#define VQX_FEATURE_FLOAT_VIF_DSP_H

/* Widest filter: 17 taps times the largest kernel scale. */
#define FLOAT_VIF_MAX_TAPS 128

/* The statistic's parameters (libvmaf's vif_statistic_s). */
typedef struct FloatVifStat {
    float gain_limit;
    double sigma_nsq;
    float sigma_max_inv;
} FloatVifStat;

/* out[j], j in [0, w): 0.0f + f[0] * rows[0][j], then + f[k] * rows[k][j]
 * for k up to width - 1 in order (libvmaf's per-sample loop). */
#define FLOAT_VIF_FILTER_COLUMNS(name) \
    void name(const float *f, int width, const float *const *rows, int w, float *out)
/* The same sums of the reference's rows (mu1), the distorted's (mu2), and
 * of the products r * r, d * d and r * d of their samples. */
#define FLOAT_VIF_MOMENT_COLUMNS(name) \
    void name(const float *f, int width, const float *const *ref, const float *const *dis, \
              int w, float *mu1, float *mu2, float *xx, float *yy, float *xy)
/* out[j], j in [0, w): the same sum over in[j - width / 2 + k], whose
 * width / 2 entries each side of [0, w) are already mirrored. */
#define FLOAT_VIF_FILTER_ROW(name) \
    void name(const float *f, int width, const float *in, int w, float *out)
/* num[j] and den[j], j in [0, w): the statistic of the filtered moments. */
#define FLOAT_VIF_PIXEL_STATS(name) \
    void name(const FloatVifStat *st, const float *mu1, const float *mu2, const float *xx, \
              const float *yy, const float *xy, int w, float *num, float *den)

typedef FLOAT_VIF_FILTER_COLUMNS((*FloatVifFilterColumnsFn));
typedef FLOAT_VIF_MOMENT_COLUMNS((*FloatVifMomentColumnsFn));
typedef FLOAT_VIF_FILTER_ROW((*FloatVifFilterRowFn));
typedef FLOAT_VIF_PIXEL_STATS((*FloatVifPixelStatsFn));

typedef struct FloatVifDSPContext {
    FloatVifFilterColumnsFn filter_columns;
    FloatVifMomentColumnsFn moment_columns;
    FloatVifFilterRowFn filter_row;
    FloatVifPixelStatsFn pixel_stats;
} FloatVifDSPContext;

/* Polynomial log2 of libvmaf's vif_tools.c (VIF_OPT_FAST_LOG2): exponent
 * plus a degree-8 fit of log2(1 + m), evaluated by Horner from 0 in float.
 * The double literals rounded to float, as libvmaf's table has them.
 * Coefficients from libvmaf src/feature/vif_tools.c (Netflix, BSD+Patent). */
#define FLOAT_VIF_LOG2_TERMS 9
#define FLOAT_VIF_LOG2_POLY                                        \
    -0.012671635276421, 0.064841182402670, -0.157048836463065,     \
    0.257167726303123, -0.353800560300520, 0.480131410397451,      \
    -0.721314327952201, 1.442694803896991, 0
static const float vqx_float_vif_log2_poly[FLOAT_VIF_LOG2_TERMS] = { FLOAT_VIF_LOG2_POLY };
/* Below this, a variance counts as zero. */
#define FLOAT_VIF_EPS 1.0e-10f

/* The table with the SIMD entries that `cpu_flags` (cpu.h, already masked)
 * allow; 0: the scalar C alone. */
void vqx_float_vif_dsp_init(FloatVifDSPContext *c, unsigned cpu_flags);

FLOAT_VIF_FILTER_COLUMNS(vqx_float_vif_filter_columns_c);
FLOAT_VIF_MOMENT_COLUMNS(vqx_float_vif_moment_columns_c);
FLOAT_VIF_FILTER_ROW(vqx_float_vif_filter_row_c);
FLOAT_VIF_PIXEL_STATS(vqx_float_vif_pixel_stats_c);

#endif
