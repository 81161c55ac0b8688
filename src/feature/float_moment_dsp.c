/* Float moment's DSP table: the scalar C of its row sums and the dispatch. */
#include "feature/float_moment_dsp.h"

#if VQX_ARCH_X86
#include "x86/float_moment.h"
#endif

FLOAT_MOMENT_ROW_SUMS(vqx_float_moment_row_sums_c)
{
    for (int x = 0; x < w; x++) {
        const float r = ref[x], d = dis[x];
        sum[FLOAT_MOMENT_REF1] += r;
        sum[FLOAT_MOMENT_DIS1] += d;
        sum[FLOAT_MOMENT_REF2] += r * r;
        sum[FLOAT_MOMENT_DIS2] += d * d;
    }
}

void vqx_float_moment_dsp_init(FloatMomentDSPContext *c, unsigned cpu_flags)
{
    c->row_sums = vqx_float_moment_row_sums_c;
#if VQX_ARCH_X86
    vqx_float_moment_dsp_init_x86(c, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
