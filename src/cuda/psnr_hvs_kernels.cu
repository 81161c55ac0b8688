/* psnr_hvs's kernels (psnr_hvs.c): a thread per block pair runs the CPU's
 * per-block statements (psnr_hvs_block.h), and each plane's terms are added
 * to the bits of the CPU's float chain (below). */
#include "cuda/common.cuh"
#include "cuda/psnr_hvs_kernels.h"
#include "feature/psnr_hvs_block.h"

namespace {

enum { TERMS_BLOCK = PSNR_HVS_TERMS }; /* threads (block pairs) per CUDA block: one per weight */

/* A thread per block pair of the plane, in raster order of blocks, its
 * terms in chain order; the plane's weights read once into shared memory. */
__global__ void terms_kernel(VqxCudaPsnrHvsPlane plane, unsigned bpc)
{
    __shared__ float weight_t[PSNR_HVS_TERMS], mask_t[PSNR_HVS_TERMS];
    if (threadIdx.x < PSNR_HVS_TERMS) {
        weight_t[threadIdx.x] = plane.weight_t[threadIdx.x];
        mask_t[threadIdx.x] = plane.mask_t[threadIdx.x];
    }
    __syncthreads();
    const size_t block = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (block >= (size_t)plane.blocks_x * plane.blocks_y) return;
    const size_t bx = block % plane.blocks_x, by = block / plane.blocks_x;
    const size_t sample = bpc > 8 ? 2 : 1;
    const size_t at = by * PSNR_HVS_STEP * plane.pitch_bytes + bx * PSNR_HVS_STEP * sample;
    const ptrdiff_t pitch = (ptrdiff_t)plane.pitch_bytes;
    vqx_psnr_hvs_block((const uint8_t *)plane.ref + at, pitch, (const uint8_t *)plane.dis + at,
                       pitch, bpc, weight_t, mask_t, plane.terms + block * PSNR_HVS_TERMS);
}

/*
 * The plane's sum: the CPU's float chain T <- fl(T + t) over its terms in
 * order, from +0. Its additions round at nearly every step, so no reordering
 * gives its bits; but while T stays in one binade [2^e, 2^(e+1)) each
 * addition is exact integer arithmetic in units u = 2^(e-23): T is a
 * multiple of u and fl(T + t) = T + u rne(t / u), rounded half to even of
 * the result (when T + t < 2^(e+1), which holds at every step exactly when
 * the last result is below 2^(e+1), the steps being >= 0). The terms are cut
 * into segments of SEGMENT; for each, its binade is guessed from a sum of
 * the segments before (double, in any order) and its increment in units of
 * that binade computed in parallel, for an even and for an odd start (the
 * ties depend on the running parity); then one warp walks the segments in
 * order with the exact T: a segment whose start is in the guessed binade
 * and whose end stays below its top is added as an integer, any other (the
 * binade crossed, a wrong guess, a start below 2^-126, a term not finite)
 * is added as the chain itself, term by term. Both give the chain's bits.
 */
enum { SEGMENT = 1024 };
/* an increment past any binade: the segment is added term by term */
#define PAST_BINADE (1ull << 40)

struct ChainSegment {
    unsigned long long increment[2]; /* in units of the guessed binade, from an even, odd start */
    double sum;                      /* of the segment's terms, for the guesses */
    unsigned exponent;               /* the guessed binade's biased exponent; 0: none */
    unsigned pad;
};

struct ChainJob {
    const float *terms[3];
    size_t n[3];
    ChainSegment *seg[3];
};

__device__ inline size_t segments_of(size_t n)
{
    return (n + SEGMENT - 1) / SEGMENT;
}

/* One warp per segment (blockIdx.x) of plane blockIdx.y: its double sum. */
__global__ void segment_sums(ChainJob job)
{
    const int p = blockIdx.y;
    const size_t n = job.n[p], s = blockIdx.x;
    if (s >= segments_of(n)) return;
    const float *t = job.terms[p] + s * SEGMENT;
    const size_t m = n - s * SEGMENT < SEGMENT ? n - s * SEGMENT : SEGMENT;
    double sum = 0.0;
    for (size_t i = threadIdx.x; i < m; i += 32) sum += t[i];
    for (int o = 16; o > 0; o >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, o);
    if (!threadIdx.x) job.seg[p][s].sum = sum;
}

/* One warp per plane: each segment's guess, the binade of the sum of the
 * segments before it (a scan of 32 segments at a time). */
__global__ void segment_guesses(ChainJob job)
{
    const int p = blockIdx.x;
    const unsigned lane = threadIdx.x;
    const size_t count = segments_of(job.n[p]);
    ChainSegment *seg = job.seg[p];
    double before = 0.0;
    for (size_t base = 0; base < count; base += 32) {
        const size_t s = base + lane;
        const double v = s < count ? seg[s].sum : 0.0;
        double upto = v;
        for (int o = 1; o < 32; o <<= 1) {
            const double y = __shfl_up_sync(0xffffffffu, upto, o);
            if (lane >= (unsigned)o) upto += y;
        }
        if (s < count) {
            const unsigned e = (__float_as_uint((float)(before + (upto - v))) >> 23) & 0xff;
            seg[s].exponent = e == 0xff ? 0 : e;
        }
        before += __shfl_sync(0xffffffffu, upto, 31);
    }
}

/* Term t (its bits) in units u = 2^(e - 150) of the binade of biased
 * exponent e: the floor q of t / u and whether the remainder is above half
 * or exactly half. False when t is negative, not finite or not below
 * 2^25 u: no segment holding it stays in the binade. */
__device__ inline bool in_units(uint32_t bits, unsigned e, uint32_t *q, unsigned *up,
                                unsigned *tie)
{
    const uint32_t magnitude = bits & 0x7fffffffu;
    *q = 0;
    *up = *tie = 0;
    if (!magnitude) return true; /* T + -0 = T + +0 = T for T > 0 */
    if (bits >> 31 || magnitude >= 0x7f800000u) return false;
    const unsigned et = magnitude >> 23;
    const uint32_t m = et ? (magnitude & 0x7fffffu) | 0x800000u : magnitude;
    const int d = (int)(et ? et : 1) - (int)e; /* t / u = m 2^d */
    if (d > 1) return false;
    if (d >= 0) {
        *q = m << d;
        return true;
    }
    const int shift = -d;
    if (shift >= 26) return true; /* t / u < 1/4 */
    const uint32_t rem = m & ((1u << shift) - 1), half = 1u << (shift - 1);
    *q = m >> shift;
    *up = rem > half;
    *tie = rem == half;
    return true;
}

/* A thread per segment (of plane blockIdx.y): its increments in units of
 * its guessed binade, from a start of each parity, each step rounded half
 * to even of the running multiple of u. */
__global__ void segment_increments(ChainJob job)
{
    const int p = blockIdx.y;
    const size_t n = job.n[p], s = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= segments_of(n)) return;
    ChainSegment *seg = &job.seg[p][s];
    const unsigned e = seg->exponent;
    const float *t = job.terms[p] + s * SEGMENT;
    const size_t m = n - s * SEGMENT < SEGMENT ? n - s * SEGMENT : SEGMENT;
    unsigned long long increment[2] = { 0, 0 };
    unsigned parity[2] = { 0, 1 };
    bool fits = e != 0;
    for (size_t i = 0; i < m && fits; i++) {
        uint32_t q;
        unsigned up, tie;
        fits = in_units(__float_as_uint(t[i]), e, &q, &up, &tie);
        for (int k = 0; k < 2; k++) {
            const uint32_t step = q + up + (tie & ((parity[k] + q) & 1));
            increment[k] += step;
            parity[k] = (parity[k] + step) & 1;
        }
    }
    seg->increment[0] = fits ? increment[0] : PAST_BINADE;
    seg->increment[1] = fits ? increment[1] : PAST_BINADE;
}

/* total + t[0] + ... + t[m - 1] in float, in order, by a warp: lane l
 * fetches the terms l, l + 32, ..., and every lane adds them all from
 * shuffles, so that all hold the chain. */
__device__ inline float chain_segment(const float *t, unsigned m, float total, unsigned lane)
{
    float v[SEGMENT / 32];
#pragma unroll
    for (int u = 0; u < SEGMENT / 32; u++) {
        const unsigned i = u * 32 + lane;
        v[u] = i < m ? t[i] : 0.0f;
    }
#pragma unroll
    for (int u = 0; u < SEGMENT / 32; u++) {
        const unsigned group = u * 32;
        if (group >= m) break;
        if (m - group >= 32) {
#pragma unroll
            for (int j = 0; j < 32; j++) total += __shfl_sync(0xffffffffu, v[u], j);
        } else {
            for (unsigned j = 0; j < m - group; j++) total += __shfl_sync(0xffffffffu, v[u], j);
        }
    }
    return total;
}

/* One warp per plane walks its segments in order (each lane holding the
 * record of one of the next 32, shared by shuffles), every lane holding the
 * exact total. */
__global__ void chain_walk(ChainJob job, float *totals)
{
    const int p = blockIdx.x;
    const unsigned lane = threadIdx.x;
    const size_t n = job.n[p], count = segments_of(n);
    const float *t = job.terms[p];
    const ChainSegment *seg = job.seg[p];
    float total = 0.0f;
    for (size_t base = 0; base < count; base += 32) {
        const size_t mine = base + lane;
        unsigned long long even = 0, odd = 0;
        unsigned exponent = 0;
        if (mine < count) {
            even = seg[mine].increment[0];
            odd = seg[mine].increment[1];
            exponent = seg[mine].exponent;
        }
        const unsigned in_group = count - base < 32 ? (unsigned)(count - base) : 32;
        for (unsigned j = 0; j < in_group; j++) {
            const unsigned long long inc_even = __shfl_sync(0xffffffffu, even, j);
            const unsigned long long inc_odd = __shfl_sync(0xffffffffu, odd, j);
            const unsigned e = __shfl_sync(0xffffffffu, exponent, j);
            const uint32_t bits = __float_as_uint(total);
            const unsigned long long units = (bits & 0x7fffffu) | 0x800000u;
            const unsigned long long end = units + (units & 1 ? inc_odd : inc_even);
            const size_t s = base + j;
            if (e && bits >> 23 == e && end < 0x1000000u) {
                total = __uint_as_float(e << 23 | (uint32_t)(end - 0x800000u));
            } else {
                const size_t m = n - s * SEGMENT < SEGMENT ? n - s * SEGMENT : SEGMENT;
                total = chain_segment(t + s * SEGMENT, (unsigned)m, total, lane);
            }
        }
    }
    if (!lane) totals[p] = total;
}

} // namespace

extern "C" int vqx_cuda_psnr_hvs_terms(const VqxCudaPsnrHvsPlane *plane, unsigned bpc,
                                       void *stream)
{
    const size_t blocks = (size_t)plane->blocks_x * plane->blocks_y;
    const unsigned grid = (unsigned)((blocks + TERMS_BLOCK - 1) / TERMS_BLOCK);
    terms_kernel<<<grid, TERMS_BLOCK, 0, (cudaStream_t)stream>>>(*plane, bpc);
    return launch_status();
}

extern "C" size_t vqx_cuda_psnr_hvs_segment_bytes(size_t n)
{
    return (n + SEGMENT - 1) / SEGMENT * sizeof(ChainSegment);
}

extern "C" int vqx_cuda_psnr_hvs_totals(const VqxCudaPsnrHvsChain chains[3], float *totals,
                                        void *stream)
{
    cudaStream_t s = (cudaStream_t)stream;
    ChainJob job;
    size_t most = 1;
    for (int p = 0; p < 3; p++) {
        job.terms[p] = chains[p].terms;
        job.n[p] = chains[p].n;
        job.seg[p] = (ChainSegment *)chains[p].segments;
        const size_t count = (chains[p].n + SEGMENT - 1) / SEGMENT;
        if (count > most) most = count;
    }
    segment_sums<<<dim3((unsigned)most, 3), 32, 0, s>>>(job);
    segment_guesses<<<3, 32, 0, s>>>(job);
    segment_increments<<<dim3((unsigned)((most + 127) / 128), 3), 128, 0, s>>>(job);
    chain_walk<<<3, 32, 0, s>>>(job, totals);
    return launch_status();
}

extern "C" int vqx_cuda_psnr_hvs(const VqxCudaPsnrHvsPlane planes[3], unsigned bpc, float *totals,
                                 void *stream)
{
    VqxCudaPsnrHvsChain chains[3];
    for (int p = 0; p < 3; p++) {
        const int ret = vqx_cuda_psnr_hvs_terms(&planes[p], bpc, stream);
        if (ret) return ret;
        chains[p] = (VqxCudaPsnrHvsChain){
            planes[p].terms, (size_t)planes[p].blocks_x * planes[p].blocks_y * PSNR_HVS_TERMS,
            planes[p].segments,
        };
    }
    return vqx_cuda_psnr_hvs_totals(chains, totals, stream);
}
