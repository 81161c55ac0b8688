/* psnr's Vulkan kernels (kernels.h): shaders/psnr_rows.comp. */
#include "vulkan/kernels.h"
#include "vulkan/spirv.h"

/* The shaders' push constants, member for member. */
typedef struct PsnrRowsPush {
    uint64_t ref, dis, rows;
    uint32_t pitch_words, width, wide;
} PsnrRowsPush;

int vqx_vk_psnr_kernels(VqxVk *vk, VqxVkPsnrKernels *k)
{
    int ret = vqx_vk_kernel(vk, vqx_spirv_psnr_rows, vqx_spirv_psnr_rows_bytes,
                            sizeof(PsnrRowsPush), &k->rows);
    if (!ret) ret = vqx_vk_sum64_kernel(vk, &k->sum);
    if (ret) vqx_vk_psnr_kernels_free(vk, k);
    return ret;
}

void vqx_vk_psnr_kernels_free(VqxVk *vk, VqxVkPsnrKernels *k)
{
    vqx_vk_kernel_free(vk, &k->rows);
    vqx_vk_kernel_free(vk, &k->sum);
}

void vqx_vk_psnr_record(VqxVk *vk, const VqxVkCommands *c, const VqxVkPsnrKernels *k,
                        const VqxVkPsnrPlane *p)
{
    const PsnrRowsPush rows = { p->ref, p->dis, p->rows, p->pitch_words, p->w, p->bpc > 8 };
    vqx_vk_dispatch(vk, c, &k->rows, &rows, p->h, 1, 1);
    vqx_vk_sum64_record(vk, c, &k->sum, p->rows, p->h, p->total, p->index);
}
