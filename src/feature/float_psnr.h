/* float_psnr's keys and scoring, shared by the CPU extractor and its CUDA
 * twin (which begins its state with FloatPsnrState). */
#ifndef VQX_FEATURE_FLOAT_PSNR_H
#define VQX_FEATURE_FLOAT_PSNR_H

#include "feature/extractor.h"
#include "feature/float_picture.h"
#include "feature/float_psnr_dsp.h"

typedef struct FloatPsnrState {
    double peak, psnr_max;
    unsigned w, h, bpc;
    float *ref_row, *dis_row; /* the CPU extractor's */
    FloatPsnrDSPContext dsp;
    FloatPictureDSPContext pic_dsp; /* the samples' conversion to floats */
} FloatPsnrState;

extern const char *const vqx_float_psnr_keys[];
/* Sets what scoring needs (no allocation). */
void vqx_float_psnr_setup(FloatPsnrState *s, const VqxFrameFormat *fmt);
/* Scores a frame from the luma's double sum of squared errors. */
int vqx_float_psnr_emit(const FloatPsnrState *s, double noise, unsigned frame, VqxSink *sink);

#endif
