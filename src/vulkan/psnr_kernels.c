/* psnr's Vulkan kernels (kernels.h): shaders/psnr_rows.comp and sum64.comp. */
#include "vulkan/kernels.h"
#include "vulkan/spirv.h"

/* The shaders' push constants, member for member. */
typedef struct PsnrRowsPush {
    uint64_t ref, dis, rows;
    uint32_t pitch_words, width, wide;
} PsnrRowsPush;

typedef struct Sum64Push {
    uint64_t terms, total;
    uint32_t n, index;
} Sum64Push;

int vqx_vk_psnr_kernels(VqxVk *vk, VqxVkPsnrKernels *k)
{
    int ret = vqx_vk_kernel(vk, vqx_spirv_psnr_rows, vqx_spirv_psnr_rows_bytes,
                            sizeof(PsnrRowsPush), &k->rows);
    if (!ret) ret = vqx_vk_kernel(vk, vqx_spirv_sum64, vqx_spirv_sum64_bytes, sizeof(Sum64Push),
                                  &k->sum);
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
    const Sum64Push sum = { p->rows, p->total, p->h, p->index };
    vqx_vk_dispatch(vk, c, &k->sum, &sum, 1, 1, 1);
}
