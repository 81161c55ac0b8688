/* psnr_hvs's state, keys and scoring, shared by the CPU extractor and its
 * CUDA twin (which begins its state with PsnrHvsState). */
#ifndef VQX_FEATURE_PSNR_HVS_H
#define VQX_FEATURE_PSNR_HVS_H

#include "feature/extractor.h"
#include "feature/psnr_hvs_dsp.h"

typedef struct PsnrHvsState {
    unsigned bpc;
    unsigned w[3], h[3];
    /* blocks per row and per column of each plane */
    unsigned blocks_x[3], blocks_y[3];
    /* csf and masking weights, transposed as the DCT leaves its coefficients */
    float weight_t[3][PSNR_HVS_TERMS], mask_t[3][PSNR_HVS_TERMS];
    PsnrHvsDSPContext dsp;
} PsnrHvsState;

extern const char *const vqx_psnr_hvs_keys[];
/* Sets the geometry and the weights; fails on 4:0:0 and on planes below
 * one block. */
int vqx_psnr_hvs_setup(PsnrHvsState *s, const VqxFrameFormat *fmt, VqxSink *sink);
/* Scores a frame from each plane's float sum of its terms, added block by
 * block in raster order (the CPU's chain). */
int vqx_psnr_hvs_emit(const PsnrHvsState *s, const float total[3], unsigned frame,
                      VqxSink *sink);

#endif
