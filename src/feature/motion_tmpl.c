/*
 * The integer motion kernel: the difference of two luma planes, blurred by a
 * 5-tap filter down the columns (rounded to 8-bit-equivalent precision with
 * 8 fractional bits) then along the rows (rounded to the same scale), summed
 * in absolute value. Borders mirror without repeating the edge sample.
 */
#include "bitdepth.h"
#include "feature/motion.h"

#if BITDEPTH == 8
#define motion_column vqx_motion_column_32
#else
#define motion_column vqx_motion_column_64
#endif

MOTION_BLUR_COLUMNS(BF(vqx_motion_blur_columns))
{
    const int col_shift = BITDEPTH == 8 ? 8 : (int)bpc;
    const pixel *p[VQX_MOTION_TAPS_N], *c[VQX_MOTION_TAPS_N];
    for (int k = 0; k < VQX_MOTION_TAPS_N; k++) {
        const int r = vqx_reflect101((int)y - VQX_MOTION_RADIUS + k, (int)h);
        p[k] = PIXEL_ROW(pixel, prev, prev_stride, r);
        c[k] = PIXEL_ROW(pixel, cur, cur_stride, r);
    }
    int32_t any = 0;
    for (unsigned x = 0; x < w; x++) {
        int32_t d[VQX_MOTION_TAPS_N];
        for (int k = 0; k < VQX_MOTION_TAPS_N; k++) d[k] = vqx_motion_diff(p[k][x], c[k][x]);
        mid[x] = motion_column(vqx_motion_taps, d, 1, col_shift);
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
