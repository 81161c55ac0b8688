/*
 * Integer motion's SAD (motion_tmpl.c): the difference of two luma planes,
 * blurred down the columns then along the rows, |.| summed per row in 32
 * bits (wrapping, as libvmaf does), rows summed in 64 bits. A block takes
 * a few rows (vqx_cuda_motion_rows) of a column strip; each thread owns one
 * column of the vertical pass and keeps the five-row window of differences
 * in a ring in shared memory (written at slot and slot + 5, so the window
 * is contiguous), so each sample is read once per block.
 */
#include "cuda/common.cuh"
#include "cuda/kernels.h"
#include "feature/motion_pixel.h"

#define RADIUS VQX_MOTION_RADIUS
#define WIN VQX_MOTION_TAPS_N

__constant__ int32_t motion_taps[WIN] = VQX_MOTION_TAPS;

/* Block: VQX_BLOCK - 2 * RADIUS output columns of `rows_per_block` rows. The
 * column and row passes are motion_pixel.h's, as on the CPU: column sums
 * are 32-bit for 8-bit samples and 64-bit above. Each warp adds its part
 * of a row's sum to row_sums[y] (32-bit, wrapping: the CPU's row sum
 * modulo 2^32 whatever the order). */
template <typename P>
__global__ void __launch_bounds__(VQX_BLOCK)
motion_rows(const P *prev, const P *cur, size_t pitch, int w, int h, int rows_per_block,
            int col_shift, uint32_t *row_sums, int32_t *blurred)
{
    constexpr int OUT = VQX_BLOCK - 2 * RADIUS;
    __shared__ int32_t ring[2 * WIN][VQX_BLOCK];
    __shared__ int32_t mid[2][VQX_BLOCK];
    const int t = threadIdx.x, x0 = blockIdx.x * OUT, y0 = blockIdx.y * rows_per_block;
    const int rows = min(rows_per_block, h - y0);
    const int xc = x0 - RADIUS + t; /* this thread's column of the vertical pass */
    const bool has_col = xc < w + RADIUS;
    const int xm = has_col ? vqx_reflect101(xc, w) : 0;

    /* the ring holds the difference of input row y0 - RADIUS + q at slots
     * q % WIN and q % WIN + WIN */
    if (has_col) {
        for (int q = 0; q < 2 * RADIUS; q++) {
            const size_t o = (size_t)vqx_reflect101(y0 - RADIUS + q, h) * pitch + xm;
            ring[q][t] = ring[q + WIN][t] = vqx_motion_diff(prev[o], cur[o]);
        }
    }
    int32_t next = 0;
    if (has_col) {
        const size_t o = (size_t)vqx_reflect101(y0 + RADIUS, h) * pitch + xm;
        next = vqx_motion_diff(prev[o], cur[o]);
    }
    int base = 0; /* i % WIN */
    for (int i = 0; i < rows; i++) {
        const int y = y0 + i;
        int32_t *const m = mid[i & 1];
        if (has_col) {
            const int slot = base + 2 * RADIUS < WIN ? base + 2 * RADIUS : base + 2 * RADIUS - WIN;
            ring[slot][t] = ring[slot + WIN][t] = next;
            if (i + 1 < rows) { /* in flight during this row's work */
                const size_t o = (size_t)vqx_reflect101(y + 1 + RADIUS, h) * pitch + xm;
                next = vqx_motion_diff(prev[o], cur[o]);
            }
            const int32_t *window = &ring[base][t];
            m[t] = sizeof(P) == 1 ? vqx_motion_column_32(motion_taps, window, VQX_BLOCK, col_shift)
                                  : vqx_motion_column_64(motion_taps, window, VQX_BLOCK, col_shift);
            if (blurred && t >= RADIUS && t < RADIUS + OUT && xc < w)
                blurred[(size_t)y * w + xc] = m[t];
        }
        base = base + 1 == WIN ? 0 : base + 1;
        /* one barrier per row: `mid` alternates between two buffers */
        __syncthreads();
        uint32_t sum = 0;
        if (t < OUT && x0 + t < w) sum = vqx_motion_row_term(motion_taps, m + t);
        for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
        if (!(t & 31) && sum) atomicAdd(&row_sums[y], sum);
    }
}

__global__ void sum_rows(const uint32_t *row_sums, int h, unsigned long long *sad)
{
    unsigned long long acc = 0;
    for (int i = threadIdx.x; i < h; i += blockDim.x) acc += row_sums[i];
    acc = block_sum(acc);
    if (!threadIdx.x) *sad = acc;
}

extern "C" unsigned vqx_cuda_motion_rows(unsigned w, unsigned h, unsigned bpc)
{
    const unsigned blocks_x = (w + VQX_BLOCK - 2 * RADIUS - 1) / (VQX_BLOCK - 2 * RADIUS);
    return bpc == 8 ? rows_per_block(motion_rows<uint8_t>, blocks_x, h, 2 * RADIUS)
                    : rows_per_block(motion_rows<uint16_t>, blocks_x, h, 2 * RADIUS);
}

extern "C" int vqx_cuda_motion_sad(const void *prev, const void *cur, size_t pitch, unsigned w,
                                   unsigned h, unsigned bpc, unsigned rows, uint32_t *row_sums,
                                   unsigned long long *sad, int32_t *blurred, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    int ret = (int)cudaMemsetAsync(row_sums, 0, h * sizeof(*row_sums), s);
    if (ret) return ret;
    const int out = VQX_BLOCK - 2 * RADIUS;
    const dim3 grid((w + out - 1) / out, (h + rows - 1) / rows);
    if (bpc == 8)
        motion_rows<uint8_t><<<grid, VQX_BLOCK, 0, s>>>(
            (const uint8_t *)prev, (const uint8_t *)cur, pitch, (int)w, (int)h, (int)rows, 8,
            row_sums, blurred);
    else
        motion_rows<uint16_t><<<grid, VQX_BLOCK, 0, s>>>(
            (const uint16_t *)prev, (const uint16_t *)cur, pitch, (int)w, (int)h, (int)rows,
            (int)bpc, row_sums, blurred);
    ret = launch_status();
    if (ret) return ret;
    sum_rows<<<1, VQX_BLOCK, 0, s>>>(row_sums, (int)h, sad);
    return launch_status();
}
