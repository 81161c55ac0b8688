/* float_vif (float_vif.c): the luma as floats, each scale's moments,
 * statistic and sums, and the downsampling between scales. The per-sample
 * statements are float_sample.h's and float_vif_pixel.h's, compiled here
 * too; the sums keep the CPU's float order. */
#include "cuda/common.cuh"
#include "cuda/kernels.h"
#include "feature/float_sample.h"
#include "feature/float_vif_pixel.h"

template <typename P>
__global__ void convert_plane(const P *src, size_t pitch, int w, int h, float inv_scale,
                              float offset, float *dst)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w) return;
    dst[(size_t)y * w + x] = vqx_float_sample(src[(size_t)y * pitch + x], inv_scale, offset);
}

extern "C" int vqx_cuda_float_convert(const void *src, size_t pitch, int w, int h, unsigned bpc,
                                      float offset, float *dst, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    const dim3 grid((w + VQX_BLOCK - 1) / VQX_BLOCK, h);
    const float inv_scale = vqx_float_inverse_scale(bpc);
    if (bpc == 8)
        convert_plane<<<grid, VQX_BLOCK, 0, s>>>((const uint8_t *)src, pitch, w, h, inv_scale,
                                                 offset, dst);
    else
        convert_plane<<<grid, VQX_BLOCK, 0, s>>>((const uint16_t *)src, pitch, w, h, inv_scale,
                                                 offset, dst);
    return launch_status();
}

/* The vertical moments of one pixel, rows mirrored (reflect-101). */
__global__ void vif_moments(const float *ref, const float *dis, int w, int h, const float *f,
                            int width, float *moments)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w) return;
    float acc[5] = { 0.0f, 0.0f, 0.0f, 0.0f, 0.0f };
    for (int k = 0; k < width; k++) {
        const size_t at = (size_t)vqx_reflect101(y - width / 2 + k, h) * w + x;
        vqx_float_vif_moment_tap(f[k], ref[at], dis[at], acc);
    }
    const size_t plane = (size_t)w * h;
    for (int a = 0; a < 5; a++) moments[a * plane + (size_t)y * w + x] = acc[a];
}

/* The horizontal pass of the five moments (columns mirrored) and the
 * statistic of one pixel; num and den are written column after column. */
__global__ void vif_pixel_stats(const float *moments, int w, int h, const float *f, int width,
                                FloatVifStat st, float *num, float *den)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w) return;
    const size_t plane = (size_t)w * h;
    float o[5];
    for (int a = 0; a < 5; a++) {
        const float *row = moments + a * plane + (size_t)y * w;
        float sum = 0.0f;
        for (int k = 0; k < width; k++) sum += f[k] * row[vqx_reflect101(x - width / 2 + k, w)];
        o[a] = sum;
    }
    float n, d;
    vqx_float_vif_pixel_stat(&st, o[0], o[1], o[2], o[3], o[4], &n, &d);
    num[(size_t)x * h + y] = n;
    den[(size_t)x * h + y] = d;
}

extern "C" int vqx_cuda_float_vif_scale(const VqxCudaFloatVifScale *j, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    const dim3 grid((j->w + VQX_BLOCK - 1) / VQX_BLOCK, j->h);
    const size_t plane = (size_t)j->w * j->h;
    vif_moments<<<grid, VQX_BLOCK, 0, s>>>(j->ref, j->dis, j->w, j->h, j->filter, j->width,
                                           j->moments);
    vif_pixel_stats<<<grid, VQX_BLOCK, 0, s>>>(j->moments, j->w, j->h, j->filter, j->width,
                                               j->stat, j->terms, j->terms + plane);
    const VqxCudaRowChains sums = { j->terms, plane, 2, j->w, j->h, j->row_sums, j->total };
    vqx_cuda_row_chains(&sums, s);
    return launch_status();
}

/* The next scale: the column pass of the next filter at the source's even
 * rows, over every source column ... */
__global__ void vif_down_columns(const float *src, int src_w, int src_h, const float *f,
                                 int width, float *rows)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (x >= src_w) return;
    float sum = 0.0f;
    for (int k = 0; k < width; k++)
        sum += f[k] * src[(size_t)vqx_reflect101(2 * i - width / 2 + k, src_h) * src_w + x];
    rows[(size_t)i * src_w + x] = sum;
}

/* ... then the row pass at the even columns the next scale keeps. */
__global__ void vif_down_rows(const float *rows, int src_w, const float *f, int width, int w,
                              float *dst)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j >= w) return;
    const float *row = rows + (size_t)i * src_w;
    float sum = 0.0f;
    for (int k = 0; k < width; k++)
        sum += f[k] * row[vqx_reflect101(2 * j - width / 2 + k, src_w)];
    dst[(size_t)i * w + j] = sum;
}

extern "C" int vqx_cuda_float_vif_downsample(const VqxCudaFloatVifDown *d, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    const float *src[2] = { d->src_ref, d->src_dis };
    float *dst[2] = { d->ref, d->dis };
    for (int p = 0; p < 2; p++) {
        const dim3 cols((d->src_w + VQX_BLOCK - 1) / VQX_BLOCK, d->h);
        vif_down_columns<<<cols, VQX_BLOCK, 0, s>>>(src[p], d->src_w, d->src_h, d->filter,
                                                    d->width, d->rows);
        const dim3 out((d->w + VQX_BLOCK - 1) / VQX_BLOCK, d->h);
        vif_down_rows<<<out, VQX_BLOCK, 0, s>>>(d->rows, d->src_w, d->filter, d->width, d->w,
                                                dst[p]);
    }
    return launch_status();
}
