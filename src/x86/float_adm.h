/* Float ADM's x86 entries (float_adm_avx2.c, float_adm_avx512.c, each built
 * with its own -m flags) and where they replace the C. */
#ifndef VQX_X86_FLOAT_ADM_H
#define VQX_X86_FLOAT_ADM_H

#include "cpu.h"
#include "feature/float_adm_dsp.h"

FLOAT_ADM_DECOUPLE_ROW(vqx_float_adm_decouple_row_avx2);
FLOAT_ADM_DECOUPLE_ROW(vqx_float_adm_decouple_row_avx512);
FLOAT_ADM_CUBE_SUMS(vqx_float_adm_cube_sums_avx2);
FLOAT_ADM_CUBE_SUMS(vqx_float_adm_cube_sums_avx512);

static inline void vqx_float_adm_dsp_init_x86(FloatAdmDSPContext *c, unsigned flags)
{
    if (flags & VQX_CPU_AVX2) {
        c->decouple_row = vqx_float_adm_decouple_row_avx2;
        c->cube_sums = vqx_float_adm_cube_sums_avx2;
    }
    if (flags & VQX_CPU_AVX512) {
        c->decouple_row = vqx_float_adm_decouple_row_avx512;
        c->cube_sums = vqx_float_adm_cube_sums_avx512;
    }
}

#endif
