#include "bitdepth.h"
#include "feature/psnr.h"

uint64_t BF(vqx_row_sse)(const void *ref, const void *dis, unsigned w)
{
    const pixel *r = ref, *d = dis;
    uint64_t row = 0;
    for (unsigned x = 0; x < w; x++) {
        const int64_t e = (int64_t)r[x] - d[x];
        row += (uint64_t)(e * e);
    }
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
