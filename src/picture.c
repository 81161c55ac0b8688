#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "picture.h"

/* Rows are packed, so that a plane is one block a reader fills with one
 * read and a device with one copy; planes start on 64-byte boundaries. */
#define PLANE_ALIGN 64

unsigned vqx_picture_planes(const VqxPicture *pic)
{
    return pic->layout == VQX_PIX_400 ? 1 : 3;
}

size_t vqx_picture_layout(VqxPicture *pic, enum VqxPixelLayout layout,
                          unsigned bpc, unsigned w, unsigned h, unsigned planes)
{
    memset(pic, 0, sizeof(*pic));
    if (bpc < 8 || bpc > 16) return 0;
    if (layout > VQX_PIX_444) return 0;
    if (!w || !h || w > 1u << 16 || h > 1u << 16) return 0;

    const unsigned ss_x = layout == VQX_PIX_420 || layout == VQX_PIX_422;
    const unsigned ss_y = layout == VQX_PIX_420;
    const unsigned bytes = bpc > 8 ? 2 : 1;
    pic->layout = layout;
    pic->bpc = bpc;
    size_t total = 0;
    for (unsigned p = 0; p < vqx_picture_planes(pic); p++) {
        pic->w[p] = p ? (w + ss_x) >> ss_x : w;
        pic->h[p] = p ? (h + ss_y) >> ss_y : h;
        const size_t stride = (size_t)pic->w[p] * bytes;
        pic->stride[p] = (ptrdiff_t)stride;
        if (planes >> p & 1)
            total += (stride * pic->h[p] + PLANE_ALIGN - 1) & ~(size_t)(PLANE_ALIGN - 1);
    }
    return total;
}

void vqx_picture_place(VqxPicture *pic, void *buf, unsigned planes)
{
    uint8_t *at = buf;
    for (unsigned p = 0; p < vqx_picture_planes(pic); p++) {
        if (!(planes >> p & 1)) continue;
        pic->data[p] = at;
        at += ((size_t)pic->stride[p] * pic->h[p] + PLANE_ALIGN - 1) & ~(size_t)(PLANE_ALIGN - 1);
    }
    pic->buf = buf;
}

int vqx_picture_alloc(VqxPicture *pic, enum VqxPixelLayout layout,
                      unsigned bpc, unsigned w, unsigned h)
{
    if (!pic) return -EINVAL;
    const size_t total = vqx_picture_layout(pic, layout, bpc, w, h, VQX_ALL_PLANES);
    if (!total) return -EINVAL;
    /* total is a multiple of PLANE_ALIGN, as aligned_alloc wants */
    void *buf = aligned_alloc(PLANE_ALIGN, total);
    if (!buf) {
        memset(pic, 0, sizeof(*pic));
        return -ENOMEM;
    }
    vqx_picture_place(pic, buf, VQX_ALL_PLANES);
    return 0;
}

/* The bits of a row's samples ORed together: one pass the compiler
 * vectorises; the position is looked for only once a row has a bad one. */
static unsigned row_bits(const uint16_t *row, unsigned w)
{
    uint16_t bits = 0;
    for (unsigned x = 0; x < w; x++) bits |= row[x];
    return bits;
}

bool vqx_picture_find_overflow(const VqxPicture *pic, unsigned planes, VqxSampleOverflow *at)
{
    if (pic->bpc <= 8 || pic->bpc >= 16) return false; /* every code is valid */
    const unsigned peak = (1u << pic->bpc) - 1;
    for (unsigned p = 0; p < vqx_picture_planes(pic); p++) {
        if (!(planes >> p & 1)) continue;
        for (unsigned y = 0; y < pic->h[p]; y++) {
            const uint16_t *row = (const uint16_t *)((const uint8_t *)pic->data[p] + y * pic->stride[p]);
            if (!(row_bits(row, pic->w[p]) & ~peak)) continue;
            unsigned x = 0;
            while (row[x] <= peak) x++;
            *at = (VqxSampleOverflow){ p, x, y, row[x] };
            return true;
        }
    }
    return false;
}

void vqx_picture_free(VqxPicture *pic)
{
    if (!pic) return;
    if (pic->pool) vqx_ctx_pool_release(pic->pool, pic->buf);
    else free(pic->buf);
    memset(pic, 0, sizeof(*pic));
}
