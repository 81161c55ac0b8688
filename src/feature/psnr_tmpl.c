#include "bitdepth.h"
#include "feature/psnr.h"

/* Squares of differences of at most 16 bits fit 32 bits, so they multiply
 * in 32 bits and the loops vectorise. 8-bit squares (< 2^16) are also
 * summed in 32 bits, which holds 65536 of them exactly. */
#define ROW_CHUNK 65536u

uint64_t BF(vqx_row_sse)(const void *ref, const void *dis, unsigned w)
{
    const pixel *r = ref, *d = dis;
    uint64_t row = 0;
#if BITDEPTH == 8
    for (unsigned x0 = 0; x0 < w; x0 += ROW_CHUNK) {
        const unsigned end = w - x0 > ROW_CHUNK ? x0 + ROW_CHUNK : w;
        uint32_t part = 0;
        for (unsigned x = x0; x < end; x++) {
            const int32_t e = r[x] - d[x];
            part += (uint32_t)(e * e);
        }
        row += part;
    }
#else
    for (unsigned x = 0; x < w; x++) {
        const uint32_t e = (uint32_t)((int32_t)r[x] - d[x]);
        row += e * e; /* modulo 2^32: e^2 itself, < 2^32 */
    }
#endif
    return row;
}

/* Sum of squared differences of one plane, exact in 64-bit integers. */
uint64_t BF(vqx_plane_sse)(const void *ref, ptrdiff_t ref_stride,
                           const void *dis, ptrdiff_t dis_stride,
                           unsigned w, unsigned h)
{
    uint64_t sse = 0;
    for (unsigned y = 0; y < h; y++)
        sse += BF(vqx_row_sse)(PIXEL_ROW(pixel, ref, ref_stride, y),
                               PIXEL_ROW(pixel, dis, dis_stride, y), w);
    return sse;
}
