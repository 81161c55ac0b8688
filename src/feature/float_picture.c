#include <stdint.h>

#include "feature/float_picture.h"
#include "feature/float_sample.h"

void vqx_float_rows(float *dst, ptrdiff_t dst_stride, const VqxPicture *pic,
                    unsigned plane, unsigned y0, unsigned n, float offset)
{
    (pic->bpc == 8 ? vqx_float_convert_8bpc : vqx_float_convert_16bpc)(
        dst, dst_stride, (const uint8_t *)pic->data[plane] + (ptrdiff_t)y0 * pic->stride[plane],
        pic->stride[plane], pic->w[plane], n, vqx_float_inverse_scale(pic->bpc), offset);
}

double vqx_float_peak(unsigned bpc)
{
    return (double)((1u << bpc) - 1) * vqx_float_inverse_scale(bpc);
}
