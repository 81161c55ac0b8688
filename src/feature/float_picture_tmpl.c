#include "bitdepth.h"
#include "feature/float_picture.h"
#include "feature/float_sample.h"

FLOAT_CONVERT(BF(vqx_float_convert))
{
    for (unsigned y = 0; y < h; y++) {
        const pixel *s = PIXEL_ROW(pixel, src, src_stride, y);
        float *d = dst + (ptrdiff_t)y * dst_stride;
        for (unsigned x = 0; x < w; x++)
            d[x] = vqx_float_sample(s[x], inv_scale, offset);
    }
}
