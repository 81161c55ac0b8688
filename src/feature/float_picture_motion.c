#include <errno.h>
#include <stdint.h>

#include "feature/float_picture_motion.h"

/* 1 / the divisor libvmaf's picture_copy.c uses for each depth. */
static float inverse_scale(unsigned bpc)
{
    switch (bpc) {
    case 8: return 1.0f;
    case 10: return 1.0f / 4.0f;
    case 12: return 1.0f / 16.0f;
    case 16: return 1.0f / 256.0f;
    default: return 0.0f;
    }
}

int vqx_motion_float_check_bpc(unsigned bpc, const char *feature, VqxSink *sink)
{
    if (inverse_scale(bpc) != 0.0f) return 0;
    return vqx_fail(sink, -EINVAL, "%s: %u-bit input is not supported (8, 10, 12 or 16 bits)",
                    feature, bpc);
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
