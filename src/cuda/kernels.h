/*
 * Launchers of the CUDA twins' kernels, callable from C. Each enqueues on
 * `stream` (a cudaStream_t) and returns the launch's CUDA status (0: none).
 * Pitches are in samples unless named otherwise. The arithmetic of each
 * kernel is its CPU reference's, in the same integer widths.
 */
#ifndef VQX_CUDA_KERNELS_H
#define VQX_CUDA_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "feature/float_adm_dsp.h"
#include "feature/float_vif_dsp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- plain copies and fills, recorded into the chain ---- */
int vqx_cuda_copy(void *dst, const void *src, size_t bytes, void *stream);
int vqx_cuda_zero(void *dst, size_t bytes, void *stream);

/* ---- pictures in device memory: *first is lowered to the raster index
 * y * w + x of the first uint16_t sample above `peak` of a w x h plane; it
 * starts at UINT32_MAX (none) ---- */
int vqx_cuda_first_over_peak(const void *plane, unsigned w, unsigned h, size_t pitch,
                             uint16_t peak, uint32_t *first, void *stream);

/* Each launcher may also write intermediate results for the kernel checks
 * (tests/cuda_kernels.c): pointers named there, NULL in the chain. */

/* ---- psnr: *sse += sum of squared differences of one plane; row_sse: each
 * row's sum ---- */
int vqx_cuda_psnr_sse(const void *ref, const void *dis, size_t pitch, unsigned w, unsigned h,
                      unsigned bpc, unsigned long long *sse, unsigned long long *row_sse,
                      void *stream);

/* ---- motion: *sad = vqx_motion_sad(prev, cur); row_sums holds h words
 * (each row's sum modulo 2^32); blurred: the column-blurred plane, w x h;
 * rows: rows per block, from vqx_cuda_motion_rows (a query: call it before
 * capturing) ---- */
unsigned vqx_cuda_motion_rows(unsigned w, unsigned h, unsigned bpc);
int vqx_cuda_motion_sad(const void *prev, const void *cur, size_t pitch, unsigned w, unsigned h,
                        unsigned bpc, unsigned rows, uint32_t *row_sums, unsigned long long *sad,
                        int32_t *blurred, void *stream);

/* ---- vif ---- */
/* Intermediates of a scale, planes of w x h (row pitch w): the vertical
 * pass (mu1, mu2, ref_sq, dis_sq, ref_dis), the horizontal pass (mu1, mu2;
 * ref_sq, dis_sq, ref_dis) and, per row, the four sums (VifSums order),
 * which must be zeroed before. */
typedef struct VqxCudaVifProbe {
    uint32_t *vert[5];
    uint32_t *mu[2];
    uint64_t *sq[3];
    long long *rows;
} VqxCudaVifProbe;

/* One scale: its sums (num_log, den_log, num_non_log, den_non_log) of
 * the planes ref/dis (8-bit samples when `bytes1`, else 16-bit) with the
 * vertical rounding shifts given, and the next scale's planes (w/2 x h/2,
 * 16-bit, pitch w/2) low-passed with the next scale's filter, the vertical
 * pass shifted by next_shift. */
typedef struct VqxCudaVifScale {
    const void *ref, *dis;
    size_t pitch;
    unsigned w, h;
    int bytes1;
    unsigned scale;
    unsigned mean_shift, sq_shift;
    const uint16_t *log2_table;
    double gain_limit;
    long long *sums;                /* NULL: the next scale only */
    uint16_t *next_ref, *next_dis;  /* NULL: no next scale (scale 3) */
    unsigned next_w, next_h, next_shift;
    unsigned rows;                  /* rows per block: vqx_cuda_vif_rows */
} VqxCudaVifScale;

/* Rows per block for a scale's geometry on the current device (a query:
 * call it before capturing). */
unsigned vqx_cuda_vif_rows(unsigned w, unsigned h, int bytes1, unsigned scale);
int vqx_cuda_vif_scale(const VqxCudaVifScale *job, const VqxCudaVifProbe *probe, void *stream);

/* ---- adm ---- */
typedef struct VqxCudaAdmLevel {
    int level;
    int scored;                     /* 0: the DWT only (adm_skip_scale0) */
    int w, h;                       /* band size */
    int stride;                     /* elements per band row, every level */
    int roi_top, roi_bottom, roi_left, roi_right;
    int grown_top, grown_bottom, grown_left, grown_right;
    uint32_t q_weight[3];
    unsigned cube_shift[3], row_shift;
    unsigned ref_cube_shift, ref_row_shift;
    int skip_aim;
} VqxCudaAdmLevel;

typedef struct VqxCudaAdmBands {
    int32_t *band[3];               /* h, v, d */
} VqxCudaAdmBands;

/* A level's working buffers (band planes of the level-0 stride). */
typedef struct VqxCudaAdmWork {
    VqxCudaAdmBands restored, additive;
    uint32_t *mask[4];              /* masking terms sum, centre: of additive, of restored */
    /* per scored row: ref h, v, d (uint64), masked num h, v, d and aim h,
     * v, d (int64), before the per-row shift; zeroed before */
    unsigned long long *row_acc;
    unsigned *blocks_done;          /* blocks of the masked cubes finished; zeroed before */
} VqxCudaAdmWork;

/* One level: the DWT of src[0] (reference) and src[1] (distorted), the
 * picture's 8- or 16-bit samples at level 0 or the previous approximation
 * bands (in_w x in_h, pitch in samples), into approx[0], approx[1]; when
 * scored, the level's nine integer sums: ref 3-norm (uint64 h, v, d),
 * masked num (int64 h, v, d), masked aim (int64 h, v, d). probe: NULL, or
 * two band sets that receive the detail bands of both pictures. */
int vqx_cuda_adm_level(const VqxCudaAdmLevel *lv, const void *const src[2], size_t pitch,
                       int in_w, int in_h, unsigned bpc, int32_t *const approx[2],
                       const VqxCudaAdmWork *work, float cos_1deg_sq, double gain_limit,
                       unsigned long long *sums, const VqxCudaAdmBands *probe, void *stream);

/* ---- float_psnr and float_moment: the double chains of float terms of
 * the luma (float_sample.h) that the CPU adds in raster order. Every term
 * is a multiple of 2^-16 below 2^32 at every depth, so units[k] receives
 * the integer count of 2^-16 of sum k (exact while w * h < 2^32); where
 * the CPU's chain could round (a total of 2^53 grains or more of the
 * terms: 16-bit squares of large frames), or when force_chain is set,
 * chain[k] receives the chain itself, computed in raster order, and
 * chained is 1. The struct is zeroed before. ---- */
enum { VQX_CUDA_FLOAT_PSNR, VQX_CUDA_FLOAT_MOMENT }; /* 1 sum (the squared error); 4 */
#define VQX_CUDA_FLOAT_SUMS_MAX 4
typedef struct VqxCudaFloatSums {
    unsigned long long units[VQX_CUDA_FLOAT_SUMS_MAX];
    double chain[VQX_CUDA_FLOAT_SUMS_MAX];
    unsigned long long chained;
} VqxCudaFloatSums;

int vqx_cuda_float_sums(const void *ref, const void *dis, size_t pitch, unsigned w, unsigned h,
                        unsigned bpc, int kind, int force_chain, VqxCudaFloatSums *sums,
                        void *stream);

/* The CPU's value of sum k. */
static inline double vqx_cuda_float_sum(const VqxCudaFloatSums *sums, unsigned k)
{
    return sums->chained ? sums->chain[k] : (double)sums->units[k] * (1.0 / 65536.0);
}

/* ---- row chains: the float sums the CPU adds row by row. For each of
 * `count` quantities (planes of w x h terms, `plane` floats apart, stored
 * column after column: term (x, y) at x * h + y), each row's sum in x order
 * into row_sums[q * h + y], then the rows' sums in row order into
 * totals[q] ---- */
#define VQX_CUDA_ROW_CHAINS_MAX 32
typedef struct VqxCudaRowChains {
    const float *terms;
    size_t plane;
    int count, w, h;
    float *row_sums;                 /* count x h */
    float *totals;                   /* count */
} VqxCudaRowChains;

void vqx_cuda_row_chains(const VqxCudaRowChains *chains, void *stream);

/* ---- float_ansnr: total[0] and total[1] receive the frame's float signal
 * and noise energies, summed as the CPU sums them ---- */
typedef struct VqxCudaFloatAnsnr {
    const void *ref, *dis;
    size_t pitch;
    int w, h;
    unsigned bpc;
    const float *taps;               /* the 3x3 filter, then the 5x5 */
    float *terms;                    /* the signal's w x h, then the noise's */
    float *row_sums;                 /* the signal's h, then the noise's */
    float *filtered_ref, *filtered_dis; /* kernel checks: w * h each, or NULL */
} VqxCudaFloatAnsnr;

int vqx_cuda_float_ansnr(const VqxCudaFloatAnsnr *job, float *total, void *stream);

/* ---- float_motion: one plane of the reference blurred into `present`
 * (the CPU's blur_plane); totals[0] receives the float sum of |past -
 * present| as the CPU adds it; with the halving's tables (motion_add_scale1,
 * resample.h's bilinear axes), present is also halved into half_present and
 * totals[1] receives the same sum of the halves ---- */
typedef struct VqxCudaFloatMotionPlane {
    const void *src;                 /* the device plane */
    size_t pitch;                    /* in samples */
    int w, h;
    unsigned bpc;
    const float *taps;               /* n_taps */
    int n_taps;
    float *mid;                      /* w * h: the column pass */
    float *present;                  /* w * h */
    const float *past;               /* the previous frame's present */
    const int *row_index, *col_index; /* NULL: no halving */
    const float *row_weight, *col_weight;
    int half_w, half_h;
    float *half_present;
    const float *half_past;
    float *row_sums;                 /* h floats */
} VqxCudaFloatMotionPlane;

int vqx_cuda_float_motion_plane(const VqxCudaFloatMotionPlane *plane, float totals[2],
                                void *stream);

/* ---- float_vif ---- */

/* A plane of w x h samples as floats (float_picture.h): sample * 2^-(bpc-8)
 * + offset, rows packed. */
int vqx_cuda_float_convert(const void *src, size_t pitch, int w, int h, unsigned bpc,
                           float offset, float *dst, void *stream);

/* One scale: total[0] and total[1] receive the float sums of the
 * statistic's numerator and denominator, as the CPU adds them. */
typedef struct VqxCudaFloatVifScale {
    const float *ref, *dis;          /* the scale's planes, w x h, rows packed */
    int w, h;
    const float *filter;             /* width taps, on the device */
    int width;
    FloatVifStat stat;
    float *moments;                  /* 5 planes of w x h: the vertical pass */
    float *terms;                    /* num's w x h, then den's, column after column */
    float *row_sums;                 /* num's h, then den's */
    float *total;
} VqxCudaFloatVifScale;

int vqx_cuda_float_vif_scale(const VqxCudaFloatVifScale *scale, void *stream);

/* The next scale's planes (w x h) from the source's (src_w x src_h),
 * filtered by the next scale's filter at even rows and columns. */
typedef struct VqxCudaFloatVifDown {
    const float *src_ref, *src_dis;
    int src_w, src_h;
    float *ref, *dis;
    int w, h;
    const float *filter;
    int width;
    float *rows;                     /* h x src_w: the column pass */
} VqxCudaFloatVifDown;

int vqx_cuda_float_vif_downsample(const VqxCudaFloatVifDown *down, void *stream);

/* ---- float_adm: one level of both pictures; when scored, sums receives
 * the level's FloatAdmLevelSums (float_adm.h), summed as the CPU sums ---- */
typedef struct VqxCudaFloatAdmBands {
    float *band[3];                  /* h, v, d: w x h, rows packed */
} VqxCudaFloatAdmBands;

typedef struct VqxCudaFloatAdmLevelJob {
    int level;
    int scored;                      /* 0: the DWT only (a skipped scale 0) */
    const void *src[2];              /* reference, distorted: the picture's samples at level 0,
                                        else the previous level's approximations (floats) */
    size_t src_pitch;                /* in samples */
    int src_w, src_h;
    unsigned bpc;
    const float *lo_taps, *hi_taps;  /* 4 each, on the device */
    int w, h;                        /* the level's band size */
    float *approx[2];
    VqxCudaFloatAdmBands bands[2], restored, additive;
    FloatAdmDecoupleParams decouple; /* recip: the table on the device */
    float weight[3];
    int top, bottom, left, right;    /* the scored region */
    int bypass_cm;
    float *cubes;                    /* 9 planes of the scored region, column after column */
    float *row_sums;                 /* 9 x its rows */
    float *sums;                     /* 9 floats */
} VqxCudaFloatAdmLevelJob;

int vqx_cuda_float_adm_level(const VqxCudaFloatAdmLevelJob *job, void *stream);

#ifdef __cplusplus
}
#endif

#endif
