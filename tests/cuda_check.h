/*
 * Helpers of the CUDA kernel checks: CU() stops at the first failing CUDA
 * call (nothing after it can be trusted), CU_LAUNCH() also waits for the
 * launch; device buffers are poisoned so that every compared value must have
 * been written.
 */
#ifndef VQX_TESTS_CUDA_CHECK_H
#define VQX_TESTS_CUDA_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#define CU(call) do { const cudaError_t e_ = (call); if (e_) { \
    printf("FAIL %s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
    exit(1); } } while (0)
#define CU_LAUNCH(call) do { CU((cudaError_t)(call)); CU(cudaDeviceSynchronize()); } while (0)

/* Exits 77 (meson's skip) with the reason when there is no CUDA device. */
static inline void skip_without_device(void)
{
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e || !count) {
        printf("SKIP: no CUDA device (%s)\n", e ? cudaGetErrorString(e) : "none found");
        exit(77);
    }
}

static inline void *dev_alloc(size_t bytes)
{
    void *p = NULL;
    CU(cudaMalloc(&p, bytes ? bytes : 1));
    CU(cudaMemset(p, 0xA5, bytes));
    return p;
}

static inline void *dev_upload(const void *src, size_t bytes)
{
    void *d = dev_alloc(bytes);
    CU(cudaMemcpy(d, src, bytes, cudaMemcpyHostToDevice));
    return d;
}

static inline void *host_copy(const void *dev, size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) exit(1);
    CU(cudaMemcpy(p, dev, bytes, cudaMemcpyDeviceToHost));
    return p;
}

#endif
