/* ssimulacra2's stages (ssimulacra2.c, ssimulacra2_dsp.c) on the device.
 * The per-sample statements are ssimulacra2_pixel.h's, compiled here too;
 * the sums are the CPU's chains, each added in raster order by one warp
 * whose lanes fetch the terms and all add them in order. Kernel parameters
 * the per-sample functions take by address are __grid_constant__ (read in
 * place, not copied per thread). */
#include "cuda/common.cuh"
#include "cuda/ssimulacra2_kernels.h"

namespace {

struct Planes6 {
    const float *p[6];
};
struct OutPlanes6 {
    float *p[6];
};

const dim3 pixel_block(32, 8);

dim3 pixel_grid(int w, int h, int z)
{
    return dim3((w + 31) / 32, (h + 7) / 8, z);
}

/* A thread per pixel of picture blockIdx.z: its R'G'B' from the luma and
 * the chroma samples that cover it (vqx_ssimu2_rgb16_row), then the table. */
template <typename P>
__global__ void linear_kernel(VqxCudaSsimu2Pics pics, const __grid_constant__ Ssimu2YuvCoeffs k,
                              const float *table, int w, int h, OutPlanes6 lin)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    const int i = blockIdx.z;
    const void *const *planes = i ? pics.dis : pics.ref;
    const P *luma = (const P *)planes[0], *cb = (const P *)planes[1], *cr = (const P *)planes[2];
    const unsigned cy = (unsigned)y >> pics.ssy, cx = (unsigned)x >> pics.ssx;
    uint16_t rgb[3];
    ssimu2_yuv_to_rgb16(&k, luma[(size_t)y * pics.pitch[0] + x],
                        cb[(size_t)cy * pics.pitch[1] + cx], cr[(size_t)cy * pics.pitch[2] + cx],
                        rgb);
    const size_t o = (size_t)y * w + x;
    for (int c = 0; c < 3; c++) lin.p[3 * i + c][o] = table[rgb[c]];
}

/* A thread per output of plane blockIdx.z. */
__global__ void downsample_kernel(Planes6 src, int w, int h, OutPlanes6 dst)
{
    const int ow = (w + 1) / 2, oh = (h + 1) / 2;
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= ow || y >= oh) return;
    dst.p[blockIdx.z][(size_t)y * ow + x] = ssimu2_downsample_at(src.p[blockIdx.z], w, w, h, x, y);
}

/* A thread per pixel of picture blockIdx.z. */
__global__ void xyb_kernel(Planes6 lin, int w, int h, float neg_bias_cbrt, float *maps,
                           size_t plane)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    const int i = blockIdx.z;
    const size_t o = (size_t)y * w + x;
    float v[3];
    ssimu2_xyb(lin.p[3 * i][o], lin.p[3 * i + 1][o], lin.p[3 * i + 2][o], neg_bias_cbrt, v);
    for (int c = 0; c < 3; c++) maps[(size_t)(c * 5 + 3 + i) * plane + o] = v[c];
}

/* A thread per pixel of XYB plane blockIdx.z: multiply_row's products. */
__global__ void products_kernel(float *maps, size_t plane, int w, int h)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    float *m = maps + (size_t)(blockIdx.z * 5) * plane + (size_t)y * w + x;
    const float a = m[3 * plane], b = m[4 * plane];
    m[0] = a * a;
    m[plane] = b * b;
    m[2 * plane] = a * b;
}

/* A thread per row of map blockIdx.y: the CPU's row, in its sequence. */
__global__ void blur_h_kernel(const __grid_constant__ Ssimu2Gauss g, const float *in, float *out,
                              size_t plane, int w, int h)
{
    const int y = blockIdx.x * blockDim.x + threadIdx.x;
    if (y >= h) return;
    const size_t o = (size_t)blockIdx.y * plane + (size_t)y * w;
    ssimu2_blur_h_row(&g, in + o, out + o, w);
}

/* A thread per column of map blockIdx.y: blur_v_c's recurrence for that
 * column (its strips only order the columns' steps among themselves). */
__global__ void blur_v_kernel(const __grid_constant__ Ssimu2Gauss g, const float *in, float *out,
                              size_t plane, int w, int h)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= w) return;
    const float *col = in + (size_t)blockIdx.y * plane + x;
    float *dst = out + (size_t)blockIdx.y * plane + x;
    const int radius = g.radius;
    float y1[3] = { 0.0f, 0.0f, 0.0f }, y2[3] = { 0.0f, 0.0f, 0.0f };
    for (int n = -radius + 1; n < h; n++) {
        const int top = n - radius - 1, bottom = n + radius - 1;
        const float sum = ssimu2_blur_v_sum(top >= 0 ? col + (size_t)top * w : nullptr,
                                            bottom < h ? col + (size_t)bottom * w : nullptr);
        const float v = ssimu2_blur_v_step(&g, sum, y1, y2);
        if (n >= 0) dst[(size_t)n * w] = v;
    }
}

/* A thread per pixel of XYB plane blockIdx.z: the SSIM error and the edge
 * difference, as ssim_sums and edge_sums compute them. */
__global__ void terms_kernel(const float *maps, const float *blurred, size_t plane, int w, int h,
                             double *terms)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    const int c = blockIdx.z;
    const size_t o = (size_t)y * w + x, n = (size_t)w * h;
    const float *m = maps + (size_t)(c * 5) * plane + o;
    const float *b = blurred + (size_t)(c * 5) * plane + o;
    const float mu1 = b[3 * plane], mu2 = b[4 * plane];
    terms[(size_t)(2 * c) * n + o] = ssimu2_ssim_error(mu1, mu2, b[0], b[plane], b[2 * plane]);
    terms[(size_t)(2 * c + 1) * n + o] = ssimu2_edge_diff(m[3 * plane], mu1, m[4 * plane], mu2);
}

struct SumsJob {
    size_t offset[SSIMU2_CUDA_SCALES];
    int w[SSIMU2_CUDA_SCALES], h[SSIMU2_CUDA_SCALES];
};

enum { CHUNK = 16 }; /* groups of 32 terms a lane fetches ahead */

/* Term k of the sums of a plane (SSIMU2_CUDA_SUMS' order) from its map's
 * value: the SSIM error and its fourth power, then ssimu2_edge_term's. */
__device__ inline double sum_term(double d, int k)
{
    return k == 0 ? d : k == 1 ? ssimu2_quartic(d) : ssimu2_edge_term(d, k - 2);
}

/* One warp per scale (blockIdx.x / 3), XYB plane (% 3) and sum (blockIdx.y,
 * SSIMU2_CUDA_SUMS' order): the map's values make their terms, added as
 * the CPU's chain of that sum (ssim_sums and edge_sums add each sum in
 * raster order; the sums are independent). */
__global__ void sums_kernel(const double *terms, SumsJob job, double *result)
{
    const int sc = blockIdx.x / 3, c = blockIdx.x % 3, k = blockIdx.y;
    const size_t n = (size_t)job.w[sc] * job.h[sc];
    const double *t = terms + job.offset[sc] + (size_t)(2 * c + (k >= 2)) * n;
    const double sum = warp_raster_chain<CHUNK>(
        n, [&](size_t i) { return t[i]; }, [&](double d) { return sum_term(d, k); });
    if (!threadIdx.x) result[(size_t)(sc * 3 + c) * SSIMU2_CUDA_SUMS + k] = sum;
}

} // namespace

extern "C" int vqx_cuda_ssimu2_linear(const VqxCudaSsimu2Pics *pics, const Ssimu2YuvCoeffs *yuv,
                                      const float *linear_of_u16, int w, int h,
                                      float *const lin[6], void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    OutPlanes6 out;
    for (int k = 0; k < 6; k++) out.p[k] = lin[k];
    if (pics->bpc == 8)
        linear_kernel<uint8_t><<<pixel_grid(w, h, 2), pixel_block, 0, s>>>(*pics, *yuv,
                                                                          linear_of_u16, w, h, out);
    else
        linear_kernel<uint16_t><<<pixel_grid(w, h, 2), pixel_block, 0, s>>>(*pics, *yuv,
                                                                           linear_of_u16, w, h,
                                                                           out);
    return launch_status();
}

extern "C" int vqx_cuda_ssimu2_downsample(const float *const src[6], int w, int h,
                                          float *const dst[6], void *stream)
{
    Planes6 in;
    OutPlanes6 out;
    for (int k = 0; k < 6; k++) {
        in.p[k] = src[k];
        out.p[k] = dst[k];
    }
    downsample_kernel<<<pixel_grid((w + 1) / 2, (h + 1) / 2, 6), pixel_block, 0,
                        (cudaStream_t)stream>>>(in, w, h, out);
    return launch_status();
}

extern "C" int vqx_cuda_ssimu2_xyb(const float *const lin[6], int w, int h, float neg_bias_cbrt,
                                   float *maps, size_t plane, void *stream)
{
    Planes6 in;
    for (int k = 0; k < 6; k++) in.p[k] = lin[k];
    xyb_kernel<<<pixel_grid(w, h, 2), pixel_block, 0, (cudaStream_t)stream>>>(
        in, w, h, neg_bias_cbrt, maps, plane);
    return launch_status();
}

extern "C" int vqx_cuda_ssimu2_products(float *maps, size_t plane, int w, int h, void *stream)
{
    products_kernel<<<pixel_grid(w, h, 3), pixel_block, 0, (cudaStream_t)stream>>>(maps, plane,
                                                                                  w, h);
    return launch_status();
}

extern "C" int vqx_cuda_ssimu2_blur(const Ssimu2Gauss *g, const float *in, float *scratch,
                                    float *out, size_t plane, int n_maps, int w, int h,
                                    void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    blur_h_kernel<<<dim3((h + 63) / 64, n_maps), 64, 0, s>>>(*g, in, scratch, plane, w, h);
    blur_v_kernel<<<dim3((w + 127) / 128, n_maps), 128, 0, s>>>(*g, scratch, out, plane, w, h);
    return launch_status();
}

extern "C" int vqx_cuda_ssimu2_terms(const float *maps, const float *blurred, size_t plane, int w,
                                     int h, double *terms, void *stream)
{
    terms_kernel<<<pixel_grid(w, h, 3), pixel_block, 0, (cudaStream_t)stream>>>(
        maps, blurred, plane, w, h, terms);
    return launch_status();
}

extern "C" int vqx_cuda_ssimu2_sums(const double *terms, const size_t offset[SSIMU2_CUDA_SCALES],
                                    const int w[SSIMU2_CUDA_SCALES],
                                    const int h[SSIMU2_CUDA_SCALES], int n_scales,
                                    double *result, void *stream)
{
    SumsJob job = {};
    for (int sc = 0; sc < n_scales; sc++) {
        job.offset[sc] = offset[sc];
        job.w[sc] = w[sc];
        job.h[sc] = h[sc];
    }
    sums_kernel<<<dim3(3 * n_scales, SSIMU2_CUDA_SUMS), 32, 0, (cudaStream_t)stream>>>(terms, job,
                                                                                    result);
    return launch_status();
}

extern "C" int vqx_cuda_ssimu2(const VqxCudaSsimu2 *job, double *result, void *stream)
{
    int ret = vqx_cuda_ssimu2_linear(&job->pics, &job->yuv, job->linear_of_u16, job->w[0],
                                     job->h[0], job->lin[0], stream);
    for (int sc = 0; sc < job->n_scales && !ret; sc++) {
        const int w = job->w[sc], h = job->h[sc];
        if (sc) {
            ret = vqx_cuda_ssimu2_downsample(job->lin[sc - 1], job->w[sc - 1], job->h[sc - 1],
                                             job->lin[sc], stream);
            if (ret) break;
        }
        ret = vqx_cuda_ssimu2_xyb(job->lin[sc], w, h, job->neg_bias_cbrt, job->maps, job->plane,
                                  stream);
        if (!ret) ret = vqx_cuda_ssimu2_products(job->maps, job->plane, w, h, stream);
        if (!ret)
            ret = vqx_cuda_ssimu2_blur(&job->gauss, job->maps, job->scratch, job->blurred,
                                       job->plane, SSIMU2_CUDA_MAPS, w, h, stream);
        if (!ret)
            ret = vqx_cuda_ssimu2_terms(job->maps, job->blurred, job->plane, w, h,
                                        job->terms + job->term_offset[sc], stream);
    }
    if (!ret)
        ret = vqx_cuda_ssimu2_sums(job->terms, job->term_offset, job->w, job->h, job->n_scales,
                                   result, stream);
    return ret;
}
