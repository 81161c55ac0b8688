/*
 * libvmaf 3.2's CUDA API (libvmaf/libvmaf_cuda.h), as vqx implements it in
 * a build with its CUDA backend: a context with an imported CUDA state runs
 * its features' CUDA twins (those without one on the CPU, as libvmaf does),
 * and takes pictures in device memory, which the twins read without a copy
 * to the host (docs/libvmaf.md).
 */
#ifndef VQX_LIBVMAF_LIBVMAF_CUDA_H
#define VQX_LIBVMAF_LIBVMAF_CUDA_H

#include "libvmaf/libvmaf.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct VmafCudaState VmafCudaState;

/* cu_ctx: the CUcontext to work in (e.g. FFmpeg's CUDA device's); NULL:
 * device 0's primary context. */
typedef struct VmafCudaConfiguration {
    void *cu_ctx;
} VmafCudaConfiguration;

/* A state for vmaf_cuda_import_state; one malloc'd block the caller frees
 * (free) once no context uses it. Fails when there is no CUDA device. */
int vmaf_cuda_state_init(VmafCudaState **cu_state, VmafCudaConfiguration cfg);
/* Before the context's first feature, model or picture. */
int vmaf_cuda_import_state(VmafContext *vmaf, VmafCudaState *cu_state);

enum VmafCudaPicturePreallocationMethod {
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE = 0,
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE,
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST,
    VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED,
};

typedef struct VmafCudaPictureConfiguration {
    struct {
        unsigned w, h;
        unsigned bpc;
        enum VmafPixelFormat pix_fmt;
    } pic_params;
    enum VmafCudaPicturePreallocationMethod pic_prealloc_method;
} VmafCudaPictureConfiguration;

/* After the features and models. DEVICE: pictures in device memory (their
 * `data` are device pointers, rows `stride` bytes apart; every feature must
 * then have a CUDA twin); HOST: vmaf_picture_alloc's; HOST_PINNED: pinned
 * host memory, uploaded without a staging copy. */
int vmaf_cuda_preallocate_pictures(VmafContext *vmaf, VmafCudaPictureConfiguration cfg);
/* A picture of that kind, recycled from frames already scored. */
int vmaf_cuda_fetch_preallocated_picture(VmafContext *vmaf, VmafPicture *pic);

#ifdef __cplusplus
}
#endif

#endif
