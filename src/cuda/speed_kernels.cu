/*
 * SpEED (speed.c) on the device, up to four planes of one geometry per
 * launch. Every float and double sum runs over its terms in the CPU's
 * order; what runs in parallel are independent outputs (samples, matrix
 * elements, covariance pairs, block columns). The eigenvalues and the
 * scalar steps of the QR are the CPU's own code (feature/speed_linalg.h).
 */
#include "cuda/common.cuh"
#include "cuda/speed_kernels.h"
#include "feature/speed_linalg.h"

#define N SPEED_DIM
/* Decimated outputs of one row that a block of the decimation makes. */
#define DEC_OUTPUTS 16
/* Threads of the factorisation's blocks: one per matrix element. */
#define FACTOR_THREADS 640
#define SOLVE_THREADS 128

__device__ inline int mirror_index(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - i - 2 : i;
}

/* The job's fields that kernels read, by value. */
struct Dims {
    SpeedGeometry geo;
    size_t image_pitch, scaled_pitch;
};

static Dims dims_of(const VqxCudaSpeedJob *j)
{
    return Dims{ j->geo, j->image_pitch, j->scaled_pitch };
}

/* ---- load ---- */

struct Sources {
    const void *minuend[VQX_CUDA_SPEED_PLANES], *subtrahend[VQX_CUDA_SPEED_PLANES];
    size_t pitch[VQX_CUDA_SPEED_PLANES];
};

/* Entry p of a kernel argument's array, with constant indices: a dynamic
 * index would copy the whole argument to local memory. */
template <typename T>
__device__ inline T entry(const T (&a)[VQX_CUDA_SPEED_PLANES], unsigned p)
{
    return p == 0 ? a[0] : p == 1 ? a[1] : p == 2 ? a[2] : a[3];
}

/* Samples per thread of the load: fewer, larger blocks. */
#define LOAD_SAMPLES 4

template <typename P>
__global__ void __launch_bounds__(VQX_BLOCK)
load_planes(Sources src, Dims d, float inv_scale, float offset, float *image)
{
    const unsigned y = blockIdx.y, p = blockIdx.z;
    const P *minuend = (const P *)entry(src.minuend, p) + (size_t)y * entry(src.pitch, p);
    const P *subtrahend = (const P *)entry(src.subtrahend, p);
    if (subtrahend) subtrahend += (size_t)y * entry(src.pitch, p);
    float *out = image + ((size_t)p * d.geo.in_h + y) * d.image_pitch;
    for (int k = 0; k < LOAD_SAMPLES; k++) {
        const unsigned x = (blockIdx.x * LOAD_SAMPLES + k) * blockDim.x + threadIdx.x;
        if (x >= d.geo.in_w) return;
        const float a = (float)minuend[x] * inv_scale + offset;
        float v = a;
        if (subtrahend) {
            const float b = (float)subtrahend[x] * inv_scale + offset;
            v = a - b;
        }
        out[x] = v;
    }
}

/* ---- decimate ---- */

/* Block: DEC_OUTPUTS outputs of decimated row blockIdx.y. Each (output,
 * tap) pair's vertical sum over the taps in order goes to shared memory
 * (a column read by two outputs is summed twice, to the same value), then
 * each output sums its row in tap order. */
__global__ void __launch_bounds__(VQX_BLOCK)
decimate_planes(VqxCudaSpeedFilters f, Dims d, const float *img, size_t pitch,
                size_t plane_rows, float *dec)
{
    __shared__ float vert[DEC_OUTPUTS][SPEED_MAX_TAPS];
    const int taps = f.antialias_len, half = taps / 2;
    const int j0 = blockIdx.x * DEC_OUTPUTS, i = blockIdx.y, p = blockIdx.z;
    const int w = (int)d.geo.scaled_w, h = (int)d.geo.scaled_h, dec_w = (int)d.geo.dec_w;
    const int outs = min(DEC_OUTPUTS, dec_w - j0);
    const float *src = img + (size_t)p * plane_rows * pitch;
    const int y = i * SPEED_DECIMATION;
    for (int item = threadIdx.x; item < outs * taps; item += blockDim.x) {
        const int jj = item / taps, t = item % taps;
        const int x = mirror_index((j0 + jj) * SPEED_DECIMATION - half + t, w);
        float acc = 0;
        for (int k = 0; k < taps; k++)
            acc += f.antialias[k] * src[(size_t)mirror_index(y - half + k, h) * pitch + x];
        vert[jj][t] = acc;
    }
    __syncthreads();
    if ((int)threadIdx.x < outs) {
        float acc = 0;
        for (int t = 0; t < taps; t++)
            acc += f.antialias[t] * vert[threadIdx.x][t];
        dec[((size_t)p * d.geo.dec_h + i) * dec_w + j0 + threadIdx.x] = acc;
    }
}

/* ---- demean ---- */

/* One output per thread: the local mean's vertical sums of the columns it
 * reads (each in tap order), its horizontal sum in tap order, subtracted. */
__global__ void __launch_bounds__(VQX_BLOCK)
demean_planes(VqxCudaSpeedFilters f, Dims d, const float *dec, float *demeaned)
{
    const int w = (int)d.geo.dec_w, h = (int)d.geo.dec_h, p = blockIdx.y;
    const int at = blockIdx.x * blockDim.x + threadIdx.x;
    if (at >= w * h) return;
    const int i = at / w, j = at % w;
    const int taps = f.local_mean_len, half = taps / 2;
    const float *plane = dec + (size_t)p * w * h;
    float local = 0;
    for (int t = 0; t < taps; t++) {
        const int col = mirror_index(j - half + t, w);
        float v = 0;
        for (int k = 0; k < taps; k++)
            v += f.local_mean[k] * plane[mirror_index(i - half + k, h) * w + col];
        local += f.local_mean[t] * v;
    }
    demeaned[(size_t)p * w * h + at] = plane[at] - local;
}

/* ---- covariance ---- */

/* The CPU sums the covariance in double: so does the device, in fp64, which
 * the H200 runs fast. The one place to change for a GPU without fast fp64
 * (exact float pairs with the same rounding); the few double steps of the
 * linear algebra are in speed_linalg.h, shared with the CPU. */
typedef double cov_real;

/* Terms loaded ahead of a sequential sum: their loads and products do not
 * wait on the sum, which adds them in order. */
#define COV_BATCH 8

/* Pairs per block of the covariance: one warp, so that the pairs spread
 * over the multiprocessors (one would be bound by its double-precision
 * conversions). */
#define COV_PAIRS 32
#define COV_BLOCKS ((N * (N + 1) / 2 + COV_PAIRS - 1) / COV_PAIRS)

/* Blocks (blockIdx.x) of COV_PAIRS pairs of plane blockIdx.y: threads
 * 0..24 sum each offset's window in raster order (float; every block
 * makes the same means), then thread t sums pair k = block * COV_PAIRS + t
 * (x, y <= x, in the CPU's packed order) in raster order (double). */
__global__ void __launch_bounds__(COV_PAIRS)
covariance_planes(Dims d, const float *demeaned, float *cov_out)
{
    __shared__ float mean[N];
    const int w = (int)d.geo.dec_w, p = blockIdx.y, t = threadIdx.x;
    const float *dec = demeaned + (size_t)p * w * d.geo.dec_h;
    const unsigned cw = d.geo.cov_w, ch = d.geo.cov_h, n = cw * ch;
    if (t < N) {
        const float *base = dec + (t / SPEED_BLOCK) * w + t % SPEED_BLOCK;
        float sum = 0;
        for (unsigned i = 0; i < ch; i++) {
            const float *row = base + i * w;
            unsigned j = 0;
            for (; j + COV_BATCH <= cw; j += COV_BATCH) {
                float v[COV_BATCH];
#pragma unroll
                for (int b = 0; b < COV_BATCH; b++) v[b] = row[j + b];
#pragma unroll
                for (int b = 0; b < COV_BATCH; b++) sum += v[b];
            }
            for (; j < cw; j++)
                sum += row[j];
        }
        mean[t] = sum / n;
    }
    __syncthreads();
    const int k = blockIdx.x * COV_PAIRS + t;
    if (k >= N * (N + 1) / 2) return;
    int x = 0;
    while ((x + 1) * (x + 2) / 2 <= k) x++;
    const int y = k - x * (x + 1) / 2;
    const float *bx = dec + (x / SPEED_BLOCK) * w + x % SPEED_BLOCK;
    const float *by = dec + (y / SPEED_BLOCK) * w + y % SPEED_BLOCK;
    const cov_real mx = mean[x], my = mean[y];
    cov_real acc = 0;
    for (unsigned i = 0; i < ch; i++) {
        const float *rx = bx + i * w, *ry = by + i * w;
        unsigned j = 0;
        for (; j + COV_BATCH <= cw; j += COV_BATCH) {
            cov_real term[COV_BATCH];
#pragma unroll
            for (int b = 0; b < COV_BATCH; b++)
                term[b] = ((cov_real)rx[j + b] - mx) * ((cov_real)ry[j + b] - my);
#pragma unroll
            for (int b = 0; b < COV_BATCH; b++) acc += term[b];
        }
        for (; j < cw; j++)
            acc += ((cov_real)rx[j] - mx) * ((cov_real)ry[j] - my);
    }
    const float v = acc / (cov_real)n;
    cov_out[p * N * N + x * N + y] = v;
    cov_out[p * N * N + y * N + x] = v;
}

/* ---- factorise ---- */

/* out = a * b (N x N), one element per thread, then a barrier. */
__device__ inline void product(const float *a, const float *b, float *out)
{
    const int t = threadIdx.x;
    if (t < N * N) out[t] = speed_product_entry(a, b, N, t / N, t % N);
    __syncthreads();
}

/* speed_tridiagonalise by the first warp: each step's scalars and sums in
 * lane 0, its rows and elements over the lanes (rows < 32). */
__device__ void tridiagonalise_warp(float *a, float *d, float *sd, float *v, float *x)
{
    __shared__ float tau, scale, beta, alpha;
    __shared__ bool scaled;
    const int l = threadIdx.x;
    for (int i = 0; i < N - 2; i++) {
        const int lo = i + 1, r = lo + l;
        __syncwarp(); /* every lane has read the last step's scalars */
        if (l == 0) tau = speed_reflector_scalars(a, i, lo, &scaled, &scale, &beta);
        __syncwarp();
        if (scaled && r < N) a[r * N + i] = speed_reflector_scaled(a, i, lo, r, scale, beta);
        __syncwarp();
        if (tau == 0.0f) continue;
        if (r < N) v[r] = r == lo ? 1.0f : a[r * N + i];
        __syncwarp();
        if (r < N) x[r] = speed_reflector_image(a, v, tau, lo, r);
        __syncwarp();
        if (l == 0) alpha = speed_reflector_shift(x, v, tau, lo);
        __syncwarp();
        if (r < N) x[r] += alpha * v[r];
        __syncwarp();
        const int m = N - lo;
        for (int e = l; e < m * m; e += 32) {
            const int row = lo + e / m, col = lo + e % m;
            a[row * N + col] = speed_reflector_update(a, x, v, row, col);
        }
        __syncwarp();
    }
    if (l < N) d[l] = a[l * N + l];
    if (l < N - 1) sd[l] = a[(l + 1) * N + l];
    __syncwarp();
}

/* blockIdx.x 0: the eigenvalues, the tridiagonalisation by its first warp,
 * the QR iteration in one thread; 1: the QR of
 * vqx_speed_householder_qr, one thread per element. blockIdx.y: plane. */
__global__ void __launch_bounds__(FACTOR_THREADS)
factorise_planes(const float *cov_in, float *eig_out, float *q_out, float *r_out)
{
    __shared__ float cov[N * N], z[N * N], q[N * N], h[N * N], tmp[N * N], v[N];
    __shared__ float eigen_scratch[SPEED_EIGEN_SCRATCH];
    const int t = threadIdx.x, p = blockIdx.y;
    if (t < N * N) cov[t] = cov_in[p * N * N + t];
    __syncthreads();
    if (blockIdx.x == 0) {
        if (t >= 32) return;
        float *a = eigen_scratch, *d = a + N * N, *sd = d + N, *rv = sd + N, *rx = rv + N;
        for (int k = t; k < N * N; k += 32) a[k] = cov[k];
        __syncwarp();
        tridiagonalise_warp(a, d, sd, rv, rx);
        if (t == 0) {
            speed_tridiagonal_eigenvalues(d, sd);
            for (int i = 0; i < N; i++)
                eig_out[p * N + i] = d[i];
        }
        return;
    }
    const int i = t / N, j = t % N;
    if (t < N * N) {
        z[t] = cov[t];
        q[t] = i == j;
    }
    __syncthreads();
    for (int k = 0; k < N - 1; k++) {
        if (t < N * N && speed_reflector_identity(k, i, j)) z[t] = i == j;
        __syncthreads();
        if (t == 0) speed_reflector_vector(z, cov, k, v);
        __syncthreads();
        if (t < N * N) h[t] = speed_reflector_entry(v, i, j);
        __syncthreads();
        product(h, z, tmp);
        if (t < N * N) z[t] = tmp[t];
        __syncthreads();
        product(h, q, tmp);
        if (t < N * N) q[t] = tmp[t];
        __syncthreads();
    }
    if (t < N * N) {
        q_out[p * N * N + t] = q[t];
        r_out[p * N * N + t] = speed_product_entry(q, cov, N, i, j);
    }
}

/* ---- solve ---- */

/* Thread per block: its 25 samples, Q b, the back substitution (or zeros
 * when the plane is singular) and its variance. Thread 0 of the first
 * block also writes the plane's eigenvalues and singular flag. */
__global__ void __launch_bounds__(SOLVE_THREADS)
solve_planes(Dims d, const float *demeaned, const float *eig_in, const float *q_in,
             const float *r_in, char *result, size_t record_bytes)
{
    __shared__ float q[N * N], r[N * N], eig[N];
    const int p = blockIdx.y, t = threadIdx.x;
    for (int k = t; k < N * N; k += blockDim.x) {
        q[k] = q_in[p * N * N + k];
        r[k] = r_in[p * N * N + k];
    }
    if (t < N) eig[t] = eig_in[p * N + t];
    __syncthreads();
    const bool singular = !speed_eigen_regular(eig) || !speed_pivots_regular(r);
    float *rec = (float *)(result + p * record_bytes);
    float *variance = rec + VQX_SPEED_RECORD_VARIANCE;
    if (blockIdx.x == 0 && t < N) rec[VQX_SPEED_RECORD_EIG + t] = eig[t];
    if (blockIdx.x == 0 && t == 0) ((uint32_t *)rec)[VQX_SPEED_RECORD_SINGULAR] = singular;

    const unsigned b = blockIdx.x * blockDim.x + t;
    if (b >= d.geo.n_blocks) return;
    const unsigned w = d.geo.dec_w, by = b / d.geo.blocks_x, bx = b % d.geo.blocks_x;
    const float *dec = demeaned + (size_t)p * w * d.geo.dec_h;
    float s[N], qb[N], x[N];
    for (int o = 0; o < N; o++)
        s[o] = dec[(by * SPEED_BLOCK + o / SPEED_BLOCK) * w + bx * SPEED_BLOCK + o % SPEED_BLOCK];
    if (singular) {
        for (int o = 0; o < N; o++)
            x[o] = 0;
    } else {
        for (int o = 0; o < N; o++)
            qb[o] = speed_product_entry(q, s, 1, o, 0);
        speed_back_substitute(r, qb, x, 1);
    }
    variance[b] = speed_block_variance(x, s, 1);
}

/* ---- launchers ---- */

extern "C" int vqx_cuda_speed_load(const VqxCudaSpeedJob *j, void *stream)
{
    Sources src;
    for (unsigned p = 0; p < VQX_CUDA_SPEED_PLANES; p++) {
        src.minuend[p] = j->minuend[p];
        src.subtrahend[p] = j->subtrahend[p];
        src.pitch[p] = j->pitch[p];
    }
    const unsigned per_block = VQX_BLOCK * LOAD_SAMPLES;
    const dim3 grid((j->geo.in_w + per_block - 1) / per_block, j->geo.in_h, j->planes);
    cudaStream_t s = (cudaStream_t)stream;
    if (j->bpc == 8)
        load_planes<uint8_t><<<grid, VQX_BLOCK, 0, s>>>(src, dims_of(j), j->inv_scale, j->offset,
                                                        j->image);
    else
        load_planes<uint16_t><<<grid, VQX_BLOCK, 0, s>>>(src, dims_of(j), j->inv_scale, j->offset,
                                                         j->image);
    return launch_status();
}

extern "C" int vqx_cuda_speed_prescale(const VqxCudaSpeedJob *j, void *stream)
{
    return vqx_cuda_resample(&j->prescale, j->image, j->image_pitch,
                             (size_t)j->geo.in_h * j->image_pitch, j->scaled, j->scaled_pitch,
                             (size_t)j->geo.scaled_h * j->scaled_pitch, j->planes, stream);
}

extern "C" int vqx_cuda_speed_decimate(const VqxCudaSpeedJob *j, void *stream)
{
    const float *img = j->geo.rescale ? j->scaled : j->image;
    const size_t pitch = j->geo.rescale ? j->scaled_pitch : j->image_pitch;
    /* without a rescale the filter reads the loaded planes (in_h rows
     * each); the scaled size bounds what it reads */
    const size_t plane_rows = j->geo.rescale ? j->geo.scaled_h : j->geo.in_h;
    const dim3 grid((j->geo.dec_w + DEC_OUTPUTS - 1) / DEC_OUTPUTS, j->geo.dec_h, j->planes);
    decimate_planes<<<grid, VQX_BLOCK, 0, (cudaStream_t)stream>>>(j->filters, dims_of(j), img,
                                                                 pitch, plane_rows, j->dec);
    return launch_status();
}

extern "C" int vqx_cuda_speed_demean(const VqxCudaSpeedJob *j, void *stream)
{
    const unsigned n = j->geo.dec_w * j->geo.dec_h;
    const dim3 grid((n + VQX_BLOCK - 1) / VQX_BLOCK, j->planes);
    demean_planes<<<grid, VQX_BLOCK, 0, (cudaStream_t)stream>>>(j->filters, dims_of(j), j->dec,
                                                               j->demeaned);
    return launch_status();
}

extern "C" int vqx_cuda_speed_covariance(const VqxCudaSpeedJob *j, void *stream)
{
    covariance_planes<<<dim3(COV_BLOCKS, j->planes), COV_PAIRS, 0, (cudaStream_t)stream>>>(
        dims_of(j), j->demeaned, j->cov);
    return launch_status();
}

extern "C" int vqx_cuda_speed_factorise(const VqxCudaSpeedJob *j, void *stream)
{
    factorise_planes<<<dim3(2, j->planes), FACTOR_THREADS, 0, (cudaStream_t)stream>>>(
        j->cov, j->eig, j->q, j->r);
    return launch_status();
}

extern "C" int vqx_cuda_speed_solve(const VqxCudaSpeedJob *j, void *stream)
{
    const dim3 grid((j->geo.n_blocks + SOLVE_THREADS - 1) / SOLVE_THREADS, j->planes);
    solve_planes<<<grid, SOLVE_THREADS, 0, (cudaStream_t)stream>>>(
        dims_of(j), j->demeaned, j->eig, j->q, j->r, (char *)j->result, j->record_bytes);
    return launch_status();
}

extern "C" int vqx_cuda_speed_chain(const VqxCudaSpeedJob *j, void *stream)
{
    int ret = vqx_cuda_speed_load(j, stream);
    if (!ret && j->geo.rescale) ret = vqx_cuda_speed_prescale(j, stream);
    if (!ret) ret = vqx_cuda_speed_decimate(j, stream);
    if (!ret) ret = vqx_cuda_speed_demean(j, stream);
    if (!ret) ret = vqx_cuda_speed_covariance(j, stream);
    if (!ret) ret = vqx_cuda_speed_factorise(j, stream);
    if (!ret) ret = vqx_cuda_speed_solve(j, stream);
    return ret;
}
