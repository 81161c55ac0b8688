/* Picture layout, shared by allocation and the context's buffer pool. */
#ifndef VQX_PICTURE_H
#define VQX_PICTURE_H

#include <stdbool.h>
#include <stddef.h>

#include "vqx/vqx.h"

/* Plane masks: bit p is plane p. */
#define VQX_ALL_PLANES 7u

/* Set the geometry, strides and layout of `pic` (no planes yet) and return
 * the bytes its buffer needs for the planes in the mask `planes`, 0 for an
 * invalid geometry. */
size_t vqx_picture_layout(VqxPicture *pic, enum VqxPixelLayout layout,
                          unsigned bpc, unsigned w, unsigned h, unsigned planes);
/* Point those planes of a laid-out picture into `buf`, which it then owns;
 * the others' data stay NULL. */
void vqx_picture_place(VqxPicture *pic, void *buf, unsigned planes);

/* Where a sample exceeds the peak of the picture's bit depth. */
typedef struct VqxSampleOverflow {
    unsigned plane, x, y;
    unsigned value;
} VqxSampleOverflow;

/* true, with the first such sample in plane then raster order, when a
 * sample of the planes of `pic` in the mask `planes` (bit p: plane p) is
 * above (1 << bpc) - 1. */
bool vqx_picture_find_overflow(const VqxPicture *pic, unsigned planes, VqxSampleOverflow *at);

#endif
