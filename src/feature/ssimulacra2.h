/*
 * SSIMULACRA 2's input step, shared by the extractor and the tool that
 * writes the RGB frames libjxl's reference values were computed from
 * (tests/ssimulacra2_rgb.c): YUV samples to 16-bit R'G'B'.
 */
#ifndef VQX_FEATURE_SSIMULACRA2_H
#define VQX_FEATURE_SSIMULACRA2_H

#include <stddef.h>
#include <stdint.h>

#include "feature/extractor.h"
#include "feature/ssimulacra2_dsp.h"
#include "feature/ssimulacra2_pixel.h"
#include "vqx/vqx.h"

enum {
    SSIMU2_SCALES = 6,
    SSIMU2_MIN_SIZE = 8,
    /* Per scale and plane: the SSIM error's sum and sum of fourth powers,
     * then the artifact's, the lost detail's (the sums of ssim_sums and
     * edge_sums, in their order). */
    SSIMU2_SUMS = 6,
};

/* The extractor's state (a device twin's state begins with it). */
typedef struct Ssimu2State {
    const char *matrix, *range;
    Ssimu2YuvCoeffs yuv;
    Ssimu2Gauss gauss;
    Ssimu2DSPContext dsp;
    int w, h;
    ptrdiff_t stride;
    float *linear_of_u16; /* 65536 entries: ssimu2_linear_from_u16 */
    uint16_t *rgb16;      /* one row, interleaved */
    float *mem;
    /* Planes: linear and XYB of each image, then one plane's products,
     * blur scratch and blurred maps. */
    float *lin[2][3], *xyb[2][3];
    float *prod, *scratch, *mu[2], *sigma[2], *sigma12;
} Ssimu2State;

extern const char *const vqx_ssimu2_keys[];
extern const VqxOption vqx_ssimu2_options[];

/* init without the buffers: the 4:0:0 and size checks, the YUV coefficients, the
 * blur's, the DSP table, w, h and stride. */
int vqx_ssimu2_setup(Ssimu2State *s, const VqxFrameFormat *fmt, VqxSink *sink);

/* The scales scored for a w x h frame (libjxl tests the size of the scale
 * before, then halves) and each one's size. */
int vqx_ssimu2_scale_sizes(int w, int h, int ws[SSIMU2_SCALES], int hs[SSIMU2_SCALES]);

/* The frame's score from the sums of its n_scales scales (per scale and
 * plane, SSIMU2_SUMS in their order), emitted as key 0. */
int vqx_ssimu2_emit(const Ssimu2State *s, const double sums[][3][SSIMU2_SUMS], int n_scales,
                    unsigned frame, VqxSink *sink);

void vqx_ssimu2_close(void *state);

/* The coefficients of matrix "bt709", "bt601" or "bt2020" and range
 * "limited" or "full" at `bpc` bits; -EINVAL for other names. */
int vqx_ssimu2_yuv_coeffs(Ssimu2YuvCoeffs *k, const char *matrix, const char *range,
                          unsigned bpc);

/* Row y of `pic` (4:2:0, 4:2:2 or 4:4:4) as 16-bit R'G'B', interleaved,
 * each chroma sample repeated over the luma samples it covers. */
void vqx_ssimu2_rgb16_row(const VqxPicture *pic, unsigned y, const Ssimu2YuvCoeffs *k,
                          uint16_t *rgb);

#endif
