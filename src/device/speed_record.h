/*
 * The per-plane record a SpEED device twin reads back (device/speed_twin.h):
 * 32-bit words, the 25 eigenvalues (float), the singular flag (uint32), the
 * n_blocks variances (float), padded to a multiple of 8 bytes. Preprocessor
 * only, for the C, CUDA and GLSL sides alike.
 */
#ifndef VQX_DEVICE_SPEED_RECORD_H
#define VQX_DEVICE_SPEED_RECORD_H

#define VQX_SPEED_RECORD_EIG 0
#define VQX_SPEED_RECORD_SINGULAR 25
#define VQX_SPEED_RECORD_VARIANCE 26
/* Words of one plane's record. */
#define VQX_SPEED_RECORD_WORDS(n_blocks) ((VQX_SPEED_RECORD_VARIANCE + (n_blocks) + 1) / 2 * 2)

#endif
