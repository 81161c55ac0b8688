/* The float sums the CPU adds row by row (float_ansnr, float_vif,
 * float_adm): each row's terms in x order, then the rows' sums in row
 * order (kernels.h, VqxCudaRowChains). */
#include "cuda/common.cuh"
#include "cuda/kernels.h"

/* A thread per (row, quantity); the terms are stored column after column,
 * so that a warp's reads of one x are adjacent. */
__global__ void row_sums(VqxCudaRowChains c)
{
    const int y = blockIdx.x * blockDim.x + threadIdx.x, q = blockIdx.y;
    if (y >= c.h) return;
    const float *terms = c.terms + (size_t)q * c.plane;
    float sum = 0;
    for (int x = 0; x < c.w; x++) sum += terms[(size_t)x * c.h + y];
    c.row_sums[(size_t)q * c.h + y] = sum;
}

/* A thread per quantity (at most VQX_CUDA_ROW_CHAINS_MAX). */
__global__ void row_totals(VqxCudaRowChains c)
{
    const int q = threadIdx.x;
    if (q >= c.count) return;
    const float *rows = c.row_sums + (size_t)q * c.h;
    float sum = 0;
    for (int y = 0; y < c.h; y++) sum += rows[y];
    c.totals[q] = sum;
}

extern "C" void vqx_cuda_row_chains(const VqxCudaRowChains *chains, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    const dim3 grid((chains->h + 127) / 128, chains->count);
    row_sums<<<grid, 128, 0, s>>>(*chains);
    row_totals<<<1, VQX_CUDA_ROW_CHAINS_MAX, 0, s>>>(*chains);
}
