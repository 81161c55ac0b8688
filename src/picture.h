/* Picture layout, shared by allocation and the context's buffer pool. */
#ifndef VQX_PICTURE_H
#define VQX_PICTURE_H

#include <stdbool.h>
#include <stddef.h>

#include "vqx/vqx.h"

/* Set the geometry, strides and layout of `pic` (no planes yet) and return
 * the bytes its buffer needs, 0 for an invalid geometry. */
size_t vqx_picture_layout(VqxPicture *pic, enum VqxPixelLayout layout,
                          unsigned bpc, unsigned w, unsigned h);
/* Point the planes of a laid-out picture into `buf`, which it then owns. */
void vqx_picture_place(VqxPicture *pic, void *buf);

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
