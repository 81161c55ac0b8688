/* SSIMULACRA 2's x86 entries (ssimulacra2_avx2.c, ssimulacra2_avx512.c,
 * each built with its own -m flags and -mfma: libjxl's arithmetic has fused
 * multiply-adds) and where they replace the C. vqx's AVX2 flag does not test
 * FMA3 itself: the AVX2 entries assume it, as every known CPU with AVX2,
 * BMI1 and BMI2 has it (Intel Haswell, AMD Excavator and later), and every
 * AVX-512 CPU. */
#ifndef VQX_X86_SSIMULACRA2_H
#define VQX_X86_SSIMULACRA2_H

#include "cpu.h"
#include "feature/ssimulacra2_dsp.h"

#define SSIMU2_X86_ENTRIES(isa)                        \
    SSIMU2_XYB_ROW(vqx_ssimu2_xyb_row_##isa);          \
    SSIMU2_MULTIPLY_ROW(vqx_ssimu2_multiply_row_##isa); \
    SSIMU2_DOWNSAMPLE(vqx_ssimu2_downsample_##isa);    \
    SSIMU2_BLUR_H(vqx_ssimu2_blur_h_##isa);            \
    SSIMU2_BLUR_V(vqx_ssimu2_blur_v_##isa);            \
    SSIMU2_SSIM_SUMS(vqx_ssimu2_ssim_sums_##isa);      \
    SSIMU2_EDGE_SUMS(vqx_ssimu2_edge_sums_##isa)

SSIMU2_X86_ENTRIES(avx2);
SSIMU2_X86_ENTRIES(avx512);

#define SSIMU2_X86_SET(c, isa)                         \
    do {                                               \
        (c)->xyb_row = vqx_ssimu2_xyb_row_##isa;       \
        (c)->multiply_row = vqx_ssimu2_multiply_row_##isa; \
        (c)->downsample = vqx_ssimu2_downsample_##isa; \
        (c)->blur_h = vqx_ssimu2_blur_h_##isa;         \
        (c)->blur_v = vqx_ssimu2_blur_v_##isa;         \
        (c)->ssim_sums = vqx_ssimu2_ssim_sums_##isa;   \
        (c)->edge_sums = vqx_ssimu2_edge_sums_##isa;   \
    } while (0)

static inline void vqx_ssimu2_dsp_init_x86(Ssimu2DSPContext *c, unsigned flags)
{
    if (flags & VQX_CPU_AVX2) SSIMU2_X86_SET(c, avx2);
    if (flags & VQX_CPU_AVX512) SSIMU2_X86_SET(c, avx512);
}

#endif
