/*
 * Integer VIF's constants: the filters' taps per scale (sum 65536,
 * symmetric; scale s has 2 * (8 >> s) + 1 taps), from libvmaf
 * src/feature/integer_vif.h (Netflix, BSD+Patent), the noise variance and
 * the gain's epsilon. Only preprocessor lines, so that the C, the CUDA
 * kernels and the Vulkan shaders (GLSL) all include it.
 */
#ifndef VQX_FEATURE_VIF_TAPS_H
#define VQX_FEATURE_VIF_TAPS_H

#define VIF_TAP_VALUES_SCALE0 \
    489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274, 3896, 2640, 1640, \
    935, 489
#define VIF_TAP_VALUES_SCALE1 1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244
#define VIF_TAP_VALUES_SCALE2 3571, 16004, 26386, 16004, 3571
#define VIF_TAP_VALUES_SCALE3 10904, 43728, 10904

/* sigma_n^2 of the noise model, in the 16.16 scale of the variances */
#define VIF_SIGMA_NSQ (2 << 16)

/* The gain's guard against a zero reference variance (a double). */
#define VIF_EPS (65536 * 1.0e-10)

#endif
