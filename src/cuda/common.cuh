/* Helpers shared by the CUDA twins' kernels. */
#ifndef VQX_CUDA_COMMON_CUH
#define VQX_CUDA_COMMON_CUH

#include <cmath>
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

/* Rows per block of a kernel whose blocks take a few rows of a column
 * strip (and read `window` more ahead): of the counts tried, the one with
 * the least estimated time, in waves of resident blocks times the rows a
 * block works (a row read ahead costs a tenth of a row, a block's set-up
 * and reduction half a row). A query only: call it outside stream capture. */
template <typename Kernel>
static unsigned rows_per_block(Kernel kernel, unsigned blocks_x, unsigned h, unsigned window)
{
    int dev = 0, sms = 0, per_sm = 0;
    if (cudaGetDevice(&dev) || cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) ||
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, VQX_BLOCK, 0)) {
        cudaGetLastError();
        return 16;
    }
    const double slots = sms * per_sm > 0 ? sms * per_sm : 1;
    static const unsigned tried[] = { 16, 12, 8, 6, 4, 3, 2 };
    unsigned best = 16;
    double best_cost = 0;
    for (unsigned r : tried) {
        const double blocks = (double)blocks_x * ((h + r - 1) / r);
        const double cost = ceil(blocks / slots) * (r + 0.1 * window + 0.5);
        if (r == 16 || cost < best_cost) {
            best = r;
            best_cost = cost;
        }
    }
    return best;
}

/* A CPU's double chain of n values in raster order, by one warp (every lane
 * calls it): lane l fetches positions l, l + 32, ... of a chunk of CHUNK
 * groups of 32 (`fetch(i)`, the next chunk's while the lanes add this
 * one's) and makes its position's value (`value(fetched)`), and every lane
 * adds each group's values in order, each from a shuffle, from 0.0: the
 * chain, held by every lane alike, so that none diverges. */
template <int CHUNK, typename Fetch, typename Value>
__device__ inline double warp_raster_chain(size_t n, Fetch fetch, Value value)
{
    using Fetched = decltype(fetch(size_t(0)));
    const unsigned lane = threadIdx.x & 31;
    Fetched cur[CHUNK], next[CHUNK];
    for (int u = 0; u < CHUNK; u++) {
        const size_t i = (size_t)u * 32 + lane;
        cur[u] = i < n ? fetch(i) : Fetched{};
    }
    double sum = 0.0;
    for (size_t base = 0; base < n; base += 32 * CHUNK) {
        const size_t next_base = base + 32 * CHUNK;
        for (int u = 0; u < CHUNK; u++) {
            const size_t i = next_base + (size_t)u * 32 + lane;
            next[u] = i < n ? fetch(i) : Fetched{};
        }
        for (int u = 0; u < CHUNK; u++) {
            const size_t group = base + (size_t)u * 32;
            const unsigned m = group >= n ? 0 : n - group < 32 ? (unsigned)(n - group) : 32;
            const double v = value(cur[u]);
            for (unsigned j = 0; j < m; j++) sum += __shfl_sync(0xffffffffu, v, j);
        }
        for (int u = 0; u < CHUNK; u++) cur[u] = next[u];
    }
    return sum;
}

static inline int launch_status()
{
    return (int)cudaGetLastError();
}

#endif
