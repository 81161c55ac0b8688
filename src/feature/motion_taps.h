/*
 * Integer motion's blur: its half width and taps (sum 65536), from libvmaf
 * integer_motion.h, Netflix, BSD+Patent. Only preprocessor lines, so that
 * the C, the CUDA kernels and the Vulkan shaders (GLSL) all include it.
 */
#ifndef VQX_FEATURE_MOTION_TAPS_H
#define VQX_FEATURE_MOTION_TAPS_H

#define VQX_MOTION_RADIUS 2
#define VQX_MOTION_TAPS_N (2 * VQX_MOTION_RADIUS + 1)
/* Symmetric: the SIMD column pass adds rows 0 and 4, 1 and 3 before the taps. */
#define VQX_MOTION_TAP_VALUES 3571, 16004, 26386, 16004, 3571

#endif
