#include <stdint.h>

#include "feature/float_picture_motion.h"

/* libvmaf divides by 4, 16 or 256 (10, 12 and 16 bits): multiplying by the
 * reciprocal of a power of two gives the same float. */
static float inverse_scale(unsigned bpc)
{
    return 1.0f / (float)(1u << (bpc - 8));
}

void vqx_motion_float_rows(float *dst, ptrdiff_t dst_stride, const VqxPicture *pic,
                           unsigned p, unsigned y0, unsigned n, float offset)
{
    (pic->bpc == 8 ? vqx_motion_float_plane_8bpc : vqx_motion_float_plane_16bpc)(
        dst, dst_stride, (const uint8_t *)pic->data[p] + (ptrdiff_t)y0 * pic->stride[p],
        pic->stride[p], pic->w[p], n, inverse_scale(pic->bpc), offset);
}

double vqx_motion_float_peak(unsigned bpc)
{
    return (double)((1u << bpc) - 1) * inverse_scale(bpc);
}
