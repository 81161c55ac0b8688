/*
 * The Vulkan kernels of each metric, recorded into a command buffer
 * (vk.h). Buffers are device addresses; planes are rows of 32-bit words
 * (shaders/samples.glsl), pitch_words apart.
 */
#ifndef VQX_VULKAN_KERNELS_H
#define VQX_VULKAN_KERNELS_H

#include "vulkan/vk.h"

/* ---- psnr: rows[y] receives row y's sum of squared differences (the
 * CPU's PsnrDSPContext row_sse) and total[index] the plane's sum ---- */
typedef struct VqxVkPsnrKernels {
    VqxVkKernel rows, sum;
} VqxVkPsnrKernels;

int vqx_vk_psnr_kernels(VqxVk *vk, VqxVkPsnrKernels *k);
void vqx_vk_psnr_kernels_free(VqxVk *vk, VqxVkPsnrKernels *k);

typedef struct VqxVkPsnrPlane {
    VkDeviceAddress ref, dis;
    uint32_t pitch_words, w, h, bpc;
    VkDeviceAddress rows;            /* h 64-bit sums */
    VkDeviceAddress total;           /* 64-bit sums */
    uint32_t index;
} VqxVkPsnrPlane;

void vqx_vk_psnr_record(VqxVk *vk, const VqxVkCommands *c, const VqxVkPsnrKernels *k,
                        const VqxVkPsnrPlane *plane);

#endif
