/*
 * Launchers of psnr_hvs's kernels (psnr_hvs_kernels.cu), callable from C.
 * Each enqueues on `stream` (a cudaStream_t) and returns the launch's CUDA
 * status. The per-block work is psnr_hvs_block.h's, the CPU's own.
 */
#ifndef VQX_CUDA_PSNR_HVS_KERNELS_H
#define VQX_CUDA_PSNR_HVS_KERNELS_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One plane of both pictures (device memory, 8-bit samples when bpc is 8,
 * else 16-bit) and what its terms need. */
typedef struct VqxCudaPsnrHvsPlane {
    const void *ref, *dis;
    size_t pitch_bytes;
    unsigned blocks_x, blocks_y;       /* blocks every 7 samples (PsnrHvsState) */
    const float *weight_t, *mask_t;    /* the plane's 64 weights each, on the device */
    float *terms;                      /* blocks_x * blocks_y * 64 */
    void *segments;                    /* vqx_cuda_psnr_hvs_segment_bytes(terms) */
} VqxCudaPsnrHvsPlane;

/* A chain of n >= 1 terms and its work space. */
typedef struct VqxCudaPsnrHvsChain {
    const float *terms;
    size_t n;
    void *segments;                    /* vqx_cuda_psnr_hvs_segment_bytes(n) */
} VqxCudaPsnrHvsChain;

/* Bytes of the work space of a chain of n terms. */
size_t vqx_cuda_psnr_hvs_segment_bytes(size_t n);

/* Every block's 64 terms (vqx_psnr_hvs_block), block (bx, by) at
 * terms[64 (by blocks_x + bx)]: the order of the CPU's chain. */
int vqx_cuda_psnr_hvs_terms(const VqxCudaPsnrHvsPlane *plane, unsigned bpc, void *stream);

/* totals[p] = the float chain 0 + terms[0] + ... + terms[n - 1] of
 * chains[p], in this order (vqx_psnr_hvs_accumulate over the plane), for
 * p < 3: its bits, found in parallel where they can be (psnr_hvs_kernels.cu). */
int vqx_cuda_psnr_hvs_totals(const VqxCudaPsnrHvsChain chains[3], float *totals, void *stream);

/* A frame: the three planes' terms, then their totals. */
int vqx_cuda_psnr_hvs(const VqxCudaPsnrHvsPlane planes[3], unsigned bpc, float *totals,
                      void *stream);

#ifdef __cplusplus
}
#endif

#endif
