/*
 * Integer VIF's DSP table (dav1d's shape): the hot stages as pure functions
 * on buffers and strides, filled with the scalar C (vif_tmpl.c per bit
 * depth, vif_dsp.c) and then overridden by SIMD versions the CPU flags
 * allow (src/x86/). Every entry gives the C's result bit for bit, for every
 * input the C accepts; tests/checkasm/vif.c compares them.
 */
#ifndef VQX_FEATURE_VIF_DSP_H
#define VQX_FEATURE_VIF_DSP_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "bitdepth.h"
#include "feature/vif_pixel.h"
#include "hostdev.h"

/* Half width of the widest filter (scale 0, 17 taps). */
#define VIF_MAX_HALF 8

/* Mirrored index of i in [0, n) (hostdev.h's reflect-101), valid for
 * -n < i < 2n - 1. */
static inline unsigned vif_mirror(int i, unsigned n)
{
    return (unsigned)vqx_reflect101(i, (int)n);
}

/* Entry i in [2^15 - 1, 2^16) of the log2 table, libvmaf's log_generate():
 * round(log2f(i) * 2048). */
static inline uint16_t vif_log2_entry(unsigned i)
{
    return (uint16_t)round(log2f((float)i) * 2048.0f);
}

/* One scale of the pyramid: reference and distorted planes of equal
 * geometry, 8-bit samples (scale 0 at 8 bits) or 16-bit (the others). */
typedef struct VifPlane {
    const void *ref, *dis;
    ptrdiff_t ref_stride, dis_stride; /* bytes */
    unsigned w, h;
} VifPlane;

/* Integer filter taps of one scale; they sum to 65536 and are symmetric. */
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
 * scratch arrays (w 64-bit words each) may hold the sums of squares before
 * the shift, as 32- or 64-bit words depending on the bit depth. */
typedef struct VifColumns {
    uint32_t *mu1, *mu2, *ref_sq, *dis_sq, *ref_dis;
    void *scratch[3];
} VifColumns;

/* Horizontal sums of one row: means (32-bit) and second moments. */
typedef struct VifRow {
    uint32_t *mu1, *mu2;
    uint64_t *ref_sq, *dis_sq, *ref_dis;
} VifRow;

/* Vertical pass of the statistics filter for output row `row`: p->w
 * columns of `out`, rows mirrored at the plane's ends (p->h > f->width / 2);
 * at 8 bits the taps are below 2^15 (scale 0's). */
#define VIF_COLUMNS_STATS(name) \
    void name(const VifPlane *p, unsigned row, const VifFilter *f, const VifShifts *sh, \
              const VifColumns *out)
/* Vertical pass of the low-pass filter before decimation: rounded 16-bit
 * means of reference and distorted, p->w columns. */
#define VIF_COLUMNS_MEANS(name) \
    void name(const VifPlane *p, unsigned row, const VifFilter *f, unsigned shift, \
              uint32_t round, uint32_t *ref_out, uint32_t *dis_out)
/* Horizontal pass of the statistics filter over w columns whose f->width / 2
 * entries before 0 and after w - 1 are already mirrored. */
#define VIF_HORIZONTAL(name) \
    void name(const VifColumns *in, unsigned w, const VifFilter *f, const VifRow *out)
/* The information terms of one horizontally filtered row, added to `sums`. */
#define VIF_ADD_ROW(name) \
    void name(const VifRow *h, unsigned w, const uint16_t *log2_table, double gain_limit, \
              VifSums *sums)
/* Bytes of the scratch of VIF_ROW_STATS for rows of w columns (64-byte
 * aligned): a VifRow for the C, the SIMD forms' own 16-bit columns. */
#define VIF_ROW_SCRATCH(w) (32 * ((size_t)(w) + 128))
/* One output row of a scale's statistics: the vertical pass of `row` as
 * VIF_COLUMNS_STATS, the columns mirrored at the row's ends, the
 * horizontal pass and the information terms of VIF_ADD_ROW, added to
 * `sums`. `cols` (the C's columns) and `scratch` (VIF_ROW_SCRATCH(p->w)
 * bytes) are work space. */
#define VIF_ROW_STATS(name) \
    void name(const VifPlane *p, unsigned row, const VifFilter *f, const VifShifts *sh, \
              const VifColumns *cols, void *scratch, const uint16_t *log2_table, \
              double gain_limit, VifSums *sums)
/* Horizontal low-pass at the even columns: dst_w 16-bit means from columns
 * of rounded means (at most 65535) mirrored as for VIF_HORIZONTAL; reads
 * up to column 2 dst_w - 1 + f->width / 2. */
#define VIF_DECIMATE(name) \
    void name(const uint32_t *ref, const uint32_t *dis, unsigned dst_w, const VifFilter *f, \
              uint16_t *ref_out, uint16_t *dis_out)

typedef VIF_ROW_STATS((*VifRowStatsFn));
typedef VIF_COLUMNS_MEANS((*VifColumnsMeansFn));
typedef VIF_DECIMATE((*VifDecimateFn));

typedef struct VifDSPContext {
    /* [0]: scale 0, over the picture's samples; [1]: scales 1..3 (16-bit);
     * SIMD forms: the same double steps per lane, in order */
    VifRowStatsFn row_stats[2];
    /* [0]: scale 0 to 1, over the picture's samples; [1]: later scales */
    VifColumnsMeansFn columns_means[2];
    VifDecimateFn decimate;
} VifDSPContext;

/* The table for pictures of `bpc` bits, with the SIMD entries that
 * `cpu_flags` (cpu.h, already masked) allow; 0: the scalar C alone. */
void vqx_vif_dsp_init(VifDSPContext *c, unsigned bpc, unsigned cpu_flags);

/* The scalar C entries. */
VIF_ROW_STATS(vqx_vif_row_stats_8bpc);
VIF_ROW_STATS(vqx_vif_row_stats_16bpc);
VIF_COLUMNS_MEANS(vqx_vif_columns_means_8bpc);
VIF_COLUMNS_MEANS(vqx_vif_columns_means_16bpc);
VIF_DECIMATE(vqx_vif_decimate_c);
/* The stages of the C's row_stats (vif.c's reference steps; the CUDA
 * kernel checks call the vertical passes). */
VIF_COLUMNS_STATS(vqx_vif_columns_stats_8bpc);
VIF_COLUMNS_STATS(vqx_vif_columns_stats_16bpc);
/* Mirrors f->width / 2 entries beyond either end of the w columns. */
void vqx_vif_mirror_columns(const VifColumns *c, unsigned w, const VifFilter *f);
VIF_HORIZONTAL(vqx_vif_horizontal_c);
VIF_ADD_ROW(vqx_vif_add_row_c);

#endif
