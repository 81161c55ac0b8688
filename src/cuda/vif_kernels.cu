/*
 * Integer VIF (vif.c, vif_tmpl.c) on the device: one kernel per scale, which
 * computes the scale's four sums and the next scale's planes. A block takes
 * a few output rows (vqx_cuda_vif_rows) of a column strip. Each thread owns
 * one column of the vertical passes and keeps the filter's window of input
 * rows in a ring in shared memory (written twice, at slot and slot +
 * window, so that the window is always contiguous), so every input sample
 * is read from global memory once per block. Per output row the column sums
 * go to shared memory, and each thread filters one output pixel along the
 * row and adds its information terms to four 64-bit integer sums, kept per
 * thread over the rows and added to the scale's sums once per block
 * (integers: the order is free). On even rows the same ring gives the next
 * scale's low-pass (its window is narrower), decimated at even columns. The
 * double arithmetic of the gain is the CPU's, operation for operation (no
 * contraction: --fmad=false), and the log2 table is the host's. Taps,
 * terms, roundings and the pixel's contribution are vif_pixel.h's, as on
 * the CPU. The scale is a template parameter: the filters' loops unroll and
 * their taps are constants.
 */
#include "cuda/common.cuh"
#include "cuda/kernels.h"
#include "feature/vif_pixel.h"

/* Filter taps per scale (vif_pixel.h). */
__constant__ uint16_t vif_taps[4][17] = {
    VIF_TAPS_SCALE0, VIF_TAPS_SCALE1, VIF_TAPS_SCALE2, VIF_TAPS_SCALE3,
};

/* vif_pixel.h's second-moment statements of the sums' width. */
template <typename SqAcc>
__device__ inline SqAcc product_tap(uint32_t c, uint32_t x, uint32_t y)
{
    if constexpr (sizeof(SqAcc) == 4) return vif_product_tap_32(c, x, y);
    else return vif_product_tap_64(c, x, y);
}

template <typename SqAcc>
__device__ inline uint32_t round_moment(SqAcc sum, SqAcc round, unsigned shift)
{
    if constexpr (sizeof(SqAcc) == 4) return vif_round_moment_32(sum, round, shift);
    else return vif_round_moment_64(sum, round, shift);
}

/* Block: VQX_BLOCK - 2 * HALF output columns (the vertical pass covers
 * HALF more on each side, mirrored) of `rows` output rows. The vertical
 * pass is vif_tmpl.c's vqx_vif_columns_stats (rounded 16-bit means, rounded
 * second moments), the horizontal pass vif.c's vqx_vif_filter_row, the
 * decimation vif.c's vqx_vif_downsample. SqAcc is 32-bit where the CPU's
 * sums are (8-bit samples at scale 0, exact there) and 64-bit elsewhere. */
/* At most 64 registers: four blocks (their shared memory fits) per
 * multiprocessor. */
template <typename P, typename SqAcc, int SCALE>
__global__ void __launch_bounds__(VQX_BLOCK, 4)
vif_scale(VqxCudaVifScale a, VqxCudaVifProbe probe, int probing)
{
    constexpr int HALF = 8 >> SCALE, WIN = 2 * HALF + 1, OUT = VQX_BLOCK - 2 * HALF;
    constexpr int NEXT_HALF = HALF / 2; /* the next scale's filter */
    __shared__ uint16_t ring_r[2 * WIN][VQX_BLOCK], ring_d[2 * WIN][VQX_BLOCK];
    __shared__ uint32_t cols[2][5][VQX_BLOCK];
    __shared__ uint16_t next_cols[2][2][VQX_BLOCK];
    const P *ref = (const P *)a.ref, *dis = (const P *)a.dis;
    const int w = (int)a.w, h = (int)a.h, rows_per_block = (int)a.rows;
    const int t = threadIdx.x, x0 = blockIdx.x * OUT, y0 = blockIdx.y * rows_per_block;
    const int rows = min(rows_per_block, h - y0);
    const int xc = x0 - HALF + t; /* this thread's column of the vertical pass */
    const bool has_col = xc < w + HALF;
    const size_t col = has_col ? (size_t)vqx_reflect101(xc, w) : 0;
    const bool stats = a.sums != nullptr;
    const bool decimate = SCALE < 3 && a.next_ref != nullptr;
    const uint32_t mean_round = 1u << (a.mean_shift - 1);
    const SqAcc sq_round = a.sq_shift ? (SqAcc)1 << (a.sq_shift - 1) : 0;

    /* the first 2 * HALF rows of the window; the ring holds input row
     * y0 - HALF + q at slots q % WIN and q % WIN + WIN */
    if (has_col) {
        for (int q = 0; q < 2 * HALF; q++) {
            const size_t o = (size_t)vqx_reflect101(y0 - HALF + q, h) * a.pitch + col;
            ring_r[q][t] = ring_r[q + WIN][t] = ref[o];
            ring_d[q][t] = ring_d[q + WIN][t] = dis[o];
        }
    }
    P next_r = 0, next_d = 0;
    if (has_col) {
        const size_t o = (size_t)vqx_reflect101(y0 + HALF, h) * a.pitch + col;
        next_r = ref[o];
        next_d = dis[o];
    }

    VifSums s = { 0, 0, 0, 0 };
    int base = 0; /* slot of the window's first row: i % WIN */
    for (int i = 0; i < rows; i++) {
        const int y = y0 + i;
        const bool next_row = decimate && !(y & 1) && (y >> 1) < (int)a.next_h;
        uint32_t *const c = &cols[i & 1][0][0];
        uint16_t *const nc = &next_cols[i & 1][0][0];
        if (has_col) {
            const int slot = base + 2 * HALF < WIN ? base + 2 * HALF : base + 2 * HALF - WIN;
            ring_r[slot][t] = ring_r[slot + WIN][t] = next_r;
            ring_d[slot][t] = ring_d[slot + WIN][t] = next_d;
            if (i + 1 < rows) { /* in flight during this row's work */
                const size_t o = (size_t)vqx_reflect101(y + 1 + HALF, h) * a.pitch + col;
                next_r = ref[o];
                next_d = dis[o];
            }
            if (stats) {
                uint32_t s1 = 0, s2 = 0;
                SqAcc rr = 0, dd = 0, rd = 0;
#pragma unroll
                for (int k = 0; k < WIN; k++) {
                    const uint32_t r = ring_r[base + k][t], d = ring_d[base + k][t];
                    const uint32_t tap = vif_taps[SCALE][k];
                    s1 += vif_tap(tap, r);
                    s2 += vif_tap(tap, d);
                    rr += product_tap<SqAcc>(tap, r, r);
                    dd += product_tap<SqAcc>(tap, d, d);
                    rd += product_tap<SqAcc>(tap, r, d);
                }
                const uint32_t v[5] = {
                    vif_round_mean(s1, mean_round, a.mean_shift),
                    vif_round_mean(s2, mean_round, a.mean_shift),
                    round_moment(rr, sq_round, a.sq_shift),
                    round_moment(dd, sq_round, a.sq_shift),
                    round_moment(rd, sq_round, a.sq_shift),
                };
#pragma unroll
                for (int k = 0; k < 5; k++) c[k * VQX_BLOCK + t] = v[k];
                if (probing && t >= HALF && t < HALF + OUT && xc < w) {
#pragma unroll
                    for (int k = 0; k < 5; k++) probe.vert[k][(size_t)y * w + xc] = v[k];
                }
            }
            if constexpr (SCALE < 3) {
                if (next_row) { /* the next scale's vertical means at row y */
                    const uint32_t round = 1u << (a.next_shift - 1);
                    uint32_t cr = 0, cd = 0;
#pragma unroll
                    for (int k = 0; k < 2 * NEXT_HALF + 1; k++) {
                        const uint32_t tap = vif_taps[SCALE + 1][k];
                        cr += vif_tap(tap, ring_r[base + HALF - NEXT_HALF + k][t]);
                        cd += vif_tap(tap, ring_d[base + HALF - NEXT_HALF + k][t]);
                    }
                    nc[t] = vif_round_mean(cr, round, a.next_shift);
                    nc[VQX_BLOCK + t] = vif_round_mean(cd, round, a.next_shift);
                }
            }
        }
        base = base + 1 == WIN ? 0 : base + 1;
        /* one barrier per row: the column sums alternate between two
         * buffers, and a thread past this barrier has no one left reading
         * the buffer it writes next */
        __syncthreads();
        const int x = x0 + t;
        if (stats && t < OUT && x < w) {
            uint32_t mu1 = 0, mu2 = 0;
            uint64_t ref_sq = 0, dis_sq = 0, ref_dis = 0;
#pragma unroll
            for (int k = 0; k < WIN; k++) {
                const uint32_t tap = vif_taps[SCALE][k];
                mu1 += vif_tap(tap, c[0 * VQX_BLOCK + t + k]);
                mu2 += vif_tap(tap, c[1 * VQX_BLOCK + t + k]);
                ref_sq += vif_tap_64(tap, c[2 * VQX_BLOCK + t + k]);
                dis_sq += vif_tap_64(tap, c[3 * VQX_BLOCK + t + k]);
                ref_dis += vif_tap_64(tap, c[4 * VQX_BLOCK + t + k]);
            }
            VifSums px = { 0, 0, 0, 0 };
            vif_add_pixel(&px, a.log2_table, a.gain_limit, mu1, mu2, ref_sq, dis_sq, ref_dis);
            s.num_log += px.num_log;
            s.den_log += px.den_log;
            s.num_non_log += px.num_non_log;
            s.den_non_log += px.den_non_log;
            if (probing) {
                const size_t o = (size_t)y * w + x;
                probe.mu[0][o] = mu1;
                probe.mu[1][o] = mu2;
                probe.sq[0][o] = ref_sq;
                probe.sq[1][o] = dis_sq;
                probe.sq[2][o] = ref_dis;
                unsigned long long *row = (unsigned long long *)probe.rows + 4 * (size_t)y;
                atomicAdd(row + 0, (unsigned long long)px.num_log);
                atomicAdd(row + 1, (unsigned long long)px.den_log);
                atomicAdd(row + 2, (unsigned long long)px.num_non_log);
                atomicAdd(row + 3, (unsigned long long)px.den_non_log);
            }
        }
        if constexpr (SCALE < 3) {
            if (next_row && t < OUT && !(x & 1) && (x >> 1) < (int)a.next_w) {
                const uint16_t *taps = vif_taps[SCALE + 1];
                const unsigned n = 2 * NEXT_HALF + 1;
                const size_t o = (size_t)(y >> 1) * a.next_w + (x >> 1);
                a.next_ref[o] = vif_decimated_16(taps, n, nc + t + HALF - NEXT_HALF);
                a.next_dis[o] = vif_decimated_16(taps, n, nc + VQX_BLOCK + t + HALF - NEXT_HALF);
            }
        }
    }
    if (!stats) return;
    s.num_log = block_sum(s.num_log);
    s.den_log = block_sum(s.den_log);
    s.num_non_log = block_sum(s.num_non_log);
    s.den_non_log = block_sum(s.den_non_log);
    if (!t) {
        atomicAdd((unsigned long long *)&a.sums[0], (unsigned long long)s.num_log);
        atomicAdd((unsigned long long *)&a.sums[1], (unsigned long long)s.den_log);
        atomicAdd((unsigned long long *)&a.sums[2], (unsigned long long)s.num_non_log);
        atomicAdd((unsigned long long *)&a.sums[3], (unsigned long long)s.den_non_log);
    }
}

/* The kernel of a scale and sample type. */
template <typename P, typename SqAcc, int SCALE>
static void launch(const VqxCudaVifScale *a, const VqxCudaVifProbe *probe, cudaStream_t s)
{
    const int out = VQX_BLOCK - 2 * (8 >> SCALE);
    const dim3 grid((a->w + out - 1) / out, (a->h + a->rows - 1) / a->rows);
    const VqxCudaVifProbe none = {};
    vif_scale<P, SqAcc, SCALE><<<grid, VQX_BLOCK, 0, s>>>(*a, probe ? *probe : none, probe != NULL);
}

template <typename P, typename SqAcc, int SCALE>
static unsigned plan(unsigned w, unsigned h)
{
    const unsigned out = VQX_BLOCK - 2 * (8 >> SCALE);
    return rows_per_block(vif_scale<P, SqAcc, SCALE>, (w + out - 1) / out, h, 2 * (8 >> SCALE));
}

/* 8-bit samples at scale 0: the CPU's 32-bit sums of squares are exact */
extern "C" unsigned vqx_cuda_vif_rows(unsigned w, unsigned h, int bytes1, unsigned scale)
{
    if (bytes1) return plan<uint8_t, uint32_t, 0>(w, h);
    if (scale == 0) return plan<uint16_t, uint64_t, 0>(w, h);
    if (scale == 1) return plan<uint16_t, uint64_t, 1>(w, h);
    if (scale == 2) return plan<uint16_t, uint64_t, 2>(w, h);
    return plan<uint16_t, uint64_t, 3>(w, h);
}

extern "C" int vqx_cuda_vif_scale(const VqxCudaVifScale *a, const VqxCudaVifProbe *probe,
                                  void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (a->bytes1) launch<uint8_t, uint32_t, 0>(a, probe, s);
    else if (a->scale == 0) launch<uint16_t, uint64_t, 0>(a, probe, s);
    else if (a->scale == 1) launch<uint16_t, uint64_t, 1>(a, probe, s);
    else if (a->scale == 2) launch<uint16_t, uint64_t, 2>(a, probe, s);
    else launch<uint16_t, uint64_t, 3>(a, probe, s);
    return launch_status();
}
