/*
 * Launchers of the ssimulacra2 twin's kernels (ssimulacra2_kernels.cu),
 * callable from C; each enqueues on `stream` (a cudaStream_t) and returns
 * the launch's CUDA status (0: none). Every stage is the CPU's stage of the
 * same name (ssimulacra2_dsp.h, ssimulacra2.c), on planes whose rows are
 * packed (pitch: the plane's width), with the statements of
 * ssimulacra2_pixel.h, in the CPU's order.
 *
 * The maps of a scale: SSIMU2_CUDA_MAPS planes, `plane` floats apart, map
 * c * 5 + k of XYB plane c: k = 0 img1^2, 1 img2^2, 2 img1 * img2, 3 img1,
 * 4 img2; blurred, they are sigma11, sigma22, sigma12, mu1, mu2.
 */
#ifndef VQX_CUDA_SSIMULACRA2_KERNELS_H
#define VQX_CUDA_SSIMULACRA2_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#include "feature/ssimulacra2_pixel.h"

#ifdef __cplusplus
extern "C" {
#endif

#define SSIMU2_CUDA_SCALES 6
#define SSIMU2_CUDA_MAPS 15
#define SSIMU2_CUDA_SUMS 6

/* The YUV planes of both pictures (samples of 8 bits at bpc 8, else 16). */
typedef struct VqxCudaSsimu2Pics {
    const void *ref[3], *dis[3];
    size_t pitch[3];                 /* in samples */
    unsigned ssx, ssy;               /* chroma subsampling shifts */
    unsigned bpc;
} VqxCudaSsimu2Pics;

/* lin[i][c] (w x h) = linear_of_u16 of the 16-bit R'G'B' of picture i
 * (0 ref, 1 dis): the CPU's to_linear. */
int vqx_cuda_ssimu2_linear(const VqxCudaSsimu2Pics *pics, const Ssimu2YuvCoeffs *yuv,
                           const float *linear_of_u16, int w, int h, float *const lin[6],
                           void *stream);

/* The 2x2 halving of 6 planes of w x h into 6 of ceil(w/2) x ceil(h/2). */
int vqx_cuda_ssimu2_downsample(const float *const src[6], int w, int h, float *const dst[6],
                               void *stream);

/* XYB of picture i's lin[3 * i .. 3 * i + 2] into maps c * 5 + 3 + i. */
int vqx_cuda_ssimu2_xyb(const float *const lin[6], int w, int h, float neg_bias_cbrt,
                        float *maps, size_t plane, void *stream);

/* Maps c * 5 + 0, 1, 2 from maps c * 5 + 3, 4 (multiply_row). */
int vqx_cuda_ssimu2_products(float *maps, size_t plane, int w, int h, void *stream);

/* The blur of n_maps maps: the horizontal pass into scratch, the vertical
 * one into out (each n_maps planes `plane` floats apart). */
int vqx_cuda_ssimu2_blur(const Ssimu2Gauss *g, const float *in, float *scratch, float *out,
                         size_t plane, int n_maps, int w, int h, void *stream);

/* Per XYB plane c, the values whose terms the CPU's sums add, w * h each:
 * plane 2c the SSIM errors, 2c + 1 the edge differences. */
int vqx_cuda_ssimu2_terms(const float *maps, const float *blurred, size_t plane, int w, int h,
                          double *terms, void *stream);

/* The sums of n_scales scales: scale sc's values (the 6 planes of
 * vqx_cuda_ssimu2_terms) at terms + offset[sc], w[sc] x h[sc]; result
 * [sc][c][SSIMU2_CUDA_SUMS] receives what ssim_sums and edge_sums add
 * (sum, sum of fourth powers of the SSIM error; of the artifact; of the
 * lost detail), each one chain in raster order from 0, as the CPU adds it. */
int vqx_cuda_ssimu2_sums(const double *terms, const size_t offset[SSIMU2_CUDA_SCALES],
                         const int w[SSIMU2_CUDA_SCALES], const int h[SSIMU2_CUDA_SCALES],
                         int n_scales, double *result, void *stream);

/* The whole frame: the stages above, scale after scale. */
typedef struct VqxCudaSsimu2 {
    VqxCudaSsimu2Pics pics;
    Ssimu2YuvCoeffs yuv;
    Ssimu2Gauss gauss;
    float neg_bias_cbrt;
    const float *linear_of_u16;      /* 65536 floats */
    int n_scales, w[SSIMU2_CUDA_SCALES], h[SSIMU2_CUDA_SCALES];
    float *lin[SSIMU2_CUDA_SCALES][6]; /* per scale, picture * 3 + plane */
    size_t plane;                    /* floats between maps: at least w[0] * h[0] */
    float *maps, *scratch, *blurred; /* SSIMU2_CUDA_MAPS planes each */
    double *terms;
    size_t term_offset[SSIMU2_CUDA_SCALES];
} VqxCudaSsimu2;

int vqx_cuda_ssimu2(const VqxCudaSsimu2 *job, double *result, void *stream);

#ifdef __cplusplus
}
#endif

#endif
