/*
 * SSIMULACRA 2's DSP table (as FloatPsnrDSPContext): its stages as pure
 * functions on float planes of `stride` floats a row, filled with the
 * scalar C (ssimulacra2_dsp.c) and then overridden by the SIMD versions the
 * CPU flags allow (src/x86/). Every entry gives the C's floats and doubles
 * bit for bit (vectors run across outputs, each output keeps the C's
 * operations and their order); tests/checkasm/ssimulacra2.c compares them.
 */
#ifndef VQX_FEATURE_SSIMULACRA2_DSP_H
#define VQX_FEATURE_SSIMULACRA2_DSP_H

#include <stddef.h>
#include <stdint.h>

#include "feature/ssimulacra2_pixel.h"

/* The blur's coefficients, as libjxl's CreateRecursiveGaussian(1.5)
 * computes them. */
void vqx_ssimu2_gauss_init(Ssimu2Gauss *g);

/* -cbrtf(SSIMU2_OPSIN_BIAS), the host's: xyb_row's argument of ssimu2_xyb. */
float vqx_ssimu2_neg_bias_cbrt(void);

/* Linear sRGB planes to positive XYB planes, n samples of each. */
#define SSIMU2_XYB_ROW(name)                                                         \
    void name(const float *r, const float *g, const float *b, float *x, float *y, \
              float *bo, int n)

/* out = a * b, n samples. */
#define SSIMU2_MULTIPLY_ROW(name) void name(const float *a, const float *b, float *out, int n)

/* The 2x2 mean of a w x h plane (the last column and row repeat when odd),
 * into ceil(w/2) x ceil(h/2); out may be in (same stride): each output is
 * written after every input it reads, and before any input it does not. */
#define SSIMU2_DOWNSAMPLE(name) \
    void name(const float *in, float *out, ptrdiff_t stride, int w, int h)

/* The horizontal pass of the blur over h rows of w >= 1 samples (zero
 * outside the row). */
#define SSIMU2_BLUR_H(name)                                                          \
    void name(const Ssimu2Gauss *g, const float *in, float *out, ptrdiff_t stride, \
              int w, int h)

/* The vertical pass over w columns of h >= 1 samples (zero outside). */
#define SSIMU2_BLUR_V(name)                                                          \
    void name(const Ssimu2Gauss *g, const float *in, float *out, ptrdiff_t stride, \
              int w, int h)

/* sums[0] += the SSIM errors of a w x h plane, sums[1] += their fourth
 * powers, in row-major order. */
#define SSIMU2_SSIM_SUMS(name)                                                       \
    void name(const float *mu1, const float *mu2, const float *s11, const float *s22, \
              const float *s12, ptrdiff_t stride, int w, int h, double sums[2])

/* sums[0..3] += artifact, artifact^4, detail lost, detail lost^4, in
 * row-major order. */
#define SSIMU2_EDGE_SUMS(name)                                                       \
    void name(const float *img1, const float *mu1, const float *img2, const float *mu2, \
              ptrdiff_t stride, int w, int h, double sums[4])

typedef SSIMU2_XYB_ROW((*Ssimu2XybRowFn));
typedef SSIMU2_MULTIPLY_ROW((*Ssimu2MultiplyRowFn));
typedef SSIMU2_DOWNSAMPLE((*Ssimu2DownsampleFn));
typedef SSIMU2_BLUR_H((*Ssimu2BlurHFn));
typedef SSIMU2_BLUR_V((*Ssimu2BlurVFn));
typedef SSIMU2_SSIM_SUMS((*Ssimu2SsimSumsFn));
typedef SSIMU2_EDGE_SUMS((*Ssimu2EdgeSumsFn));

typedef struct Ssimu2DSPContext {
    Ssimu2XybRowFn xyb_row;
    Ssimu2MultiplyRowFn multiply_row;
    Ssimu2DownsampleFn downsample;
    Ssimu2BlurHFn blur_h;
    Ssimu2BlurVFn blur_v;
    Ssimu2SsimSumsFn ssim_sums;
    Ssimu2EdgeSumsFn edge_sums;
} Ssimu2DSPContext;

/* The table with the SIMD entries that `cpu_flags` (cpu.h, already masked)
 * allow; 0: the scalar C alone. */
void vqx_ssimu2_dsp_init(Ssimu2DSPContext *c, unsigned cpu_flags);

SSIMU2_XYB_ROW(vqx_ssimu2_xyb_row_c);
SSIMU2_MULTIPLY_ROW(vqx_ssimu2_multiply_row_c);
SSIMU2_DOWNSAMPLE(vqx_ssimu2_downsample_c);
SSIMU2_BLUR_H(vqx_ssimu2_blur_h_c);
SSIMU2_BLUR_V(vqx_ssimu2_blur_v_c);
SSIMU2_SSIM_SUMS(vqx_ssimu2_ssim_sums_c);
SSIMU2_EDGE_SUMS(vqx_ssimu2_edge_sums_c);

#endif
