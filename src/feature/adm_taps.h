/*
 * Fixed-point constants of libvmaf's integer ADM (integer_adm.h,
 * integer_adm.c; Netflix, BSD+Patent): the Daubechies 2 taps in Q15, the
 * masking weights of a neighbour (1/30) and of the centre (1/15), Q17 at
 * level 0 and Q32 at levels 1 to 3, and the numerator of the reciprocals
 * of the decoupling's gain. Only preprocessor lines, so that the C, the
 * CUDA kernels and the Vulkan shaders (GLSL) all include it.
 */
#ifndef VQX_FEATURE_ADM_TAPS_H
#define VQX_FEATURE_ADM_TAPS_H

#define ADM_DB2_LO_VALUES 15826, 27411, 7345, -4240
#define ADM_DB2_HI_VALUES -4240, -7345, 27411, -15826
#define VQX_ADM_ONE_BY_30_Q17 4369
#define VQX_ADM_ONE_BY_15_Q17 8738
#define VQX_ADM_ONE_BY_30_Q32 143165577
#define VQX_ADM_ONE_BY_15_Q32 286331153
#define ADM_RECIP_Q30 1073741824

#endif
