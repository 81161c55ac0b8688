/* PSNR's sum of squared errors (psnr_tmpl.c), and the chain's plain copies. */
#include "cuda/common.cuh"
#include "cuda/kernels.h"

extern "C" int vqx_cuda_copy(void *dst, const void *src, size_t bytes, void *stream)
{
    return (int)cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, (cudaStream_t)stream);
}

extern "C" int vqx_cuda_zero(void *dst, size_t bytes, void *stream)
{
    return (int)cudaMemsetAsync(dst, 0, bytes, (cudaStream_t)stream);
}

/* One block per row; the sum is exact in 64 bits, so its order is free.
 * row_sse (the kernel checks; may be NULL) receives each row's sum. */
template <typename P>
__global__ void plane_sse(const P *ref, const P *dis, size_t pitch, unsigned w,
                          unsigned long long *sse, unsigned long long *row_sse)
{
    const P *r = ref + blockIdx.x * pitch, *d = dis + blockIdx.x * pitch;
    unsigned long long acc = 0;
    for (unsigned x = threadIdx.x; x < w; x += blockDim.x) {
        const long long e = (long long)r[x] - d[x];
        acc += (unsigned long long)(e * e);
    }
    acc = block_sum(acc);
    if (threadIdx.x) return;
    atomicAdd(sse, acc);
    if (row_sse) row_sse[blockIdx.x] = acc;
}

extern "C" int vqx_cuda_psnr_sse(const void *ref, const void *dis, size_t pitch, unsigned w,
                                 unsigned h, unsigned bpc, unsigned long long *sse,
                                 unsigned long long *row_sse, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (bpc == 8)
        plane_sse<<<h, VQX_BLOCK, 0, s>>>((const uint8_t *)ref, (const uint8_t *)dis, pitch, w,
                                          sse, row_sse);
    else
        plane_sse<<<h, VQX_BLOCK, 0, s>>>((const uint16_t *)ref, (const uint16_t *)dis, pitch, w,
                                          sse, row_sse);
    return launch_status();
}
