#include <stdint.h>

#include "feature/float_picture.h"

/* libvmaf divides by 1 (no division), 4, 16 or 256. A power of two and its
 * reciprocal are exact floats, and a sample (below 2^16) scaled by either
 * is exact too, so the product with the reciprocal is the same float as
 * the quotient, at every depth. */
static float inverse_scale(unsigned bpc)
{
    return 1.0f / (float)(1u << (bpc - 8));
}

void vqx_float_rows(float *dst, ptrdiff_t dst_stride, const VqxPicture *pic,
                    unsigned plane, unsigned y0, unsigned n, float offset)
{
    (pic->bpc == 8 ? vqx_float_convert_8bpc : vqx_float_convert_16bpc)(
        dst, dst_stride, (const uint8_t *)pic->data[plane] + (ptrdiff_t)y0 * pic->stride[plane],
        pic->stride[plane], pic->w[plane], n, inverse_scale(pic->bpc), offset);
}

double vqx_float_peak(unsigned bpc)
{
    return (double)((1u << bpc) - 1) * inverse_scale(bpc);
}
