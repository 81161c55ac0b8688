#include "bitdepth.h"
#include "feature/float_picture_motion.h"

void BF(vqx_motion_float_plane)(float *dst, ptrdiff_t dst_stride,
                                const void *src, ptrdiff_t src_stride, unsigned w, unsigned h,
                                float inv_scale, float offset)
{
    for (unsigned y = 0; y < h; y++) {
        const pixel *s = PIXEL_ROW(pixel, src, src_stride, y);
        float *d = dst + (ptrdiff_t)y * dst_stride;
#if BITDEPTH == 8
        (void)inv_scale;
        for (unsigned x = 0; x < w; x++)
            d[x] = (float)s[x] + offset;
#else
        for (unsigned x = 0; x < w; x++)
            d[x] = (float)s[x] * inv_scale + offset;
#endif
    }
}
