/*
 * Integer ADM (adm.c) on the device, three kernels per level:
 * - adm_front: the DWT of both pictures (a block computes the vertical pass
 *   of the columns its row segment reads into shared memory, then each
 *   thread the four bands of both pictures at one position), and at once,
 *   per position, what only needs that position: the reference's cubes,
 *   the decoupling into restored and additive parts and their masking
 *   terms. Only the approximation bands, the restored and additive bands
 *   and the masking terms go to memory; the detail bands never do.
 * - adm_rows: the masked cubes of the scored positions (their thresholds
 *   read the 3x3 masking window).
 * Both add each scored row's exact integer sums to a per-row buffer; the
 * last block of adm_rows to finish applies the CPU's per-row rounding
 * shifts and sums the rows.
 * Every stage is integer except the angle test and the enhancement gain,
 * which keep the CPU's float/double operations (no contraction).
 */
#include "cuda/common.cuh"
#include "cuda/kernels.h"

/* Fixed-point constants of libvmaf's integer ADM (integer_adm.h,
 * integer_adm.c; Netflix, BSD+Patent). */
__constant__ int32_t db2_lo[4] = { 15826, 27411, 7345, -4240 };
__constant__ int32_t db2_hi[4] = { -4240, -7345, 27411, -15826 };
#define RECIP_Q30 1073741824
#define ONE_BY_30_Q17 4369
#define ONE_BY_15_Q17 8738
#define ONE_BY_30_Q32 143165577
#define ONE_BY_15_Q32 286331153

__device__ inline int tap_index(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - 1 - i : i;
}

__device__ inline int32_t wrap32(long long v)
{
    return (int32_t)(uint32_t)(unsigned long long)v;
}

__device__ inline int32_t abs32(int32_t v)
{
    return v < 0 ? (int32_t)(0u - (uint32_t)v) : v;
}

__device__ inline long long round_half(unsigned shift)
{
    return shift ? (long long)1 << (shift - 1) : 0;
}

/* restore_gain of adm.c */
__device__ inline long long restore_gain(int32_t o, int32_t t)
{
    if (o == 0) return 32768;
    const uint32_t mag = (uint32_t)abs32(o);
    unsigned shift = 0;
    uint32_t idx = mag;
    if (mag >= 32768) {
        const unsigned lz = __clz((int)mag);
        shift = 17 - lz;
        idx = (mag + (1u << (shift - 1))) >> shift;
    }
    const int32_t recip = RECIP_Q30 / (int32_t)idx;
    const long long sign = o < 0 ? -1 : 1;
    const long long k = (((long long)recip * t) * sign + (int32_t)(1u << (14 + shift))) >> (15 + shift);
    return k < 0 ? 0 : k > 32768 ? 32768 : k;
}


/* vqx_adm_decouple of adm.c at one position: the reference's and the
 * distorted picture's h, v, d to the restored and additive parts. */
__device__ inline void decouple(const int32_t ref[3], const int32_t dis[3], float cos_1deg_sq,
                                double gain_limit, int32_t restored[3], int32_t additive[3])
{
    const int32_t oh = ref[0], ov = ref[1], th = dis[0], tv = dis[1];
    const long long dot = (long long)oh * th + (long long)ov * tv;
    const long long o_sq = (long long)oh * oh + (long long)ov * ov;
    const long long t_sq = (long long)th * th + (long long)tv * tv;
    const double dotf = (float)dot / 4096.0;
    const bool same_angle = dotf >= 0.0f &&
        dotf * dotf >= cos_1deg_sq * ((float)o_sq / 4096.0) * ((float)t_sq / 4096.0);
#pragma unroll
    for (int b = 0; b < 3; b++) {
        const int32_t ob = ref[b], tb = dis[b];
        const long long k = restore_gain(ob, tb);
        int32_t r = wrap32((k * ob + 16384) >> 15);
        if (same_angle && k > 0 && ob > 0) {
            const double e = r * gain_limit;
            r = (int32_t)(e < tb ? e : tb);
        } else if (same_angle && k > 0 && ob < 0) {
            const double e = r * gain_limit;
            r = (int32_t)(e > tb ? e : tb);
        }
        restored[b] = r;
        additive[b] = wrap32((long long)tb - r);
    }
}

/* vqx_adm_mask_terms of one position: what its three bands contribute to
 * its neighbours' thresholds (1/30) and to its own (1/15), summed over the
 * orientations in 32-bit modular arithmetic. */
__device__ inline void mask_terms(const VqxCudaAdmLevel &lv, const int32_t x[3], uint32_t *sum_out,
                                  uint32_t *centre_out)
{
    uint32_t sum = 0, centre = 0;
#pragma unroll
    for (int b = 0; b < 3; b++) {
        const uint32_t q = lv.q_weight[b];
        if (lv.level == 0) {
            const unsigned shift = b == 2 ? 17 : 15;
            const int32_t add = b == 2 ? 65535 : 16384;
            /* int32 product and sum, wrapping as the CPU's do */
            const int32_t p = (int32_t)((uint32_t)(int32_t)q * (uint32_t)x[b] + (uint32_t)add);
            const int32_t m = abs32((int16_t)(p >> shift));
            sum += (uint32_t)(int16_t)((ONE_BY_30_Q17 * m + 2048) >> 12);
            centre += (uint32_t)(int16_t)((ONE_BY_15_Q17 * m + 2048) >> 12);
        } else {
            const int32_t weighted = wrap32(((long long)q * x[b] + (1 << 27)) >> 28);
            const long long m = abs32(weighted);
            sum += (uint32_t)wrap32((ONE_BY_30_Q32 * m + INT32_MIN) >> 32);
            centre += (uint32_t)wrap32((ONE_BY_15_Q32 * m + INT32_MIN) >> 32);
        }
    }
    *sum_out = sum;
    *centre_out = centre;
}

/* The reference's cube of one band value (reference_sums in adm.c), before
 * the row's shift. */
__device__ inline unsigned long long ref_cube(const VqxCudaAdmLevel &lv, int32_t x)
{
    if (lv.level == 0) {
        const unsigned long long m = (uint16_t)abs32(x);
        return m * m * m;
    }
    const unsigned sq = lv.level == 2 ? 30 : 31; /* libvmaf adds 2^sq before this shift */
    const unsigned long long m = (uint32_t)abs32(x);
    const unsigned long long cube_add = (unsigned long long)round_half(lv.ref_cube_shift);
    return ((((m * m + (1ull << sq)) >> sq) * m) + cube_add) >> lv.ref_cube_shift;
}

template <typename T>
__device__ inline T warp_sum(T v)
{
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    return v;
}

struct AdmFront {
    const void *src[2];          /* reference, distorted: picture or approximation band */
    size_t pitch;
    int in_w, in_h;
    int32_t *approx[2];
    VqxCudaAdmLevel lv;
    VqxCudaAdmWork work;
    float cos_1deg_sq;
    double gain_limit;
    VqxCudaAdmBands probe[2];    /* the detail bands, for the kernel checks */
};

/* Level 0 reads samples centred on zero as int16 and sums in 32 bits;
 * levels 1 to 3 read int32 bands and sum in 64 bits (adm.c's dwt_row_16
 * and dwt_row_32). Block: VQX_BLOCK positions of one band row. */
template <typename Src, typename Val, typename Acc>
__global__ void __launch_bounds__(VQX_BLOCK)
adm_front(AdmFront f, int32_t centre, Acc v_add, unsigned v_shift, Acc h_add, unsigned h_shift)
{
    __shared__ int32_t lo[2][2 * VQX_BLOCK + 2], hi[2][2 * VQX_BLOCK + 2];
    const VqxCudaAdmLevel &lv = f.lv;
    const int t = threadIdx.x, i = blockIdx.y, j0 = blockIdx.x * VQX_BLOCK, j = j0 + t;
    size_t rows[4];
#pragma unroll
    for (int k = 0; k < 4; k++) rows[k] = (size_t)tap_index(2 * i - 1 + k, f.in_h) * f.pitch;
    /* vertical pass of input columns 2 * j0 - 1 + c */
    const int n = 2 * min(VQX_BLOCK, lv.w - j0) + 2;
    for (int c = t; c < n; c += VQX_BLOCK) {
        const int col = tap_index(2 * j0 - 1 + c, f.in_w);
#pragma unroll
        for (int p = 0; p < 2; p++) {
            const Src *src = (const Src *)f.src[p];
            Acc s[4];
#pragma unroll
            for (int k = 0; k < 4; k++) s[k] = (Acc)(Val)((int32_t)src[rows[k] + col] - centre);
            lo[p][c] = (Val)((db2_lo[0] * s[0] + db2_lo[1] * s[1] + db2_lo[2] * s[2] +
                              db2_lo[3] * s[3] + v_add) >> v_shift);
            hi[p][c] = (Val)((db2_hi[0] * s[0] + db2_hi[1] * s[1] + db2_hi[2] * s[2] +
                              db2_hi[3] * s[3] + v_add) >> v_shift);
        }
    }
    __syncthreads();
    const bool active = j < lv.w;
    const size_t o = (size_t)i * lv.stride + j;
    int32_t band[2][3]; /* h, v, d of reference and distorted */
    if (active) {
#pragma unroll
        for (int p = 0; p < 2; p++) {
            const int32_t *l = &lo[p][2 * t], *q = &hi[p][2 * t];
            const Acc l0 = l[0], l1 = l[1], l2 = l[2], l3 = l[3];
            const Acc q0 = q[0], q1 = q[1], q2 = q[2], q3 = q[3];
            f.approx[p][o] = (int32_t)((db2_lo[0] * l0 + db2_lo[1] * l1 + db2_lo[2] * l2 +
                                        db2_lo[3] * l3 + h_add) >> h_shift);
            band[p][1] = (int32_t)((db2_hi[0] * l0 + db2_hi[1] * l1 + db2_hi[2] * l2 +
                                    db2_hi[3] * l3 + h_add) >> h_shift);
            band[p][0] = (int32_t)((db2_lo[0] * q0 + db2_lo[1] * q1 + db2_lo[2] * q2 +
                                    db2_lo[3] * q3 + h_add) >> h_shift);
            band[p][2] = (int32_t)((db2_hi[0] * q0 + db2_hi[1] * q1 + db2_hi[2] * q2 +
                                    db2_hi[3] * q3 + h_add) >> h_shift);
            if (f.probe[p].band[0])
                for (int b = 0; b < 3; b++) f.probe[p].band[b][o] = band[p][b];
        }
    }
    if (!lv.scored) return;
    const bool grown = active && i >= lv.grown_top && i < lv.grown_bottom &&
                       j >= lv.grown_left && j < lv.grown_right;
    if (grown) {
        int32_t restored[3], additive[3];
        decouple(band[0], band[1], f.cos_1deg_sq, f.gain_limit, restored, additive);
        for (int b = 0; b < 3; b++) {
            f.work.restored.band[b][o] = restored[b];
            f.work.additive.band[b][o] = additive[b];
        }
        mask_terms(lv, additive, &f.work.mask[0][o], &f.work.mask[1][o]);
        if (!lv.skip_aim) mask_terms(lv, restored, &f.work.mask[2][o], &f.work.mask[3][o]);
    }
    if (i < lv.roi_top || i >= lv.roi_bottom) return; /* the block's row */
    const bool scored = active && j >= lv.roi_left && j < lv.roi_right;
    unsigned long long *acc = f.work.row_acc + 9 * (size_t)(i - lv.roi_top);
#pragma unroll
    for (int b = 0; b < 3; b++) {
        const unsigned long long cube = warp_sum(scored ? ref_cube(lv, band[0][b]) : 0ull);
        if (!(t & 31) && cube) atomicAdd(&acc[b], cube);
    }
}

/* The 3x3 masking threshold of (i, j): eight neighbours at 1/30 and the
 * centre at 1/15, edges read as the CPU's window does. */
__device__ inline int32_t threshold(const VqxCudaAdmLevel &lv, const uint32_t *sum,
                                    const uint32_t *centre, int i, int j)
{
    const int rows[3] = { tap_index(i - 1, lv.h), i, tap_index(i + 1, lv.h) };
    const int cl = tap_index(j - 1, lv.w), cr = tap_index(j + 1, lv.w);
    uint32_t t = 0;
#pragma unroll
    for (int r = 0; r < 3; r++) {
        const uint32_t *row = sum + (size_t)rows[r] * lv.stride;
        t += row[cl] + row[j] + row[cr];
    }
    const size_t o = (size_t)i * lv.stride + j;
    return (int32_t)(t - sum[o] + centre[o]);
}

/* One masked cube of vqx_adm_masked_sums in adm.c, before the row's shift. */
__device__ inline long long masked_cube(const VqxCudaAdmLevel &lv, int b, int32_t x, int32_t thr)
{
    const bool l0 = lv.level == 0;
    const long long weight_add = l0 ? 0 : 1 << 27;
    const unsigned weight_shift = l0 ? 0 : 28;
    const unsigned thr_shift = l0 ? (b == 2 ? 12 : 10) : 0;
    const unsigned sq_shift = l0 ? (b == 2 ? 30 : 29) : 30;
    const int32_t weighted = wrap32((x * (long long)lv.q_weight[b] + weight_add) >> weight_shift);
    int32_t m = (int32_t)((uint32_t)abs32(weighted) - ((uint32_t)thr << thr_shift));
    m = m < 0 ? 0 : m;
    const int32_t sq = wrap32(((long long)m * m + round_half(sq_shift)) >> sq_shift);
    return ((long long)sq * m + round_half(lv.cube_shift[b])) >> lv.cube_shift[b];
}

#define ROWS_BLOCK 128
#define ROWS_PER_THREAD 4

/* The level's nine sums from the rows' sums, each row rounded by the CPU's
 * per-row shift; by one block. */
__device__ void finish_level(const VqxCudaAdmLevel &lv, const unsigned long long *row_acc,
                             unsigned long long *sums)
{
    const int n = lv.roi_bottom - lv.roi_top;
    const unsigned long long ref_add = (unsigned long long)round_half(lv.ref_row_shift);
    const long long row_add = round_half(lv.row_shift);
    unsigned long long ref[3] = { 0, 0, 0 };
    long long num[3] = { 0, 0, 0 }, aim[3] = { 0, 0, 0 };
    for (int r = threadIdx.x; r < n; r += blockDim.x) {
        const unsigned long long *a = row_acc + 9 * (size_t)r;
#pragma unroll
        for (int b = 0; b < 3; b++) {
            /* written by other blocks' atomics: read past the L1 */
            ref[b] += (__ldcg(&a[b]) + ref_add) >> lv.ref_row_shift;
            num[b] += ((long long)__ldcg(&a[3 + b]) + row_add) >> lv.row_shift;
            aim[b] += ((long long)__ldcg(&a[6 + b]) + row_add) >> lv.row_shift;
        }
    }
    for (int b = 0; b < 3; b++) {
        ref[b] = block_sum(ref[b]);
        num[b] = block_sum(num[b]);
        aim[b] = block_sum(aim[b]);
    }
    if (threadIdx.x) return;
    for (int b = 0; b < 3; b++) {
        sums[b] = ref[b];
        sums[3 + b] = (unsigned long long)num[b];
        sums[6 + b] = (unsigned long long)aim[b];
    }
}

/* Block: ROWS_BLOCK * ROWS_PER_THREAD scored positions of one row; each
 * warp adds its masked cubes to the row's sums. The last block to finish
 * makes the level's sums. */
__global__ void __launch_bounds__(ROWS_BLOCK)
adm_rows(VqxCudaAdmLevel lv, VqxCudaAdmWork work, unsigned long long *sums)
{
    __shared__ bool last;
    const int i = lv.roi_top + blockIdx.y;
    const int j_base = lv.roi_left + blockIdx.x * ROWS_BLOCK * ROWS_PER_THREAD + threadIdx.x;
    long long num[3] = { 0, 0, 0 }, aim[3] = { 0, 0, 0 };
#pragma unroll
    for (int q = 0; q < ROWS_PER_THREAD; q++) {
        const int j = j_base + q * ROWS_BLOCK;
        if (j >= lv.roi_right) break;
        const size_t o = (size_t)i * lv.stride + j;
        const int32_t thr_num = threshold(lv, work.mask[0], work.mask[1], i, j);
#pragma unroll
        for (int b = 0; b < 3; b++) num[b] += masked_cube(lv, b, work.restored.band[b][o], thr_num);
        if (!lv.skip_aim) {
            const int32_t thr_aim = threshold(lv, work.mask[2], work.mask[3], i, j);
#pragma unroll
            for (int b = 0; b < 3; b++)
                aim[b] += masked_cube(lv, b, work.additive.band[b][o], thr_aim);
        }
    }
    unsigned long long *acc = work.row_acc + 9 * (size_t)blockIdx.y;
#pragma unroll
    for (int b = 0; b < 3; b++) {
        const long long n = warp_sum(num[b]), a = warp_sum(aim[b]);
        if (threadIdx.x & 31) continue;
        if (n) atomicAdd(&acc[3 + b], (unsigned long long)n);
        if (a) atomicAdd(&acc[6 + b], (unsigned long long)a);
    }
    /* the sums of this block reach memory before the count that shows it */
    __threadfence();
    __syncthreads();
    if (!threadIdx.x) last = atomicAdd(work.blocks_done, 1u) == gridDim.x * gridDim.y - 1;
    __syncthreads();
    if (!last) return;
    __threadfence();
    finish_level(lv, work.row_acc, sums);
}

/* level_rounding of adm.c: levels 1 to 3 */
static const long long level_v_add[3] = { 0, 32768, 32768 };
static const long long level_h_add[3] = { 16384, 32768, 16384 };
static const unsigned level_v_shift[3] = { 0, 16, 16 }, level_h_shift[3] = { 15, 16, 15 };

extern "C" int vqx_cuda_adm_level(const VqxCudaAdmLevel *lv, const void *const src[2],
                                  size_t pitch, int in_w, int in_h, unsigned bpc,
                                  int32_t *const approx[2], const VqxCudaAdmWork *work,
                                  float cos_1deg_sq, double gain_limit, unsigned long long *sums,
                                  const VqxCudaAdmBands *probe, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    AdmFront f = {};
    for (int p = 0; p < 2; p++) {
        f.src[p] = src[p];
        f.approx[p] = approx[p];
        if (probe) f.probe[p] = probe[p];
    }
    f.pitch = pitch;
    f.in_w = in_w;
    f.in_h = in_h;
    f.lv = *lv;
    f.work = *work;
    f.cos_1deg_sq = cos_1deg_sq;
    f.gain_limit = gain_limit;
    const dim3 grid((lv->w + VQX_BLOCK - 1) / VQX_BLOCK, lv->h);
    if (lv->level == 0) {
        const int32_t centre = 1 << (bpc - 1);
        if (bpc == 8)
            adm_front<uint8_t, int16_t, int32_t><<<grid, VQX_BLOCK, 0, s>>>(
                f, centre, centre, bpc, 32768, 16);
        else
            adm_front<uint16_t, int16_t, int32_t><<<grid, VQX_BLOCK, 0, s>>>(
                f, centre, centre, bpc, 32768, 16);
    } else {
        const int k = lv->level - 1;
        adm_front<int32_t, int32_t, long long><<<grid, VQX_BLOCK, 0, s>>>(
            f, 0, level_v_add[k], level_v_shift[k], level_h_add[k], level_h_shift[k]);
    }
    int ret = launch_status();
    if (ret || !lv->scored) return ret;
    const int per_block = ROWS_BLOCK * ROWS_PER_THREAD;
    const dim3 rows_grid((lv->roi_right - lv->roi_left + per_block - 1) / per_block,
                         lv->roi_bottom - lv->roi_top);
    adm_rows<<<rows_grid, ROWS_BLOCK, 0, s>>>(*lv, *work, sums);
    return launch_status();
}
