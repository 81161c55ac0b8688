/*
 * The Vulkan kernels of each metric, recorded into a command buffer
 * (vk.h). Buffers are device addresses; planes are rows of 32-bit words
 * (shaders/samples.glsl), pitch_words apart.
 */
#ifndef VQX_VULKAN_KERNELS_H
#define VQX_VULKAN_KERNELS_H

#include "vulkan/vk.h"

/* ---- total[index] = the sum of n 64-bit integers at terms (exact) ---- */
int vqx_vk_sum64_kernel(VqxVk *vk, VqxVkKernel *k);
void vqx_vk_sum64_record(VqxVk *vk, const VqxVkCommands *c, const VqxVkKernel *k,
                         VkDeviceAddress terms, uint32_t n, VkDeviceAddress total, uint32_t index);

/* ---- dst = src, n_words 32-bit words ---- */
int vqx_vk_copy_kernel(VqxVk *vk, VqxVkKernel *k);
void vqx_vk_copy_record(VqxVk *vk, const VqxVkCommands *c, const VqxVkKernel *k,
                        VkDeviceAddress src, VkDeviceAddress dst, uint32_t n_words);

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

/* ---- motion: the SAD of two luma planes (the CPU's vqx_motion_plane_sad):
 * mid receives the column pass (w x h 32-bit), rows[y] row y's sum modulo
 * 2^32, total[index] the plane's 64-bit sum ---- */
typedef struct VqxVkMotionKernels {
    VqxVkKernel columns, rows, sum;
} VqxVkMotionKernels;

int vqx_vk_motion_kernels(VqxVk *vk, VqxVkMotionKernels *k);
void vqx_vk_motion_kernels_free(VqxVk *vk, VqxVkMotionKernels *k);

typedef struct VqxVkMotionPlane {
    VkDeviceAddress prev, cur;
    uint32_t pitch_words, w, h, bpc;  /* w, h >= 3 */
    VkDeviceAddress mid, rows, total;
    uint32_t index;
} VqxVkMotionPlane;

void vqx_vk_motion_record(VqxVk *vk, const VqxVkCommands *c, const VqxVkMotionKernels *k,
                          const VqxVkMotionPlane *plane);

#endif
