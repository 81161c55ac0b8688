/*
 * Launchers of the float_ssim and float_ms_ssim twins' kernels, callable
 * from C (as kernels.h's): each enqueues on `stream` (a cudaStream_t) and
 * returns the launch's CUDA status. Planes are floats, rows packed. Every
 * per-sample statement is feature/ssim_pixel.h's, which the CPU's table
 * entries run too; the sums are the CPU's double chains in raster order.
 */
#ifndef VQX_CUDA_SSIM_KERNELS_H
#define VQX_CUDA_SSIM_KERNELS_H

#include <stddef.h>

#include "feature/ssim_pixel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* float_ssim's decimation: dst (vqx_ssim_decimated(w, factor) x the same
 * of h) is src's factor x factor box (vqx_ssim_box_sample) at every
 * factor-th sample. */
int vqx_cuda_ssim_box(const float *src, int w, int h, unsigned factor, float *dst, int dw,
                      int dh, void *stream);

/* float_ms_ssim's pyramid step: dst (dw x dh, the halved sizes) is src's
 * 9x9 low-pass (vqx_ssim_lpf_sample) at even rows and columns. */
int vqx_cuda_ssim_lpf(const float *src, int w, int h, float *dst, int dw, int dh, void *stream);

/* The SSIM terms of a plane pair of w x h (both at least VQX_SSIM_WINDOW):
 * the horizontal Gaussian pass of the five quantities (vqx_ssim_inputs)
 * into `horizontal` (VQX_SSIM_N_STATS planes of ow x h, ow = w - 10), then
 * per position of the valid region (ow x oh, oh = h - 10) the vertical pass
 * (into `stats`, VQX_SSIM_N_STATS planes of ow x oh, when not NULL: the
 * kernel checks) and the terms l, c, s (vqx_ssim_terms) into `terms`
 * (VQX_SSIM_N_TERMS planes of ow x oh doubles, raster order). */
typedef struct VqxCudaSsimPlane {
    const float *ref, *cmp;
    int w, h;
    float *horizontal;
    float *stats;
    double *terms;
} VqxCudaSsimPlane;

int vqx_cuda_ssim_terms(const VqxCudaSsimPlane *plane, void *stream);

#define VQX_CUDA_SSIM_MAX_PLANES 5

/* The running sums of up to VQX_CUDA_SSIM_MAX_PLANES planes' terms: for
 * each plane i and each sum k whose bit (1 << k, k = VQX_SSIM_SUM_SSIM ...)
 * is in `sums`, sums_out[i][k] receives the chain of vqx_ssim_sum_term over
 * the positions in raster order, from 0.0: the CPU's vqx_ssim_score_c
 * chain. Other sums are not written. */
typedef struct VqxCudaSsimChains {
    const double *terms[VQX_CUDA_SSIM_MAX_PLANES];
    size_t positions[VQX_CUDA_SSIM_MAX_PLANES];
    int n_planes;
    unsigned sums;
} VqxCudaSsimChains;

int vqx_cuda_ssim_sums(const VqxCudaSsimChains *chains, double (*sums_out)[VQX_SSIM_N_SUMS],
                       void *stream);

#ifdef __cplusplus
}
#endif

#endif
