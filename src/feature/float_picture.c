#include "feature/float_picture.h"

void vqx_float_plane(float *dst, ptrdiff_t dst_stride, const VqxPicture *pic,
                     unsigned plane, float offset)
{
    /* libvmaf divides by 4, 16 or 256 (10, 12 and 16 bits). Multiplying by
     * the reciprocal of a power of two gives the same float. libvmaf reads
     * 9, 11 and 13..15-bit samples as bytes (a fault); vqx scales them like
     * the others. */
    const float scale = 1.0f / (float)(1u << (pic->bpc - 8));
    if (pic->bpc == 8)
        vqx_float_plane_8bpc(dst, dst_stride, pic->data[plane], pic->stride[plane],
                             pic->w[plane], pic->h[plane], scale, offset);
    else
        vqx_float_plane_16bpc(dst, dst_stride, pic->data[plane], pic->stride[plane],
                              pic->w[plane], pic->h[plane], scale, offset);
}
