/*
 * CAMBI's DSP table (as MotionDSPContext, feature/motion_dsp.h): the hot
 * stages as pure functions on buffers, filled with the scalar C (cambi_dsp.c;
 * the load in cambi_tmpl.c per bit depth, the smoothing in cambi.c, the
 * pooling in top_mean.c) and then
 * overridden by the SIMD versions the CPU flags allow (src/x86/). Every
 * entry gives the C's result bit for bit; tests/checkasm/cambi.c compares
 * them. Images are 10-bit samples (at most 1024, what the load makes) in
 * compact rows of w; masks are 0 or 1.
 */
#ifndef VQX_FEATURE_CAMBI_DSP_H
#define VQX_FEATURE_CAMBI_DSP_H

#include <stddef.h>
#include <stdint.h>

/* What a contrast value depends on besides the counts: only code values
 * v with v - band_lo < band_size are counted; step d + 1 counts for a pixel
 * when vqx_cambi_step_counts(value, n_steps, d, tvi[d], vlt). */
typedef struct CambiContrastParams {
    unsigned n_steps, band_lo, band_size, vlt;
    const uint16_t *tvi;      /* n_steps entries */
    const int *weights;       /* n_steps entries */
    const float *reciprocal;  /* 1/n for n up to the window's pixel count */
} CambiContrastParams;

/* Nearest-neighbour resampling of a `bpc`-bit plane to 10 bits: out(y, x)
 * is vqx_cambi_to_10bit of in(rows[y], cols[x]); rows and cols ascend. */
#define CAMBI_LOAD(name) \
    void name(const void *data, ptrdiff_t stride, unsigned bpc, const unsigned *rows, \
              const unsigned *cols, unsigned out_w, unsigned out_h, uint16_t *out)
/* 2x2 mean in place (w, h >= 1); the last row and column average two. */
#define CAMBI_SMOOTH(name) void name(uint16_t *img, unsigned w, unsigned h)
/* out[x] = row[x] equals row[x + 1] and below[x] (w >= 1); a missing
 * neighbour (the last column, below NULL) counts as equal. */
#define CAMBI_FLAT_ROW(name) \
    void name(const uint16_t *row, const uint16_t *below, unsigned w, uint8_t *out)
/* cols[x] += enter[x], then -= leave[x] (either NULL: none), then mask[x] =
 * the sum of cols over [x - 3, x + 3] clipped to [0, w) exceeds threshold. */
#define CAMBI_MASK_ROW(name) \
    void name(uint8_t *cols, const uint8_t *enter, const uint8_t *leave, unsigned w, \
              unsigned threshold, uint8_t *mask)
/* img_out[x] = img[2x], mask_out[x] = mask[2x] for x < hw; the outputs
 * are either the inputs themselves or do not overlap them. */
#define CAMBI_HALVE_ROW(name) \
    void name(const uint16_t *img, const uint8_t *mask, unsigned hw, uint16_t *img_out, \
              uint8_t *mask_out)
/* out[x] = vqx_cambi_mode3(in[x - 1], in[x], in[x + 1]), the first and last
 * samples copied (w >= 1; out does not overlap in). */
#define CAMBI_MODE_ROW(name) void name(const uint16_t *in, unsigned w, uint16_t *out)
/* out[x] = vqx_cambi_mode3(a[x], b[x], c[x]) (out overlaps none). */
#define CAMBI_MODE_COLUMNS(name) \
    void name(const uint16_t *a, const uint16_t *b, const uint16_t *c, unsigned w, \
              uint16_t *out)
/* The histograms of the window as it moves down a row: every counted pixel
 * (mask set, value in the band) of the entering row adds 1 to
 * hist[(value - band_lo) * stride + x + i] for i <= 2 pad, and every one of
 * the leaving row subtracts 1 there (modulo 2^16); a NULL row is none.
 * hist has band_size rows of stride = w + 2 pad counts. */
#define CAMBI_SLIDE(name) \
    void name(uint16_t *hist, size_t stride, const uint16_t *in_img, const uint8_t *in_mask, \
              const uint16_t *out_img, const uint8_t *out_mask, unsigned w, unsigned pad, \
              unsigned band_lo, unsigned band_size)
/* The contrast value of each pixel of a row; 0 where not counted. hist
 * points at the window counts of column 0 (band_size rows of `stride`,
 * with the window's pad columns either side). */
#define CAMBI_CONTRAST_ROW(name) \
    void name(const uint16_t *hist, size_t stride, const uint16_t *img, const uint8_t *mask, \
              unsigned w, const CambiContrastParams *p, float *out)
/* vqx_mean_of_top's result (top_mean.h); the order v is left in is the
 * entry's own. */
#define CAMBI_MEAN_OF_TOP(name) double name(float *v, int n, double fraction)

typedef CAMBI_LOAD((*CambiLoadFn));
typedef CAMBI_SMOOTH((*CambiSmoothFn));
typedef CAMBI_FLAT_ROW((*CambiFlatRowFn));
typedef CAMBI_MASK_ROW((*CambiMaskRowFn));
typedef CAMBI_HALVE_ROW((*CambiHalveRowFn));
typedef CAMBI_MODE_ROW((*CambiModeRowFn));
typedef CAMBI_MODE_COLUMNS((*CambiModeColumnsFn));
typedef CAMBI_SLIDE((*CambiSlideFn));
typedef CAMBI_CONTRAST_ROW((*CambiContrastRowFn));
typedef CAMBI_MEAN_OF_TOP((*CambiMeanOfTopFn));

typedef struct CambiDSPContext {
    CambiLoadFn load;         /* for the picture's bit depth */
    CambiSmoothFn smooth;
    CambiFlatRowFn flat_row;
    CambiMaskRowFn mask_row;
    CambiHalveRowFn halve_row;
    CambiModeRowFn mode_row;
    CambiModeColumnsFn mode_columns;
    CambiSlideFn slide;
    CambiContrastRowFn contrast_row;
    CambiMeanOfTopFn mean_of_top;
} CambiDSPContext;

/* The table for pictures of `bpc` bits, with the SIMD entries that
 * `cpu_flags` (cpu.h, already masked) allow; 0: the scalar C alone. */
void vqx_cambi_dsp_init(CambiDSPContext *c, unsigned bpc, unsigned cpu_flags);

CAMBI_FLAT_ROW(vqx_cambi_flat_row_c);
CAMBI_MASK_ROW(vqx_cambi_mask_row_c);
CAMBI_HALVE_ROW(vqx_cambi_halve_row_c);
CAMBI_MODE_ROW(vqx_cambi_mode_row_c);
CAMBI_MODE_COLUMNS(vqx_cambi_mode_columns_c);
CAMBI_SLIDE(vqx_cambi_slide_c);
CAMBI_CONTRAST_ROW(vqx_cambi_contrast_row_c);

#endif
