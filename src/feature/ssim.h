/* float_ssim's and float_ms_ssim's states, set-up and scoring, shared by
 * the CPU extractors and their CUDA twins (whose states begin with these). */
#ifndef VQX_FEATURE_SSIM_H
#define VQX_FEATURE_SSIM_H

#include <stdbool.h>

#include "feature/extractor.h"
#include "feature/float_picture.h"
#include "feature/ssim_core.h"

typedef struct SsimState {
    bool enable_lcs;
    bool enable_db;
    bool clip_db;
    int scale;

    double max_db;
    unsigned w, h;           /* full-size luma */
    unsigned factor;         /* decimation factor, 1: none */
    unsigned dw, dh;         /* luma after decimation */
    float *ref, *cmp;        /* the luma SSIM sees: full size (factor 1) or decimated */
    float *band;             /* factor > 1: the converted rows of one output row */
    unsigned band_rows;
    const float **box_rows;  /* factor > 1: the vertical taps' rows in band */
    VqxSsimScratch scratch;
    FloatPictureDSPContext pic_dsp; /* the samples' conversion to floats */
} SsimState;

extern const char *const vqx_float_ssim_keys[];
extern const VqxOption vqx_float_ssim_options[];
/* Checks the geometry and sets the factor, the sizes and the dB cap; no
 * memory. */
int vqx_float_ssim_setup(SsimState *s, const VqxFrameFormat *fmt, VqxSink *sink);
/* Scores a frame from the means of the (decimated) luma. */
int vqx_float_ssim_emit(const SsimState *s, const VqxSsimMeans *m, unsigned frame,
                        VqxSink *sink);

#define VQX_MS_SSIM_SCALES 5

typedef struct MsSsimState {
    bool enable_lcs;
    bool enable_db;
    bool clip_db;

    double max_db;
    unsigned w[VQX_MS_SSIM_SCALES], h[VQX_MS_SSIM_SCALES];
    float *ref[VQX_MS_SSIM_SCALES], *cmp[VQX_MS_SSIM_SCALES]; /* the pyramid, stride w[i] */
    VqxSsimScratch scratch;
    FloatPictureDSPContext pic_dsp; /* the samples' conversion to floats */
} MsSsimState;

extern const char *const vqx_float_ms_ssim_keys[];
extern const VqxOption vqx_float_ms_ssim_options[];
/* Checks the geometry and sets every scale's size and the dB cap; no
 * memory. */
int vqx_float_ms_ssim_setup(MsSsimState *s, const VqxFrameFormat *fmt, VqxSink *sink);
/* Scores a frame from the means of every scale. */
int vqx_float_ms_ssim_emit(const MsSsimState *s, const VqxSsimMeans m[VQX_MS_SSIM_SCALES],
                           unsigned frame, VqxSink *sink);

#endif
