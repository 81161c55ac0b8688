/* float_vif's state, set-up and scoring, shared by the CPU extractor and
 * its CUDA twin (which begins its state with FloatVifState). */
#ifndef VQX_FEATURE_FLOAT_VIF_H
#define VQX_FEATURE_FLOAT_VIF_H

#include <stdbool.h>
#include <stddef.h>

#include "feature/extractor.h"
#include "feature/float_picture.h"
#include "feature/float_vif_dsp.h"
#include "feature/resample.h"

#define FLOAT_VIF_SCALES 4

/* Reference and distorted planes of one scale; stride in floats. */
typedef struct FloatVifPlane {
    float *ref, *dis;
    ptrdiff_t stride;
    unsigned w, h;
} FloatVifPlane;

typedef struct FloatVifState {
    bool debug;
    double gain_limit;
    double kernelscale;
    double prescale;
    double scale_min[FLOAT_VIF_SCALES]; /* [0] unused: scale 0 has no minimum option */
    const char *prescale_method;
    double sigma_nsq;
    bool skip_scale0;

    bool resample;
    VqxResampler resampler;   /* when resample */
    unsigned src_w, src_h;
    FloatVifPlane input;              /* converted luma, source size */
    FloatVifPlane planes[FLOAT_VIF_SCALES];     /* [0]: resampled input, or the input itself */
    float filter[FLOAT_VIF_SCALES][FLOAT_VIF_MAX_TAPS];
    unsigned filter_width[FLOAT_VIF_SCALES];
    /* Vertical sums of one row (padded for the horizontal mirror), and the
     * five filtered rows the statistic reads. */
    float *v_mu1, *v_mu2, *v_xx, *v_yy, *v_xy;
    float *h_mu1, *h_mu2, *h_xx, *h_yy, *h_xy;
    void *mem;
    FloatVifDSPContext dsp;
    FloatPictureDSPContext pic_dsp; /* the samples' conversion to floats */
} FloatVifState;

extern const char *const vqx_float_vif_keys[];
extern const VqxOption vqx_float_vif_options[];
/* Checks the geometry, sets the filters and every plane's size (and the
 * prescale's resampler, freed by vqx_float_vif_close); no plane memory. */
int vqx_float_vif_setup(FloatVifState *s, const VqxFrameFormat *fmt, VqxSink *sink);
/* The statistic's parameters. */
FloatVifStat vqx_float_vif_stat(const FloatVifState *s);
/* Scores a frame from each scale's float sums. */
int vqx_float_vif_emit(const FloatVifState *s, const float num[FLOAT_VIF_SCALES],
                       const float den[FLOAT_VIF_SCALES], unsigned frame, VqxSink *sink);
void vqx_float_vif_close(void *state);

#endif
