/* Integer motion's DSP table: the row pass's scalar C, the plane loop and
 * the dispatch. */
#include "feature/motion.h"

#if VQX_ARCH_X86
#include "x86/motion.h"
#endif

MOTION_ROW_SAD(vqx_motion_row_sad)
{
    const int iw = (int)w;
    for (int m = 1; m <= VQX_MOTION_RADIUS; m++) {
        mid[-m] = mid[m];
        mid[iw - 1 + m] = mid[iw - 1 - m];
    }
    /* libvmaf sums a row in 32 bits (wrapping), then the plane in 64. */
    uint32_t row_sad = 0;
    for (int x = 0; x < iw; x++)
        row_sad += vqx_motion_row_term(vqx_motion_taps, mid + x - VQX_MOTION_RADIUS);
    return row_sad;
}

uint64_t vqx_motion_plane_sad(const MotionDSPContext *c, const void *prev,
                              ptrdiff_t prev_stride, const void *cur, ptrdiff_t cur_stride,
                              int32_t *row, unsigned w, unsigned h, unsigned bpc)
{
    int32_t *const mid = row + VQX_MOTION_RADIUS;
    uint64_t sad = 0;
    for (unsigned y = 0; y < h; y++) {
        /* a row of zeros adds nothing */
        if (c->blur_columns(prev, prev_stride, cur, cur_stride, y, w, h, bpc, mid))
            sad += c->row_sad(mid, w);
    }
    return sad;
}

void vqx_motion_dsp_init(MotionDSPContext *c, unsigned bpc, unsigned cpu_flags)
{
    c->blur_columns = bpc == 8 ? vqx_motion_blur_columns_8bpc : vqx_motion_blur_columns_16bpc;
    c->row_sad = vqx_motion_row_sad;
#if VQX_ARCH_X86
    vqx_motion_dsp_init_x86(c, bpc, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
