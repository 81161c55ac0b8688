/*
 * CAMBI's sizes, for the C (feature/cambi.h) and the Vulkan shaders
 * (vulkan/shaders/cambi.glsl) alike: preprocessor only.
 */
#ifndef VQX_FEATURE_CAMBI_SIZES_H
#define VQX_FEATURE_CAMBI_SIZES_H

#define CAMBI_SCALES 5
#define CAMBI_MAX_STEPS 32
#define CAMBI_MASK_SIZE 7          /* flatness window of the spatial mask */
/* libvmaf divides by p0 + p1 through a table of 1/n, n <= 65 * 65 (so
 * windows above 65 are refused), holding 1/n rounded to 9 significant
 * digits: that rounding, not 1.0f / n, is what the scores carry. */
#define CAMBI_RECIPROCALS (65 * 65 + 1)

#endif
