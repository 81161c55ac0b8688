/*
 * Integer VIF (libvmaf's "vif" extractor): its state and the stages of a scale.
 *
 * The pyramid has four scales. Scale 0 is the picture's luma; scale s + 1 is
 * scale s low-passed with the filter of scale s + 1 and decimated by two.
 * Every filter is separable: a vertical pass over whole rows into column
 * sums, then a horizontal pass over those sums. Borders mirror without
 * repeating the edge sample (index -1 reads 1, index n reads n - 2).
 */
#ifndef VQX_FEATURE_VIF_H
#define VQX_FEATURE_VIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "feature/extractor.h"
#include "feature/vif_dsp.h"
#include "feature/vif_pixel.h"

#define VIF_SCALES 4

typedef struct VifState {
    bool debug;
    double gain_limit;
    bool skip_scale0;

    unsigned bpc;
    VifDSPContext dsp; /* the stages, scalar or SIMD (fmt->cpu_flags) */
    VifPlane planes[VIF_SCALES]; /* scales 1..3 point into `mem` */
    VifColumns cols;
    /* Horizontal sums of one row: means (32-bit) and second moments. */
    uint32_t *h_mu1, *h_mu2;
    uint64_t *h_ref_sq, *h_dis_sq, *h_ref_dis;
    void *row_scratch; /* VIF_ROW_SCRATCH(w) bytes for dsp.row_stats */
    void *mem;
    /* log2(i) * 2048 for i in [32768, 65535], as libvmaf rounds it. */
    uint16_t log2_table[65536];
} VifState;

/* Filters of the four scales. */
extern const VifFilter vqx_vif_filters[VIF_SCALES];
/* The vertical pass's shifts of a scale at a bit depth. */
VifShifts vqx_vif_shifts(unsigned scale, unsigned bpc);

/* The scalar stages of dsp.row_stats after the vertical pass of a row
 * into s->cols (the CUDA kernel checks compare each with the device's):
 * the horizontal pass (mirrors s->cols' margins, writes s->h_*), then the
 * row's information terms added to `sums`. */
void vqx_vif_filter_row(VifState *s, unsigned w, const VifFilter *f);
void vqx_vif_add_row(const VifState *s, unsigned w, VifSums *sums);
/* Scale `scale` (1..3) from scale - 1 through s->dsp: low-pass and
 * decimate into dst's 16-bit planes (strides in bytes), with s->cols as
 * scratch. */
void vqx_vif_downsample(VifState *s, const VifPlane *src, const VifPlane *dst, unsigned scale);

/* Shared by the CPU extractor and its device twins. */
extern const char *const vqx_vif_keys[];
extern const VqxOption vqx_vif_options[];
/* Checks the geometry, sets bpc, the DSP table and the log2 table;
 * allocates nothing. */
int vqx_vif_setup(VifState *s, const VqxFrameFormat *fmt, VqxSink *sink);
/* Every scale's numerator and denominator of a frame (what extract emits). */
void vqx_vif_compute(VifState *s, const VqxPicture *ref, const VqxPicture *dis,
                     float num[VIF_SCALES], float den[VIF_SCALES]);
/* A scale's numerator and denominator from its sums. */
void vqx_vif_scale_result(const VifSums *sums, float *num, float *den);
/* Emits a frame's scores from every scale's numerator and denominator. */
int vqx_vif_emit(const VifState *s, const float num[VIF_SCALES], const float den[VIF_SCALES],
                 unsigned frame, VqxSink *sink);

#endif
