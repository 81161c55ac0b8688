/*
 * Planes as the float extractors of libvmaf see them (its picture_copy.c):
 * 8-bit samples as they are, 10-, 12- and 16-bit samples scaled down to the
 * 8-bit range (divided by 4, 16, 256), plus an offset. Other depths are
 * refused: libvmaf has no defined conversion for them.
 *
 * Private to float_motion, float_psnr, float_ansnr and float_moment until
 * the shared float picture module is merged.
 */
#ifndef VQX_FEATURE_FLOAT_PICTURE_MOTION_H
#define VQX_FEATURE_FLOAT_PICTURE_MOTION_H

#include <stdbool.h>
#include <stddef.h>

#include "bitdepth.h"
#include "feature/extractor.h"

/* dst_stride counts floats. */
BF_DECL(void, vqx_motion_float_plane, float *dst, ptrdiff_t dst_stride,
        const void *src, ptrdiff_t src_stride, unsigned w, unsigned h,
        float inv_scale, float offset);

/* Whether `bpc` has a float conversion; writes the reason to sink if not. */
int vqx_motion_float_check_bpc(unsigned bpc, const char *feature, VqxSink *sink);

/* Rows [y0, y0 + n) of plane p of pic as floats in dst (stride in floats). */
void vqx_motion_float_rows(float *dst, ptrdiff_t dst_stride, const VqxPicture *pic,
                           unsigned p, unsigned y0, unsigned n, float offset);

/* The largest converted sample value (255 for 8 bits, 1023 / 4 for 10...). */
double vqx_motion_float_peak(unsigned bpc);

/* Row stride in floats for a plane `w` samples wide: rows start 32-byte aligned. */
static inline size_t vqx_motion_float_stride(unsigned w)
{
    return ((size_t)w + 7) & ~(size_t)7;
}

#endif
