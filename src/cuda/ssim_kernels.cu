/* float_ssim and float_ms_ssim (ssim_core.c, ssim_dsp.c): the decimators,
 * the two Gaussian passes, the SSIM terms of every position and their
 * running sums. The per-sample statements are ssim_pixel.h's, compiled
 * here too; each sum is the CPU's double chain over the positions in
 * raster order, added by one warp. */
#include "cuda/common.cuh"
#include "cuda/ssim_kernels.h"

namespace {

/* A thread per output; the block's output row shares the rows of its
 * vertical taps, listed once in shared memory (factor pointers). */
__global__ void box_kernel(const float *src, int w, int h, unsigned factor, float *dst, int dw)
{
    extern __shared__ const float *box_rows[];
    const unsigned y = blockIdx.y;
    for (unsigned v = threadIdx.x; v < factor; v += blockDim.x)
        box_rows[v] = src + (size_t)vqx_ssim_box_row(y, v, factor, (unsigned)h) * w;
    __syncthreads();
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= dw) return;
    dst[(size_t)y * dw + x] = vqx_ssim_box_sample(box_rows, (unsigned)w, factor, (unsigned)x);
}

/* A thread per output of the low-pass. */
__global__ void lpf_kernel(const float *src, int w, int h, float *dst, int dw)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= dw) return;
    const float *rows[2 * VQX_SSIM_LPF_RADIUS + 1];
    vqx_ssim_lpf_rows(src, w, (unsigned)h, (unsigned)y, rows);
    dst[(size_t)y * dw + x] = vqx_ssim_lpf_sample(rows, (unsigned)w, (unsigned)x);
}

#define SPAN (VQX_BLOCK + VQX_SSIM_WINDOW - 1)

/* A block per segment of VQX_BLOCK outputs of a row: the segment's five
 * quantities (with the window's ten more columns) in shared memory, then
 * a thread per output filters them as the CPU's horizontal pass does
 * (rows[k] = row + k). */
__global__ void horizontal_kernel(const float *ref, const float *cmp, int w, int h, float *out)
{
    __shared__ float quantity[VQX_SSIM_N_STATS][SPAN];
    const int ow = w - (VQX_SSIM_WINDOW - 1);
    const int x0 = blockIdx.x * VQX_BLOCK, y = blockIdx.y;
    const float *r = ref + (size_t)y * w, *c = cmp + (size_t)y * w;
    for (int i = threadIdx.x; i < SPAN && x0 + i < w; i += blockDim.x) {
        float q[VQX_SSIM_N_STATS];
        vqx_ssim_inputs(r[x0 + i], c[x0 + i], q);
        for (int k = 0; k < VQX_SSIM_N_STATS; k++) quantity[k][i] = q[k];
    }
    __syncthreads();
    const int x = x0 + threadIdx.x;
    if (x >= ow) return;
    const size_t plane = (size_t)ow * h;
    for (int k = 0; k < VQX_SSIM_N_STATS; k++) {
        const float *rows[VQX_SSIM_WINDOW];
        for (int t = 0; t < VQX_SSIM_WINDOW; t++) rows[t] = quantity[k] + t;
        out[k * plane + (size_t)y * ow + x] = vqx_ssim_gauss_sum(rows, threadIdx.x);
    }
}

/* A thread per position: the vertical pass of the five quantities (the
 * window's eleven rows, top first) and the position's terms. */
__global__ void terms_kernel(const float *horizontal, int ow, int h, float *stats, double *terms)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= ow) return;
    const int oh = h - (VQX_SSIM_WINDOW - 1);
    const size_t in_plane = (size_t)ow * h, plane = (size_t)ow * oh, at = (size_t)y * ow + x;
    float st[VQX_SSIM_N_STATS];
    for (int q = 0; q < VQX_SSIM_N_STATS; q++) {
        const float *rows[VQX_SSIM_WINDOW];
        for (int k = 0; k < VQX_SSIM_WINDOW; k++)
            rows[k] = horizontal + q * in_plane + (size_t)(y + k) * ow;
        st[q] = vqx_ssim_gauss_sum(rows, (size_t)x);
    }
    if (stats)
        for (int q = 0; q < VQX_SSIM_N_STATS; q++) stats[q * plane + at] = st[q];
    double t[VQX_SSIM_N_TERMS];
    vqx_ssim_terms(st, t);
    for (int i = 0; i < VQX_SSIM_N_TERMS; i++) terms[i * plane + at] = t[i];
}

enum { CHUNK = 8 }; /* groups of 32 positions a lane fetches ahead */

/* The terms of a position that a sum reads (the others stay 0). */
struct Terms {
    double t[VQX_SSIM_N_TERMS];
};

/* One warp per plane (blockIdx.x) and sum (blockIdx.y): each position's
 * value of the sum from its terms, added as the CPU's chain (raster order,
 * from 0.0: vqx_ssim_score_c row after row). */
__global__ void sums_kernel(VqxCudaSsimChains c, double (*sums_out)[VQX_SSIM_N_SUMS])
{
    const int p = blockIdx.x;
    const unsigned k = blockIdx.y;
    if (!(c.sums >> k & 1)) return;
    const size_t n = c.positions[p];
    const double *terms = c.terms[p];
    bool reads[VQX_SSIM_N_TERMS];
    for (int t = 0; t < VQX_SSIM_N_TERMS; t++) reads[t] = vqx_ssim_sum_reads(k, t);
    const double sum = warp_raster_chain<CHUNK>(
        n,
        [&](size_t i) {
            Terms f = {};
            for (int t = 0; t < VQX_SSIM_N_TERMS; t++)
                if (reads[t]) f.t[t] = terms[t * n + i];
            return f;
        },
        [&](const Terms &f) { return vqx_ssim_sum_term(f.t, k); });
    if (!threadIdx.x) sums_out[p][k] = sum;
}

} // namespace

extern "C" int vqx_cuda_ssim_box(const float *src, int w, int h, unsigned factor, float *dst,
                                 int dw, int dh, void *stream)
{
    const dim3 grid((dw + VQX_BLOCK - 1) / VQX_BLOCK, dh);
    box_kernel<<<grid, VQX_BLOCK, factor * sizeof(const float *), (cudaStream_t)stream>>>(
        src, w, h, factor, dst, dw);
    return launch_status();
}

extern "C" int vqx_cuda_ssim_lpf(const float *src, int w, int h, float *dst, int dw, int dh,
                                 void *stream)
{
    const dim3 grid((dw + VQX_BLOCK - 1) / VQX_BLOCK, dh);
    lpf_kernel<<<grid, VQX_BLOCK, 0, (cudaStream_t)stream>>>(src, w, h, dst, dw);
    return launch_status();
}

extern "C" int vqx_cuda_ssim_terms(const VqxCudaSsimPlane *p, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    const int ow = p->w - (VQX_SSIM_WINDOW - 1), oh = p->h - (VQX_SSIM_WINDOW - 1);
    const dim3 rows((ow + VQX_BLOCK - 1) / VQX_BLOCK, p->h);
    horizontal_kernel<<<rows, VQX_BLOCK, 0, s>>>(p->ref, p->cmp, p->w, p->h, p->horizontal);
    const dim3 positions((ow + VQX_BLOCK - 1) / VQX_BLOCK, oh);
    terms_kernel<<<positions, VQX_BLOCK, 0, s>>>(p->horizontal, ow, p->h, p->stats, p->terms);
    return launch_status();
}

extern "C" int vqx_cuda_ssim_sums(const VqxCudaSsimChains *chains,
                                  double (*sums_out)[VQX_SSIM_N_SUMS], void *stream)
{
    sums_kernel<<<dim3(chains->n_planes, VQX_SSIM_N_SUMS), 32, 0, (cudaStream_t)stream>>>(
        *chains, sums_out);
    return launch_status();
}
