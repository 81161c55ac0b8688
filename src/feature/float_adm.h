/* float_adm's state, set-up and scoring, shared by the CPU extractor and
 * its CUDA twin (which begins its state with FloatAdmState). */
#ifndef VQX_FEATURE_FLOAT_ADM_H
#define VQX_FEATURE_FLOAT_ADM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "feature/adm.h"
#include "feature/extractor.h"
#include "feature/float_adm_dsp.h"
#include "feature/float_picture.h"

typedef struct FloatAdmLevel {
    int w, h;
    AdmRegion roi, grown;
    float weight[3];
} FloatAdmLevel;

typedef struct FloatAdmState {
    bool debug;
    bool skip_scale0;
    bool adm3_harmonic;
    double gain_limit;
    double view_dist;
    double noise_weight;
    double csf_scale;
    double csf_diag_scale;
    double min_val;
    double p_norm;
    double dlm_weight;
    double weight_override[2][ADM_SCALES]; /* adm_f1s0..3 (h, v), adm_f2s0..3 (d) */
    int display_height;
    int csf_mode;
    int bypass_cm;
    int skip_aim_scale;

    int w, h;
    unsigned bpc;
    uint32_t recip_table[FLOAT_ADM_RECIP_ENTRIES];
    FloatAdmDecoupleParams decouple;
    FloatAdmDSPContext dsp;
    FloatPictureDSPContext pic_dsp; /* the samples' conversion to floats */
    FloatAdmLevel level[ADM_SCALES];

    ptrdiff_t stride;
    float *ref_a, *dis_a;
    float *ref_band[3], *dis_band[3];
    float *restored[3], *additive[3];
    float *pix_rows[4];
    int pix_row_of[4];
    float *lo, *hi;
    float *mask[3][3];     /* [orientation][ring slot]: |weighted| / 30 */
    float *mask_abs[3][3]; /* [orientation][ring slot]: |weighted| */
    int mask_row_of[3];
    float *thr_row;        /* masking threshold of one row */
    float *zero_row;       /* the reference's threshold: none */
    void *mem;
} FloatAdmState;

/* A level's sums (float_adm_dsp.h's order, per band h, v, d). */
typedef float FloatAdmLevelSums[FLOAT_ADM_SUMS][3];

extern const char *const vqx_float_adm_keys[];
extern const VqxOption vqx_float_adm_options[];
extern const float vqx_float_adm_db2_lo[4], vqx_float_adm_db2_hi[4];
/* Checks the size; sets every level's geometry and weights and the
 * decoupling's parameters (no allocation). */
int vqx_float_adm_setup(FloatAdmState *s, const VqxFrameFormat *fmt, VqxSink *sink);
/* Scores a frame from every level's sums (those of a skipped scale 0 are
 * not read). */
int vqx_float_adm_emit(const FloatAdmState *s, const FloatAdmLevelSums sums[ADM_SCALES],
                       unsigned frame, VqxSink *sink);
void vqx_float_adm_close(void *state);

#endif
