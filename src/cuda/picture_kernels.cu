/* Checks of pictures that arrive in device memory (libvmaf's CUDA API):
 * the samples above the bit depth's peak, which the CPU checks on the host. */
#include "cuda/common.cuh"
#include "cuda/kernels.h"

/* Rows by blockIdx.y (strided for planes taller than the grid), columns by
 * threads; atomicMin keeps the first offending index whatever the order. */
__global__ void first_over_peak(const uint16_t *plane, unsigned w, unsigned h, size_t pitch,
                                uint16_t peak, uint32_t *first)
{
    for (unsigned y = blockIdx.y; y < h; y += gridDim.y) {
        const uint16_t *row = plane + y * pitch;
        for (unsigned x = blockIdx.x * blockDim.x + threadIdx.x; x < w; x += gridDim.x * blockDim.x)
            if (row[x] > peak) atomicMin(first, y * w + x);
    }
}

extern "C" int vqx_cuda_first_over_peak(const void *plane, unsigned w, unsigned h, size_t pitch,
                                        uint16_t peak, uint32_t *first, void *stream)
{
    const unsigned threads = 256;
    const dim3 grid((w + threads - 1) / threads < 8 ? (w + threads - 1) / threads : 8,
                    h < 65535 ? h : 65535);
    first_over_peak<<<grid, threads, 0, (cudaStream_t)stream>>>((const uint16_t *)plane, w, h,
                                                                 pitch, peak, first);
    return (int)cudaGetLastError();
}
