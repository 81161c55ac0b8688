/* float_psnr's and float_moment's sums, float_ansnr's filters and energies,
 * float_motion's blur, halving and differences (float_psnr.c,
 * float_moment.c, float_ansnr.c, float_motion.c). The per-sample statements
 * are float_sample.h's and resample_sample.h's, compiled here too. */
#include "cuda/common.cuh"
#include "cuda/kernels.h"
#include "feature/float_motion_dsp.h"
#include "feature/float_sample.h"
#include "feature/resample_sample.h"

template <typename P>
__device__ inline float luma(const P *plane, size_t pitch, int x, int y, float inv_scale,
                             float offset)
{
    return vqx_float_sample(plane[(size_t)y * pitch + x], inv_scale, offset);
}

/* The float terms of one sample pair, in VqxCudaFloatSums' order. */
template <int KIND>
__device__ inline void float_terms(float r, float d, float t[VQX_CUDA_FLOAT_SUMS_MAX])
{
    if (KIND == VQX_CUDA_FLOAT_PSNR) {
        t[0] = vqx_float_squared_error(r, d);
    } else {
        t[0] = r;
        t[1] = d;
        t[2] = r * r;
        t[3] = d * d;
    }
}

__host__ __device__ constexpr int n_sums(int kind)
{
    return kind == VQX_CUDA_FLOAT_PSNR ? 1 : 4;
}

/* One block per row: each sum as an integer count of 2^-16 (every term is
 * a multiple of 2^-16 below 2^32: VqxCudaFloatSums), exact in any order. */
template <typename P, int KIND>
__global__ void exact_sums(const P *ref, const P *dis, size_t pitch, unsigned w,
                           float inv_scale, unsigned long long *units)
{
    const int y = blockIdx.x;
    unsigned long long acc[n_sums(KIND)] = {};
    for (unsigned x = threadIdx.x; x < w; x += blockDim.x) {
        float t[VQX_CUDA_FLOAT_SUMS_MAX];
        float_terms<KIND>(luma(ref, pitch, x, y, inv_scale, 0.0f),
                          luma(dis, pitch, x, y, inv_scale, 0.0f), t);
        for (int k = 0; k < n_sums(KIND); k++)
            acc[k] += (unsigned long long)(t[k] * 65536.0f);
    }
    for (int k = 0; k < n_sums(KIND); k++) {
        const unsigned long long row = block_sum(acc[k]);
        if (!threadIdx.x) atomicAdd(&units[k], row);
    }
}

/* Bounds below which the integer sums equal the CPU's chains. */
struct ExactBounds {
    unsigned long long below[VQX_CUDA_FLOAT_SUMS_MAX];
};

/* Partial sums of the C's chain are multiples of the terms' grain, below
 * the total: the chain is exact, so equal to the integer sum, while the
 * total stays below 2^53 grains. Samples are multiples of 2^-(bpc - 8),
 * squares of 2^-2(bpc - 8) (those rounded to a float, above 12 bits, of
 * coarser powers of two); the sums count 2^-16. */
static ExactBounds exact_bounds(int kind, unsigned bpc)
{
    const auto bound = [](unsigned grain) { return grain >= 11 ? ~0ull : 1ull << (53 + grain); };
    const unsigned sample_grain = 16 - (bpc - 8), square_grain = 16 - 2 * (bpc - 8);
    ExactBounds b = {};
    if (kind == VQX_CUDA_FLOAT_PSNR) {
        b.below[0] = bound(square_grain);
    } else {
        b.below[0] = b.below[1] = bound(sample_grain);
        b.below[2] = b.below[3] = bound(square_grain);
    }
    return b;
}

/* The CPU's chains themselves, when an integer sum may differ from them
 * (or when forced, for the kernel checks): one warp walks the plane in
 * raster order, each lane converting one sample pair of 32, and every lane
 * adds the 32 terms in order, so that all hold the chain and none diverges. */
template <typename P, int KIND>
__global__ void raster_chains(const P *ref, const P *dis, size_t pitch, unsigned w, unsigned h,
                              float inv_scale, ExactBounds bounds, int force,
                              VqxCudaFloatSums *out)
{
    bool exact = !force;
    for (int k = 0; k < n_sums(KIND); k++) exact = exact && out->units[k] < bounds.below[k];
    if (exact) return;
    double chain[n_sums(KIND)] = {};
    const unsigned lane = threadIdx.x;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x0 = 0; x0 < w; x0 += 32) {
            float t[VQX_CUDA_FLOAT_SUMS_MAX] = {};
            if (x0 + lane < w)
                float_terms<KIND>(luma(ref, pitch, x0 + lane, y, inv_scale, 0.0f),
                                  luma(dis, pitch, x0 + lane, y, inv_scale, 0.0f), t);
            const unsigned n = w - x0 < 32 ? w - x0 : 32;
            for (unsigned i = 0; i < n; i++)
                for (int k = 0; k < n_sums(KIND); k++)
                    chain[k] += (double)__shfl_sync(0xffffffffu, t[k], i);
        }
    if (lane) return;
    for (int k = 0; k < n_sums(KIND); k++) out->chain[k] = chain[k];
    out->chained = 1;
}

template <typename P, int KIND>
static void launch_sums(const void *ref, const void *dis, size_t pitch, unsigned w, unsigned h,
                        unsigned bpc, int force_chain, VqxCudaFloatSums *sums, cudaStream_t s)
{
    const float inv_scale = vqx_float_inverse_scale(bpc);
    exact_sums<P, KIND><<<h, VQX_BLOCK, 0, s>>>((const P *)ref, (const P *)dis, pitch, w,
                                                inv_scale, sums->units);
    raster_chains<P, KIND><<<1, 32, 0, s>>>((const P *)ref, (const P *)dis, pitch, w, h,
                                            inv_scale, exact_bounds(KIND, bpc), force_chain, sums);
}

extern "C" int vqx_cuda_float_sums(const void *ref, const void *dis, size_t pitch, unsigned w,
                                   unsigned h, unsigned bpc, int kind, int force_chain,
                                   VqxCudaFloatSums *sums, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    if (kind == VQX_CUDA_FLOAT_PSNR && bpc == 8)
        launch_sums<uint8_t, VQX_CUDA_FLOAT_PSNR>(ref, dis, pitch, w, h, bpc, force_chain, sums, s);
    else if (kind == VQX_CUDA_FLOAT_PSNR)
        launch_sums<uint16_t, VQX_CUDA_FLOAT_PSNR>(ref, dis, pitch, w, h, bpc, force_chain, sums, s);
    else if (bpc == 8)
        launch_sums<uint8_t, VQX_CUDA_FLOAT_MOMENT>(ref, dis, pitch, w, h, bpc, force_chain, sums, s);
    else
        launch_sums<uint16_t, VQX_CUDA_FLOAT_MOMENT>(ref, dis, pitch, w, h, bpc, force_chain, sums,
                                                     s);
    return launch_status();
}

/* ---- float_ansnr ---- */

#define ANSNR_TILE_H 32
#define ANSNR_TILE_W 8
#define ANSNR_RADIUS (FLOAT_ANSNR_DIS_TAPS / 2)
#define ANSNR_SPAN_H (ANSNR_TILE_H + 2 * ANSNR_RADIUS)
#define ANSNR_SPAN_W (ANSNR_TILE_W + 2 * ANSNR_RADIUS)

/* A tile of 32 rows by 8 columns a block, a thread per pixel, threads of a
 * warp down a column: the pixel's filtered values from the tile's samples
 * (converted once, borders mirrored, in shared memory), in the C's order of
 * taps, and its energy terms written column after column, for the row sums. */
template <typename P>
__global__ void ansnr_terms(const P *ref, const P *dis, size_t pitch, int w, int h,
                            float inv_scale, const float *taps, float *signal_terms,
                            float *noise_terms, float *filtered_ref, float *filtered_dis)
{
    __shared__ float span[2][ANSNR_SPAN_H][ANSNR_SPAN_W];
    __shared__ float ref_taps[FLOAT_ANSNR_REF_TAPS * FLOAT_ANSNR_REF_TAPS];
    __shared__ float dis_taps[FLOAT_ANSNR_DIS_TAPS * FLOAT_ANSNR_DIS_TAPS];
    const int y0 = blockIdx.y * ANSNR_TILE_H, x0 = blockIdx.x * ANSNR_TILE_W;
    const int tid = threadIdx.y * ANSNR_TILE_H + threadIdx.x;
    if (tid < FLOAT_ANSNR_REF_TAPS * FLOAT_ANSNR_REF_TAPS) ref_taps[tid] = taps[tid];
    if (tid < FLOAT_ANSNR_DIS_TAPS * FLOAT_ANSNR_DIS_TAPS)
        dis_taps[tid] = taps[FLOAT_ANSNR_REF_TAPS * FLOAT_ANSNR_REF_TAPS + tid];
    for (int i = tid; i < ANSNR_SPAN_H * ANSNR_SPAN_W; i += ANSNR_TILE_H * ANSNR_TILE_W) {
        const int sy = y0 - ANSNR_RADIUS + i / ANSNR_SPAN_W;
        const int sx = x0 - ANSNR_RADIUS + i % ANSNR_SPAN_W;
        if (sy > h + ANSNR_RADIUS - 1 || sx > w + ANSNR_RADIUS - 1) continue; /* never read */
        const int my = vqx_mirror_hybrid(sy, h), mx = vqx_mirror_hybrid(sx, w);
        span[0][i / ANSNR_SPAN_W][i % ANSNR_SPAN_W] = luma(ref, pitch, mx, my, inv_scale, -128.0f);
        span[1][i / ANSNR_SPAN_W][i % ANSNR_SPAN_W] = luma(dis, pitch, mx, my, inv_scale, -128.0f);
    }
    __syncthreads();
    const int y = y0 + threadIdx.x, x = x0 + threadIdx.y;
    if (y >= h || x >= w) return;
    float filtered[2] = { 0.0f, 0.0f };
    for (int which = 0; which < 2; which++) {
        const int n = which ? FLOAT_ANSNR_DIS_TAPS : FLOAT_ANSNR_REF_TAPS;
        const float *f = which ? dis_taps : ref_taps;
        const int top = threadIdx.x + ANSNR_RADIUS - n / 2, left = threadIdx.y + ANSNR_RADIUS - n / 2;
        for (int i = 0; i < n; i++)
            filtered[which] += vqx_float_tap_sum(f + i * n, &span[which][top + i][left], n);
    }
    const size_t at = (size_t)x * h + y;
    signal_terms[at] = filtered[0] * filtered[0];
    noise_terms[at] = vqx_float_squared_error(filtered[0], filtered[1]);
    if (filtered_ref) {
        filtered_ref[(size_t)y * w + x] = filtered[0];
        filtered_dis[(size_t)y * w + x] = filtered[1];
    }
}

extern "C" int vqx_cuda_float_ansnr(const VqxCudaFloatAnsnr *job, float *total, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    const dim3 block(ANSNR_TILE_H, ANSNR_TILE_W);
    const dim3 grid((job->w + ANSNR_TILE_W - 1) / ANSNR_TILE_W,
                    (job->h + ANSNR_TILE_H - 1) / ANSNR_TILE_H);
    const float inv_scale = vqx_float_inverse_scale(job->bpc);
    const size_t plane = (size_t)job->w * job->h;
    if (job->bpc == 8)
        ansnr_terms<<<grid, block, 0, s>>>((const uint8_t *)job->ref, (const uint8_t *)job->dis,
                                           job->pitch, job->w, job->h, inv_scale, job->taps,
                                           job->terms, job->terms + plane,
                                           job->filtered_ref, job->filtered_dis);
    else
        ansnr_terms<<<grid, block, 0, s>>>((const uint16_t *)job->ref, (const uint16_t *)job->dis,
                                           job->pitch, job->w, job->h, inv_scale, job->taps,
                                           job->terms, job->terms + plane,
                                           job->filtered_ref, job->filtered_dis);
    const VqxCudaRowChains energies = { job->terms, plane, 2, job->w, job->h, job->row_sums,
                                        total };
    vqx_cuda_row_chains(&energies, s);
    return launch_status();
}

/* ---- float_motion ---- */

/* The column pass of the blur, a thread per sample: the taps down the
 * column, rows mirrored, on the samples as floats offset by -128. */
template <typename P>
__global__ void motion_blur_columns(const P *src, size_t pitch, int w, int h, float inv_scale,
                                    const float *taps, int n_taps, float *mid)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w) return;
    float v[FLOAT_MOTION_MAX_TAPS];
    for (int k = 0; k < n_taps; k++)
        v[k] = luma(src, pitch, x, vqx_reflect101(y - n_taps / 2 + k, h), inv_scale,
                    -128.0f);
    mid[(size_t)y * w + x] = vqx_float_tap_sum(taps, v, n_taps);
}

/* The row pass, columns mirrored. */
__global__ void motion_blur_rows(const float *mid, int w, const float *taps, int n_taps,
                                 float *out)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w) return;
    const float *row = mid + (size_t)y * w;
    float v[FLOAT_MOTION_MAX_TAPS];
    for (int k = 0; k < n_taps; k++) v[k] = row[vqx_reflect101(x - n_taps / 2 + k, w)];
    out[(size_t)y * w + x] = vqx_float_tap_sum(taps, v, n_taps);
}

/* motion_add_scale1's bilinear halving (resample.c), a thread per output. */
__global__ void motion_halve(const float *src, int w, const int *row_index, const int *col_index,
                             const float *row_weight, const float *col_weight, int half_w,
                             float *dst)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= half_w) return;
    dst[(size_t)y * half_w + x] = vqx_resample_bilinear(
        row_weight + 2 * y, col_weight + 2 * x, src + (size_t)row_index[2 * y] * w,
        src + (size_t)row_index[2 * y + 1] * w, col_index[2 * x], col_index[2 * x + 1]);
}

/* Each row's float sum of |a - b| in x order, a thread per row. */
__global__ void motion_row_sads(const float *a, const float *b, int w, int h, float *row_sums)
{
    const int y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y >= h) return;
    const float *ra = a + (size_t)y * w, *rb = b + (size_t)y * w;
    float sum = 0;
    for (int x = 0; x < w; x++) sum += vqx_float_abs_diff(ra[x], rb[x]);
    row_sums[y] = sum;
}

/* The rows' sums added in row order. */
__global__ void motion_total(const float *row_sums, int h, float *total)
{
    float sum = 0;
    for (int y = 0; y < h; y++) sum += row_sums[y];
    *total = sum;
}

static void motion_sad(const float *a, const float *b, int w, int h, float *row_sums,
                       float *total, cudaStream_t s)
{
    motion_row_sads<<<(h + 127) / 128, 128, 0, s>>>(a, b, w, h, row_sums);
    motion_total<<<1, 1, 0, s>>>(row_sums, h, total);
}

extern "C" int vqx_cuda_float_motion_plane(const VqxCudaFloatMotionPlane *p, float totals[2],
                                           void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    const dim3 grid((p->w + VQX_BLOCK - 1) / VQX_BLOCK, p->h);
    const float inv_scale = vqx_float_inverse_scale(p->bpc);
    if (p->bpc == 8)
        motion_blur_columns<<<grid, VQX_BLOCK, 0, s>>>((const uint8_t *)p->src, p->pitch, p->w,
                                                       p->h, inv_scale, p->taps, p->n_taps, p->mid);
    else
        motion_blur_columns<<<grid, VQX_BLOCK, 0, s>>>((const uint16_t *)p->src, p->pitch, p->w,
                                                       p->h, inv_scale, p->taps, p->n_taps, p->mid);
    motion_blur_rows<<<grid, VQX_BLOCK, 0, s>>>(p->mid, p->w, p->taps, p->n_taps, p->present);
    motion_sad(p->past, p->present, p->w, p->h, p->row_sums, &totals[0], s);
    if (p->row_index) {
        const dim3 half_grid((p->half_w + VQX_BLOCK - 1) / VQX_BLOCK, p->half_h);
        motion_halve<<<half_grid, VQX_BLOCK, 0, s>>>(p->present, p->w, p->row_index, p->col_index,
                                                     p->row_weight, p->col_weight, p->half_w,
                                                     p->half_present);
        motion_sad(p->half_past, p->half_present, p->half_w, p->half_h, p->row_sums, &totals[1],
                   s);
    }
    return launch_status();
}
