/* The Vulkan twin of psnr: the device sums each plane's squared errors
 * (kernels.h); the host part (device/psnr_twin.h) scores them. */
#include "device/psnr_twin.h"
#include "vulkan/twin.h"

typedef struct PsnrVulkanTwin {
    PsnrTwin host; /* first: the CPU's state leads it */
    VqxVkPsnrKernels kernels;
    VkDeviceAddress rows[3];
} PsnrVulkanTwin;

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    PsnrVulkanTwin *t = priv;
    int ret = vqx_psnr_twin_init(&t->host, fmt, dev, sink);
    if (ret) return ret;
    ret = vqx_vk_psnr_kernels(vqx_vulkan_runtime(dev), &t->kernels);
    if (ret) return vqx_vulkan_failed(dev, ret, sink);
    ret = vqx_vulkan_adopt_kernels(dev, &t->kernels.rows, 1, sink);
    if (!ret) ret = vqx_vulkan_adopt_kernels(dev, &t->kernels.sum, 1, sink);
    for (unsigned p = 0; p < t->host.cpu.n_planes && !ret; p++)
        ret = vqx_vulkan_buffer(dev, sizeof(uint64_t) * t->host.h[p], &t->rows[p], sink);
    return ret;
}

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    const PsnrVulkanTwin *t = priv;
    for (unsigned p = 0; p < t->host.cpu.n_planes; p++) {
        const VqxVkPsnrPlane plane = {
            .ref = vqx_vulkan_address(f->ref[p]), .dis = vqx_vulkan_address(f->dis[p]),
            .pitch_words = (uint32_t)(f->pitch[p] / 4), .w = t->host.w[p], .h = t->host.h[p],
            .bpc = t->host.cpu.bpc, .rows = t->rows[p], .total = vqx_vulkan_address(f->result),
            .index = p,
        };
        vqx_vk_psnr_record(vqx_vulkan_runtime(dev), vqx_vulkan_commands(f), &t->kernels, &plane);
    }
    return 0;
}

const VqxFeatureExtractor vqx_fex_psnr_vulkan = {
    .name = "psnr",
    .backend = VQX_BACKEND_VULKAN,
    .keys = vqx_psnr_keys,
    .options = vqx_psnr_options,
    .state_size = sizeof(PsnrVulkanTwin),
    .flush = vqx_psnr_flush,
    .device_init = device_init,
    .record = record,
    .collect = vqx_psnr_twin_collect,
};
