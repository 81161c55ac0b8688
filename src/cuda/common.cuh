/* Helpers shared by the CUDA twins' kernels. */
#ifndef VQX_CUDA_COMMON_CUH
#define VQX_CUDA_COMMON_CUH

#include <cstdint>

#include <cuda_runtime.h>

#define VQX_BLOCK 256

/* Sum over the block (any order: integers), valid in thread 0. Every thread
 * of the block must call it. */
template <typename T>
__device__ inline T block_sum(T v)
{
    __shared__ T partial[VQX_BLOCK / 32];
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    __syncthreads(); /* the buffer may still be read by an earlier call */
    if (!lane) partial[warp] = v;
    __syncthreads();
    T total = 0;
    if (!threadIdx.x)
        for (int i = 0; i < (int)(blockDim.x >> 5); i++) total += partial[i];
    return total;
}

static inline int launch_status()
{
    return (int)cudaGetLastError();
}

#endif
