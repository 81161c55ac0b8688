/* Integer ADM's x86 entries (adm_avx2.c, adm_avx512.c, each built with its
 * own -m flags, both from adm_simd.h) and where they replace the C in the
 * table. */
#ifndef VQX_X86_ADM_H
#define VQX_X86_ADM_H

#include "cpu.h"
#include "feature/adm_dsp.h"

#define ADM_X86_ENTRIES(isa)                                   \
    ADM_ROW_TO_INT(vqx_adm_row_to_int_8bpc_##isa);             \
    ADM_ROW_TO_INT(vqx_adm_row_to_int_16bpc_##isa);            \
    ADM_DWT_VERTICAL_16(vqx_adm_dwt_vertical_16_##isa);        \
    ADM_DWT_HORIZONTAL_16(vqx_adm_dwt_horizontal_16_##isa);    \
    ADM_DWT_VERTICAL_32(vqx_adm_dwt_vertical_32_##isa);        \
    ADM_DWT_HORIZONTAL_32(vqx_adm_dwt_horizontal_32_##isa);    \
    ADM_DECOUPLE(vqx_adm_decouple_##isa);                      \
    ADM_MASK_TERMS_16(vqx_adm_mask_terms_16_##isa);            \
    ADM_MASK_TERMS_32(vqx_adm_mask_terms_32_##isa);            \
    ADM_MASK_THRESHOLD(vqx_adm_mask_threshold_##isa);          \
    ADM_MASKED_CUBES_16(vqx_adm_masked_cubes_16_##isa);        \
    ADM_MASKED_CUBES_32(vqx_adm_masked_cubes_32_##isa);        \
    ADM_REFERENCE_CUBES_16(vqx_adm_reference_cubes_16_##isa);  \
    ADM_REFERENCE_CUBES_32(vqx_adm_reference_cubes_32_##isa)

ADM_X86_ENTRIES(avx2);
ADM_X86_ENTRIES(avx512);

#define ADM_X86_SET(c, isa)                                          \
    do {                                                             \
        (c)->row_to_int_8 = vqx_adm_row_to_int_8bpc_##isa;           \
        (c)->row_to_int_16 = vqx_adm_row_to_int_16bpc_##isa;         \
        (c)->dwt_vertical_16 = vqx_adm_dwt_vertical_16_##isa;        \
        (c)->dwt_horizontal_16 = vqx_adm_dwt_horizontal_16_##isa;    \
        (c)->dwt_vertical_32 = vqx_adm_dwt_vertical_32_##isa;        \
        (c)->dwt_horizontal_32 = vqx_adm_dwt_horizontal_32_##isa;    \
        (c)->decouple = vqx_adm_decouple_##isa;                      \
        (c)->mask_terms_16 = vqx_adm_mask_terms_16_##isa;            \
        (c)->mask_terms_32 = vqx_adm_mask_terms_32_##isa;            \
        (c)->mask_threshold = vqx_adm_mask_threshold_##isa;          \
        (c)->masked_cubes_16 = vqx_adm_masked_cubes_16_##isa;        \
        (c)->masked_cubes_32 = vqx_adm_masked_cubes_32_##isa;        \
        (c)->reference_cubes_16 = vqx_adm_reference_cubes_16_##isa;  \
        (c)->reference_cubes_32 = vqx_adm_reference_cubes_32_##isa;  \
    } while (0)

static inline void vqx_adm_dsp_init_x86(AdmDSPContext *c, unsigned flags)
{
    if (flags & VQX_CPU_AVX2) ADM_X86_SET(c, avx2);
    if (flags & VQX_CPU_AVX512) ADM_X86_SET(c, avx512);
}

#endif
