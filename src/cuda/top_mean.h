/*
 * CAMBI's per-scale pooling on the device: the mean of the k largest of n
 * values, equal bit for bit to vqx_mean_of_top (src/feature/top_mean.c),
 * whose double sum runs in the order libvmaf's quick_select leaves the
 * values. docs/cuda-top-mean.md says how and why it is exact.
 */
#ifndef VQX_CUDA_TOP_MEAN_H
#define VQX_CUDA_TOP_MEAN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bytes of device scratch vqx_cuda_top_mean needs for n values. */
size_t vqx_cuda_top_mean_scratch_bytes(unsigned n);

/* *mean (a device double) = vqx_mean_of_top(values, n, fraction) bit for
 * bit, with k = vqx_top_count(n, fraction) computed on the host
 * (1 <= k <= n < 2^24). values: n finite floats >= 0 on the device,
 * reordered as the CPU reorders them. Enqueued on stream (a cudaStream_t);
 * the same launches whatever the data, no host synchronisation: it can be
 * captured in a graph. Returns the CUDA status (0: none). */
int vqx_cuda_top_mean(float *values, unsigned n, unsigned k, void *scratch, double *mean,
                      void *stream);

#ifdef __cplusplus
}
#endif

#endif
