/*
 * The Vulkan backend of the device interface (device.h). Each of the
 * VQX_DEVICE_BLOCKS blocks has a host-visible staging buffer and a device
 * input buffer (the planes the twins read, rows padded to whole 32-bit
 * words), a host-visible result buffer and a command buffer recorded once:
 * the staging buffer's copy into the input, then every twin's kernels. The
 * twins' own buffers are in device memory. Per frame: the block's last
 * frame is collected (its fence waited for), the pictures are copied into
 * its staging buffer, its result buffer is zeroed, and its commands are
 * submitted again.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "device/copier.h"
#include "device/device.h"
#include "vulkan/twin.h"

typedef struct VulkanDevice {
    VqxDevice base;
    VqxVk *vk;
    VqxDeviceInput in;          /* the input block's layout: rows in whole words */
    VqxVkBuffer staging[VQX_DEVICE_BLOCKS], input[VQX_DEVICE_BLOCKS], result[VQX_DEVICE_BLOCKS];
    VqxVkCommands commands[VQX_DEVICE_BLOCKS];
    VqxCopier copier;           /* the pictures into the staging buffers */
    /* what the twins made */
    VqxVkBuffer *buffers;
    unsigned n_buffers;
    VqxVkKernel *kernels;
    unsigned n_kernels;
} VulkanDevice;

static VulkanDevice *vulkan(VqxDevice *dev)
{
    return (VulkanDevice *)dev;
}

/* A runtime failure, with its message. */
static int failed(VulkanDevice *dev, int err)
{
    return vqx_device_fail(&dev->base, err, "%s", vqx_vk_error(dev->vk));
}

static const VqxDeviceOps vulkan_ops;

int vqx_vulkan_device_open(VqxDevice **out, unsigned gpu, char *err, size_t len)
{
    VulkanDevice *dev = calloc(1, sizeof(*dev));
    if (!dev) {
        snprintf(err, len, "out of memory");
        return -ENOMEM;
    }
    const char *why;
    const int ret = vqx_vk_open(&dev->vk, gpu, &why);
    if (ret) {
        snprintf(err, len, "%s", why);
        free(dev);
        return ret;
    }
    dev->base.ops = &vulkan_ops;
    *out = &dev->base;
    return 0;
}

static void vulkan_quiesce(VqxDevice *base)
{
    VulkanDevice *dev = vulkan(base);
    for (unsigned s = 0; s < VQX_DEVICE_BLOCKS; s++)
        if (base->slot[s].busy)
            vqx_vk_wait(dev->vk, &dev->commands[s], vqx_vk_frame_timeout_ns(dev->vk));
}

static void vulkan_close(VqxDevice *base)
{
    VulkanDevice *dev = vulkan(base);
    vulkan_quiesce(base);
    vqx_copier_stop(&dev->copier);
    for (unsigned s = 0; s < VQX_DEVICE_BLOCKS; s++) {
        vqx_vk_commands_free(dev->vk, &dev->commands[s]);
        vqx_vk_buffer_free(dev->vk, &dev->staging[s]);
        vqx_vk_buffer_free(dev->vk, &dev->input[s]);
        vqx_vk_buffer_free(dev->vk, &dev->result[s]);
    }
    for (unsigned i = 0; i < dev->n_buffers; i++) vqx_vk_buffer_free(dev->vk, &dev->buffers[i]);
    for (unsigned i = 0; i < dev->n_kernels; i++) vqx_vk_kernel_free(dev->vk, &dev->kernels[i]);
    free(dev->buffers);
    free(dev->kernels);
    vqx_vk_close(dev->vk);
    vqx_device_free_members(base);
    free(dev);
}

/* ---- for twins ---- */

VqxVk *vqx_vulkan_runtime(VqxDevice *dev)
{
    return vulkan(dev)->vk;
}

int vqx_vulkan_failed(VqxDevice *dev, int err, VqxSink *sink)
{
    failed(vulkan(dev), err);
    return vqx_fail(sink, err, "%s", dev->error);
}

/* A buffer, host-visible and mapped or in device memory, zero-filled or
 * (in device memory) holding bytes of data. */
static int buffer(VulkanDevice *dev, size_t bytes, bool host, const void *data, VqxVkBuffer *out)
{
    const size_t words = bytes ? (bytes + 3) & ~(size_t)3 : 4; /* the fill's unit */
    int ret = host ? vqx_vk_buffer(dev->vk, words, out)
                   : vqx_vk_device_buffer(dev->vk, data ? bytes : words, data, out);
    if (ret) return failed(dev, ret);
    if (host) memset(out->map, 0, words);
    return 0;
}

/* A twin's buffer, zeroed or holding `data`. */
static int twin_buffer(VqxDevice *base, size_t bytes, const void *data, VkDeviceAddress *address,
                       VqxSink *sink)
{
    VulkanDevice *dev = vulkan(base);
    VqxVkBuffer *list = realloc(dev->buffers, (dev->n_buffers + 1) * sizeof(*list));
    if (!list) return vqx_fail(sink, -ENOMEM, "out of memory");
    dev->buffers = list;
    const int ret = buffer(dev, bytes, false, data, &list[dev->n_buffers]);
    if (ret) return vqx_fail(sink, ret, "%s", base->error);
    *address = list[dev->n_buffers++].address;
    return 0;
}

int vqx_vulkan_buffer(VqxDevice *dev, size_t bytes, VkDeviceAddress *address, VqxSink *sink)
{
    return twin_buffer(dev, bytes, NULL, address, sink);
}

int vqx_vulkan_table(VqxDevice *dev, const void *data, size_t bytes, VkDeviceAddress *address,
                     VqxSink *sink)
{
    return twin_buffer(dev, bytes, data, address, sink);
}

int vqx_vulkan_adopt_kernels(VqxDevice *base, const VqxVkKernel *kernels, unsigned n,
                             VqxSink *sink)
{
    VulkanDevice *dev = vulkan(base);
    VqxVkKernel *list = realloc(dev->kernels, (dev->n_kernels + n) * sizeof(*list));
    if (!list) return vqx_fail(sink, -ENOMEM, "out of memory");
    dev->kernels = list;
    memcpy(list + dev->n_kernels, kernels, n * sizeof(*list));
    dev->n_kernels += n;
    return 0;
}

/* ---- for the context ---- */

static int record(VulkanDevice *dev, unsigned s)
{
    VqxDevice *base = &dev->base;
    int ret = vqx_vk_record(dev->vk, &dev->commands[s]);
    if (ret) return failed(dev, ret);
    if (dev->in.frame_bytes)
        vqx_vk_copy(dev->vk, &dev->commands[s], &dev->staging[s], &dev->input[s],
                    dev->in.frame_bytes);
    for (unsigned i = 0; i < base->n_members; i++) {
        const VqxDeviceMember *m = &base->members[i];
        VqxDeviceFrame f = {
            .stream = &dev->commands[s], .block = s,
            .result = (void *)(uintptr_t)(dev->result[s].address + m->result_off),
        };
        for (unsigned p = 0; p < dev->in.n_planes; p++) {
            f.ref[p] = (const void *)(uintptr_t)(dev->input[s].address + dev->in.plane_off[0][p]);
            f.dis[p] = (const void *)(uintptr_t)(dev->input[s].address + dev->in.plane_off[1][p]);
            f.pitch[p] = dev->in.pitch[p];
        }
        ret = m->fex->record(m->state, &f, base);
        if (ret)
            return base->error[0] ? ret : vqx_device_fail(base, ret, "%s: cannot record its kernels",
                                                          m->fex->name);
    }
    ret = vqx_vk_end(dev->vk, &dev->commands[s]);
    return ret ? failed(dev, ret) : 0;
}

static int vulkan_start(VqxDevice *base, const VqxFrameFormat *fmt)
{
    VulkanDevice *dev = vulkan(base);
    /* rows in whole 32-bit words: the shaders read words */
    vqx_device_layout_input(base, fmt, 4, &dev->in);
    int ret = 0;
    for (unsigned s = 0; s < VQX_DEVICE_BLOCKS && !ret; s++) {
        ret = buffer(dev, dev->in.frame_bytes, true, NULL, &dev->staging[s]);
        if (!ret) ret = buffer(dev, dev->in.frame_bytes, false, NULL, &dev->input[s]);
        if (!ret) ret = buffer(dev, base->result_size, true, NULL, &dev->result[s]);
    }
    for (unsigned s = 0; s < VQX_DEVICE_BLOCKS && !ret; s++) ret = record(dev, s);
    if (!ret) vqx_copier_start(&dev->copier, &dev->in);
    return ret;
}

static int vulkan_finish(VqxDevice *base, unsigned s, const unsigned char **results)
{
    VulkanDevice *dev = vulkan(base);
    const int ret = vqx_vk_wait(dev->vk, &dev->commands[s], vqx_vk_frame_timeout_ns(dev->vk));
    if (ret) return vqx_device_fail(base, ret, "frame %u: %s", base->slot[s].index,
                                    vqx_vk_error(dev->vk));
    *results = dev->result[s].map;
    return 0;
}

static int vulkan_launch(VqxDevice *base, unsigned s, const VqxPicture *ref,
                         const VqxPicture *dis, unsigned index, enum VqxFrameMemory memory,
                         bool *held)
{
    (void)index, (void)memory; /* host pictures are always copied: nothing is held */
    *held = false;
    VulkanDevice *dev = vulkan(base);
    vqx_copier_copy(&dev->copier, dev->staging[s].map, ref, dis);
    memset(dev->result[s].map, 0, base->result_size);
    const int ret = vqx_vk_submit(dev->vk, &dev->commands[s]);
    if (ret) return failed(dev, ret);
    vqx_vk_count_readback(base->result_size); /* the results the host reads once it waited */
    return 0;
}

static const VqxDeviceOps vulkan_ops = {
    .quiesce = vulkan_quiesce,
    .close = vulkan_close,
    .start = vulkan_start,
    .launch = vulkan_launch,
    .finish = vulkan_finish,
};
