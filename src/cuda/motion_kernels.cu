/*
 * Integer motion's SAD (motion_tmpl.c): the difference of two luma planes,
 * blurred down the columns then along the rows, |.| summed per row in 32
 * bits (wrapping, as libvmaf does), rows summed in 64 bits.
 */
#include "cuda/common.cuh"
#include "cuda/kernels.h"

#define RADIUS 2

/* Taps (sum 65536), from libvmaf integer_motion.h, Netflix, BSD+Patent. */
__constant__ int32_t motion_taps[5] = { 3571, 16004, 26386, 16004, 3571 };

/* Mirrors without repeating the edge sample. */
__device__ inline int mirror(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - i - 2 : i;
}

/* Block: VQX_BLOCK columns of one row. The vertical pass fills the
 * columns the horizontal taps read, mirrored at the ends. Column sums are
 * 32-bit for 8-bit samples and 64-bit above, as on the CPU. */
template <typename P, typename Acc>
__global__ void motion_rows(const P *prev, const P *cur, size_t pitch, int w, int h,
                            int col_shift, uint32_t *row_sums)
{
    __shared__ int32_t mid[VQX_BLOCK + 2 * RADIUS];
    const int y = blockIdx.y, x0 = blockIdx.x * VQX_BLOCK;
    const Acc round = (Acc)1 << (col_shift - 1);
    const int end = min(x0 + VQX_BLOCK, w) + RADIUS;
    for (int i = threadIdx.x; i < VQX_BLOCK + 2 * RADIUS; i += blockDim.x) {
        const int x = x0 - RADIUS + i;
        if (x >= end) break;
        const int xm = mirror(x, w);
        Acc acc = 0;
        for (int k = 0; k < 5; k++) {
            const size_t row = (size_t)mirror(y - RADIUS + k, h) * pitch;
            acc += motion_taps[k] * (Acc)((int32_t)prev[row + xm] - (int32_t)cur[row + xm]);
        }
        mid[i] = (int32_t)((acc + round) >> col_shift);
    }
    __syncthreads();
    uint32_t sum = 0;
    const int x = x0 + threadIdx.x;
    if (x < w) {
        long long acc = 0;
        for (int k = 0; k < 5; k++) acc += (long long)motion_taps[k] * mid[threadIdx.x + k];
        sum = (uint32_t)abs((int32_t)((acc + (1 << 15)) >> 16));
    }
    sum = block_sum(sum);
    if (!threadIdx.x) atomicAdd(&row_sums[y], sum);
}

__global__ void sum_rows(const uint32_t *row_sums, int h, unsigned long long *sad)
{
    unsigned long long acc = 0;
    for (int i = threadIdx.x; i < h; i += blockDim.x) acc += row_sums[i];
    acc = block_sum(acc);
    if (!threadIdx.x) *sad = acc;
}

extern "C" int vqx_cuda_motion_sad(const void *prev, const void *cur, size_t pitch, unsigned w,
                                   unsigned h, unsigned bpc, uint32_t *row_sums,
                                   unsigned long long *sad, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    int ret = (int)cudaMemsetAsync(row_sums, 0, h * sizeof(*row_sums), s);
    if (ret) return ret;
    const dim3 grid((w + VQX_BLOCK - 1) / VQX_BLOCK, h);
    if (bpc == 8)
        motion_rows<uint8_t, int32_t><<<grid, VQX_BLOCK, 0, s>>>(
            (const uint8_t *)prev, (const uint8_t *)cur, pitch, (int)w, (int)h, 8, row_sums);
    else
        motion_rows<uint16_t, long long><<<grid, VQX_BLOCK, 0, s>>>(
            (const uint16_t *)prev, (const uint16_t *)cur, pitch, (int)w, (int)h, (int)bpc, row_sums);
    ret = launch_status();
    if (ret) return ret;
    sum_rows<<<1, VQX_BLOCK, 0, s>>>(row_sums, (int)h, sad);
    return launch_status();
}
