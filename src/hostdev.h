/*
 * VQX_HOSTDEV marks the inline functions that hold per-sample statements
 * run by both the CPU extractors and their device kernels: nvcc compiles
 * them for both sides, the C compiler as plain inlines.
 */
#ifndef VQX_HOSTDEV_H
#define VQX_HOSTDEV_H

#ifdef __CUDACC__
#define VQX_HOSTDEV __host__ __device__
#else
#define VQX_HOSTDEV
#endif

#endif
