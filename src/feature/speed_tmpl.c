#include "bitdepth.h"
#include "feature/speed.h"

/* libvmaf's picture_copy with offset -128: samples are brought to the 8-bit
 * range by a float division by 2^(bpc-8), then shifted. */
void BF(vqx_speed_load_plane)(float *dst, ptrdiff_t dst_stride,
                              const void *src, ptrdiff_t src_stride,
                              unsigned w, unsigned h, unsigned bpc)
{
#if BITDEPTH == 8
    (void)bpc;
    for (unsigned y = 0; y < h; y++) {
        const pixel *p = PIXEL_ROW(pixel, src, src_stride, y);
        float *d = dst + (ptrdiff_t)y * dst_stride;
        for (unsigned x = 0; x < w; x++)
            d[x] = (float)p[x] + -128.0f;
    }
#else
    const float scaler = (float)(1u << (bpc - 8));
    for (unsigned y = 0; y < h; y++) {
        const pixel *p = PIXEL_ROW(pixel, src, src_stride, y);
        float *d = dst + (ptrdiff_t)y * dst_stride;
        for (unsigned x = 0; x < w; x++)
            d[x] = (float)p[x] / scaler + -128.0f;
    }
#endif
}
