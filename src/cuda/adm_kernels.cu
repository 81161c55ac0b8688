/*
 * Integer ADM (adm.c) on the device. Per level: the DWT of both pictures
 * (one thread per output sample computes the four vertical-pass values its
 * horizontal taps read), the decoupling into restored and additive parts,
 * the masking sums of each position, and one block per scored row that
 * adds the row's reference cubes and masked cubes, applies the CPU's
 * per-row rounding shift, and adds the result to the level's sums. Every
 * stage is integer except the angle test and the enhancement gain, which
 * keep the CPU's float/double operations (no contraction).
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

/* Level 0 reads samples centred on zero as int16 and sums in 32 bits;
 * levels 1 to 3 read int32 bands and sum in 64 bits (dwt_row_16/_32). */
template <typename Src, typename Val, typename Acc>
__global__ void adm_dwt_kernel(const Src *src, size_t pitch, int in_w, int in_h, int32_t centre,
                               Acc v_add, unsigned v_shift, Acc h_add, unsigned h_shift,
                               int out_w, int out_h, int stride, int32_t *a, int32_t *bh,
                               int32_t *bv, int32_t *bd)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j >= out_w || i >= out_h) return;
    size_t rows[4];
    for (int k = 0; k < 4; k++) rows[k] = (size_t)tap_index(2 * i - 1 + k, in_h) * pitch;
    Acc lo[4], hi[4];
    for (int t = 0; t < 4; t++) {
        const int c = tap_index(2 * j - 1 + t, in_w);
        Acc s[4];
        for (int k = 0; k < 4; k++) s[k] = (Acc)(Val)((int32_t)src[rows[k] + c] - centre);
        lo[t] = (Acc)(Val)((db2_lo[0] * s[0] + db2_lo[1] * s[1] + db2_lo[2] * s[2] +
                            db2_lo[3] * s[3] + v_add) >> v_shift);
        hi[t] = (Acc)(Val)((db2_hi[0] * s[0] + db2_hi[1] * s[1] + db2_hi[2] * s[2] +
                            db2_hi[3] * s[3] + v_add) >> v_shift);
    }
    const size_t o = (size_t)i * stride + j;
    a[o] = (int32_t)((db2_lo[0] * lo[0] + db2_lo[1] * lo[1] + db2_lo[2] * lo[2] +
                      db2_lo[3] * lo[3] + h_add) >> h_shift);
    bv[o] = (int32_t)((db2_hi[0] * lo[0] + db2_hi[1] * lo[1] + db2_hi[2] * lo[2] +
                       db2_hi[3] * lo[3] + h_add) >> h_shift);
    bh[o] = (int32_t)((db2_lo[0] * hi[0] + db2_lo[1] * hi[1] + db2_lo[2] * hi[2] +
                       db2_lo[3] * hi[3] + h_add) >> h_shift);
    bd[o] = (int32_t)((db2_hi[0] * hi[0] + db2_hi[1] * hi[1] + db2_hi[2] * hi[2] +
                       db2_hi[3] * hi[3] + h_add) >> h_shift);
}

extern "C" int vqx_cuda_adm_dwt(const void *src, size_t pitch, int in_w, int in_h, int level,
                                unsigned bpc, int stride, int32_t *approx,
                                const VqxCudaAdmBands *out, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    const int out_w = (in_w + 1) / 2, out_h = (in_h + 1) / 2;
    const dim3 grid((out_w + VQX_BLOCK - 1) / VQX_BLOCK, out_h);
    int32_t *h = out->band[0], *v = out->band[1], *d = out->band[2];
    if (level == 0) {
        const int32_t centre = 1 << (bpc - 1);
        if (bpc == 8)
            adm_dwt_kernel<uint8_t, int16_t, int32_t><<<grid, VQX_BLOCK, 0, s>>>(
                (const uint8_t *)src, pitch, in_w, in_h, centre, 1 << (bpc - 1), bpc, 32768, 16,
                out_w, out_h, stride, approx, h, v, d);
        else
            adm_dwt_kernel<uint16_t, int16_t, int32_t><<<grid, VQX_BLOCK, 0, s>>>(
                (const uint16_t *)src, pitch, in_w, in_h, centre, 1 << (bpc - 1), bpc, 32768, 16,
                out_w, out_h, stride, approx, h, v, d);
    } else {
        /* level_rounding of adm.c */
        static const long long v_add[3] = { 0, 32768, 32768 }, h_add[3] = { 16384, 32768, 16384 };
        static const unsigned v_shift[3] = { 0, 16, 16 }, h_shift[3] = { 15, 16, 15 };
        adm_dwt_kernel<int32_t, int32_t, long long><<<grid, VQX_BLOCK, 0, s>>>(
            (const int32_t *)src, pitch, in_w, in_h, 0, v_add[level - 1], v_shift[level - 1],
            h_add[level - 1], h_shift[level - 1], out_w, out_h, stride, approx, h, v, d);
    }
    return launch_status();
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

__global__ void adm_decouple(VqxCudaAdmLevel lv, VqxCudaAdmBands ref, VqxCudaAdmBands dis,
                             VqxCudaAdmBands restored, VqxCudaAdmBands additive,
                             float cos_1deg_sq, double gain_limit)
{
    const int j = lv.grown_left + blockIdx.x * blockDim.x + threadIdx.x;
    const int i = lv.grown_top + blockIdx.y;
    if (j >= lv.grown_right) return;
    const size_t o = (size_t)i * lv.stride + j;
    const int32_t oh = ref.band[0][o], ov = ref.band[1][o];
    const int32_t th = dis.band[0][o], tv = dis.band[1][o];
    const long long dot = (long long)oh * th + (long long)ov * tv;
    const long long o_sq = (long long)oh * oh + (long long)ov * ov;
    const long long t_sq = (long long)th * th + (long long)tv * tv;
    const double dotf = (float)dot / 4096.0;
    const bool same_angle = dotf >= 0.0f &&
        dotf * dotf >= cos_1deg_sq * ((float)o_sq / 4096.0) * ((float)t_sq / 4096.0);
    for (int b = 0; b < 3; b++) {
        const int32_t ob = ref.band[b][o], tb = dis.band[b][o];
        const long long k = restore_gain(ob, tb);
        int32_t r = wrap32((k * ob + 16384) >> 15);
        if (same_angle && k > 0 && ob > 0) {
            const double e = r * gain_limit;
            r = (int32_t)(e < tb ? e : tb);
        } else if (same_angle && k > 0 && ob < 0) {
            const double e = r * gain_limit;
            r = (int32_t)(e > tb ? e : tb);
        }
        restored.band[b][o] = r;
        additive.band[b][o] = wrap32((long long)tb - r);
    }
}

/* masking_row of adm.c for one position: what it contributes to its
 * neighbours' thresholds (1/30) and to its own (1/15), summed over the
 * orientations in 32-bit modular arithmetic. */
__global__ void adm_mask(VqxCudaAdmLevel lv, VqxCudaAdmBands mask, uint32_t *sum_out,
                         uint32_t *centre_out)
{
    const int j = lv.grown_left + blockIdx.x * blockDim.x + threadIdx.x;
    const int i = lv.grown_top + blockIdx.y;
    if (j >= lv.grown_right) return;
    const size_t o = (size_t)i * lv.stride + j;
    uint32_t sum = 0, centre = 0;
    for (int b = 0; b < 3; b++) {
        const int32_t src = mask.band[b][o];
        const uint32_t q = lv.q_weight[b];
        if (lv.level == 0) {
            const unsigned shift = b == 2 ? 17 : 15;
            const int32_t add = b == 2 ? 65535 : 16384;
            /* int32 product and sum, wrapping as the CPU's do */
            const int32_t p = (int32_t)((uint32_t)(int32_t)q * (uint32_t)src + (uint32_t)add);
            const int32_t weighted = (int16_t)(p >> shift);
            const int32_t m = abs32(weighted);
            sum += (uint32_t)(int16_t)((ONE_BY_30_Q17 * m + 2048) >> 12);
            centre += (uint32_t)(int16_t)((ONE_BY_15_Q17 * m + 2048) >> 12);
        } else {
            const int32_t weighted = wrap32(((long long)q * src + (1 << 27)) >> 28);
            const long long m = abs32(weighted);
            sum += (uint32_t)wrap32((ONE_BY_30_Q32 * m + INT32_MIN) >> 32);
            centre += (uint32_t)wrap32((ONE_BY_15_Q32 * m + INT32_MIN) >> 32);
        }
    }
    sum_out[o] = sum;
    centre_out[o] = centre;
}

/* The 3x3 masking threshold of (i, j): eight neighbours at 1/30 and the
 * centre at 1/15, edges read as the CPU's window does. */
__device__ inline int32_t threshold(const VqxCudaAdmLevel &lv, const uint32_t *sum,
                                    const uint32_t *centre, int i, int j)
{
    const int rows[3] = { tap_index(i - 1, lv.h), i, tap_index(i + 1, lv.h) };
    const int cl = tap_index(j - 1, lv.w), cr = tap_index(j + 1, lv.w);
    uint32_t t = 0;
    for (int r = 0; r < 3; r++) {
        const uint32_t *row = sum + (size_t)rows[r] * lv.stride;
        t += row[cl] + row[j] + row[cr];
    }
    const size_t o = (size_t)i * lv.stride + j;
    return (int32_t)(t - sum[o] + centre[o]);
}

/* One masked cube of masked_norm in adm.c. */
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

/* One block per scored row: the row's nine sums, rounded per row as the CPU
 * rounds them, added to the level's sums. */
__global__ void adm_rows(VqxCudaAdmLevel lv, VqxCudaAdmBands ref, VqxCudaAdmBands restored,
                         VqxCudaAdmBands additive, const uint32_t *sum_a, const uint32_t *centre_a,
                         const uint32_t *sum_r, const uint32_t *centre_r,
                         unsigned long long *sums)
{
    const int i = lv.roi_top + blockIdx.x;
    unsigned long long ref_row[3] = { 0, 0, 0 };
    long long num_row[3] = { 0, 0, 0 }, aim_row[3] = { 0, 0, 0 };
    const unsigned sq = lv.level == 2 ? 30 : 31; /* sq_shift of reference_norm, levels 1-3 */
    const unsigned long long cube_add = (unsigned long long)round_half(lv.ref_cube_shift);
    for (int j = lv.roi_left + threadIdx.x; j < lv.roi_right; j += blockDim.x) {
        const size_t o = (size_t)i * lv.stride + j;
        for (int b = 0; b < 3; b++) {
            const int32_t x = ref.band[b][o];
            if (lv.level == 0) {
                const unsigned long long m = (uint16_t)abs32(x);
                ref_row[b] += m * m * m;
            } else {
                const unsigned long long m = (uint32_t)abs32(x);
                ref_row[b] += ((((m * m + (1ull << sq)) >> sq) * m) + cube_add) >> lv.ref_cube_shift;
            }
        }
        const int32_t thr_num = threshold(lv, sum_a, centre_a, i, j);
        for (int b = 0; b < 3; b++) num_row[b] += masked_cube(lv, b, restored.band[b][o], thr_num);
        if (!lv.skip_aim) {
            const int32_t thr_aim = threshold(lv, sum_r, centre_r, i, j);
            for (int b = 0; b < 3; b++) aim_row[b] += masked_cube(lv, b, additive.band[b][o], thr_aim);
        }
    }
    for (int b = 0; b < 3; b++) {
        ref_row[b] = block_sum(ref_row[b]);
        num_row[b] = block_sum(num_row[b]);
        aim_row[b] = block_sum(aim_row[b]);
    }
    if (threadIdx.x) return;
    const unsigned long long ref_add = (unsigned long long)round_half(lv.ref_row_shift);
    const long long row_add = round_half(lv.row_shift);
    for (int b = 0; b < 3; b++) {
        atomicAdd(&sums[b], (ref_row[b] + ref_add) >> lv.ref_row_shift);
        atomicAdd(&sums[3 + b], (unsigned long long)((num_row[b] + row_add) >> lv.row_shift));
        atomicAdd(&sums[6 + b], (unsigned long long)((aim_row[b] + row_add) >> lv.row_shift));
    }
}

extern "C" int vqx_cuda_adm_level(const VqxCudaAdmLevel *lv, const VqxCudaAdmBands *ref,
                                  const VqxCudaAdmBands *dis, const VqxCudaAdmBands *restored,
                                  const VqxCudaAdmBands *additive, uint32_t *const mask[4],
                                  float cos_1deg_sq, double gain_limit, unsigned long long *sums,
                                  void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    const int gw = lv->grown_right - lv->grown_left, gh = lv->grown_bottom - lv->grown_top;
    const dim3 grid((gw + VQX_BLOCK - 1) / VQX_BLOCK, gh);
    adm_decouple<<<grid, VQX_BLOCK, 0, s>>>(*lv, *ref, *dis, *restored, *additive, cos_1deg_sq,
                                           gain_limit);
    int ret = launch_status();
    if (ret) return ret;
    adm_mask<<<grid, VQX_BLOCK, 0, s>>>(*lv, *additive, mask[0], mask[1]);
    if (!lv->skip_aim) adm_mask<<<grid, VQX_BLOCK, 0, s>>>(*lv, *restored, mask[2], mask[3]);
    ret = launch_status();
    if (ret) return ret;
    adm_rows<<<lv->roi_bottom - lv->roi_top, VQX_BLOCK, 0, s>>>(
        *lv, *ref, *restored, *additive, mask[0], mask[1], mask[2], mask[3], sums);
    return launch_status();
}
