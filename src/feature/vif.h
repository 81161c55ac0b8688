/*
 * Integer VIF (libvmaf's "vif" extractor): the parts compiled per bit depth.
 *
 * The pyramid has four scales. Scale 0 is the picture's luma; scale s + 1 is
 * scale s low-passed with the filter of scale s + 1 and decimated by two.
 * Every filter is separable: a vertical pass over whole rows into column
 * sums, then a horizontal pass over those sums. Borders mirror without
 * repeating the edge sample (index -1 reads 1, index n reads n - 2).
 */
#ifndef VQX_FEATURE_VIF_H
#define VQX_FEATURE_VIF_H

#include <stddef.h>
#include <stdint.h>

#include <stdbool.h>

#include "bitdepth.h"
#include "feature/extractor.h"
#include "feature/vif_pixel.h"

#define VIF_SCALES 4
/* Half width of the widest filter (scale 0, 17 taps). */
#define VIF_MAX_HALF 8

/* Mirrored index of i in [0, n), valid for -n < i < 2n - 1. */
static inline unsigned vif_mirror(int i, unsigned n)
{
    if (i < 0) return (unsigned)-i;
    if ((unsigned)i >= n) return 2 * (n - 1) - (unsigned)i;
    return (unsigned)i;
}

/* One scale of the pyramid: reference and distorted planes of equal
 * geometry, samples of the bit depth the function is compiled for. */
typedef struct VifPlane {
    const void *ref, *dis;
    ptrdiff_t ref_stride, dis_stride; /* bytes */
    unsigned w, h;
} VifPlane;

/* Integer filter taps of one scale; they sum to 65536. */
typedef struct VifFilter {
    const uint16_t *taps;
    unsigned width;
} VifFilter;

/* Rounding right shifts that end a vertical pass: the sums of samples
 * (means) and the sums of squares and products. */
typedef struct VifShifts {
    unsigned mean;
    uint32_t mean_round;
    unsigned sq;
    uint64_t sq_round;
} VifShifts;

/* Vertical sums of one output row. The five output arrays have room for
 * VIF_MAX_HALF columns on either side for the horizontal mirror; the three
 * scratch arrays (w 64-bit words each) hold the sums of squares before the
 * shift, as 32- or 64-bit words depending on the bit depth. */
typedef struct VifColumns {
    uint32_t *mu1, *mu2, *ref_sq, *dis_sq, *ref_dis;
    void *scratch[3];
} VifColumns;

/* Vertical pass of the statistics filter for output row `row`. */
BF_DECL(void, vqx_vif_columns_stats, const VifPlane *p, unsigned row,
        const VifFilter *f, const VifShifts *sh, VifColumns *out);

/* Vertical pass of the low-pass filter that precedes decimation: rounded
 * means of reference and distorted for output row `row`. */
BF_DECL(void, vqx_vif_columns_means, const VifPlane *p, unsigned row,
        const VifFilter *f, unsigned shift, uint32_t round,
        uint32_t *ref_out, uint32_t *dis_out);


typedef struct VifState {
    bool debug;
    double gain_limit;
    bool skip_scale0;

    unsigned bpc;
    VifPlane planes[VIF_SCALES]; /* scales 1..3 point into `mem` */
    VifColumns cols;
    /* Horizontal sums of one row: means (32-bit) and second moments. */
    uint32_t *h_mu1, *h_mu2;
    uint64_t *h_ref_sq, *h_dis_sq, *h_ref_dis;
    void *mem;
    /* log2(i) * 2048 for i in [32768, 65535], as libvmaf rounds it. */
    uint16_t log2_table[65536];
} VifState;

/* Filters of the four scales. */
extern const VifFilter vqx_vif_filters[VIF_SCALES];
/* The vertical pass's shifts of a scale at a bit depth. */
VifShifts vqx_vif_shifts(unsigned scale, unsigned bpc);

/* Stages of one scale (the extractor's own steps; the CUDA kernel checks
 * compare with them). After vqx_vif_columns_stats of a row into s->cols:
 * the horizontal pass (mirrors s->cols' margins, writes s->h_*), then the
 * row's information terms added to `sums`. */
void vqx_vif_filter_row(VifState *s, unsigned w, const VifFilter *f);
void vqx_vif_add_row(const VifState *s, unsigned w, VifSums *sums);
/* Scale `scale` (1..3) from scale - 1: low-pass and decimate into dst's
 * 16-bit planes (strides in bytes), with s->cols as scratch. */
void vqx_vif_downsample(VifState *s, const VifPlane *src, const VifPlane *dst, unsigned scale);

/* Shared by the CPU extractor and its device twins. */
extern const char *const vqx_vif_keys[];
extern const VqxOption vqx_vif_options[];
/* Checks the geometry, sets bpc and the log2 table; allocates nothing. */
int vqx_vif_setup(VifState *s, const VqxFrameFormat *fmt, VqxSink *sink);
/* A scale's numerator and denominator from its sums. */
void vqx_vif_scale_result(const VifSums *sums, float *num, float *den);
/* Emits a frame's scores from every scale's numerator and denominator. */
int vqx_vif_emit(const VifState *s, const float num[VIF_SCALES], const float den[VIF_SCALES],
                 unsigned frame, VqxSink *sink);

#endif
