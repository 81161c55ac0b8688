/* Float VIF's x86 entries (float_vif_avx2.c, float_vif_avx512.c, each built
 * with its own -m flags) and where they replace the C. */
#ifndef VQX_X86_FLOAT_VIF_H
#define VQX_X86_FLOAT_VIF_H

#include "cpu.h"
#include "feature/float_vif_dsp.h"

#define FLOAT_VIF_X86_ENTRIES(isa)                                  \
    FLOAT_VIF_FILTER_COLUMNS(vqx_float_vif_filter_columns_##isa);   \
    FLOAT_VIF_MOMENT_COLUMNS(vqx_float_vif_moment_columns_##isa);   \
    FLOAT_VIF_FILTER_ROW(vqx_float_vif_filter_row_##isa);           \
    FLOAT_VIF_PIXEL_STATS(vqx_float_vif_pixel_stats_##isa)
FLOAT_VIF_X86_ENTRIES(avx2);
FLOAT_VIF_X86_ENTRIES(avx512);

#define FLOAT_VIF_X86_SET(c, isa)                                   \
    do {                                                            \
        (c)->filter_columns = vqx_float_vif_filter_columns_##isa;   \
        (c)->moment_columns = vqx_float_vif_moment_columns_##isa;   \
        (c)->filter_row = vqx_float_vif_filter_row_##isa;           \
        (c)->pixel_stats = vqx_float_vif_pixel_stats_##isa;         \
    } while (0)

static inline void vqx_float_vif_dsp_init_x86(FloatVifDSPContext *c, unsigned flags)
{
    if (flags & VQX_CPU_AVX2) FLOAT_VIF_X86_SET(c, avx2);
    if (flags & VQX_CPU_AVX512) FLOAT_VIF_X86_SET(c, avx512);
}

#endif
