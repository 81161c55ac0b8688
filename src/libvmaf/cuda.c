/* libvmaf's CUDA API (include/libvmaf/libvmaf_cuda.h) over vqx's cuda
 * backend: the state is the CUcontext to work in; pictures come from the
 * context's pool, in device memory or in pinned host memory. */
#include <errno.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "context.h"
#include "libvmaf/libvmaf_cuda.h"
#include "libvmaf/shim.h"

struct VmafCudaState {
    void *cu_ctx;
};

VMAF_EXPORT int vmaf_cuda_state_init(VmafCudaState **cu_state, VmafCudaConfiguration cfg)
{
    if (!cu_state) return -EINVAL;
    int n = 0;
    const cudaError_t code = cudaGetDeviceCount(&n);
    if (code != cudaSuccess || !n) {
        vmaf_shim_log(VMAF_LOG_LEVEL_ERROR, "no CUDA device (%s)",
                      code != cudaSuccess ? cudaGetErrorString(code) : "none found");
        return -ENODEV;
    }
    VmafCudaState *s = malloc(sizeof(*s));
    if (!s) return -ENOMEM;
    s->cu_ctx = cfg.cu_ctx;
    *cu_state = s;
    return 0;
}

VMAF_EXPORT int vmaf_cuda_import_state(VmafContext *vmaf, VmafCudaState *cu_state)
{
    if (!vmaf || !cu_state) return -EINVAL;
    if (vmaf->vqx) {
        vmaf_shim_log(VMAF_LOG_LEVEL_ERROR, "the CUDA state is imported before the context's "
                      "first feature, model or picture");
        return -EINVAL;
    }
    vmaf->cuda_context = cu_state->cu_ctx;
    vmaf->cuda_imported = true;
    return 0;
}

VMAF_EXPORT int vmaf_cuda_preallocate_pictures(VmafContext *vmaf, VmafCudaPictureConfiguration cfg)
{
    enum VqxPixelLayout layout;
    if (!vmaf || !cfg.pic_params.w || !cfg.pic_params.h ||
        !vmaf_shim_layout(cfg.pic_params.pix_fmt, &layout))
        return -EINVAL;
    switch (cfg.pic_prealloc_method) {
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_NONE:
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE:
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST:
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED:
        break;
    default:
        vmaf_shim_log(VMAF_LOG_LEVEL_ERROR, "unknown CUDA picture preallocation method %d",
                      (int)cfg.pic_prealloc_method);
        return -EINVAL;
    }
    if (!vmaf->cuda_imported && cfg.pic_prealloc_method != VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST) {
        vmaf_shim_log(VMAF_LOG_LEVEL_ERROR, "CUDA pictures need an imported CUDA state");
        return -EINVAL;
    }
    /* the pool grows as the frames in flight need: pic_cnt only marks the
     * geometry as given */
    vmaf->prealloc = (VmafPictureConfiguration){
        .pic_params = { cfg.pic_params.w, cfg.pic_params.h, cfg.pic_params.bpc,
                        cfg.pic_params.pix_fmt },
        .pic_cnt = 1,
    };
    vmaf->cuda_prealloc = cfg.pic_prealloc_method;
    return vmaf_shim_open(vmaf);
}

VMAF_EXPORT int vmaf_cuda_fetch_preallocated_picture(VmafContext *vmaf, VmafPicture *pic)
{
    if (!vmaf || !pic || !vmaf->prealloc.pic_cnt) return -EINVAL;
    const VmafPictureConfiguration *c = &vmaf->prealloc;
    switch (vmaf->cuda_prealloc) {
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST:
        return vmaf_picture_alloc(pic, c->pic_params.pix_fmt, c->pic_params.bpc, c->pic_params.w,
                                  c->pic_params.h);
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_HOST_PINNED:
        return vmaf_fetch_preallocated_picture(vmaf, pic);
    case VMAF_CUDA_PICTURE_PREALLOCATION_METHOD_DEVICE: {
        enum VqxPixelLayout layout;
        vmaf_shim_layout(c->pic_params.pix_fmt, &layout);
        VqxPicture vp;
        const int ret = vmaf_shim_failed(vmaf, vqx_ctx_device_picture_alloc(
            vmaf->vqx, &vp, layout, c->pic_params.bpc, c->pic_params.w, c->pic_params.h));
        if (!ret) vmaf_shim_picture_from_vqx(pic, &vp);
        return ret;
    }
    default:
        vmaf_shim_log(VMAF_LOG_LEVEL_ERROR, "no CUDA pictures were preallocated");
        return -EINVAL;
    }
}
