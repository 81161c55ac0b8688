/* Integer VIF's x86 entries (vif_avx2.c, vif_avx512.c: vif_simd.h at two
 * vector widths, each file built with its own -m flags; vif_avx512icl.c:
 * AVX-512's with VNNI) and where they replace the C in the table. */
#ifndef VQX_X86_VIF_H
#define VQX_X86_VIF_H

#include <stdbool.h>

#include "cpu.h"
#include "feature/vif_dsp.h"

#define VIF_X86_DECLARE(isa)                                   \
    VIF_ROW_STATS(vqx_vif_row_stats_8bpc_##isa);               \
    VIF_ROW_STATS(vqx_vif_row_stats_16bpc_##isa);              \
    VIF_COLUMNS_MEANS(vqx_vif_columns_means_8bpc_##isa);       \
    VIF_COLUMNS_MEANS(vqx_vif_columns_means_16bpc_##isa);      \
    VIF_DECIMATE(vqx_vif_decimate_##isa)

VIF_X86_DECLARE(avx2);
VIF_X86_DECLARE(avx512);
VIF_X86_DECLARE(avx512icl);
/* AVX-512's row_stats with log2_poly for the table's gathers, and whether
 * it gives every entry of this libm's table (all 2^15 compared). */
VIF_ROW_STATS(vqx_vif_row_stats_8bpc_poly_avx512);
VIF_ROW_STATS(vqx_vif_row_stats_16bpc_poly_avx512);
VIF_ROW_STATS(vqx_vif_row_stats_8bpc_poly_avx512icl);
VIF_ROW_STATS(vqx_vif_row_stats_16bpc_poly_avx512icl);
bool vqx_vif_log2_poly_exact_avx512(void);

/* Every entry of one ISA level (its suffix). */
#define VIF_DSP_SET(c, bpc, isa)                                                             \
    do {                                                                                     \
        (c)->row_stats[0] = (bpc) == 8 ? vqx_vif_row_stats_8bpc_##isa                        \
                                       : vqx_vif_row_stats_16bpc_##isa;                      \
        (c)->row_stats[1] = vqx_vif_row_stats_16bpc_##isa;                                   \
        (c)->columns_means[0] = (bpc) == 8 ? vqx_vif_columns_means_8bpc_##isa                \
                                           : vqx_vif_columns_means_16bpc_##isa;              \
        (c)->columns_means[1] = vqx_vif_columns_means_16bpc_##isa;                           \
        (c)->decimate = vqx_vif_decimate_##isa;                                              \
    } while (0)

/* row_stats of one AVX-512 level with log2_poly. */
#define VIF_DSP_SET_POLY(c, bpc, isa)                                                        \
    do {                                                                                     \
        (c)->row_stats[0] = (bpc) == 8 ? vqx_vif_row_stats_8bpc_poly_##isa                   \
                                       : vqx_vif_row_stats_16bpc_poly_##isa;                 \
        (c)->row_stats[1] = vqx_vif_row_stats_16bpc_poly_##isa;                              \
    } while (0)

static inline void vqx_vif_dsp_init_x86(VifDSPContext *c, unsigned bpc, unsigned flags)
{
    if (flags & VQX_CPU_AVX2) VIF_DSP_SET(c, bpc, avx2);
    if (!(flags & VQX_CPU_AVX512)) return;
    const bool icl = flags & VQX_CPU_AVX512ICL, poly = vqx_vif_log2_poly_exact_avx512();
    if (icl) VIF_DSP_SET(c, bpc, avx512icl);
    else VIF_DSP_SET(c, bpc, avx512);
    if (poly && icl) VIF_DSP_SET_POLY(c, bpc, avx512icl);
    else if (poly) VIF_DSP_SET_POLY(c, bpc, avx512);
}

#endif
