/*
 * The Vulkan compute runtime of vqx's Vulkan backend: the loader opened at
 * run time (a build with Vulkan still runs where no loader or GPU is),
 * one compute queue, buffers the shaders reach by device address (so a
 * kernel's push constants carry its buffers, as a CUDA kernel's arguments
 * carry pointers), kernels from SPIR-V embedded at build time, and command
 * buffers recorded once and submitted again. Every call is checked: a
 * failure returns a negative errno and leaves one message, naming the
 * call, in the runtime (vqx_vk_error).
 */
#ifndef VQX_VULKAN_VK_H
#define VQX_VULKAN_VK_H

#include <stddef.h>
#include <stdint.h>

#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>

typedef struct VqxVk VqxVk;

/* Opens the index-th physical device that has a compute queue, Vulkan 1.2,
 * 64-bit integers and buffer device addresses. -ENODEV when there is no
 * loader or no such device; the reason is in *message (its own storage,
 * valid until the next call) whether or not *vk was made. */
int vqx_vk_open(VqxVk **vk, unsigned index, const char **message);
void vqx_vk_close(VqxVk *vk);
const char *vqx_vk_device_name(const VqxVk *vk);
/* How long a frame's commands may run before they count as a device fault. */
uint64_t vqx_vk_frame_timeout_ns(const VqxVk *vk);
/* The last failure's message. */
const char *vqx_vk_error(const VqxVk *vk);

/* A buffer of `size` bytes with its device address for the shaders
 * (address); a host-visible one is mapped (map), a device one is not. */
typedef struct VqxVkBuffer {
    VkBuffer buffer;
    VkDeviceMemory memory;
    VkDeviceSize size;
    void *map;
    VkDeviceAddress address;
} VqxVkBuffer;

int vqx_vk_buffer(VqxVk *vk, VkDeviceSize size, VqxVkBuffer *buffer);
/* A buffer in the device's own memory, without a map, holding `size` bytes
 * of data (NULL: zeros; then size is whole words): for what only the
 * kernels touch (a discrete GPU's kernels read host-visible memory across
 * the bus). */
int vqx_vk_device_buffer(VqxVk *vk, VkDeviceSize size, const void *data, VqxVkBuffer *buffer);
void vqx_vk_buffer_free(VqxVk *vk, VqxVkBuffer *buffer);

/* A compute kernel: SPIR-V with entry point "main", no descriptor sets,
 * push_bytes of push constants. */
typedef struct VqxVkKernel {
    VkShaderModule module;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    uint32_t push_bytes;
} VqxVkKernel;

int vqx_vk_kernel(VqxVk *vk, const uint32_t *spirv, size_t bytes, uint32_t push_bytes,
                  VqxVkKernel *kernel);
void vqx_vk_kernel_free(VqxVk *vk, VqxVkKernel *kernel);

/* A command buffer being recorded: dispatches, each followed by a barrier
 * that makes its writes visible to the next dispatch and to the host. */
typedef struct VqxVkCommands {
    VkCommandBuffer cmd;
    VkFence fence;
    VkDeviceSize upload_bytes; /* recorded copies from host-visible buffers */
} VqxVkCommands;

int vqx_vk_record(VqxVk *vk, VqxVkCommands *c);
void vqx_vk_dispatch(VqxVk *vk, const VqxVkCommands *c, const VqxVkKernel *kernel,
                     const void *push, uint32_t groups_x, uint32_t groups_y, uint32_t groups_z);
/* Records a copy of size bytes from src to dst and a barrier that makes it
 * visible to the dispatches after it. */
void vqx_vk_copy(VqxVk *vk, VqxVkCommands *c, const VqxVkBuffer *src, const VqxVkBuffer *dst,
                 VkDeviceSize size);
int vqx_vk_end(VqxVk *vk, const VqxVkCommands *c);
/* Submits the recorded commands; vqx_vk_wait waits for them (up to
 * timeout_ns), vqx_vk_run does both. Host writes to mapped buffers before
 * the submission are visible to the commands, and their writes to the host
 * after the wait. */
int vqx_vk_submit(VqxVk *vk, const VqxVkCommands *c);
int vqx_vk_wait(VqxVk *vk, const VqxVkCommands *c, uint64_t timeout_ns);
int vqx_vk_run(VqxVk *vk, const VqxVkCommands *c, uint64_t timeout_ns);
void vqx_vk_commands_free(VqxVk *vk, VqxVkCommands *c);
/* Counts the host's read of `bytes` of a mapped buffer the kernels wrote
 * (the results): the residency test's read-back (device/counters.h). */
void vqx_vk_count_readback(VkDeviceSize bytes);

#endif
