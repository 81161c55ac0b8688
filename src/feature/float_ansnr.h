/* float_ansnr's state, filters and scoring, shared by the CPU extractor and
 * its CUDA twin (which begins its state with FloatAnsnrState). */
#ifndef VQX_FEATURE_FLOAT_ANSNR_H
#define VQX_FEATURE_FLOAT_ANSNR_H

#include <stddef.h>

#include "feature/extractor.h"
#include "feature/float_ansnr_dsp.h"
#include "feature/float_picture.h"
#include "feature/float_sample.h"

typedef struct FloatAnsnrState {
    double peak, psnr_max;
    int w, h;
    /* the CPU extractor's */
    ptrdiff_t stride;
    float *ref, *dis;           /* RING rows, MARGIN mirrored columns each side */
    int ref_next, dis_next;     /* the first row of the frame not yet in them */
    float *ref_rows, *dis_rows; /* BLOCK filtered rows, w floats apart */
    FloatAnsnrDSPContext dsp;
    FloatPictureDSPContext pic_dsp; /* the samples' conversion to floats */
} FloatAnsnrState;

extern const char *const vqx_float_ansnr_keys[];
extern const float vqx_float_ansnr_ref_filter[FLOAT_ANSNR_REF_TAPS * FLOAT_ANSNR_REF_TAPS];
extern const float vqx_float_ansnr_dis_filter[FLOAT_ANSNR_DIS_TAPS * FLOAT_ANSNR_DIS_TAPS];

/* Checks the size and sets what scoring needs (no allocation). */
int vqx_float_ansnr_setup(FloatAnsnrState *s, const VqxFrameFormat *fmt, VqxSink *sink);
/* Scores a frame from its float signal and noise energies. */
int vqx_float_ansnr_emit(const FloatAnsnrState *s, float signal, float noise, unsigned frame,
                         VqxSink *sink);

#endif
