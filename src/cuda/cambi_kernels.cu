/*
 * CAMBI on the device (cambi.c's stages; the per-sample statements are
 * cambi.h's VQX_HOSTDEV inlines). Every value is an integer except the
 * contrast values, whose float statements are the CPU's, so each kernel's
 * output equals its CPU stage's whatever the order of the threads.
 */
#include "cuda/common.cuh"
#include "cuda/cambi_kernels.h"

#define TILE_W 32
#define TILE_H 8
#define MASK_R (CAMBI_MASK_SIZE / 2)

/* ---- load to 10 bits, and the anti-dithering smooth ---- */

template <typename P>
__device__ inline unsigned loaded(const P *plane, size_t pitch, unsigned bpc,
                                  const unsigned *rows, const unsigned *cols, unsigned y,
                                  unsigned x)
{
    return vqx_cambi_to_10bit(plane[rows[y] * pitch + cols[x]], bpc);
}

/* vqx_cambi_smooth_2x2 is in place but reads only samples it has not
 * written yet: a pure function of the loaded image. */
template <typename P>
__global__ void load(const P *plane, size_t pitch, unsigned bpc, const unsigned *rows,
                     const unsigned *cols, unsigned w, unsigned h, int smooth, uint16_t *out)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w) return;
    const unsigned a = loaded(plane, pitch, bpc, rows, cols, y, x);
    unsigned v = a;
    if (smooth) {
        const bool right = x + 1 < w, below = y + 1 < h;
        if (right && below)
            v = (a + loaded(plane, pitch, bpc, rows, cols, y, x + 1) +
                 loaded(plane, pitch, bpc, rows, cols, y + 1, x) +
                 loaded(plane, pitch, bpc, rows, cols, y + 1, x + 1)) >> 2;
        else if (below)
            v = (a + loaded(plane, pitch, bpc, rows, cols, y + 1, x)) >> 1;
        else if (right)
            v = (a + loaded(plane, pitch, bpc, rows, cols, y, x + 1)) >> 1;
    }
    out[(size_t)y * w + x] = (uint16_t)v;
}

extern "C" int vqx_cuda_cambi_load(const void *plane, size_t pitch, unsigned bpc,
                                   const unsigned *rows, const unsigned *cols, unsigned w,
                                   unsigned h, int smooth, uint16_t *out, void *stream)
{
    const dim3 grid((w + VQX_BLOCK - 1) / VQX_BLOCK, h);
    cudaStream_t s = (cudaStream_t)stream;
    if (bpc == 8)
        load<<<grid, VQX_BLOCK, 0, s>>>((const uint8_t *)plane, pitch, bpc, rows, cols, w, h,
                                        smooth, out);
    else
        load<<<grid, VQX_BLOCK, 0, s>>>((const uint16_t *)plane, pitch, bpc, rows, cols, w, h,
                                        smooth, out);
    return launch_status();
}

/* ---- spatial mask ---- */

/* Flat: equal to the right and lower neighbours, a missing one counting as
 * equal (vqx_cambi_spatial_mask's flags); 0 outside the picture, which
 * clips the 7x7 sums. */
__device__ inline unsigned flat(const uint16_t *img, unsigned w, unsigned h, int y, int x)
{
    if (y < 0 || x < 0 || y >= (int)h || x >= (int)w) return 0;
    const uint16_t *p = img + (size_t)y * w + x;
    const bool right = x + 1 < (int)w ? p[1] == p[0] : true;
    const bool below = y + 1 < (int)h ? p[w] == p[0] : true;
    return right && below;
}

__global__ void __launch_bounds__(TILE_W * TILE_H)
spatial_mask(const uint16_t *img, unsigned w, unsigned h, unsigned threshold, uint8_t *mask)
{
    __shared__ uint8_t flags[TILE_H + 2 * MASK_R][TILE_W + 2 * MASK_R];
    const int x0 = (int)(blockIdx.x * TILE_W) - MASK_R, y0 = (int)(blockIdx.y * TILE_H) - MASK_R;
    const unsigned t = threadIdx.y * TILE_W + threadIdx.x;
    for (unsigned i = t; i < (TILE_H + 2 * MASK_R) * (TILE_W + 2 * MASK_R); i += TILE_W * TILE_H) {
        const unsigned fy = i / (TILE_W + 2 * MASK_R), fx = i % (TILE_W + 2 * MASK_R);
        flags[fy][fx] = (uint8_t)flat(img, w, h, y0 + (int)fy, x0 + (int)fx);
    }
    __syncthreads();
    const unsigned x = blockIdx.x * TILE_W + threadIdx.x, y = blockIdx.y * TILE_H + threadIdx.y;
    if (x >= w || y >= h) return;
    unsigned sum = 0;
    for (unsigned dy = 0; dy < CAMBI_MASK_SIZE; dy++)
        for (unsigned dx = 0; dx < CAMBI_MASK_SIZE; dx++)
            sum += flags[threadIdx.y + dy][threadIdx.x + dx];
    mask[(size_t)y * w + x] = sum > threshold;
}

extern "C" int vqx_cuda_cambi_mask(const uint16_t *img, unsigned w, unsigned h,
                                   unsigned threshold, uint8_t *mask, void *stream)
{
    const dim3 grid((w + TILE_W - 1) / TILE_W, (h + TILE_H - 1) / TILE_H);
    spatial_mask<<<grid, dim3(TILE_W, TILE_H), 0, (cudaStream_t)stream>>>(img, w, h, threshold,
                                                                         mask);
    return launch_status();
}

/* ---- a scale: halving, then the 3x3 mode filter ---- */

/* vqx_cambi_mode_filter works in place, row pass then column pass, each
 * output row written after the next row's row pass: so the output is the
 * column mode of row-filtered rows, except that the first and last rows
 * keep their samples, and the first and last columns skip the row pass. */
__global__ void scale_picture(const uint16_t *img, const uint8_t *mask, unsigned in_w,
                              unsigned step, unsigned w, unsigned h, uint16_t *out,
                              uint8_t *out_mask, uint16_t *halved)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    if (x >= w) return;
    const size_t at = (size_t)y * w + x;
#define IN(yy, xx) img[(size_t)(yy) * step * in_w + (size_t)(xx) * step]
    const uint16_t centre = IN(y, x);
    if (out_mask) out_mask[at] = mask[(size_t)y * step * in_w + (size_t)x * step];
    if (halved) halved[at] = centre;
    uint16_t v = centre;
    if (y > 0 && y + 1 < h) {
        uint16_t rows[3];
        for (unsigned i = 0; i < 3; i++) {
            const unsigned r = y + i - 1;
            rows[i] = x > 0 && x + 1 < w ? vqx_cambi_mode3(IN(r, x - 1), IN(r, x), IN(r, x + 1))
                                         : IN(r, x);
        }
        v = vqx_cambi_mode3(rows[0], rows[1], rows[2]);
    }
#undef IN
    out[at] = v;
}

extern "C" int vqx_cuda_cambi_scale(const uint16_t *img, const uint8_t *mask, unsigned in_w,
                                    unsigned in_h, int halve, uint16_t *out, uint8_t *out_mask,
                                    uint16_t *halved, void *stream)
{
    const unsigned step = halve ? 2 : 1;
    const unsigned w = halve ? (in_w + 1) >> 1 : in_w, h = halve ? (in_h + 1) >> 1 : in_h;
    const dim3 grid((w + VQX_BLOCK - 1) / VQX_BLOCK, h);
    scale_picture<<<grid, VQX_BLOCK, 0, (cudaStream_t)stream>>>(
        img, mask, in_w, step, w, h, out, halve ? out_mask : NULL, halve ? halved : NULL);
    return launch_status();
}

/* ---- contrast values ----
 * A block takes `columns` output columns of a run of rows. In shared memory
 * it keeps, for each code value of the band and each column of its strip
 * and the window's half side either side, the count of masked pixels of
 * that value in the window's rows of that column (at most 65: one byte).
 * Each thread owns the same columns in every update (no two threads touch a
 * count), the rows entering and leaving the window as it moves down; then
 * each thread sums, over its pixel's window of columns, the counts of the
 * few values its pixel needs, in contrast_row's order. Columns and rows
 * outside the picture are never counted: the clipped windows. */

/* Sum of `count` bytes from byte `first` of a 4-byte aligned row: whole
 * words at a time, four bytes added by one dp4a (exact integer sums). */
__device__ inline unsigned window_sum(const uint8_t *row, unsigned first, unsigned count)
{
    const uint32_t *words = (const uint32_t *)row;
    const unsigned last = first + count - 1, lo = first >> 2, hi = last >> 2;
    const unsigned head = 8 * (first & 3), tail = last & 3;
    const uint32_t tail_mask = tail == 3 ? ~0u : (1u << (8 * (tail + 1))) - 1;
    const uint32_t ones = 0x01010101u;
    if (lo == hi) return __dp4a((words[lo] & tail_mask) >> head, ones, 0u);
    unsigned sum = __dp4a(words[lo] >> head, ones, 0u);
    for (unsigned i = lo + 1; i < hi; i++) sum = __dp4a(words[i], ones, sum);
    return __dp4a(words[hi] & tail_mask, ones, sum);
}

/* Shared memory allowed to a block: up to 2 resident blocks per SM in the
 * worst band (1024 + 32 values with 64 + 32 columns: 99 KiB). */
#define CONTRAST_SMEM_TARGET (64 * 1024)
/* Threads of a block: its columns times the parts that share a pixel's steps. */
#define CONTRAST_THREADS 256
#define CONTRAST_SMEM_MAX (112 * 1024)

__global__ void __launch_bounds__(CONTRAST_THREADS)
contrast(VqxCudaCambiContrast p, const uint16_t *img, const uint8_t *mask, unsigned w,
         unsigned h, unsigned columns, unsigned rows, float *out, double heat_gain,
         uint16_t *heat)
{
    extern __shared__ uint32_t count_words[];
    uint8_t *counts = (uint8_t *)count_words; /* [band_size][stride] */
    __shared__ float part_best[CONTRAST_THREADS];
    const unsigned t = threadIdx.x, threads = blockDim.x, parts = threads / columns;
    const unsigned span = columns + 2 * p.pad, stride = (span + 3) & ~3u;
    const int x0 = (int)(blockIdx.x * columns) - (int)p.pad; /* picture column of span 0 */
    const unsigned y0 = blockIdx.y * rows, y1 = y0 + rows < h ? y0 + rows : h;
    for (unsigned i = t; i < p.band_size * stride / 4; i += threads) count_words[i] = 0;

    /* row y enters (delta 1) or leaves (255: -1 modulo 256) the windows */
    auto update = [&](unsigned y, uint8_t delta) {
        const uint16_t *r = img + (size_t)y * w;
        const uint8_t *m = mask + (size_t)y * w;
        for (unsigned c = t; c < span; c += threads) {
            const int x = x0 + (int)c;
            if (x < 0 || x >= (int)w || !m[x]) continue;
            const unsigned band = (unsigned)r[x] - p.band_lo;
            if (band < p.band_size) counts[band * stride + c] += delta;
        }
    };
    __syncthreads();
    for (unsigned y = y0 > p.pad ? y0 - p.pad : 0; y < y0 + p.pad && y < h; y++) update(y, 1);

    /* thread t: column `col` of the strip, steps d = part (mod parts); the
     * largest of the parts' values is the CPU's (a max of non-negative
     * floats: any order) */
    const unsigned col = t % columns, part = t / columns, x = blockIdx.x * columns + col;
    const unsigned side = 2 * p.pad + 1; /* span columns col .. col + 2 pad: x - pad .. x + pad */
    for (unsigned y = y0; y < y1; y++) {
        if (y + p.pad < h) update(y + p.pad, 1);
        if (y > y0 && y > p.pad) update(y - p.pad - 1, 255);
        __syncthreads();
        const size_t at = (size_t)y * w + x;
        float best = 0.0f;
        if (x < w) {
            const unsigned value = img[at], band = value - p.band_lo;
            if (mask[at] && band < p.band_size && part < p.n_steps) {
                const unsigned p0 = window_sum(counts + band * stride, col, side);
                for (unsigned d = part; d < p.n_steps; d += parts) {
                    if (!vqx_cambi_step_counts(value, p.n_steps, d, p.tvi[d], p.vlt)) continue;
                    const unsigned up = window_sum(counts + (band + d + 1) * stride, col, side);
                    const unsigned down =
                        band > d ? window_sum(counts + (band - d - 1) * stride, col, side) : 0;
                    const unsigned p1 = up > down ? up : down;
                    const float v = vqx_cambi_step_contrast(p.weight[d], p0, p1, p.reciprocal);
                    if (v > best) best = v;
                }
            }
        }
        part_best[t] = best;
        __syncthreads();
        if (!part && x < w) {
            for (unsigned i = 1; i < parts; i++) {
                const float v = part_best[i * columns + col];
                if (v > best) best = v;
            }
            out[at] = best;
            if (heat) heat[at] = vqx_cambi_heat(heat_gain, best);
        }
    }
}

static size_t contrast_smem(unsigned band_size, unsigned pad, unsigned columns)
{
    return (size_t)band_size * ((columns + 2 * pad + 3) & ~3u);
}

extern "C" unsigned vqx_cuda_cambi_contrast_columns(unsigned band_size, unsigned pad, int *status)
{
    unsigned columns = 256;
    while (columns > 32 && contrast_smem(band_size, pad, columns) > CONTRAST_SMEM_TARGET)
        columns >>= 1;
    const size_t bytes = contrast_smem(band_size, pad, columns);
    *status = 0;
    if (bytes > CONTRAST_SMEM_MAX) return 0; /* cannot happen: band <= 1056, pad <= 32 */
    /* The attribute is the kernel's, shared by every cambi instance of the
     * process: allow the most any of them uses, not this one's need. */
    *status = (int)cudaFuncSetAttribute(contrast, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        CONTRAST_SMEM_MAX);
    return *status ? 0 : columns;
}

extern "C" int vqx_cuda_cambi_contrast(const VqxCudaCambiContrast *p, const uint16_t *img,
                                       const uint8_t *mask, unsigned w, unsigned h,
                                       unsigned columns, float *out, double heat_gain,
                                       uint16_t *heat, void *stream)
{
    /* rows per block: enough blocks to fill the device several times; a
     * block's first rows cost it only the counting of 2 * pad rows */
    const unsigned strips = (w + columns - 1) / columns, target = 1024;
    unsigned runs = (target + strips - 1) / strips;
    if (runs > (h + 7) / 8) runs = (h + 7) / 8;
    if (!runs) runs = 1;
    const unsigned rows = (h + runs - 1) / runs;
    const dim3 grid(strips, (h + rows - 1) / rows);
    /* a pixel's steps shared by up to n_steps threads, 256 in a block at most:
     * the narrow strips of wide bands then still fill the multiprocessors */
    unsigned parts = p->n_steps;
    while (parts > 1 && columns * parts > CONTRAST_THREADS) parts--;
    contrast<<<grid, columns * parts, contrast_smem(p->band_size, p->pad, columns),
               (cudaStream_t)stream>>>(*p, img, mask, w, h, columns, rows, out, heat_gain, heat);
    return launch_status();
}
