/* The libvmaf API version vqx's libvmaf.so.3 implements. */
#ifndef VQX_LIBVMAF_VERSION_H
#define VQX_LIBVMAF_VERSION_H

#define VMAF_API_VERSION_MAJOR 3
#define VMAF_API_VERSION_MINOR 2
#define VMAF_API_VERSION_PATCH 0

#endif
