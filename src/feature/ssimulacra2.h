/*
 * SSIMULACRA 2's input step, shared by the extractor and the tool that
 * writes the RGB frames libjxl's reference values were computed from
 * (tests/ssimulacra2_rgb.c): YUV samples to 16-bit R'G'B'.
 */
#ifndef VQX_FEATURE_SSIMULACRA2_H
#define VQX_FEATURE_SSIMULACRA2_H

#include <stdint.h>

#include "feature/ssimulacra2_pixel.h"
#include "vqx/vqx.h"

/* The coefficients of matrix "bt709", "bt601" or "bt2020" and range
 * "limited" or "full" at `bpc` bits; -EINVAL for other names. */
int vqx_ssimu2_yuv_coeffs(Ssimu2YuvCoeffs *k, const char *matrix, const char *range,
                          unsigned bpc);

/* Row y of `pic` (4:2:0, 4:2:2 or 4:4:4) as 16-bit R'G'B', interleaved,
 * each chroma sample repeated over the luma samples it covers. */
void vqx_ssimu2_rgb16_row(const VqxPicture *pic, unsigned y, const Ssimu2YuvCoeffs *k,
                          uint16_t *rgb);

#endif
