#include <stdint.h>

#include "feature/float_picture.h"
#include "feature/float_sample.h"

#if VQX_ARCH_X86
#include "x86/float_picture.h"
#endif

void vqx_float_picture_dsp_init(FloatPictureDSPContext *c, unsigned cpu_flags)
{
    c->convert[0] = vqx_float_convert_8bpc;
    c->convert[1] = vqx_float_convert_16bpc;
#if VQX_ARCH_X86
    vqx_float_picture_dsp_init_x86(c, cpu_flags);
#else
    (void)cpu_flags;
#endif
}

void vqx_float_rows(const FloatPictureDSPContext *dsp, float *dst, ptrdiff_t dst_stride,
                    const VqxPicture *pic, unsigned plane, unsigned y0, unsigned n, float offset)
{
    dsp->convert[pic->bpc > 8](
        dst, dst_stride, (const uint8_t *)pic->data[plane] + (ptrdiff_t)y0 * pic->stride[plane],
        pic->stride[plane], pic->w[plane], n, vqx_float_inverse_scale(pic->bpc), offset);
}

double vqx_float_peak(unsigned bpc)
{
    return (double)((1u << bpc) - 1) * vqx_float_inverse_scale(bpc);
}
