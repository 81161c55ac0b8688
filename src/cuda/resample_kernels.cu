/* feature/resample.c's arithmetic per output sample, a thread each. */
#include "cuda/common.cuh"
#include "cuda/resample_kernels.h"
#include "feature/resample.h"
#include "feature/resample_sample.h"

template <unsigned NT, bool NORMALISE>
__device__ inline float window_sample(const VqxCudaResampler &r, const float *src, size_t pitch,
                                      unsigned x, unsigned y)
{
    const float *rows[NT];
    for (unsigned ty = 0; ty < NT; ty++) rows[ty] = src + (size_t)r.row_index[y * NT + ty] * pitch;
    return vqx_resample_window(rows, r.row_weight + (size_t)y * NT,
                               r.col_index + (size_t)x * NT, r.col_weight + (size_t)x * NT, NT,
                               NORMALISE);
}

__global__ void __launch_bounds__(VQX_BLOCK)
resample_planes(VqxCudaResampler r, const float *image, size_t pitch, size_t plane,
                float *scaled, size_t scaled_pitch, size_t scaled_plane)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y, p = blockIdx.z;
    if (x >= r.dst_w) return;
    const float *src = image + (size_t)p * plane;
    float v;
    switch (r.method) {
    case VQX_RESAMPLE_NEAREST:
        v = src[(size_t)r.row_index[y] * pitch + r.col_index[x]];
        break;
    case VQX_RESAMPLE_BILINEAR: {
        const float *r1 = src + (size_t)r.row_index[2 * y] * pitch;
        const float *r2 = src + (size_t)r.row_index[2 * y + 1] * pitch;
        v = vqx_resample_bilinear(r.row_weight + 2 * y, r.col_weight + 2 * x, r1, r2,
                                  r.col_index[2 * x], r.col_index[2 * x + 1]);
        break;
    }
    case VQX_RESAMPLE_BICUBIC:
        v = window_sample<4, false>(r, src, pitch, x, y);
        break;
    default:
        v = window_sample<9, true>(r, src, pitch, x, y);
        break;
    }
    scaled[(size_t)p * scaled_plane + (size_t)y * scaled_pitch + x] = v;
}

extern "C" int vqx_cuda_resample(const VqxCudaResampler *r, const float *src, size_t src_pitch,
                                 size_t src_plane, float *dst, size_t dst_pitch, size_t dst_plane,
                                 unsigned planes, void *stream)
{
    const dim3 grid((r->dst_w + VQX_BLOCK - 1) / VQX_BLOCK, r->dst_h, planes);
    resample_planes<<<grid, VQX_BLOCK, 0, (cudaStream_t)stream>>>(*r, src, src_pitch, src_plane,
                                                                 dst, dst_pitch, dst_plane);
    return launch_status();
}
