/* Float motion's DSP table: the scalar C of its stages and the dispatch. */

#include "feature/float_motion_dsp.h"
#include "feature/float_sample.h"

#if VQX_ARCH_X86
#include "x86/float_motion.h"
#endif

FLOAT_MOTION_BLUR_COLUMNS(vqx_float_motion_blur_columns_c)
{
    for (int x = 0; x < w; x++) {
        float acc = 0;
        for (int k = 0; k < n_taps; k++)
            acc += taps[k] * rows[k][x];
        mid[x] = acc;
    }
}

FLOAT_MOTION_BLUR_ROW(vqx_float_motion_blur_row_c)
{
    const int radius = n_taps / 2;
    for (int x = 0; x < w; x++) {
        float acc = 0;
        for (int k = 0; k < n_taps; k++)
            acc += taps[k] * mid[x - radius + k];
        out[x] = acc;
    }
}

FLOAT_MOTION_ROW_SADS(vqx_float_motion_row_sads_c)
{
    for (int r = 0; r < n; r++) {
        const float *ra = a + r * stride, *rb = b + r * stride;
        float sum = 0;
        for (int x = 0; x < w; x++)
            sum += vqx_float_abs_diff(ra[x], rb[x]);
        line[r] = sum;
    }
}

void vqx_float_motion_dsp_init(FloatMotionDSPContext *c, unsigned cpu_flags)
{
    c->blur_columns = vqx_float_motion_blur_columns_c;
    c->blur_row = vqx_float_motion_blur_row_c;
    c->row_sads = vqx_float_motion_row_sads_c;
#if VQX_ARCH_X86
    vqx_float_motion_dsp_init_x86(c, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
