/* Float PSNR's DSP table: the scalar C of its row sum and the dispatch. */
#include "feature/float_psnr_dsp.h"
#include "feature/float_sample.h"

#if VQX_ARCH_X86
#include "x86/float_psnr.h"
#endif

FLOAT_PSNR_ROW_NOISE(vqx_float_psnr_row_noise_c)
{
    for (int x = 0; x < w; x++) {
        acc += vqx_float_squared_error(ref[x], dis[x]);
    }
    return acc;
}

void vqx_float_psnr_dsp_init(FloatPsnrDSPContext *c, unsigned cpu_flags)
{
    c->row_noise = vqx_float_psnr_row_noise_c;
#if VQX_ARCH_X86
    vqx_float_psnr_dsp_init_x86(c, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
