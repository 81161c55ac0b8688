/* The Vulkan twin of motion: the SAD on the device (kernels.h), the host
 * part in device/motion_twin.h. */
#include <stdint.h>

#include "device/motion_twin.h"
#include "vulkan/twin.h"

typedef struct MotionVulkanTwin {
    MotionTwin host; /* first: the CPU's state leads it */
    VqxVkMotionKernels kernels;
    VqxVkKernel copy;
    VkDeviceAddress history[VQX_DEVICE_BLOCKS], mid, rows;
    size_t plane_words;
} MotionVulkanTwin;

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    MotionVulkanTwin *t = priv;
    int ret = vqx_motion_twin_init(&t->host, fmt, dev, sink);
    if (ret || !t->host.slots) return ret;
    const MotionState *m = &t->host.cpu;
    VqxVk *vk = vqx_vulkan_runtime(dev);
    ret = vqx_vk_motion_kernels(vk, &t->kernels);
    if (ret) return vqx_vulkan_failed(dev, ret, sink);
    ret = vqx_vulkan_adopt_kernels(dev, &t->kernels.columns, 1, sink);
    if (!ret) ret = vqx_vulkan_adopt_kernels(dev, &t->kernels.rows, 1, sink);
    if (!ret) ret = vqx_vulkan_adopt_kernels(dev, &t->kernels.sum, 1, sink);
    if (ret) return ret;
    ret = vqx_vk_copy_kernel(vk, &t->copy);
    if (ret) return vqx_vulkan_failed(dev, ret, sink);
    ret = vqx_vulkan_adopt_kernels(dev, &t->copy, 1, sink);
    /* the luma as the backend lays it out: rows padded to whole words */
    t->plane_words = (m->row_bytes + 3) / 4 * m->h;
    for (unsigned d = 0; d < t->host.slots && !ret; d++)
        ret = vqx_vulkan_buffer(dev, 4 * t->plane_words, &t->history[d], sink);
    if (!ret) ret = vqx_vulkan_buffer(dev, sizeof(int32_t) * m->w * m->h, &t->mid, sink);
    if (!ret) ret = vqx_vulkan_buffer(dev, sizeof(uint64_t) * m->h, &t->rows, sink);
    return ret;
}

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    const MotionVulkanTwin *t = priv;
    if (!t->host.slots) return 0;
    const MotionState *m = &t->host.cpu;
    unsigned past, present;
    vqx_motion_twin_slots(&t->host, f->block, &past, &present);
    VqxVk *vk = vqx_vulkan_runtime(dev);
    const VqxVkCommands *c = vqx_vulkan_commands(f);
    const VqxVkMotionPlane plane = {
        .prev = t->history[past], .cur = vqx_vulkan_address(f->ref[0]),
        .pitch_words = (uint32_t)(f->pitch[0] / 4), .w = m->w, .h = m->h, .bpc = m->bpc,
        .mid = t->mid, .rows = t->rows, .total = vqx_vulkan_address(f->result), .index = 0,
    };
    vqx_vk_motion_record(vk, c, &t->kernels, &plane);
    vqx_vk_copy_record(vk, c, &t->copy, vqx_vulkan_address(f->ref[0]), t->history[present],
                       (uint32_t)t->plane_words);
    return 0;
}

const VqxFeatureExtractor vqx_fex_motion_vulkan = {
    .name = "motion",
    .backend = VQX_BACKEND_VULKAN,
    .flags = VQX_FEX_TEMPORAL,
    .keys = vqx_motion_keys,
    .options = vqx_motion_options,
    .state_size = sizeof(MotionVulkanTwin),
    .flush = vqx_motion_flush,
    .device_init = device_init,
    .record = record,
    .collect = vqx_motion_collect,
};
