/*
 * The integer motion kernel: the difference of two luma planes, blurred by a
 * 5-tap filter down the columns (rounded to 8-bit-equivalent precision with
 * 8 fractional bits) then along the rows (rounded to the same scale), summed
 * in absolute value. Borders mirror without repeating the edge sample.
 */
#include <stdlib.h>

#include "bitdepth.h"
#include "feature/motion.h"

/* Taps (sum 65536), from libvmaf integer_motion.h, Netflix, BSD+Patent. */
static const int32_t taps[5] = { 3571, 16004, 26386, 16004, 3571 };

#if BITDEPTH == 8
typedef int32_t col_acc;  /* |sum| <= 255 * 65536 */
#else
typedef int64_t col_acc;  /* 65535 * 65536 needs 33 bits */
#endif

static inline int mirror(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - i - 2 : i;
}

uint64_t BF(vqx_motion_sad)(const void *prev, ptrdiff_t prev_stride,
                            const void *cur, ptrdiff_t cur_stride, int32_t *row,
                            unsigned w, unsigned h, unsigned bpc)
{
    const int col_shift = BITDEPTH == 8 ? 8 : (int)bpc;
    const col_acc col_round = (col_acc)1 << (col_shift - 1);
    int32_t *const mid = row + VQX_MOTION_RADIUS;
    const int iw = (int)w;
    uint64_t sad = 0;

    for (int y = 0; y < (int)h; y++) {
        const pixel *p[5], *c[5];
        for (int k = 0; k < 5; k++) {
            const int r = mirror(y - VQX_MOTION_RADIUS + k, (int)h);
            p[k] = PIXEL_ROW(pixel, prev, prev_stride, r);
            c[k] = PIXEL_ROW(pixel, cur, cur_stride, r);
        }
        int32_t any = 0;
        for (int x = 0; x < iw; x++) {
            col_acc acc = 0;
            for (int k = 0; k < 5; k++)
                acc += taps[k] * (col_acc)((int32_t)p[k][x] - (int32_t)c[k][x]);
            mid[x] = (int32_t)((acc + col_round) >> col_shift);
            any |= mid[x];
        }
        if (!any) continue; /* the row adds nothing */

        for (int m = 1; m <= VQX_MOTION_RADIUS; m++) {
            mid[-m] = mid[m];
            mid[iw - 1 + m] = mid[iw - 1 - m];
        }
        /* libvmaf sums a row in 32 bits (wrapping), then the plane in 64. */
        uint32_t row_sad = 0;
        for (int x = 0; x < iw; x++) {
            int64_t acc = 0;
            for (int k = 0; k < 5; k++)
                acc += (int64_t)taps[k] * mid[x - VQX_MOTION_RADIUS + k];
            row_sad += (uint32_t)abs((int32_t)((acc + (1 << 15)) >> 16));
        }
        sad += row_sad;
    }
    return sad;
}
