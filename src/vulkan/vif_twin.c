/* The Vulkan twin of integer vif: per scale its sums and the next scale's
 * planes on the device (kernels.h), the host part in device/vif_twin.h. */
#include <stdbool.h>
#include <stdint.h>

#include "device/vif_twin.h"
#include "vulkan/twin.h"

typedef struct VifVulkanTwin {
    VifTwin host; /* first: the CPU's state leads it */
    VqxVkVifKernels kernels;
    /* work space shared by the scales (sized for scale 0), the planes of
     * scales 1..3 and the log2 table */
    VkDeviceAddress cols, rows, means, ref[VIF_SCALES], dis[VIF_SCALES], log2_table;
} VifVulkanTwin;

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    VifVulkanTwin *t = priv;
    int ret = vqx_vif_twin_init(&t->host, fmt, dev, sink);
    if (ret) return ret;
    VqxVk *vk = vqx_vulkan_runtime(dev);
    ret = vqx_vk_vif_kernels(vk, &t->kernels);
    if (ret) return vqx_vulkan_failed(dev, ret, sink);
    const VqxVkKernel *kernels[] = { &t->kernels.columns, &t->kernels.rows, &t->kernels.means,
                                     &t->kernels.decimate, &t->kernels.sum };
    for (unsigned i = 0; i < sizeof(kernels) / sizeof(kernels[0]) && !ret; i++)
        ret = vqx_vulkan_adopt_kernels(dev, kernels[i], 1, sink);
    const size_t w = t->host.w[0], h = t->host.h[0];
    if (!ret) ret = vqx_vulkan_buffer(dev, 5 * sizeof(uint32_t) * w * h, &t->cols, sink);
    if (!ret) ret = vqx_vulkan_buffer(dev, 4 * sizeof(uint64_t) * h, &t->rows, sink);
    if (!ret) ret = vqx_vulkan_buffer(dev, 2 * sizeof(uint32_t) * w * (h / 2), &t->means, sink);
    for (unsigned sc = 1; sc < VIF_SCALES && !ret; sc++) {
        const size_t words = (size_t)vqx_vk_vif_pitch_words(t->host.w[sc]) * t->host.h[sc];
        const size_t bytes = sizeof(uint32_t) * words;
        ret = vqx_vulkan_buffer(dev, bytes, &t->ref[sc], sink);
        if (!ret) ret = vqx_vulkan_buffer(dev, bytes, &t->dis[sc], sink);
    }
    const VifState *cpu = &t->host.cpu;
    if (!ret) ret = vqx_vulkan_table(dev, cpu->log2_table, sizeof(cpu->log2_table),
                                     &t->log2_table, sink);
    return ret;
}

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    const VifVulkanTwin *t = priv;
    VqxVk *vk = vqx_vulkan_runtime(dev);
    const VqxVkCommands *c = vqx_vulkan_commands(f);
    const VkDeviceAddress sums = vqx_vulkan_address(f->result);
    for (unsigned sc = 0; sc < VIF_SCALES; sc++) {
        const bool last = sc + 1 == VIF_SCALES;
        const VqxVkVifScale scale = {
            .ref = sc ? t->ref[sc] : vqx_vulkan_address(f->ref[0]),
            .dis = sc ? t->dis[sc] : vqx_vulkan_address(f->dis[0]),
            .pitch_words = sc ? vqx_vk_vif_pitch_words(t->host.w[sc]) : (uint32_t)(f->pitch[0] / 4),
            .w = t->host.w[sc], .h = t->host.h[sc], .bpc = t->host.cpu.bpc, .scale = sc,
            .sums = vqx_vif_twin_scored(&t->host, sc) ? sums + sc * sizeof(VifSums) : 0,
            .cols = t->cols, .rows = t->rows, .log2_table = t->log2_table,
            .gain_limit = t->host.cpu.gain_limit,
            .next_ref = last ? 0 : t->ref[sc + 1], .next_dis = last ? 0 : t->dis[sc + 1],
            .means = t->means,
        };
        vqx_vk_vif_record(vk, c, &t->kernels, &scale);
    }
    return 0;
}

const VqxFeatureExtractor vqx_fex_vif_vulkan = {
    .name = "vif",
    .backend = VQX_BACKEND_VULKAN,
    .keys = vqx_vif_keys,
    .options = vqx_vif_options,
    .state_size = sizeof(VifVulkanTwin),
    .device_init = device_init,
    .record = record,
    .collect = vqx_vif_twin_collect,
};
