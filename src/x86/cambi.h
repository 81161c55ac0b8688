/* CAMBI's x86 entries (cambi_avx2.c, cambi_avx512.c, each built with its
 * own -m flags) and where they replace the C in the table. */
#ifndef VQX_X86_CAMBI_H
#define VQX_X86_CAMBI_H

#include "cpu.h"
#include "feature/cambi_dsp.h"

#define CAMBI_X86_DECL(isa) \
    CAMBI_LOAD(vqx_cambi_load_10bit_8bpc_##isa); \
    CAMBI_LOAD(vqx_cambi_load_10bit_16bpc_##isa); \
    CAMBI_SMOOTH(vqx_cambi_smooth_2x2_##isa); \
    CAMBI_FLAT_ROW(vqx_cambi_flat_row_##isa); \
    CAMBI_MASK_ROW(vqx_cambi_mask_row_##isa); \
    CAMBI_HALVE_ROW(vqx_cambi_halve_row_##isa); \
    CAMBI_MODE_ROW(vqx_cambi_mode_row_##isa); \
    CAMBI_MODE_COLUMNS(vqx_cambi_mode_columns_##isa); \
    CAMBI_SLIDE(vqx_cambi_slide_##isa); \
    CAMBI_CONTRAST_ROW(vqx_cambi_contrast_row_##isa); \
    CAMBI_MEAN_OF_TOP(vqx_cambi_mean_of_top_##isa)

CAMBI_X86_DECL(avx2);
CAMBI_X86_DECL(avx512);

#define CAMBI_X86_SET(c, bpc, isa) \
    do { \
        (c)->load = (bpc) == 8 ? vqx_cambi_load_10bit_8bpc_##isa \
                               : vqx_cambi_load_10bit_16bpc_##isa; \
        (c)->smooth = vqx_cambi_smooth_2x2_##isa; \
        (c)->flat_row = vqx_cambi_flat_row_##isa; \
        (c)->mask_row = vqx_cambi_mask_row_##isa; \
        (c)->halve_row = vqx_cambi_halve_row_##isa; \
        (c)->mode_row = vqx_cambi_mode_row_##isa; \
        (c)->mode_columns = vqx_cambi_mode_columns_##isa; \
        (c)->slide = vqx_cambi_slide_##isa; \
        (c)->contrast_row = vqx_cambi_contrast_row_##isa; \
        (c)->mean_of_top = vqx_cambi_mean_of_top_##isa; \
    } while (0)

static inline void vqx_cambi_dsp_init_x86(CambiDSPContext *c, unsigned bpc, unsigned flags)
{
    if (flags & VQX_CPU_AVX2) CAMBI_X86_SET(c, bpc, avx2);
    if (flags & VQX_CPU_AVX512) CAMBI_X86_SET(c, bpc, avx512);
}

#endif
