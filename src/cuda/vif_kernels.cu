/*
 * Integer VIF (vif.c, vif_tmpl.c) on the device. Per scale, one kernel: a
 * block takes a row segment, computes the vertical pass of its columns into
 * shared memory, filters them along the row and adds each pixel's
 * information terms to four 64-bit integer sums, which are added to the
 * scale's sums atomically (integers: the order is free). The double
 * arithmetic of the gain is the CPU's, operation for operation (no
 * contraction: --fmad=false), and the log2 table is the host's.
 */
#include "cuda/common.cuh"
#include "cuda/kernels.h"

#define MAX_HALF 8
#define SIGMA_NSQ (2 << 16)

/* Filter taps per scale, from libvmaf src/feature/integer_vif.h (Netflix,
 * BSD+Patent). */
__constant__ uint16_t vif_taps[4][17] = {
    { 489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274, 3896, 2640, 1640, 935, 489 },
    { 1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244 },
    { 3571, 16004, 26386, 16004, 3571 },
    { 10904, 43728, 10904 },
};
static const unsigned vif_width[4] = { 17, 9, 5, 3 };

/* Mirrors without repeating the edge sample (vif_mirror). */
__device__ inline int vmirror(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * (n - 1) - i : i;
}

__device__ inline int32_t log2_q11_32(const uint16_t *table, uint32_t x)
{
    const int k = 16 - __clz(x);
    return table[x >> k] + 2048 * k;
}

__device__ inline int32_t log2_q11_64(const uint16_t *table, uint64_t x)
{
    const int k = 48 - __clzll(x);
    return table[x >> k] + 2048 * k;
}

struct Sums {
    long long num_log, den_log, num_non_log, den_non_log;
};

/* vif.c add_pixel, statement for statement. */
__device__ inline void add_pixel(Sums &s, const uint16_t *table, double gain_limit,
                                 uint32_t mu1, uint32_t mu2, uint64_t ref_sq_sum,
                                 uint64_t dis_sq_sum, uint64_t ref_dis_sum)
{
    const uint32_t mu1_sq = (uint32_t)(((uint64_t)mu1 * mu1 + 2147483648u) >> 32);
    const uint32_t mu2_sq = (uint32_t)(((uint64_t)mu2 * mu2 + 2147483648u) >> 32);
    const uint32_t mu1_mu2 = (uint32_t)(((uint64_t)mu1 * mu2 + 2147483648u) >> 32);
    const uint32_t xx = (uint32_t)((ref_sq_sum + 32768) >> 16);
    const uint32_t yy = (uint32_t)((dis_sq_sum + 32768) >> 16);
    const uint32_t xy = (uint32_t)((ref_dis_sum + 32768) >> 16);

    const int32_t sigma1_sq = (int32_t)(xx - mu1_sq);
    int32_t sigma2_sq = (int32_t)(yy - mu2_sq);
    const int32_t sigma12 = (int32_t)(xy - mu1_mu2);
    if (sigma2_sq < 0) sigma2_sq = 0;

    if (sigma1_sq < SIGMA_NSQ) {
        s.num_non_log += sigma2_sq;
        s.den_non_log++;
        return;
    }
    s.den_log += log2_q11_32(table, (uint32_t)(SIGMA_NSQ + sigma1_sq)) - 2048 * 17;
    if (sigma12 > 0 && sigma2_sq > 0) {
        const double eps = 65536 * 1.0e-10;
        double g = sigma12 / (sigma1_sq + eps);
        int32_t sv_sq = (int32_t)(sigma2_sq - g * sigma12);
        if (sv_sq < 0) sv_sq = 0;
        if (!(g < gain_limit)) g = gain_limit;
        const uint32_t noise = (uint32_t)(sv_sq + SIGMA_NSQ);
        const long long total = (long long)(g * g * sigma1_sq) + noise;
        s.num_log += log2_q11_64(table, (uint64_t)total) - log2_q11_64(table, noise);
    }
}

/* Block: VQX_BLOCK pixels of one row. The vertical pass fills shared
 * memory with the rounded column means and second moments of the block's
 * columns and their mirrored margins (vif_tmpl.c vqx_vif_columns_stats);
 * the horizontal pass filters them and adds each pixel's terms. SqAcc is
 * 32-bit where the CPU's sums are (8-bit samples at scale 0, exact there)
 * and 64-bit elsewhere. */
template <typename P, typename SqAcc>
__global__ void vif_stats(const P *ref, const P *dis, size_t pitch, int w, int h, int scale,
                          int width, unsigned mean_shift, unsigned sq_shift,
                          const uint16_t *table, double gain_limit, long long *sums)
{
    __shared__ uint32_t m1[VQX_BLOCK + 2 * MAX_HALF], m2[VQX_BLOCK + 2 * MAX_HALF];
    __shared__ uint32_t xx[VQX_BLOCK + 2 * MAX_HALF], yy[VQX_BLOCK + 2 * MAX_HALF];
    __shared__ uint32_t xy[VQX_BLOCK + 2 * MAX_HALF];
    __shared__ size_t rows[2 * MAX_HALF + 1];
    const int half = width / 2, y = blockIdx.y, x0 = blockIdx.x * VQX_BLOCK;
    if ((int)threadIdx.x < width) rows[threadIdx.x] = (size_t)vmirror(y - half + (int)threadIdx.x, h) * pitch;
    __syncthreads();
    const uint32_t mean_round = 1u << (mean_shift - 1);
    const SqAcc sq_round = sq_shift ? (SqAcc)1 << (sq_shift - 1) : 0;
    const int n = min(VQX_BLOCK, w - x0) + 2 * half;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const int x = vmirror(x0 - half + i, w);
        uint32_t s1 = 0, s2 = 0;
        SqAcc rr = 0, dd = 0, rd = 0;
        for (int k = 0; k < width; k++) {
            const size_t o = rows[k] + x;
            const uint32_t r = ref[o], d = dis[o], c = vif_taps[scale][k];
            s1 += c * r;
            s2 += c * d;
            rr += (SqAcc)c * (r * r);
            dd += (SqAcc)c * (d * d);
            rd += (SqAcc)c * (r * d);
        }
        m1[i] = (uint16_t)((s1 + mean_round) >> mean_shift);
        m2[i] = (uint16_t)((s2 + mean_round) >> mean_shift);
        xx[i] = (uint32_t)((rr + sq_round) >> sq_shift);
        yy[i] = (uint32_t)((dd + sq_round) >> sq_shift);
        xy[i] = (uint32_t)((rd + sq_round) >> sq_shift);
    }
    __syncthreads();
    Sums s = { 0, 0, 0, 0 };
    if (x0 + (int)threadIdx.x < w) {
        uint32_t mu1 = 0, mu2 = 0;
        uint64_t ref_sq = 0, dis_sq = 0, ref_dis = 0;
        for (int k = 0; k < width; k++) {
            const uint32_t t = vif_taps[scale][k];
            const int i = threadIdx.x + k;
            mu1 += t * m1[i];
            mu2 += t * m2[i];
            ref_sq += (uint64_t)t * xx[i];
            dis_sq += (uint64_t)t * yy[i];
            ref_dis += (uint64_t)t * xy[i];
        }
        add_pixel(s, table, gain_limit, mu1, mu2, ref_sq, dis_sq, ref_dis);
    }
    s.num_log = block_sum(s.num_log);
    s.den_log = block_sum(s.den_log);
    s.num_non_log = block_sum(s.num_non_log);
    s.den_non_log = block_sum(s.den_non_log);
    if (!threadIdx.x) {
        atomicAdd((unsigned long long *)&sums[0], (unsigned long long)s.num_log);
        atomicAdd((unsigned long long *)&sums[1], (unsigned long long)s.den_log);
        atomicAdd((unsigned long long *)&sums[2], (unsigned long long)s.num_non_log);
        atomicAdd((unsigned long long *)&sums[3], (unsigned long long)s.den_non_log);
    }
}

/* Block: VQX_BLOCK output samples of one row (vif.c downsample). The
 * vertical rounded means at source row 2y of every source column the block
 * reads go to shared memory, then each thread takes the horizontal rounded
 * mean at its even column. */
#define DEC_HALF 4 /* widest filter of scales 1 to 3 */
template <typename P>
__global__ void vif_decimate(const P *ref, const P *dis, size_t pitch, int w, int h, int scale,
                             int width, unsigned shift, uint16_t *dst_ref, uint16_t *dst_dis,
                             int dst_w)
{
    __shared__ uint32_t mr[2 * VQX_BLOCK + 2 * DEC_HALF], md[2 * VQX_BLOCK + 2 * DEC_HALF];
    __shared__ size_t rows[2 * DEC_HALF + 1];
    const int half = width / 2, y = blockIdx.y, x0 = blockIdx.x * VQX_BLOCK;
    if ((int)threadIdx.x < width) rows[threadIdx.x] = (size_t)vmirror(2 * y - half + (int)threadIdx.x, h) * pitch;
    __syncthreads();
    const uint32_t round = 1u << (shift - 1);
    const int n = 2 * min(VQX_BLOCK, dst_w - x0) + 2 * half;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const int col = vmirror(2 * x0 - half + i, w);
        uint32_t cr = 0, cd = 0;
        for (int k = 0; k < width; k++) {
            const size_t o = rows[k] + col;
            const uint32_t c = vif_taps[scale][k];
            cr += c * ref[o];
            cd += c * dis[o];
        }
        mr[i] = (uint16_t)((cr + round) >> shift);
        md[i] = (uint16_t)((cd + round) >> shift);
    }
    __syncthreads();
    const int x = x0 + threadIdx.x;
    if (x >= dst_w) return;
    uint32_t sum_ref = 0, sum_dis = 0;
    for (int kx = 0; kx < width; kx++) {
        sum_ref += vif_taps[scale][kx] * mr[2 * threadIdx.x + kx];
        sum_dis += vif_taps[scale][kx] * md[2 * threadIdx.x + kx];
    }
    dst_ref[(size_t)y * dst_w + x] = (uint16_t)((sum_ref + 32768) >> 16);
    dst_dis[(size_t)y * dst_w + x] = (uint16_t)((sum_dis + 32768) >> 16);
}

extern "C" int vqx_cuda_vif_scale(const void *ref, const void *dis, size_t pitch, unsigned w,
                                  unsigned h, int bytes1, unsigned scale, unsigned mean_shift,
                                  unsigned sq_shift, const uint16_t *log2_table, double gain_limit,
                                  long long *sums, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    const int width = (int)vif_width[scale];
    const dim3 grid((w + VQX_BLOCK - 1) / VQX_BLOCK, h);
    if (bytes1) /* 8-bit samples: the CPU's 32-bit sums of squares are exact */
        vif_stats<uint8_t, uint32_t><<<grid, VQX_BLOCK, 0, s>>>(
            (const uint8_t *)ref, (const uint8_t *)dis, pitch, (int)w, (int)h, (int)scale, width,
            mean_shift, sq_shift, log2_table, gain_limit, sums);
    else
        vif_stats<uint16_t, uint64_t><<<grid, VQX_BLOCK, 0, s>>>(
            (const uint16_t *)ref, (const uint16_t *)dis, pitch, (int)w, (int)h, (int)scale, width,
            mean_shift, sq_shift, log2_table, gain_limit, sums);
    return launch_status();
}

extern "C" int vqx_cuda_vif_downsample(const void *ref, const void *dis, size_t pitch, unsigned w,
                                       unsigned h, int bytes1, unsigned scale, unsigned shift,
                                       uint16_t *dst_ref, uint16_t *dst_dis, unsigned dst_w,
                                       unsigned dst_h, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    const int width = (int)vif_width[scale];
    const dim3 grid((dst_w + VQX_BLOCK - 1) / VQX_BLOCK, dst_h);
    if (bytes1)
        vif_decimate<<<grid, VQX_BLOCK, 0, s>>>((const uint8_t *)ref, (const uint8_t *)dis, pitch,
                                                (int)w, (int)h, (int)scale, width, shift, dst_ref,
                                                dst_dis, (int)dst_w);
    else
        vif_decimate<<<grid, VQX_BLOCK, 0, s>>>((const uint16_t *)ref, (const uint16_t *)dis, pitch,
                                                (int)w, (int)h, (int)scale, width, shift, dst_ref,
                                                dst_dis, (int)dst_w);
    return launch_status();
}
