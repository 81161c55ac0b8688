/*
 * Planes as the float extractors of libvmaf see them (its picture_copy.c):
 * samples divided by 2^(bpc - 8), so that every depth spans the 8-bit range,
 * plus an offset. libvmaf reads 9, 11 and 13..15-bit samples as bytes (a
 * fault); vqx scales them like the others.
 *
 * Private to float_motion, float_psnr, float_ansnr and float_moment until
 * the shared float picture module is merged.
 */
#ifndef VQX_FEATURE_FLOAT_PICTURE_MOTION_H
#define VQX_FEATURE_FLOAT_PICTURE_MOTION_H

#include <stddef.h>

#include "bitdepth.h"
#include "vqx/vqx.h"

/* dst_stride counts floats. */
BF_DECL(void, vqx_motion_float_plane, float *dst, ptrdiff_t dst_stride,
        const void *src, ptrdiff_t src_stride, unsigned w, unsigned h,
        float inv_scale, float offset);

/* Rows [y0, y0 + n) of plane p of pic as floats in dst (stride in floats). */
void vqx_motion_float_rows(float *dst, ptrdiff_t dst_stride, const VqxPicture *pic,
                           unsigned p, unsigned y0, unsigned n, float offset);

/* The largest converted sample value (255 for 8 bits, 1023 / 4 for 10...),
 * the peak of float_psnr and float_anpsnr. */
double vqx_motion_float_peak(unsigned bpc);

/* Row stride in floats for a plane `w` samples wide: rows start 32-byte aligned. */
static inline size_t vqx_motion_float_stride(unsigned w)
{
    return ((size_t)w + 7) & ~(size_t)7;
}

#endif
