#ifndef VQX_FEATURE_MOTION_H
#define VQX_FEATURE_MOTION_H

#include <stddef.h>
#include <stdint.h>

#include "bitdepth.h"

/* Margin, in samples, on each side of the row buffer of vqx_motion_sad. */
#define VQX_MOTION_RADIUS 2

/*
 * Sum over the plane of |blur(prev - cur)|, in libvmaf 3.2's integer_motion
 * fixed point. `row` holds w + 2 * VQX_MOTION_RADIUS int32 values. w and h
 * are at least 3 (the mirrored borders need it).
 */
BF_DECL(uint64_t, vqx_motion_sad, const void *prev, ptrdiff_t prev_stride,
        const void *cur, ptrdiff_t cur_stride, int32_t *row,
        unsigned w, unsigned h, unsigned bpc);

#endif
