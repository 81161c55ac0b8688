/* Integer motion's Vulkan kernels (kernels.h): shaders/motion_columns.comp and
 * motion_rows.comp. */
#include "vulkan/kernels.h"
#include "vulkan/spirv.h"

/* The shaders' push constants, member for member. */
typedef struct MotionColumnsPush {
    uint64_t prev, cur, mid;
    uint32_t pitch_words, width, height, wide, col_shift;
} MotionColumnsPush;

typedef struct MotionRowsPush {
    uint64_t mid, rows;
    uint32_t width;
} MotionRowsPush;

int vqx_vk_motion_kernels(VqxVk *vk, VqxVkMotionKernels *k)
{
    int ret = vqx_vk_kernel(vk, vqx_spirv_motion_columns, vqx_spirv_motion_columns_bytes,
                            sizeof(MotionColumnsPush), &k->columns);
    if (!ret) ret = vqx_vk_kernel(vk, vqx_spirv_motion_rows, vqx_spirv_motion_rows_bytes,
                                  sizeof(MotionRowsPush), &k->rows);
    if (!ret) ret = vqx_vk_sum64_kernel(vk, &k->sum);
    if (ret) vqx_vk_motion_kernels_free(vk, k);
    return ret;
}

void vqx_vk_motion_kernels_free(VqxVk *vk, VqxVkMotionKernels *k)
{
    vqx_vk_kernel_free(vk, &k->columns);
    vqx_vk_kernel_free(vk, &k->rows);
    vqx_vk_kernel_free(vk, &k->sum);
}

void vqx_vk_motion_record(VqxVk *vk, const VqxVkCommands *c, const VqxVkMotionKernels *k,
                          const VqxVkMotionPlane *p)
{
    /* the CPU's column rounding: 8 fractional bits for 8-bit samples, bpc above */
    const MotionColumnsPush columns = { p->prev, p->cur, p->mid, p->pitch_words, p->w, p->h,
                                        p->bpc > 8, p->bpc > 8 ? p->bpc : 8 };
    vqx_vk_dispatch(vk, c, &k->columns, &columns, (p->w + 255) / 256, p->h, 1);
    const MotionRowsPush rows = { p->mid, p->rows, p->w };
    vqx_vk_dispatch(vk, c, &k->rows, &rows, p->h, 1, 1);
    vqx_vk_sum64_record(vk, c, &k->sum, p->rows, p->h, p->total, p->index);
}
