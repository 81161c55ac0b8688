/* ciede's x86 entries (ciede_avx2.c, ciede_avx512.c, each built with its
 * own -m flags) and where they replace the C in the table. */
#ifndef VQX_X86_CIEDE_H
#define VQX_X86_CIEDE_H

#include "cpu.h"
#include "feature/ciede_dsp.h"

CIEDE_DELTA_E(vqx_ciede_delta_e_avx2);
CIEDE_DELTA_E(vqx_ciede_delta_e_avx512);

static inline void vqx_ciede_dsp_init_x86(CiedeDSPContext *c, unsigned flags)
{
    if (flags & VQX_CPU_AVX2) c->delta_e = vqx_ciede_delta_e_avx2;
    if (flags & VQX_CPU_AVX512) c->delta_e = vqx_ciede_delta_e_avx512;
}

#endif
