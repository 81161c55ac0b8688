/* float_adm (float_adm.c): per level, the DWT of both pictures, the
 * decoupling, the masking thresholds and the p-norm's cubes (p = 3), and
 * the sums in the CPU's float order. The per-sample statements are
 * float_adm_pixel.h's, compiled here too. */
#include "cuda/common.cuh"
#include "cuda/kernels.h"
#include "feature/float_adm_pixel.h"
#include "feature/float_sample.h"

struct LevelInput {
    const void *plane;   /* level 0: the picture's samples; later: the previous approximation */
    size_t pitch;        /* in samples */
    int w, h;
};

template <typename P>
__device__ inline float input_at(const LevelInput &in, int x, int y, float inv_scale)
{
    const P v = ((const P *)in.plane)[(size_t)y * in.pitch + x];
    if constexpr (sizeof(P) == 4) return v;
    else return vqx_float_sample(v, inv_scale, -128.0f);
}

/* One output position of a level: the column pass at the four columns
 * around 2j (borders by ADM's rule), then the row pass of both. */
template <typename P>
__global__ void adm_dwt(LevelInput in, float inv_scale, const float *lo_taps, const float *hi_taps,
                        int w, int h, float *a, float *band_h, float *band_v, float *band_d)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x, i = blockIdx.y;
    if (j >= w) return;
    float flo[4], fhi[4];
    for (int t = 0; t < 4; t++) {
        flo[t] = lo_taps[t];
        fhi[t] = hi_taps[t];
    }
    int rows[4];
    for (int k = 0; k < 4; k++) rows[k] = vqx_mirror_hybrid(2 * i - 1 + k, in.h);
    float lo[4], hi[4];
    for (int t = 0; t < 4; t++) {
        const int c = vqx_mirror_hybrid(2 * j - 1 + t, in.w);
        const float s0 = input_at<P>(in, c, rows[0], inv_scale);
        const float s1 = input_at<P>(in, c, rows[1], inv_scale);
        const float s2 = input_at<P>(in, c, rows[2], inv_scale);
        const float s3 = input_at<P>(in, c, rows[3], inv_scale);
        lo[t] = vqx_float_adm_taps(flo, s0, s1, s2, s3);
        hi[t] = vqx_float_adm_taps(fhi, s0, s1, s2, s3);
    }
    const size_t o = (size_t)i * w + j;
    a[o] = vqx_float_adm_taps(flo, lo[0], lo[1], lo[2], lo[3]);
    band_v[o] = vqx_float_adm_taps(fhi, lo[0], lo[1], lo[2], lo[3]);
    band_h[o] = vqx_float_adm_taps(flo, hi[0], hi[1], hi[2], hi[3]);
    band_d[o] = vqx_float_adm_taps(fhi, hi[0], hi[1], hi[2], hi[3]);
}

__global__ void adm_decouple(VqxCudaFloatAdmBands ref, VqxCudaFloatAdmBands dis, int n,
                             FloatAdmDecoupleParams p, VqxCudaFloatAdmBands restored,
                             VqxCudaFloatAdmBands additive)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    if (x >= n) return;
    const float r[3] = { ref.band[0][x], ref.band[1][x], ref.band[2][x] };
    const float d[3] = { dis.band[0][x], dis.band[1][x], dis.band[2][x] };
    float rest[3], add[3];
    vqx_float_adm_decouple(r, d, &p, rest, add);
    for (int b = 0; b < 3; b++) {
        restored.band[b][x] = rest[b];
        additive.band[b][x] = add[b];
    }
}

/* The masking threshold at (i, j) of the bands `mask`: per orientation the
 * 3x3 window of |weighted| / 30 (rows and columns by ADM's rule), centre
 * |weighted| / 15, the orientations added from 0. */
__device__ inline float adm_threshold(const VqxCudaFloatAdmBands &mask, const float weight[3],
                                      int w, int h, int i, int j)
{
    const int rows[3] = { vqx_mirror_hybrid(i - 1, h), i, vqx_mirror_hybrid(i + 1, h) };
    const int cols[3] = { vqx_mirror_hybrid(j - 1, w), j, vqx_mirror_hybrid(j + 1, w) };
    float thr = 0.0f;
    for (int b = 0; b < 3; b++) {
        float win[3][3];
        for (int r = 0; r < 3; r++)
            for (int c = 0; c < 3; c++)
                win[r][c] = vqx_float_adm_mask(
                    fabsf(weight[b] * mask.band[b][(size_t)rows[r] * w + cols[c]]));
        const float centre = fabsf(weight[b] * mask.band[b][(size_t)i * w + j]);
        thr += vqx_float_adm_window(win[0], win[1], win[2], centre);
    }
    return thr;
}

/* The nine cubes of a scored position (the reference's; the restored part
 * under the additive's mask; the additive under the restored's), written
 * column after column of the scored region. */
__global__ void adm_cubes(VqxCudaFloatAdmLevelJob job, VqxCudaFloatAdmBands ref,
                          VqxCudaFloatAdmBands restored, VqxCudaFloatAdmBands additive)
{
    const int rw = job.right - job.left, rh = job.bottom - job.top;
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= rw) return;
    const int i = job.top + y, j = job.left + x;
    const size_t at = (size_t)i * job.w + j, out = (size_t)x * rh + y, plane = (size_t)rw * rh;
    const int w = job.w, h = job.h;
    const float thr_num = job.bypass_cm ? 0.0f : adm_threshold(additive, job.weight, w, h, i, j);
    const float thr_aim = job.bypass_cm ? 0.0f : adm_threshold(restored, job.weight, w, h, i, j);
    for (int b = 0; b < 3; b++) {
        job.cubes[(FLOAT_ADM_DEN * 3 + b) * plane + out] =
            vqx_float_adm_cube(ref.band[b][at], job.weight[b], 0.0f);
        job.cubes[(FLOAT_ADM_NUM * 3 + b) * plane + out] =
            vqx_float_adm_cube(restored.band[b][at], job.weight[b], thr_num);
        job.cubes[(FLOAT_ADM_AIM * 3 + b) * plane + out] =
            vqx_float_adm_cube(additive.band[b][at], job.weight[b], thr_aim);
    }
}

template <typename P>
static void launch_dwt(const LevelInput &in, float inv_scale, const VqxCudaFloatAdmLevelJob *job,
                       float *a, const VqxCudaFloatAdmBands &bands, cudaStream_t s)
{
    const dim3 grid((job->w + VQX_BLOCK - 1) / VQX_BLOCK, job->h);
    adm_dwt<P><<<grid, VQX_BLOCK, 0, s>>>(in, inv_scale, job->lo_taps, job->hi_taps, job->w,
                                          job->h, a, bands.band[0], bands.band[1], bands.band[2]);
}

extern "C" int vqx_cuda_float_adm_level(const VqxCudaFloatAdmLevelJob *job, void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    const float inv_scale = vqx_float_inverse_scale(job->bpc);
    for (int p = 0; p < 2; p++) {
        const LevelInput in = { job->src[p], job->src_pitch, job->src_w, job->src_h };
        if (job->level > 0)
            launch_dwt<float>(in, inv_scale, job, job->approx[p], job->bands[p], s);
        else if (job->bpc == 8)
            launch_dwt<uint8_t>(in, inv_scale, job, job->approx[p], job->bands[p], s);
        else
            launch_dwt<uint16_t>(in, inv_scale, job, job->approx[p], job->bands[p], s);
    }
    if (!job->scored) return launch_status();
    const int n = job->w * job->h;
    adm_decouple<<<(n + VQX_BLOCK - 1) / VQX_BLOCK, VQX_BLOCK, 0, s>>>(
        job->bands[0], job->bands[1], n, job->decouple, job->restored, job->additive);
    const int rw = job->right - job->left, rh = job->bottom - job->top;
    const dim3 grid((rw + VQX_BLOCK - 1) / VQX_BLOCK, rh);
    adm_cubes<<<grid, VQX_BLOCK, 0, s>>>(*job, job->bands[0], job->restored, job->additive);
    const VqxCudaRowChains sums = { job->cubes, (size_t)rw * rh, FLOAT_ADM_SUMS * 3, rw, rh,
                                    job->row_sums, job->sums };
    vqx_cuda_row_chains(&sums, s);
    return launch_status();
}
