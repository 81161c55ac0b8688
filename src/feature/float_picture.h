/*
 * Planes as libvmaf's float extractors see them (its picture_copy.c): each
 * sample divided by 2^(bpc - 8), so that every depth spans the 8-bit range,
 * plus an offset: -128 for float_vif, float_adm, float_motion, float_ansnr
 * and SpEED; 0 for float_psnr, float_moment, float_ssim and float_ms_ssim.
 * libvmaf reads 9, 11 and 13..15-bit samples as bytes (a fault); vqx scales
 * them like the others.
 *
 * The conversion is a DSP table (as FloatMotionDSPContext): the scalar C
 * (float_picture_tmpl.c, once per sample size) overridden by the SIMD
 * entries the CPU flags allow (src/x86/); every entry gives the C's floats
 * bit for bit (tests/checkasm/float_picture.c).
 */
#ifndef VQX_FEATURE_FLOAT_PICTURE_H
#define VQX_FEATURE_FLOAT_PICTURE_H

#include <stddef.h>

#include "vqx/vqx.h"

/* The conversion of w x h samples (rows src_stride bytes apart) to floats
 * (rows dst_stride floats apart): dst = (float)sample * inv_scale + offset,
 * a product and then a sum, each rounded. */
#define FLOAT_CONVERT(name) \
    void name(float *dst, ptrdiff_t dst_stride, const void *src, ptrdiff_t src_stride, \
              unsigned w, unsigned h, float inv_scale, float offset)

typedef FLOAT_CONVERT((*FloatConvertFn));

typedef struct FloatPictureDSPContext {
    FloatConvertFn convert[2]; /* [0]: 8-bit samples (bytes); [1]: 9 to 16 bits (uint16_t) */
} FloatPictureDSPContext;

/* The table with the SIMD entries that `cpu_flags` (cpu.h, already masked)
 * allow; 0: the scalar C alone. */
void vqx_float_picture_dsp_init(FloatPictureDSPContext *c, unsigned cpu_flags);

FLOAT_CONVERT(vqx_float_convert_8bpc);
FLOAT_CONVERT(vqx_float_convert_16bpc);

/* Rows [y0, y0 + n) of plane `plane` of pic as floats in dst (stride in
 * floats): full width, row y0 at dst. */
void vqx_float_rows(const FloatPictureDSPContext *dsp, float *dst, ptrdiff_t dst_stride,
                    const VqxPicture *pic, unsigned plane, unsigned y0, unsigned n, float offset);

/* The whole plane. */
static inline void vqx_float_plane(const FloatPictureDSPContext *dsp, float *dst,
                                   ptrdiff_t dst_stride, const VqxPicture *pic, unsigned plane,
                                   float offset)
{
    vqx_float_rows(dsp, dst, dst_stride, pic, plane, 0, pic->h[plane], offset);
}

/* The largest converted sample value (255 for 8 bits, 1023 / 4 for 10...),
 * the peak of float_psnr and float_anpsnr. */
double vqx_float_peak(unsigned bpc);

/* Row stride in floats for a plane `w` samples wide: rows start 32-byte aligned. */
static inline size_t vqx_float_stride(unsigned w)
{
    return ((size_t)w + 7) & ~(size_t)7;
}

#endif
