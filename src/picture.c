#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "vqx/vqx.h"

/* Rows start on 64-byte boundaries so that SIMD loads and device copies
 * see aligned rows. */
#define ROW_ALIGN 64

unsigned vqx_picture_planes(const VqxPicture *pic)
{
    return pic->layout == VQX_PIX_400 ? 1 : 3;
}

int vqx_picture_alloc(VqxPicture *pic, enum VqxPixelLayout layout,
                      unsigned bpc, unsigned w, unsigned h)
{
    if (!pic) return -EINVAL;
    memset(pic, 0, sizeof(*pic));
    if (bpc < 8 || bpc > 16) return -EINVAL;
    if (layout > VQX_PIX_444) return -EINVAL;
    if (!w || !h || w > 1u << 16 || h > 1u << 16) return -EINVAL;

    const unsigned ss_x = layout == VQX_PIX_420 || layout == VQX_PIX_422;
    const unsigned ss_y = layout == VQX_PIX_420;
    const unsigned bytes = bpc > 8 ? 2 : 1;
    pic->layout = layout;
    pic->bpc = bpc;

    size_t total = 0;
    size_t offset[3];
    const unsigned planes = vqx_picture_planes(pic);
    for (unsigned p = 0; p < planes; p++) {
        pic->w[p] = p ? (w + ss_x) >> ss_x : w;
        pic->h[p] = p ? (h + ss_y) >> ss_y : h;
        const size_t stride = ((size_t)pic->w[p] * bytes + ROW_ALIGN - 1) & ~(size_t)(ROW_ALIGN - 1);
        pic->stride[p] = (ptrdiff_t)stride;
        offset[p] = total;
        total += stride * pic->h[p];
    }
    uint8_t *buf = aligned_alloc(ROW_ALIGN, total);
    if (!buf) return -ENOMEM;
    for (unsigned p = 0; p < planes; p++)
        pic->data[p] = buf + offset[p];
    pic->buf = buf;
    return 0;
}

void vqx_picture_free(VqxPicture *pic)
{
    if (!pic) return;
    free(pic->buf);
    memset(pic, 0, sizeof(*pic));
}
