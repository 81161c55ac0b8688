/*
 * The integer ADM's state and the steps its CPU extractor (adm.c) shares
 * with its device twins: setup of the per-level constants, the 3-norms from
 * the integer sums, and the scores from the per-level norms.
 */
#ifndef VQX_FEATURE_ADM_FIXED_H
#define VQX_FEATURE_ADM_FIXED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "feature/adm.h"
#include "feature/adm_dsp.h"
#include "feature/extractor.h"

/* Per-level constants, fixed at init. */
typedef struct AdmLevel {
    int w, h;                 /* band size */
    AdmRegion roi, grown;     /* scored region; what its 3x3 window reads */
    float weight[3];          /* CSF weight of the h, v, d bands */
    uint32_t q_weight[3];     /* weight in fixed point: Q21, Q21, Q23 (level 0), Q32 */
    float noise;              /* noise floor added to each band's 3-norm */
    unsigned cube_shift[3];   /* masked energy: rounding shifts of x^3 per column */
    unsigned row_shift;       /*   and of each row's sum */
    unsigned ref_cube_shift;  /* reference 3-norm: rounding shifts of x^3 (levels 1-3) */
    unsigned ref_row_shift;   /*   and of each row's sum */
} AdmLevel;

/* The h, v, d rows of a band, s->stride apart: whole planes (the staged
 * functions), or rings of `rows` rows (extract), row y in slot y % rows. */
typedef struct AdmBands {
    int32_t *b[3];
    int rows;
} AdmBands;

/* Masking terms of three rows (ring slot y % 3), 1 slot of margin. */
typedef struct AdmMaskRing {
    uint32_t *sum[3], *centre[3];
    int row_of[3];
} AdmMaskRing;

typedef struct AdmState {
    bool debug;
    bool skip_aim;
    bool skip_scale0;
    double csf_scale;
    double csf_diag_scale;
    double dlm_weight;
    double gain_limit;
    double view_dist;
    double noise_weight;
    double min_val;
    int display_height;
    int csf_mode;

    int w, h;
    unsigned bpc;
    float cos_1deg_sq;
    AdmLevel level[ADM_SCALES];

    ptrdiff_t stride;           /* elements per band row */
    int32_t *ref_a, *dis_a;     /* approximation band, overwritten level by level */
    int32_t *ref_band[3], *dis_band[3]; /* whole planes: the staged functions' */
    int32_t *restored[3], *additive[3];
    AdmBands ring[4];           /* extract's rows of the reference's, the distorted's bands,
                                 * the restored and the additive parts */
    int16_t *pix_rows[2][4];    /* level 0 input rows, centred: reference, distorted */
    int pix_row_of[2][4];
    int16_t *lo16, *hi16;       /* one row after the vertical pass, 1 slot of margin: */
    int32_t *lo, *hi;           /*   level 0, levels 1 to 3 */
    AdmMaskRing mask[2];        /* masking rows of the additive and the restored part */
    uint32_t *thr_row;          /* one row: masking threshold */
    int32_t *recip;             /* 2^30 / i, i in [0, 32768] */
    AdmDSPContext dsp;
    void *mem;
} AdmState;

extern const char *const vqx_adm_keys[];
extern const VqxOption vqx_adm_options[];

/* Checks the geometry and sets every per-level constant;
 * allocates nothing. */
int vqx_adm_setup(AdmState *s, const VqxFrameFormat *fmt, VqxSink *sink);
/* The extractor's stages of level `scale` (the CUDA kernel checks compare
 * with them). The DWT of one picture: reads the picture (level 0) or the
 * previous approximation band `a` (overwritten in place) and writes the h,
 * v, d bands. */
void vqx_adm_dwt_level(AdmState *s, int scale, const VqxPicture *pic, int32_t *a,
                       int32_t *const band[3]);
/* s->ref_band and s->dis_band to s->restored and s->additive, over the
 * grown region. */
void vqx_adm_decouple(AdmState *s, int scale);
/* Masking terms of row y over the grown columns: per column, the sum over
 * orientations of what it adds to a neighbour's threshold (sum) and to its
 * own (centre), in 32-bit modular arithmetic. */
void vqx_adm_mask_terms(const AdmState *s, int scale, int32_t *const mask[3], int y,
                        uint32_t *sum, uint32_t *centre);
/* The level's integer sums (h, v, d) of the reference's cubes and of the
 * masked cubes of x against the masking of `mask`; with `rows`, also each
 * scored row's sums before the per-row rounding shift (row roi.top first). */
void vqx_adm_reference_sums(const AdmState *s, int scale, uint64_t accum[3],
                            uint64_t (*rows)[3]);
void vqx_adm_masked_sums(AdmState *s, int scale, int32_t *const x[3], int32_t *const mask[3],
                         int64_t accum[3], int64_t (*rows)[3]);
/* What extract() runs at level `scale` (unless it is a skipped level 0):
 * the DWT of both pictures (as vqx_adm_dwt_level) and the level's integer
 * sums, equal to those of the staged functions above, computed row by row
 * through rings of band rows (s->ring) instead of whole planes; the planes
 * other than the approximations are not touched. */
typedef struct AdmLevelSums {
    uint64_t ref[3];
    int64_t num[3], aim[3]; /* aim: 0 with skip_aim */
} AdmLevelSums;

void vqx_adm_level_sums(AdmState *s, int scale, const VqxPicture *ref, const VqxPicture *dis,
                        AdmLevelSums *sums);
/* Denominator of a level from its integer sums (h, v, d). */
float vqx_adm_reference_norm(const AdmState *s, int scale, const uint64_t accum[3]);
/* Masked 3-norm of a level from its integer sums (h, v, d), plus noise. */
float vqx_adm_masked_norm(const AdmState *s, int scale, const int64_t accum[3], float noise);
/* Emits a frame's scores from every level's numerator, denominator and AIM
 * numerator. */
int vqx_adm_emit(const AdmState *s, const float scale_num[ADM_SCALES],
                 const float scale_den[ADM_SCALES], const float scale_aim[ADM_SCALES],
                 unsigned frame, VqxSink *sink);

#endif
