/*
 * Planes as libvmaf's float extractors see them (its picture_copy.c): each
 * sample divided by 2^(bpc - 8), so that every depth spans the 8-bit range,
 * plus an offset (-128 for VIF, ADM, motion and ANSNR; 0 for the others).
 */
#ifndef VQX_FEATURE_FLOAT_PICTURE_H
#define VQX_FEATURE_FLOAT_PICTURE_H

#include <stddef.h>

#include "bitdepth.h"
#include "vqx/vqx.h"

/* Converts plane `plane` of `pic` into dst (stride in floats). */
void vqx_float_plane(float *dst, ptrdiff_t dst_stride, const VqxPicture *pic,
                     unsigned plane, float offset);

BF_DECL(void, vqx_float_plane, float *dst, ptrdiff_t dst_stride, const void *src,
        ptrdiff_t src_stride, unsigned w, unsigned h, float scale, float offset);

#endif
