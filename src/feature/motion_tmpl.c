/*
 * The integer motion kernel: the difference of two luma planes, blurred by a
 * 5-tap filter down the columns (rounded to 8-bit-equivalent precision with
 * 8 fractional bits) then along the rows (rounded to the same scale), summed
 * in absolute value. Borders mirror without repeating the edge sample.
 */
#include "bitdepth.h"
#include "feature/motion.h"

#if BITDEPTH == 8
typedef int32_t col_acc;  /* |sum| <= 255 * 65536 */
#else
typedef int64_t col_acc;  /* 65535 * 65536 needs 33 bits */
#endif

static inline int mirror(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - i - 2 : i;
}

MOTION_BLUR_COLUMNS(BF(vqx_motion_blur_columns))
{
    const int col_shift = BITDEPTH == 8 ? 8 : (int)bpc;
    const col_acc col_round = (col_acc)1 << (col_shift - 1);
    const pixel *p[5], *c[5];
    for (int k = 0; k < 5; k++) {
        const int r = mirror((int)y - VQX_MOTION_RADIUS + k, (int)h);
        p[k] = PIXEL_ROW(pixel, prev, prev_stride, r);
        c[k] = PIXEL_ROW(pixel, cur, cur_stride, r);
    }
    int32_t any = 0;
    for (unsigned x = 0; x < w; x++) {
        col_acc acc = 0;
        for (int k = 0; k < 5; k++)
            acc += vqx_motion_taps[k] * (col_acc)((int32_t)p[k][x] - (int32_t)c[k][x]);
        mid[x] = (int32_t)((acc + col_round) >> col_shift);
        any |= mid[x];
    }
    return any;
}

uint64_t BF(vqx_motion_sad)(const void *prev, ptrdiff_t prev_stride,
                            const void *cur, ptrdiff_t cur_stride, int32_t *row,
                            unsigned w, unsigned h, unsigned bpc)
{
    MotionDSPContext c;
    vqx_motion_dsp_init(&c, BITDEPTH == 8 ? 8 : 16, 0);
    return vqx_motion_plane_sad(&c, prev, prev_stride, cur, cur_stride, row, w, h, bpc);
}
