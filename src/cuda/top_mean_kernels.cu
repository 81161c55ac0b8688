/*
 * The mean of the k largest values, as vqx_mean_of_top computes it: the
 * rounds of libvmaf's quick_select (Hoare partitioning around v[k]) run in
 * parallel, each round as one sequence of scans, and the double sum of the
 * first k values is formed in their order by chunks whose effect on the
 * running sum is known exactly. docs/cuda-top-mean.md gives the proofs.
 *
 * Launches (the same for any data; stages that have nothing to do return
 * at once): start, largest, 3 per split round (count_stops, rank_stops,
 * swap_stops), finish_rounds, chunk_sums, scan_chunks, chunk_steps,
 * compose.
 */
#include "cuda/common.cuh"
#include "cuda/top_mean.h"

#define SPLIT_BLOCKS 1024u /* most blocks of a round split over the grid */
#define ONE_BLOCK 1024u   /* threads of the single-block kernels */
#define SMALL_RANGE 32768 /* ranges of at most this many values: one block */
#define CHUNK 256u        /* values per chunk of the sum */
#define WARPS (VQX_BLOCK / 32)
#define NO_STEP (-1)      /* a chunk's binade when it has no step */
#define NO_CHUNKS (-2)    /* the binade of a step over no chunks: the identity */

struct TopMeanState {
    int lo, hi;           /* the range quick_select still partitions */
    unsigned nl, nr;      /* this round's left stops (v <= p), right stops (v >= p) */
    int active;           /* this split round runs */
    unsigned vmax;        /* bits of the largest value */
    unsigned exact_end;   /* chunks [0, exact_end) are summed without rounding */
    unsigned long long exact_sum; /* their sum, in units */
};

struct Scratch {
    TopMeanState *st;
    unsigned long long *block_stops; /* a block's left stops | right stops << 32 */
    unsigned *left, *right;          /* positions of the stops, in position order */
    unsigned long long *chunk_lo, *chunk_hi; /* a chunk's sum of floor / ceil(v / unit) */
    int *binade;                     /* a chunk's binade (relative to the unit) (NO_STEP: none) */
    double2 *step;                   /* a chunk's effect from an even / odd running sum */
};

static size_t align_up(size_t x)
{
    return (x + 255) & ~(size_t)255;
}

__host__ __device__ static unsigned chunk_count(unsigned n)
{
    return (n + CHUNK - 1) / CHUNK;
}

static Scratch carve(void *scratch, unsigned n)
{
    char *p = (char *)scratch;
    const size_t chunks = chunk_count(n);
    Scratch s;
    s.st = (TopMeanState *)p;
    p += align_up(sizeof(TopMeanState));
    s.block_stops = (unsigned long long *)p;
    p += align_up(SPLIT_BLOCKS * sizeof(unsigned long long));
    s.left = (unsigned *)p;
    p += align_up(n * sizeof(unsigned));
    s.right = (unsigned *)p;
    p += align_up(n * sizeof(unsigned));
    s.chunk_lo = (unsigned long long *)p;
    p += align_up(chunks * sizeof(unsigned long long));
    s.chunk_hi = (unsigned long long *)p;
    p += align_up(chunks * sizeof(unsigned long long));
    s.binade = (int *)p;
    p += align_up(chunks * sizeof(int));
    s.step = (double2 *)p;
    return s;
}

extern "C" size_t vqx_cuda_top_mean_scratch_bytes(unsigned n)
{
    return (size_t)(char *)carve(NULL, n).step + align_up(chunk_count(n) * sizeof(double2));
}

namespace {

/* ---- the rounds of quick_select ---- */

/* Exclusive prefix over the block's threads of x, and the block's total.
 * Every thread of the block calls it. */
__device__ inline void block_exclusive(unsigned x, unsigned &before, unsigned &total)
{
    __shared__ unsigned warp_total[32];
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    unsigned inclusive = x;
    for (unsigned o = 1; o < 32; o <<= 1) {
        const unsigned y = __shfl_up_sync(0xffffffffu, inclusive, o);
        if (lane >= o) inclusive += y;
    }
    __syncthreads(); /* the totals of an earlier call are read */
    if (lane == 31) warp_total[warp] = inclusive;
    __syncthreads();
    before = inclusive - x;
    total = 0;
    for (unsigned w = 0; w < blockDim.x >> 5; w++) {
        if (w == warp) before += total;
        total += warp_total[w];
    }
}

#define ITEMS 4 /* consecutive positions per thread in list_stops */

/* Writes the positions of the left stops of [a, b) (v <= p) to left[nl...]
 * and of its right stops (v >= p) to right[nr...], in position order, and
 * advances nl and nr. Every thread of the block calls it. */
__device__ inline void list_stops(const float *v, float p, unsigned a, unsigned b, unsigned *left,
                                  unsigned *right, unsigned &nl, unsigned &nr)
{
    for (unsigned t = a; t < b; t += ITEMS * blockDim.x) {
        const unsigned x0 = t + threadIdx.x * ITEMS;
        unsigned is_left = 0, is_right = 0; /* bit i: position x0 + i */
        for (unsigned i = 0; i < ITEMS; i++)
            if (x0 + i < b) {
                const float value = v[x0 + i];
                is_left |= (unsigned)(value <= p) << i;
                is_right |= (unsigned)(value >= p) << i;
            }
        /* counts of a tile fit 16 bits: both in one scan */
        unsigned before, total;
        block_exclusive(__popc(is_left) | __popc(is_right) << 16, before, total);
        unsigned l = nl + (before & 0xffff), r = nr + (before >> 16);
        for (unsigned i = 0; i < ITEMS; i++) {
            if (is_left >> i & 1) left[l++] = x0 + i;
            if (is_right >> i & 1) right[r++] = x0 + i;
        }
        nl += total & 0xffff;
        nr += total >> 16;
    }
}

/* Hoare's loop swaps the m-th left stop L_m with the m-th right stop from
 * the right, R_m = right[nr - 1 - m], while L_m <= R_m (at least once:
 * position k stops both scans). The thread of the last pair that swaps
 * finds where the scans stopped, i and j, and narrows [lo, hi] as
 * quick_select does. */
__device__ inline void swap_pair(float *v, unsigned k, int *lo, int *hi, const unsigned *left,
                                 const unsigned *right, unsigned nl, unsigned nr, unsigned m)
{
    const long long l = left[m], r = right[nr - 1 - m];
    if (l > r) return;
    const float t = v[l];
    v[l] = v[r];
    v[r] = t;
    /* the next stops; a missing one lies beyond the other scan's */
    const long long next_l = m + 1 < nl ? (long long)left[m + 1] : 1ll << 40;
    const long long next_r = m + 1 < nr ? (long long)right[nr - 2 - m] : -(1ll << 40);
    if (next_l <= next_r) return; /* not the last pair */
    long long i, j;
    if (r - l <= 1) {
        /* the i++, j-- of this swap end the loop */
        i = l + 1;
        j = r - 1;
    } else {
        /* the left scan meets the swapped R_m at the latest, the right one L_m */
        i = next_l < r ? next_l : r;
        j = next_r > l ? next_r : l;
    }
    if (j < (long long)k) *lo = (int)i;
    if ((long long)k < i) *hi = (int)j;
}

__global__ void start(unsigned n, unsigned k, TopMeanState *st)
{
    st->lo = 0;
    st->hi = k == n ? 0 : (int)n - 1; /* quick_select leaves k == n alone */
    st->vmax = 0;
}

/* The bits of the largest value (values >= 0 order as their bits). */
__global__ void largest(const float *v, unsigned n, TopMeanState *st)
{
    __shared__ unsigned top[VQX_BLOCK];
    unsigned m = 0;
    for (unsigned x = blockIdx.x * blockDim.x + threadIdx.x; x < n; x += gridDim.x * blockDim.x)
        if (v[x] > 0.0f) m = max(m, __float_as_uint(v[x]));
    top[threadIdx.x] = m;
    __syncthreads();
    for (unsigned h = blockDim.x / 2; h; h >>= 1) {
        if (threadIdx.x < h) top[threadIdx.x] = max(top[threadIdx.x], top[threadIdx.x + h]);
        __syncthreads();
    }
    if (!threadIdx.x) atomicMax(&st->vmax, top[0]);
}

/* A split round's share of [lo, hi] for this block. */
__device__ inline void block_span(int lo, int hi, unsigned &a, unsigned &b)
{
    const unsigned size = (unsigned)(hi - lo + 1), share = (size + gridDim.x - 1) / gridDim.x;
    a = (unsigned)lo + min(size, blockIdx.x * share);
    b = (unsigned)lo + min(size, (blockIdx.x + 1) * share);
}

__global__ void count_stops(const float *v, unsigned k, const TopMeanState *st,
                            unsigned long long *block_stops)
{
    const int lo = st->lo, hi = st->hi;
    if (hi - lo < SMALL_RANGE) return;
    const float p = v[k];
    unsigned a, b;
    block_span(lo, hi, a, b);
    unsigned long long c = 0;
    for (unsigned x = a + threadIdx.x; x < b; x += blockDim.x)
        c += (unsigned long long)(v[x] <= p) | (unsigned long long)(v[x] >= p) << 32;
    c = block_sum(c);
    if (!threadIdx.x) block_stops[blockIdx.x] = c;
}

__global__ void rank_stops(const float *v, unsigned k, TopMeanState *st,
                           const unsigned long long *block_stops, unsigned *left, unsigned *right)
{
    const int lo = st->lo, hi = st->hi;
    if (hi - lo < SMALL_RANGE) {
        if (!blockIdx.x && !threadIdx.x) st->active = 0;
        return;
    }
    const float p = v[k];
    unsigned long long before = 0, all = 0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += blockDim.x) {
        all += block_stops[b];
        if (b < blockIdx.x) before += block_stops[b];
    }
    before = block_sum(before);
    all = block_sum(all);
    __shared__ unsigned long long base;
    if (!threadIdx.x) {
        base = before;
        if (!blockIdx.x) {
            st->nl = (unsigned)all;
            st->nr = (unsigned)(all >> 32);
            st->active = 1;
        }
    }
    __syncthreads();
    unsigned nl = (unsigned)base, nr = (unsigned)(base >> 32), a, b;
    block_span(lo, hi, a, b);
    list_stops(v, p, a, b, left, right, nl, nr);
}

__global__ void swap_stops(float *v, unsigned k, TopMeanState *st, const unsigned *left,
                           const unsigned *right)
{
    if (!st->active) return;
    const unsigned nl = st->nl, nr = st->nr, pairs = min(nl, nr);
    for (unsigned m = blockIdx.x * blockDim.x + threadIdx.x; m < pairs; m += gridDim.x * blockDim.x)
        swap_pair(v, k, &st->lo, &st->hi, left, right, nl, nr, m);
}

/* The remaining rounds, in one block. */
__global__ void __launch_bounds__(ONE_BLOCK)
finish_rounds(float *v, unsigned k, TopMeanState *st, unsigned *left, unsigned *right)
{
    __shared__ int lo, hi;
    if (!threadIdx.x) {
        lo = st->lo;
        hi = st->hi;
    }
    __syncthreads();
    while (lo < hi) {
        const float p = v[k];
        unsigned nl = 0, nr = 0;
        list_stops(v, p, (unsigned)lo, (unsigned)hi + 1, left, right, nl, nr);
        __syncthreads(); /* stops listed; lo, hi and v[k] read */
        for (unsigned m = threadIdx.x; m < min(nl, nr); m += blockDim.x)
            swap_pair(v, k, &lo, &hi, left, right, nl, nr, m);
        __syncthreads();
    }
}

/* ---- the sum of v[0, k) in order ---- */

/* Exponent of the unit of the exact sums: every value / unit < 2^39. */
__device__ inline int unit_exponent(unsigned vmax)
{
    const int biased = (int)(vmax >> 23);
    return (biased ? biased : 1) - 126 - 39;
}

__device__ inline double pow2(int e)
{
    return __longlong_as_double((long long)(e + 1023) << 52);
}

__device__ inline int floor_log2(unsigned long long x)
{
    return 63 - __clzll((long long)x);
}

/* Per chunk (a warp each): sums of floor and ceil of value / unit. */
__global__ void chunk_sums(const float *v, unsigned k, const TopMeanState *st,
                           unsigned long long *chunk_lo, unsigned long long *chunk_hi)
{
    const unsigned lane = threadIdx.x & 31, c = blockIdx.x * WARPS + (threadIdx.x >> 5);
    if (c >= chunk_count(k)) return;
    const double scale = pow2(-unit_exponent(st->vmax));
    unsigned long long lo = 0, hi = 0;
    for (unsigned x = c * CHUNK + lane; x < k && x < (c + 1) * CHUNK; x += 32) {
        const double units = (double)v[x] * scale;
        lo += (unsigned long long)floor(units);
        hi += (unsigned long long)ceil(units);
    }
    for (int o = 16; o; o >>= 1) {
        lo += __shfl_down_sync(0xffffffffu, lo, o);
        hi += __shfl_down_sync(0xffffffffu, hi, o);
    }
    if (!lane) {
        chunk_lo[c] = lo;
        chunk_hi[c] = hi;
    }
}

/* Exclusive prefix over the block's threads of (lo, hi); the totals too. */
__device__ inline void block_prefix(unsigned long long &lo, unsigned long long &hi,
                                    unsigned long long &total_lo, unsigned long long &total_hi)
{
    __shared__ unsigned long long s[2][ONE_BLOCK];
    const unsigned t = threadIdx.x;
    s[0][t] = lo;
    s[1][t] = hi;
    __syncthreads();
    for (unsigned d = 1; d < blockDim.x; d <<= 1) {
        const unsigned long long a = t >= d ? s[0][t - d] : 0, b = t >= d ? s[1][t - d] : 0;
        __syncthreads();
        s[0][t] += a;
        s[1][t] += b;
        __syncthreads();
    }
    lo = s[0][t] - lo;
    hi = s[1][t] - hi;
    total_lo = s[0][blockDim.x - 1];
    total_hi = s[1][blockDim.x - 1];
}

/* One block: where the exact prefix of chunks ends, and each chunk's
 * binade: e such that every running sum through the chunk lies in
 * [2^e, 2^(e+1)) units, whatever the rounding so far (NO_STEP: not sure). */
__global__ void __launch_bounds__(ONE_BLOCK)
scan_chunks(unsigned k, TopMeanState *st, const unsigned long long *chunk_lo,
            const unsigned long long *chunk_hi, int *binade)
{
    const unsigned chunks = chunk_count(k), per = (chunks + blockDim.x - 1) / blockDim.x;
    const unsigned a = min(chunks, threadIdx.x * per), b = min(chunks, a + per);
    unsigned long long lo = 0, hi = 0, total_lo, total_hi;
    for (unsigned c = a; c < b; c++) {
        lo += chunk_lo[c];
        hi += chunk_hi[c];
    }
    block_prefix(lo, hi, total_lo, total_hi);
    /* every rounding error is at most half an ulp of a sum below 2^lg units */
    const int lg = floor_log2(total_hi | 1) + 2;
    const unsigned long long err = lg >= 54 ? (unsigned long long)k << (lg - 54)
                                 : 54 - lg >= 32 ? 1 : 1 + (k >> (54 - lg));
    __shared__ unsigned exact_end;
    if (!threadIdx.x) exact_end = chunks;
    __syncthreads();
    unsigned long long before_hi = hi;
    for (unsigned c = a; c < b; c++) {
        const unsigned long long end_hi = hi + chunk_hi[c];
        if (chunk_lo[c] != chunk_hi[c] || end_hi > 1ull << 53) atomicMin(&exact_end, c);
        int e = NO_STEP;
        if (lo > err) {
            e = floor_log2(lo - err);
            if (end_hi + err >= 2ull << e) e = NO_STEP;
        }
        binade[c] = e;
        lo += chunk_lo[c];
        hi = end_hi;
    }
    __syncthreads();
    /* the exact prefix is a prefix: its sum is the prefix before exact_end */
    if (exact_end == chunks) {
        if (!threadIdx.x) st->exact_sum = total_hi;
    } else if (a <= exact_end && exact_end < b) {
        for (unsigned c = a; c < exact_end; c++) before_hi += chunk_hi[c];
        st->exact_sum = before_hi;
    }
    if (!threadIdx.x) st->exact_end = exact_end;
}

/* Per chunk with a binade e (a warp each): its effect on a running sum S
 * in that binade, S -> S + step[parity of S's last bit], found by running
 * it from 2^e (even) and 2^e + ulp (odd). */
__global__ void chunk_steps(const float *v, unsigned k, const TopMeanState *st, const int *binade,
                            double2 *step)
{
    __shared__ float chunk[WARPS][CHUNK];
    const unsigned lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const unsigned c = blockIdx.x * WARPS + warp;
    if (c >= chunk_count(k) || c < st->exact_end || binade[c] == NO_STEP) return;
    const unsigned first = c * CHUNK, len = min(CHUNK, k - first);
    for (unsigned x = lane; x < len; x += 32) chunk[warp][x] = v[first + x];
    __syncwarp();
    if (lane >= 2) return;
    const int e = binade[c] + unit_exponent(st->vmax);
    const double from = pow2(e) + lane * pow2(e - 52);
    double sum = from;
    for (unsigned x = 0; x < len; x++) sum += chunk[warp][x];
    if (lane)
        step[c].y = sum - from;
    else
        step[c].x = sum - from;
}

/* A running sum's change over consecutive chunks of one binade e (of
 * units): S -> S + d.x when S's last bit is even, S + d.y when odd. */
struct Step {
    double2 d;
    int e;
};

/* a, then b */
__device__ inline Step then(Step a, Step b, int unit)
{
    if (a.e == NO_CHUNKS) return b;
    if (b.e == NO_CHUNKS) return a;
    if (a.e != b.e || a.e == NO_STEP) return Step{ make_double2(0, 0), NO_STEP };
    /* the parity after a: the start's, flipped when a adds an odd number
     * of ulps (d is a multiple of the ulp, below 2^52 of them) */
    const double per_ulp = pow2(52 - a.e - unit);
    a.d.x += (unsigned long long)(a.d.x * per_ulp) & 1 ? b.d.y : b.d.x;
    a.d.y += (unsigned long long)(a.d.y * per_ulp) & 1 ? b.d.x : b.d.y;
    return a;
}

__device__ inline double pick(double2 d, double sum)
{
    return __double_as_longlong(sum) & 1 ? d.y : d.x;
}

/* One block: each thread folds a run of chunks into one step, each thread
 * of warp 0 a group of 32 runs; warp 0 then applies them in order from the
 * exact sum, going down to runs and chunks where there is no one step, and
 * adding value by value where a chunk has none. *mean = sum / k. */
__global__ void __launch_bounds__(ONE_BLOCK)
compose(const float *v, unsigned k, const TopMeanState *st, const int *binade, const double2 *step,
        double *mean)
{
    __shared__ Step run[ONE_BLOCK], group[32];
    __shared__ float values[CHUNK];
    const unsigned chunks = chunk_count(k), per = (chunks + blockDim.x - 1) / blockDim.x;
    const unsigned first = st->exact_end, t = threadIdx.x, lane = t & 31;
    const int unit = unit_exponent(st->vmax);
    Step r = { make_double2(0, 0), NO_CHUNKS };
    for (unsigned c = max(first, t * per); c < min(chunks, (t + 1) * per); c++)
        r = then(r, Step{ step[c], binade[c] }, unit);
    run[t] = r;
    __syncthreads();
    if (t >= 32) return;
    const unsigned groups = blockDim.x >> 5;
    Step g = { make_double2(0, 0), NO_CHUNKS };
    for (unsigned i = 0; t < groups && i < 32; i++) g = then(g, run[t * 32 + i], unit);
    group[t] = g;
    __syncwarp();
    /* every lane runs the walk alike: the same sum in each */
    double sum = (double)st->exact_sum * pow2(unit);
    for (unsigned gi = 0; gi < groups; gi++) {
        if (group[gi].e != NO_STEP) {
            if (group[gi].e != NO_CHUNKS) sum += pick(group[gi].d, sum);
            continue;
        }
        for (unsigned ri = gi * 32; ri < gi * 32 + 32; ri++) {
            if (run[ri].e != NO_STEP) {
                if (run[ri].e != NO_CHUNKS) sum += pick(run[ri].d, sum);
                continue;
            }
            for (unsigned c = max(first, ri * per); c < min(chunks, (ri + 1) * per); c++) {
                if (binade[c] != NO_STEP) {
                    sum += pick(step[c], sum);
                    continue;
                }
                const unsigned from = c * CHUNK, len = min(CHUNK, k - from);
                __syncwarp();
                for (unsigned x = lane; x < len; x += 32) values[x] = v[from + x];
                __syncwarp();
                for (unsigned x = 0; x < len; x++) sum += values[x];
            }
        }
    }
    if (!t) *mean = sum / k;
}

} /* namespace */

/* Split rounds before the single block takes over: enough for the range to
 * fall below SMALL_RANGE on CAMBI's data (a round keeps about 3/4 of it at
 * worst on average); any rounds left are finish_rounds' (slower, as exact). */
static unsigned split_rounds(unsigned n)
{
    unsigned r = 0;
    for (unsigned size = SMALL_RANGE; size < n && r < 32; size += size / 2 + 1) r++;
    return r + 2;
}

#define LAUNCHED()                                  \
    do {                                            \
        const int status_ = launch_status();        \
        if (status_) return status_;                \
    } while (0)

extern "C" int vqx_cuda_top_mean(float *values, unsigned n, unsigned k, void *scratch,
                                 double *mean, void *stream)
{
    if (!values || !scratch || !mean || !k || k > n || n >= 1u << 24)
        return (int)cudaErrorInvalidValue;
    cudaStream_t s = (cudaStream_t)stream;
    const Scratch sc = carve(scratch, n);
    const unsigned blocks = n < SPLIT_BLOCKS * 4096 ? (n + 4095) / 4096 : SPLIT_BLOCKS;
    start<<<1, 1, 0, s>>>(n, k, sc.st);
    LAUNCHED();
    largest<<<blocks, VQX_BLOCK, 0, s>>>(values, n, sc.st);
    LAUNCHED();
    if (n > SMALL_RANGE + 1)
        for (unsigned r = split_rounds(n); r; r--) {
            count_stops<<<blocks, VQX_BLOCK, 0, s>>>(values, k, sc.st, sc.block_stops);
            LAUNCHED();
            rank_stops<<<blocks, VQX_BLOCK, 0, s>>>(values, k, sc.st, sc.block_stops, sc.left,
                                                    sc.right);
            LAUNCHED();
            swap_stops<<<blocks, VQX_BLOCK, 0, s>>>(values, k, sc.st, sc.left, sc.right);
            LAUNCHED();
        }
    finish_rounds<<<1, ONE_BLOCK, 0, s>>>(values, k, sc.st, sc.left, sc.right);
    LAUNCHED();
    const unsigned chunk_blocks = (chunk_count(k) + WARPS - 1) / WARPS;
    chunk_sums<<<chunk_blocks, VQX_BLOCK, 0, s>>>(values, k, sc.st, sc.chunk_lo, sc.chunk_hi);
    LAUNCHED();
    scan_chunks<<<1, ONE_BLOCK, 0, s>>>(k, sc.st, sc.chunk_lo, sc.chunk_hi, sc.binade);
    LAUNCHED();
    chunk_steps<<<chunk_blocks, VQX_BLOCK, 0, s>>>(values, k, sc.st, sc.binade, sc.step);
    LAUNCHED();
    compose<<<1, ONE_BLOCK, 0, s>>>(values, k, sc.st, sc.binade, sc.step, mean);
    return launch_status();
}
