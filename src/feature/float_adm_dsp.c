/* Float ADM's DSP table: the scalar C of its stages and the dispatch. */
#include "feature/float_adm_dsp.h"
#include "feature/float_adm_pixel.h"

#if VQX_ARCH_X86
#include "x86/float_adm.h"
#endif

FLOAT_ADM_DECOUPLE_ROW(vqx_float_adm_decouple_row_c)
{
    for (int x = 0; x < n; x++) {
        const float r[3] = { ref[0][x], ref[1][x], ref[2][x] };
        const float d[3] = { dis[0][x], dis[1][x], dis[2][x] };
        float rest[3], add[3];
        vqx_float_adm_decouple(r, d, p, rest, add);
        for (int b = 0; b < 3; b++) {
            restored[b][x] = rest[b];
            additive[b][x] = add[b];
        }
    }
}

FLOAT_ADM_CUBE_SUMS(vqx_float_adm_cube_sums_c)
{
    for (int b = 0; b < 3; b++) {
        float acc = 0;
        for (int j = 0; j < n; j++) acc += vqx_float_adm_cube(x[b][j], weight[b], thr[j]);
        sum[b] = acc;
    }
}

void vqx_float_adm_dsp_init(FloatAdmDSPContext *c, unsigned cpu_flags)
{
    c->decouple_row = vqx_float_adm_decouple_row_c;
    c->cube_sums = vqx_float_adm_cube_sums_c;
#if VQX_ARCH_X86
    vqx_float_adm_dsp_init_x86(c, cpu_flags);
#else
    (void)cpu_flags;
#endif
}
