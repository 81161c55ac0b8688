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
 * which keep the CPU's float/double operations (no contraction). The
 * per-sample statements are adm_pixel.h's, as on the CPU.
 */
#include "cuda/common.cuh"
#include "cuda/kernels.h"
#include "feature/adm_pixel.h"

__constant__ int32_t db2_lo[4] = ADM_DB2_LO;
__constant__ int32_t db2_hi[4] = ADM_DB2_HI;

/* adm_pixel.h's DWT output of the pass's sum width. */
__device__ inline int32_t dwt(const int32_t *taps, const int32_t v[4], int32_t add, unsigned shift)
{
    return adm_dwt_16(taps, v, add, shift);
}

__device__ inline int64_t dwt(const int32_t *taps, const int64_t v[4], int64_t add, unsigned shift)
{
    return adm_dwt_32(taps, v, add, shift);
}

/* The masking terms of one position at the level's weights. */
__device__ inline void mask_terms(const VqxCudaAdmLevel &lv, const int32_t x[3], uint32_t *sum,
                                  uint32_t *centre)
{
    if (lv.level == 0) adm_mask_terms_16(lv.q_weight, x, sum, centre);
    else adm_mask_terms_32(lv.q_weight, x, sum, centre);
}

/* The reference's cube of one band value, before the row's shift. */
__device__ inline unsigned long long ref_cube(const VqxCudaAdmLevel &lv, int32_t x)
{
    if (lv.level == 0) return adm_reference_cube_16(x);
    return adm_reference_cube_32(x, adm_reference_sq_shift(lv.level), lv.ref_cube_shift);
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
    for (int k = 0; k < 4; k++)
        rows[k] = (size_t)vqx_mirror_hybrid(2 * i - 1 + k, f.in_h) * f.pitch;
    /* vertical pass of input columns 2 * j0 - 1 + c */
    const int n = 2 * min(VQX_BLOCK, lv.w - j0) + 2;
    for (int c = t; c < n; c += VQX_BLOCK) {
        const int col = vqx_mirror_hybrid(2 * j0 - 1 + c, f.in_w);
#pragma unroll
        for (int p = 0; p < 2; p++) {
            const Src *src = (const Src *)f.src[p];
            Acc s[4];
#pragma unroll
            for (int k = 0; k < 4; k++) s[k] = (Acc)(Val)((int32_t)src[rows[k] + col] - centre);
            lo[p][c] = (Val)dwt(db2_lo, s, v_add, v_shift);
            hi[p][c] = (Val)dwt(db2_hi, s, v_add, v_shift);
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
            const Acc pl[4] = { l[0], l[1], l[2], l[3] };
            const Acc ph[4] = { q[0], q[1], q[2], q[3] };
            f.approx[p][o] = (int32_t)dwt(db2_lo, pl, h_add, h_shift);
            band[p][1] = (int32_t)dwt(db2_hi, pl, h_add, h_shift);
            band[p][0] = (int32_t)dwt(db2_lo, ph, h_add, h_shift);
            band[p][2] = (int32_t)dwt(db2_hi, ph, h_add, h_shift);
            if (f.probe[p].band[0])
                for (int b = 0; b < 3; b++) f.probe[p].band[b][o] = band[p][b];
        }
    }
    if (!lv.scored) return;
    const bool grown = active && i >= lv.grown_top && i < lv.grown_bottom &&
                       j >= lv.grown_left && j < lv.grown_right;
    if (grown) {
        int32_t restored[3], additive[3];
        adm_decouple(band[0], band[1], nullptr, f.cos_1deg_sq, f.gain_limit, restored, additive);
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

/* The 3x3 masking threshold of (i, j), edges read as the CPU's window does. */
__device__ inline uint32_t threshold(const VqxCudaAdmLevel &lv, const uint32_t *sum,
                                     const uint32_t *centre, int i, int j)
{
    const uint32_t *const rows[3] = {
        sum + (size_t)vqx_mirror_hybrid(i - 1, lv.h) * lv.stride,
        sum + (size_t)i * lv.stride,
        sum + (size_t)vqx_mirror_hybrid(i + 1, lv.h) * lv.stride,
    };
    return adm_threshold(rows, vqx_mirror_hybrid(j - 1, lv.w), j, vqx_mirror_hybrid(j + 1, lv.w),
                         centre[(size_t)i * lv.stride + j]);
}

/* One masked cube of band b, before the row's shift. */
__device__ inline int64_t masked_cube(const VqxCudaAdmLevel &lv, int b, int32_t x, uint32_t thr)
{
    const uint32_t q = lv.q_weight[b];
    if (lv.level == 0)
        return adm_masked_cube(adm_weigh_level0(x, q), thr, adm_masked_thr_shift(0, b),
                               adm_masked_sq_shift(0, b), lv.cube_shift[b]);
    return adm_masked_cube(adm_weigh_q32(x, q), thr, adm_masked_thr_shift(1, b),
                           adm_masked_sq_shift(1, b), lv.cube_shift[b]);
}

#define ROWS_BLOCK 128
#define ROWS_PER_THREAD 4

/* The level's nine sums from the rows' sums, each row rounded by the CPU's
 * per-row shift; by one block. */
__device__ void finish_level(const VqxCudaAdmLevel &lv, const unsigned long long *row_acc,
                             unsigned long long *sums)
{
    const int n = lv.roi_bottom - lv.roi_top;
    unsigned long long ref[3] = { 0, 0, 0 };
    long long num[3] = { 0, 0, 0 }, aim[3] = { 0, 0, 0 };
    for (int r = threadIdx.x; r < n; r += blockDim.x) {
        const unsigned long long *a = row_acc + 9 * (size_t)r;
#pragma unroll
        for (int b = 0; b < 3; b++) {
            /* written by other blocks' atomics: read past the L1 */
            ref[b] += adm_round_row_u64(__ldcg(&a[b]), lv.ref_row_shift);
            num[b] += adm_round_row((int64_t)__ldcg(&a[3 + b]), lv.row_shift);
            aim[b] += adm_round_row((int64_t)__ldcg(&a[6 + b]), lv.row_shift);
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
        const uint32_t thr_num = threshold(lv, work.mask[0], work.mask[1], i, j);
#pragma unroll
        for (int b = 0; b < 3; b++) num[b] += masked_cube(lv, b, work.restored.band[b][o], thr_num);
        if (!lv.skip_aim) {
            const uint32_t thr_aim = threshold(lv, work.mask[2], work.mask[3], i, j);
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
    const AdmDwtRounding r = adm_dwt_rounding(lv->level, bpc);
    if (lv->level == 0) {
        const int32_t centre = 1 << (bpc - 1);
        const int32_t v_add = (int32_t)r.v_add, h_add = (int32_t)r.h_add;
        if (bpc == 8)
            adm_front<uint8_t, int16_t, int32_t><<<grid, VQX_BLOCK, 0, s>>>(
                f, centre, v_add, r.v_shift, h_add, r.h_shift);
        else
            adm_front<uint16_t, int16_t, int32_t><<<grid, VQX_BLOCK, 0, s>>>(
                f, centre, v_add, r.v_shift, h_add, r.h_shift);
    } else {
        adm_front<int32_t, int32_t, int64_t><<<grid, VQX_BLOCK, 0, s>>>(
            f, 0, r.v_add, r.v_shift, r.h_add, r.h_shift);
    }
    int ret = launch_status();
    if (ret || !lv->scored) return ret;
    const int per_block = ROWS_BLOCK * ROWS_PER_THREAD;
    const dim3 rows_grid((lv->roi_right - lv->roi_left + per_block - 1) / per_block,
                         lv->roi_bottom - lv->roi_top);
    adm_rows<<<rows_grid, ROWS_BLOCK, 0, s>>>(*lv, *work, sums);
    return launch_status();
}
