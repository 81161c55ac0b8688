/* Float moment's x86 entries (float_moment_avx2.c, float_moment_avx512.c,
 * each built with its own -m flags) and where they replace the C. */
#ifndef VQX_X86_FLOAT_MOMENT_H
#define VQX_X86_FLOAT_MOMENT_H

#include "cpu.h"
#include "feature/float_moment_dsp.h"

FLOAT_MOMENT_ROW_SUMS(vqx_float_moment_row_sums_avx2);
FLOAT_MOMENT_ROW_SUMS(vqx_float_moment_row_sums_avx512);

static inline void vqx_float_moment_dsp_init_x86(FloatMomentDSPContext *c, unsigned flags)
{
    if (flags & VQX_CPU_AVX2) c->row_sums = vqx_float_moment_row_sums_avx2;
    if (flags & VQX_CPU_AVX512) c->row_sums = vqx_float_moment_row_sums_avx512;
}

#endif
