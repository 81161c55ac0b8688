/* The Vulkan twin of integer adm: every level's nine integer sums on the
 * device (kernels.h); the host part (device/adm_twin.h) scores them. */
#include "device/adm_twin.h"
#include "vulkan/twin.h"

typedef struct AdmVulkanTwin {
    AdmTwin host; /* first: the CPU's state leads it */
    VqxVkAdmKernels kernels;
    VkDeviceAddress work, rows;
} AdmVulkanTwin;

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    AdmVulkanTwin *t = priv;
    int ret = vqx_adm_twin_init(&t->host, fmt, dev, sink);
    if (ret) return ret;
    ret = vqx_vk_adm_kernels(vqx_vulkan_runtime(dev), &t->kernels);
    if (ret) return vqx_vulkan_failed(dev, ret, sink);
    ret = vqx_vulkan_adopt_kernels(dev, &t->kernels.dwt, 1, sink);
    if (!ret) ret = vqx_vulkan_adopt_kernels(dev, &t->kernels.decouple, 1, sink);
    if (!ret) ret = vqx_vulkan_adopt_kernels(dev, &t->kernels.rows, 1, sink);
    if (!ret) ret = vqx_vulkan_adopt_kernels(dev, &t->kernels.sum, 1, sink);
    if (!ret) ret = vqx_vulkan_buffer(dev, vqx_vk_adm_work_bytes(&t->host.cpu), &t->work, sink);
    if (!ret) ret = vqx_vulkan_buffer(dev, vqx_vk_adm_rows_bytes(&t->host.cpu), &t->rows, sink);
    return ret;
}

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    const AdmVulkanTwin *t = priv;
    const VqxVkAdmFrame frame = {
        .ref = vqx_vulkan_address(f->ref[0]), .dis = vqx_vulkan_address(f->dis[0]),
        .pitch_words = (uint32_t)(f->pitch[0] / 4), .work = t->work, .rows = t->rows,
        .total = vqx_vulkan_address(f->result),
    };
    for (int k = 0; k < ADM_SCALES; k++)
        vqx_vk_adm_record(vqx_vulkan_runtime(dev), vqx_vulkan_commands(f), &t->kernels,
                          &t->host.cpu, k, &frame);
    return 0;
}

const VqxFeatureExtractor vqx_fex_adm_vulkan = {
    .name = "adm",
    .backend = VQX_BACKEND_VULKAN,
    .keys = vqx_adm_keys,
    .options = vqx_adm_options,
    .state_size = sizeof(AdmVulkanTwin),
    .device_init = device_init,
    .record = record,
    .collect = vqx_adm_twin_collect,
};
