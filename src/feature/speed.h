/*
 * SpEED-QA entropic differencing (Bampis, Gupta, Soundararajan, Bovik, IEEE
 * Signal Processing Letters 2017) as libvmaf 3.2 computes it in scalar C,
 * split into stages with explicit inputs and outputs so that another backend
 * can be checked against this one stage by stage.
 *
 * One plane (a float image: samples scaled to 8 bits, minus 128) goes
 * through:
 *   rescale      the optional prescale (feature/resample.h: nearest, bilinear,
 *                bicubic, lanczos4)
 *   decimate     Gaussian anti-alias filter, kept at every 16th row and column
 *   demean       minus its local mean (a small Gaussian) on the decimated image
 *   covariance   25x25 covariance of the 25 offsets of a 5x5 neighbourhood
 *   eigenvalues  of that covariance (Householder tridiagonalisation, then
 *                implicit-shift QR)
 *   samples      the 25 samples of every 5x5 block, one column per block
 *   solve        covariance^-1 * samples through a Householder QR
 *   variances    per-block variance estimates
 *   entropies    per-block entropies (the CUDA twin's host part)
 * and the statistics of a reference and a distorted plane give a score.
 *
 * Every stage keeps libvmaf's float/double types and evaluation order: the
 * values are equal, double for double.
 */
#ifndef VQX_FEATURE_SPEED_H
#define VQX_FEATURE_SPEED_H

#include <stdbool.h>
#include <stddef.h>

#include "feature/extractor.h"
#include "feature/float_picture.h"
#include "feature/resample.h"
#include "feature/speed_dsp.h"

#define SPEED_BLOCK 5                             /* block side */
#define SPEED_DIM (SPEED_BLOCK * SPEED_BLOCK)     /* covariance order */
#define SPEED_DECIMATION 16                       /* 2^4: four dyadic scales */
#define SPEED_MAX_TAPS 64                         /* kernelscale <= 4: 37 taps */
/* Smallest (prescaled) plane side: one 5x5 block after the 16x decimation. */
#define SPEED_MIN_SIDE (SPEED_BLOCK * SPEED_DECIMATION)

typedef struct SpeedParams {
    double kernelscale;
    double prescale;
    enum VqxResampleMethod scaler;
    float sigma_nn;        /* libvmaf passes these two as float */
    float nn_floor;
    int weight_var_mode;   /* 0..6 */
    unsigned cpu_flags;    /* the SIMD entries allowed (VqxFrameFormat.cpu_flags; 0: the C) */
} SpeedParams;

typedef struct SpeedGeometry {
    unsigned in_w, in_h;         /* the plane as loaded */
    unsigned scaled_w, scaled_h; /* after the prescale */
    bool rescale;                /* false: the scaled image is the input */
    unsigned dec_w, dec_h;       /* after the 16x decimation */
    unsigned blocks_x, blocks_y, n_blocks;
    /* Extent of the shifted windows whose covariance is taken: the
     * block-truncated decimated image minus 4 in each direction. */
    unsigned cov_w, cov_h;
} SpeedGeometry;

/* Everything fixed for one plane size and one option set. Read-only once
 * built: instances on several threads may share it. */
typedef struct SpeedPlan {
    SpeedParams params;
    SpeedGeometry geo;
    float antialias[SPEED_MAX_TAPS];
    int antialias_len;
    float local_mean[SPEED_MAX_TAPS];
    int local_mean_len;
    VqxResampler prescale;       /* when geo.rescale */
    SpeedSpan *spans;            /* columns the decimating filter reads */
    unsigned n_spans;
    SpeedSpan *row_runs;         /* rows of the loaded plane the analysis reads */
    unsigned n_row_runs;
    SpeedDSPContext dsp;         /* for params.cpu_flags */
    FloatPictureDSPContext picture; /* the planes' conversion to floats, likewise */
} SpeedPlan;

/* Builds the plan for a w x h plane; the kernelscale is one libvmaf accepts
 * (the option table's set). Fails with -EINVAL and a reason in `err` when the
 * plane is too small; -ENOMEM. */
int vqx_speed_plan_init(SpeedPlan *plan, unsigned w, unsigned h,
                        const SpeedParams *params, char *err, size_t err_len);
void vqx_speed_plan_free(SpeedPlan *plan);

/* Statistics of one plane: per block, in raster order of the blocks. */
typedef struct SpeedStats {
    float *variance;
    float *entropy;
    bool singular;  /* covariance not invertible: variances are 0 */
} SpeedStats;

/* Scratch of one instance, allocated once. Strides are in floats. */
typedef struct SpeedWork {
    float *scaled;         /* geo.scaled_h x scaled_stride (when rescaling) */
    ptrdiff_t scaled_stride;
    float *row;            /* one row of the vertical filter pass */
    float *dec;            /* geo.dec_h x dec_stride */
    float *local;          /* local mean of `dec`, same shape */
    ptrdiff_t dec_stride;
    float cov[SPEED_DIM * SPEED_DIM];
    float eig[SPEED_DIM];
    float *samples;        /* SPEED_DIM x n_blocks */
    float *solution;       /* SPEED_DIM x n_blocks */
    float *linalg;         /* vqx_speed_linalg_scratch(n_blocks) floats */
} SpeedWork;

int vqx_speed_work_init(SpeedWork *w, const SpeedPlan *plan);
void vqx_speed_work_free(SpeedWork *w);
int vqx_speed_stats_init(SpeedStats *s, const SpeedPlan *plan);
void vqx_speed_stats_free(SpeedStats *s);

/* ---- stages ---- */

/* The anti-alias filter of the scaled image at rows and columns 0, 16, 32...
 * -> dec (geo.dec_w x geo.dec_h). `row` holds geo.scaled_w floats. Equal to
 * filtering the whole image, then keeping every 16th sample. */
void vqx_speed_decimate(const SpeedPlan *plan, const float *img, ptrdiff_t stride,
                        float *row, float *dec, ptrdiff_t dec_stride);

/* dec -= its local mean (written to `local`); `row` holds geo.dec_w floats. */
void vqx_speed_demean(const SpeedPlan *plan, float *dec, float *local,
                      ptrdiff_t dec_stride, float *row);

/* Covariance (symmetric, row-major) of the 25 windows of the decimated image
 * shifted by (dy, dx) in [0,5)^2, offset index dy * 5 + dx; its sums by the
 * scalar C (vqx_speed_analyse takes the plan's table entry). */
void vqx_speed_covariance(const SpeedGeometry *geo, const float *dec,
                          ptrdiff_t dec_stride, float cov[SPEED_DIM * SPEED_DIM]);

/* samples[o * n_blocks + b] = sample at offset o of block b. */
void vqx_speed_block_samples(const SpeedGeometry *geo, const float *dec,
                             ptrdiff_t dec_stride, float *samples);

/* Floats of scratch the two linear-algebra stages need. */
size_t vqx_speed_linalg_scratch(unsigned n_rhs);

/* Eigenvalues of a symmetric matrix, in the order the QR iteration leaves
 * them (unsorted, as libvmaf uses them). */
void vqx_speed_eigenvalues(const float cov[SPEED_DIM * SPEED_DIM], float eig[SPEED_DIM],
                           float *scratch);

/* Every eigenvalue at least 1e-6. */
bool vqx_speed_is_regular(const float eig[SPEED_DIM]);

/* cov = Q' R by an explicit Householder QR (Q the product of the N-1
 * reflectors, each built as a matrix, the products by dsp's entry);
 * scratch: 3 SPEED_DIM^2 floats. */
void vqx_speed_householder_qr(const SpeedDSPContext *dsp, const float cov[SPEED_DIM * SPEED_DIM],
                              float *q, float *r, float *scratch);

/* x = cov^-1 * rhs (SPEED_DIM x n_rhs) by Householder QR and back
 * substitution; -EINVAL when R has a diagonal entry below 1e-6. */
int vqx_speed_solve(const SpeedDSPContext *dsp, const float cov[SPEED_DIM * SPEED_DIM],
                    const float *rhs, unsigned n_rhs, float *x, float *scratch);

/* Per block: variance[b] = sum_o x[o] * samples[o] / 25 (x and samples:
 * SPEED_DIM x n_blocks). */
void vqx_speed_variances(const SpeedGeometry *geo, const float *x, const float *samples,
                         float *variance);

/* Per block, from out->variance: entropy = sum_k log2(max(eig_k, 0) *
 * variance + sigma_nn) + log2(2 pi e). The host's part of a device
 * analysis too. */
void vqx_speed_entropies(const SpeedGeometry *geo, const float eig[SPEED_DIM], float sigma_nn,
                         SpeedStats *out);

/* The whole chain on one loaded plane (geo.in_w x geo.in_h). */
void vqx_speed_analyse(const SpeedPlan *plan, SpeedWork *work, const float *img,
                       ptrdiff_t stride, SpeedStats *out);

/* libvmaf's score of two analysed planes: the mean over blocks of
 * |entropy_ref * log2(1 + w_ref) - entropy_dis * log2(1 + w_dis)| with the
 * variance weights of weight_var_mode, blocks whose two entropies are below
 * the noise floor counting 0; 0 when exactly one plane is singular. */
float vqx_speed_score(const SpeedPlan *plan, const SpeedStats *ref, const SpeedStats *dis);

/* ---- the extractors, whose state their CUDA twins begin with ---- */

/* Plan, scratch and statistics of one instance (no scratch in a twin). */
typedef struct SpeedEngine {
    SpeedPlan plan;
    SpeedWork work;
    SpeedStats ref, dis;
} SpeedEngine;

typedef struct SpeedChromaState {
    double kernelscale, prescale, sigma_nn, nn_floor, max_val;
    const char *prescale_method;
    int weight_var_mode;

    SpeedEngine engine;
    unsigned w, h;         /* chroma plane size */
    float *plane;
    ptrdiff_t plane_stride;
} SpeedChromaState;

typedef struct SpeedTemporalState {
    double kernelscale, prescale, sigma_nn, nn_floor, max_val;
    const char *prescale_method;
    bool use_ref_diff;

    SpeedEngine engine;
    ptrdiff_t stride;
    float *prev_ref, *prev_dis, *cur_ref, *cur_dis, *diff;
    bool have_prev;
} SpeedTemporalState;

extern const char *const vqx_speed_chroma_keys[];
extern const VqxOption vqx_speed_chroma_options[];
extern const char *const vqx_speed_temporal_keys[];
extern const VqxOption vqx_speed_temporal_options[];

/* Checks the format and options (failing as the extractor's init does) and
 * builds the plan and the statistics: all but the CPU's scratch. */
int vqx_speed_chroma_setup(SpeedChromaState *s, const VqxFrameFormat *fmt, VqxSink *sink);
int vqx_speed_temporal_setup(SpeedTemporalState *s, const VqxFrameFormat *fmt, VqxSink *sink);

/* speed_chroma's three values of a frame from the two planes' scores and
 * whether each plane met a singular covariance. */
int vqx_speed_chroma_emit(const SpeedChromaState *s, float u, float v, bool singular_u,
                          bool singular_v, unsigned frame, VqxSink *sink);

/* Free what the setup and init allocated (also after a failed one). */
void vqx_speed_chroma_close(void *state);
void vqx_speed_temporal_close(void *state);

#endif
