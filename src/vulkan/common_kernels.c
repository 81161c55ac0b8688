/* The kernels every twin may use (kernels.h): shaders/sum64.comp and
 * copy_words.comp. */
#include "vulkan/kernels.h"
#include "vulkan/spirv.h"

/* The shader's push constants, member for member. */
typedef struct Sum64Push {
    uint64_t terms, total;
    uint32_t n, index;
} Sum64Push;

int vqx_vk_sum64_kernel(VqxVk *vk, VqxVkKernel *k)
{
    return vqx_vk_kernel(vk, vqx_spirv_sum64, vqx_spirv_sum64_bytes, sizeof(Sum64Push), k);
}

void vqx_vk_sum64_record(VqxVk *vk, const VqxVkCommands *c, const VqxVkKernel *k,
                         VkDeviceAddress terms, uint32_t n, VkDeviceAddress total, uint32_t index)
{
    const Sum64Push push = { terms, total, n, index };
    vqx_vk_dispatch(vk, c, k, &push, 1, 1, 1);
}

typedef struct CopyPush {
    uint64_t src, dst;
    uint32_t n;
} CopyPush;

int vqx_vk_copy_kernel(VqxVk *vk, VqxVkKernel *k)
{
    return vqx_vk_kernel(vk, vqx_spirv_copy_words, vqx_spirv_copy_words_bytes, sizeof(CopyPush), k);
}

void vqx_vk_copy_record(VqxVk *vk, const VqxVkCommands *c, const VqxVkKernel *k,
                        VkDeviceAddress src, VkDeviceAddress dst, uint32_t n_words)
{
    const CopyPush push = { src, dst, n_words };
    const uint32_t groups = (n_words + 255) / 256, most = 65535;
    vqx_vk_dispatch(vk, c, k, &push, groups < most ? groups : most, (groups + most - 1) / most, 1);
}
