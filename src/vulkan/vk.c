/* The Vulkan compute runtime (vk.h). */
#include "vulkan/vk.h"

#include "device/counters.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INSTANCE_FUNCTIONS(X) \
    X(vkDestroyInstance) X(vkEnumeratePhysicalDevices) X(vkGetPhysicalDeviceProperties) \
    X(vkGetPhysicalDeviceQueueFamilyProperties) X(vkGetPhysicalDeviceFeatures2) \
    X(vkGetPhysicalDeviceMemoryProperties) X(vkCreateDevice) X(vkGetDeviceProcAddr)

#define DEVICE_FUNCTIONS(X) \
    X(vkDestroyDevice) X(vkGetDeviceQueue) X(vkCreateBuffer) X(vkDestroyBuffer) \
    X(vkGetBufferMemoryRequirements) X(vkAllocateMemory) X(vkFreeMemory) \
    X(vkBindBufferMemory) X(vkMapMemory) X(vkGetBufferDeviceAddress) \
    X(vkCreateShaderModule) X(vkDestroyShaderModule) X(vkCreatePipelineLayout) \
    X(vkDestroyPipelineLayout) X(vkCreateComputePipelines) X(vkDestroyPipeline) \
    X(vkCreateCommandPool) X(vkDestroyCommandPool) X(vkAllocateCommandBuffers) \
    X(vkFreeCommandBuffers) X(vkBeginCommandBuffer) X(vkEndCommandBuffer) \
    X(vkCmdBindPipeline) X(vkCmdPushConstants) X(vkCmdDispatch) X(vkCmdPipelineBarrier) \
    X(vkCmdCopyBuffer) X(vkCmdFillBuffer) \
    X(vkCreateFence) X(vkDestroyFence) X(vkResetFences) X(vkWaitForFences) \
    X(vkQueueSubmit) X(vkDeviceWaitIdle)

#define DECLARE(name) PFN_##name name;

struct VqxVk {
    void *loader;
    PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
    INSTANCE_FUNCTIONS(DECLARE)
    DEVICE_FUNCTIONS(DECLARE)
    VkInstance instance;
    VkPhysicalDevice physical;
    VkPhysicalDeviceProperties properties;
    VkPhysicalDeviceMemoryProperties memory;
    VkDevice device;
    uint32_t queue_family;
    VkQueue queue;
    VkCommandPool pool;
    char error[256];
};

static VqxDeviceCounters counters;

void vqx_vk_counters(VqxDeviceCounters *out)
{
    vqx_counters_load(&counters, out);
}

void vqx_vk_count_readback(VkDeviceSize bytes)
{
    vqx_count(&counters.readbacks, 1);
    vqx_count(&counters.readback_bytes, bytes);
}

/* Messages of vqx_vk_open's failures before a runtime exists. */
static char open_error[256];

static int fail(VqxVk *vk, int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(vk->error, sizeof(vk->error), fmt, ap);
    va_end(ap);
    return err;
}

static int vk_fail(VqxVk *vk, const char *call, VkResult r)
{
    const int err = r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY
                        ? -ENOMEM
                    : r == VK_ERROR_DEVICE_LOST ? -EIO
                    : r == VK_TIMEOUT           ? -ETIMEDOUT
                                                : -ENODEV;
    return fail(vk, err, "vulkan: %s failed (VkResult %d)", call, (int)r);
}

const char *vqx_vk_error(const VqxVk *vk)
{
    return vk->error;
}

const char *vqx_vk_device_name(const VqxVk *vk)
{
    return vk->properties.deviceName;
}

uint64_t vqx_vk_frame_timeout_ns(const VqxVk *vk)
{
    const uint64_t second = 1000000000ull;
    /* a software device's speed is the host's, shared with whatever else runs */
    return vk->properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? 1800 * second : 60 * second;
}

static int load_instance(VqxVk *vk)
{
#define LOAD(name) \
    if (!(vk->name = (PFN_##name)vk->vkGetInstanceProcAddr(vk->instance, #name))) \
        return fail(vk, -ENODEV, "vulkan: the loader lacks %s", #name);
    INSTANCE_FUNCTIONS(LOAD)
#undef LOAD
    return 0;
}

static int load_device(VqxVk *vk)
{
#define LOAD(name) \
    if (!(vk->name = (PFN_##name)vk->vkGetDeviceProcAddr(vk->device, #name))) \
        return fail(vk, -ENODEV, "vulkan: the driver lacks %s", #name);
    DEVICE_FUNCTIONS(LOAD)
#undef LOAD
    return 0;
}

/* A compute queue family of the device, or -1. */
static int compute_family(VqxVk *vk, VkPhysicalDevice pd)
{
    VkQueueFamilyProperties families[16];
    uint32_t n = 16;
    vk->vkGetPhysicalDeviceQueueFamilyProperties(pd, &n, families);
    for (uint32_t i = 0; i < n; i++)
        if (families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) return (int)i;
    return -1;
}

/* Whether the device has what the shaders use. */
static int usable(VqxVk *vk, VkPhysicalDevice pd)
{
    VkPhysicalDeviceProperties p;
    vk->vkGetPhysicalDeviceProperties(pd, &p);
    if (p.apiVersion < VK_API_VERSION_1_2 || compute_family(vk, pd) < 0) return 0;
    VkPhysicalDeviceVulkan12Features f12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES };
    VkPhysicalDeviceFeatures2 f = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12 };
    vk->vkGetPhysicalDeviceFeatures2(pd, &f);
    return f.features.shaderInt64 && f12.bufferDeviceAddress;
}

static int pick_device(VqxVk *vk, unsigned index)
{
    VkPhysicalDevice devices[16];
    uint32_t n = 16;
    VkResult r = vk->vkEnumeratePhysicalDevices(vk->instance, &n, devices);
    if (r < 0) return vk_fail(vk, "vkEnumeratePhysicalDevices", r);
    unsigned seen = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!usable(vk, devices[i])) continue;
        if (seen++ == index) {
            vk->physical = devices[i];
            return 0;
        }
    }
    return fail(vk, -ENODEV, "vulkan: no device %u with compute, Vulkan 1.2, 64-bit integers and "
                "buffer device addresses (%u such devices)", index, seen);
}

static int create_device(VqxVk *vk)
{
    vk->vkGetPhysicalDeviceProperties(vk->physical, &vk->properties);
    vk->vkGetPhysicalDeviceMemoryProperties(vk->physical, &vk->memory);
    vk->queue_family = (uint32_t)compute_family(vk, vk->physical);
    const float priority = 1.0f;
    const VkDeviceQueueCreateInfo queue = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = vk->queue_family, .queueCount = 1, .pQueuePriorities = &priority,
    };
    VkPhysicalDeviceVulkan12Features f12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .bufferDeviceAddress = VK_TRUE,
    };
    const VkPhysicalDeviceFeatures2 features = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f12,
        .features = { .shaderInt64 = VK_TRUE },
    };
    const VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &features,
        .queueCreateInfoCount = 1, .pQueueCreateInfos = &queue,
    };
    VkResult r = vk->vkCreateDevice(vk->physical, &info, NULL, &vk->device);
    if (r) return vk_fail(vk, "vkCreateDevice", r);
    int ret = load_device(vk);
    if (ret) return ret;
    vk->vkGetDeviceQueue(vk->device, vk->queue_family, 0, &vk->queue);
    const VkCommandPoolCreateInfo pool = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = vk->queue_family,
    };
    r = vk->vkCreateCommandPool(vk->device, &pool, NULL, &vk->pool);
    return r ? vk_fail(vk, "vkCreateCommandPool", r) : 0;
}

int vqx_vk_open(VqxVk **out, unsigned index, const char **message)
{
    *out = NULL;
    *message = open_error;
    VqxVk *vk = calloc(1, sizeof(*vk));
    if (!vk) {
        snprintf(open_error, sizeof(open_error), "vulkan: out of memory");
        return -ENOMEM;
    }
    int ret = 0;
    vk->loader = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!vk->loader) {
        ret = fail(vk, -ENODEV, "vulkan: no Vulkan loader (libvulkan.so.1): %s", dlerror());
        goto out;
    }
    vk->vkGetInstanceProcAddr = (PFN_vkGetInstanceProcAddr)dlsym(vk->loader, "vkGetInstanceProcAddr");
    PFN_vkCreateInstance create = vk->vkGetInstanceProcAddr
        ? (PFN_vkCreateInstance)vk->vkGetInstanceProcAddr(NULL, "vkCreateInstance") : NULL;
    if (!create) {
        ret = fail(vk, -ENODEV, "vulkan: the loader lacks vkCreateInstance");
        goto out;
    }
    const VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "vqx",
        .apiVersion = VK_API_VERSION_1_2,
    };
    const VkInstanceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app,
    };
    VkResult r = create(&info, NULL, &vk->instance);
    if (r) {
        ret = vk_fail(vk, "vkCreateInstance", r);
        vk->instance = VK_NULL_HANDLE;
        goto out;
    }
    ret = load_instance(vk);
    if (!ret) ret = pick_device(vk, index);
    if (!ret) ret = create_device(vk);
out:
    if (ret) {
        snprintf(open_error, sizeof(open_error), "%s", vk->error);
        vqx_vk_close(vk);
        return ret;
    }
    *out = vk;
    return 0;
}

void vqx_vk_close(VqxVk *vk)
{
    if (!vk) return;
    if (vk->device) {
        vk->vkDeviceWaitIdle(vk->device);
        if (vk->pool) vk->vkDestroyCommandPool(vk->device, vk->pool, NULL);
        vk->vkDestroyDevice(vk->device, NULL);
    }
    if (vk->instance && vk->vkDestroyInstance) vk->vkDestroyInstance(vk->instance, NULL);
    if (vk->loader) dlclose(vk->loader);
    free(vk);
}

static int memory_type(const VqxVk *vk, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < vk->memory.memoryTypeCount; i++)
        if ((bits >> i & 1) && (vk->memory.memoryTypes[i].propertyFlags & want) == want)
            return (int)i;
    return -1;
}

/* A buffer in memory of the first type with the wanted properties, mapped
 * when the host is to reach it. */
static int make_buffer(VqxVk *vk, VkDeviceSize size, VkMemoryPropertyFlags want, int map,
                       const char *what, VqxVkBuffer *b)
{
    memset(b, 0, sizeof(*b));
    b->size = size;
    const VkBufferCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size,
        .usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
                 VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT,
        .sharingMode = VK_SHARING_MODE_EXCLUSIVE,
    };
    VkResult r = vk->vkCreateBuffer(vk->device, &info, NULL, &b->buffer);
    if (r) return vk_fail(vk, "vkCreateBuffer", r);
    VkMemoryRequirements req;
    vk->vkGetBufferMemoryRequirements(vk->device, b->buffer, &req);
    const int type = memory_type(vk, req.memoryTypeBits, want);
    if (type < 0) {
        vqx_vk_buffer_free(vk, b);
        return fail(vk, -ENOMEM, "vulkan: no %s memory for a buffer", what);
    }
    const VkMemoryAllocateFlagsInfo flags = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO,
        .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT,
    };
    const VkMemoryAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .pNext = &flags,
        .allocationSize = req.size, .memoryTypeIndex = (uint32_t)type,
    };
    int ret = 0;
    vqx_count(&counters.allocations, 1);
    if ((r = vk->vkAllocateMemory(vk->device, &alloc, NULL, &b->memory)))
        ret = vk_fail(vk, "vkAllocateMemory", r);
    else if ((r = vk->vkBindBufferMemory(vk->device, b->buffer, b->memory, 0)))
        ret = vk_fail(vk, "vkBindBufferMemory", r);
    else if (map && (r = vk->vkMapMemory(vk->device, b->memory, 0, VK_WHOLE_SIZE, 0, &b->map)))
        ret = vk_fail(vk, "vkMapMemory", r);
    if (ret) {
        vqx_vk_buffer_free(vk, b);
        return ret;
    }
    const VkBufferDeviceAddressInfo where = {
        .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = b->buffer,
    };
    b->address = vk->vkGetBufferDeviceAddress(vk->device, &where);
    return 0;
}

int vqx_vk_buffer(VqxVk *vk, VkDeviceSize size, VqxVkBuffer *b)
{
    /* cached where the device has it: the host's writes and reads then run
     * at memory speed, not at that of uncached or write-combined pages */
    const VkMemoryPropertyFlags coherent = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                           VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    const int ret = make_buffer(vk, size, coherent | VK_MEMORY_PROPERTY_HOST_CACHED_BIT, 1,
                                "host-visible cached", b);
    return ret != -ENOMEM || b->buffer ? ret
                                       : make_buffer(vk, size, coherent, 1, "host-visible coherent", b);
}

int vqx_vk_device_buffer(VqxVk *vk, VkDeviceSize size, const void *data, VqxVkBuffer *b)
{
    int ret = make_buffer(vk, size, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0, "device-local", b);
    if (ret) return ret;
    VqxVkBuffer from = { 0 };
    if (data && !(ret = vqx_vk_buffer(vk, size, &from))) memcpy(from.map, data, size);
    VqxVkCommands fill;
    if (!ret && !(ret = vqx_vk_record(vk, &fill))) {
        if (data) {
            const VkBufferCopy region = { .size = size };
            vk->vkCmdCopyBuffer(fill.cmd, from.buffer, b->buffer, 1, &region);
        } else {
            vk->vkCmdFillBuffer(fill.cmd, b->buffer, 0, VK_WHOLE_SIZE, 0);
        }
        ret = vqx_vk_end(vk, &fill);
        if (!ret) ret = vqx_vk_run(vk, &fill, UINT64_MAX);
        vqx_vk_commands_free(vk, &fill);
    }
    vqx_vk_buffer_free(vk, &from);
    if (ret) vqx_vk_buffer_free(vk, b);
    return ret;
}

void vqx_vk_copy(VqxVk *vk, VqxVkCommands *c, const VqxVkBuffer *src, const VqxVkBuffer *dst,
                 VkDeviceSize size)
{
    if (src->map) c->upload_bytes += size; /* from host-visible memory: an upload */
    const VkBufferCopy region = { .size = size };
    vk->vkCmdCopyBuffer(c->cmd, src->buffer, dst->buffer, 1, &region);
    const VkMemoryBarrier barrier = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT,
    };
    vk->vkCmdPipelineBarrier(c->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &barrier, 0, NULL, 0,
                             NULL);
}

void vqx_vk_buffer_free(VqxVk *vk, VqxVkBuffer *b)
{
    if (b->buffer) vk->vkDestroyBuffer(vk->device, b->buffer, NULL);
    if (b->memory) vk->vkFreeMemory(vk->device, b->memory, NULL); /* unmaps it */
    memset(b, 0, sizeof(*b));
}

int vqx_vk_kernel(VqxVk *vk, const uint32_t *spirv, size_t bytes, uint32_t push_bytes,
                  VqxVkKernel *k)
{
    memset(k, 0, sizeof(*k));
    k->push_bytes = push_bytes;
    const VkShaderModuleCreateInfo module = {
        .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = bytes, .pCode = spirv,
    };
    VkResult r = vk->vkCreateShaderModule(vk->device, &module, NULL, &k->module);
    if (r) return vk_fail(vk, "vkCreateShaderModule", r);
    const VkPushConstantRange push = {
        .stageFlags = VK_SHADER_STAGE_COMPUTE_BIT, .size = push_bytes,
    };
    const VkPipelineLayoutCreateInfo layout = {
        .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO,
        .pushConstantRangeCount = push_bytes ? 1 : 0, .pPushConstantRanges = &push,
    };
    int ret = 0;
    if ((r = vk->vkCreatePipelineLayout(vk->device, &layout, NULL, &k->layout))) {
        ret = vk_fail(vk, "vkCreatePipelineLayout", r);
    } else {
        const VkComputePipelineCreateInfo pipeline = {
            .sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO,
            .stage = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                       .stage = VK_SHADER_STAGE_COMPUTE_BIT, .module = k->module, .pName = "main" },
            .layout = k->layout,
        };
        r = vk->vkCreateComputePipelines(vk->device, VK_NULL_HANDLE, 1, &pipeline, NULL,
                                         &k->pipeline);
        if (r) ret = vk_fail(vk, "vkCreateComputePipelines", r);
    }
    if (ret) vqx_vk_kernel_free(vk, k);
    return ret;
}

void vqx_vk_kernel_free(VqxVk *vk, VqxVkKernel *k)
{
    if (k->pipeline) vk->vkDestroyPipeline(vk->device, k->pipeline, NULL);
    if (k->layout) vk->vkDestroyPipelineLayout(vk->device, k->layout, NULL);
    if (k->module) vk->vkDestroyShaderModule(vk->device, k->module, NULL);
    memset(k, 0, sizeof(*k));
}

int vqx_vk_record(VqxVk *vk, VqxVkCommands *c)
{
    memset(c, 0, sizeof(*c));
    const VkCommandBufferAllocateInfo alloc = {
        .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = vk->pool,
        .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1,
    };
    vqx_count(&counters.allocations, 1);
    VkResult r = vk->vkAllocateCommandBuffers(vk->device, &alloc, &c->cmd);
    if (r) return vk_fail(vk, "vkAllocateCommandBuffers", r);
    const VkFenceCreateInfo fence = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
    if ((r = vk->vkCreateFence(vk->device, &fence, NULL, &c->fence))) {
        vqx_vk_commands_free(vk, c);
        return vk_fail(vk, "vkCreateFence", r);
    }
    const VkCommandBufferBeginInfo begin = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO };
    if ((r = vk->vkBeginCommandBuffer(c->cmd, &begin))) {
        vqx_vk_commands_free(vk, c);
        return vk_fail(vk, "vkBeginCommandBuffer", r);
    }
    return 0;
}

void vqx_vk_dispatch(VqxVk *vk, const VqxVkCommands *c, const VqxVkKernel *k, const void *push,
                     uint32_t gx, uint32_t gy, uint32_t gz)
{
    vk->vkCmdBindPipeline(c->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipeline);
    if (k->push_bytes)
        vk->vkCmdPushConstants(c->cmd, k->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, k->push_bytes, push);
    vk->vkCmdDispatch(c->cmd, gx, gy, gz);
    const VkMemoryBarrier barrier = {
        .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER,
        .srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT,
        .dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT |
                         VK_ACCESS_HOST_READ_BIT,
    };
    vk->vkCmdPipelineBarrier(c->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_HOST_BIT, 0,
                             1, &barrier, 0, NULL, 0, NULL);
}

int vqx_vk_end(VqxVk *vk, const VqxVkCommands *c)
{
    VkResult r = vk->vkEndCommandBuffer(c->cmd);
    return r ? vk_fail(vk, "vkEndCommandBuffer", r) : 0;
}

int vqx_vk_submit(VqxVk *vk, const VqxVkCommands *c)
{
    VkResult r = vk->vkResetFences(vk->device, 1, &c->fence);
    if (r) return vk_fail(vk, "vkResetFences", r);
    const VkSubmitInfo submit = {
        .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &c->cmd,
    };
    vqx_count(&counters.launches, 1);
    if (c->upload_bytes) {
        vqx_count(&counters.uploads, 1);
        vqx_count(&counters.upload_bytes, c->upload_bytes);
    }
    r = vk->vkQueueSubmit(vk->queue, 1, &submit, c->fence);
    return r ? vk_fail(vk, "vkQueueSubmit", r) : 0;
}

int vqx_vk_wait(VqxVk *vk, const VqxVkCommands *c, uint64_t timeout_ns)
{
    vqx_count(&counters.syncs, 1);
    const VkResult r = vk->vkWaitForFences(vk->device, 1, &c->fence, VK_TRUE, timeout_ns);
    return r ? vk_fail(vk, "vkWaitForFences", r) : 0;
}

int vqx_vk_run(VqxVk *vk, const VqxVkCommands *c, uint64_t timeout_ns)
{
    const int ret = vqx_vk_submit(vk, c);
    return ret ? ret : vqx_vk_wait(vk, c, timeout_ns);
}

void vqx_vk_commands_free(VqxVk *vk, VqxVkCommands *c)
{
    if (c->fence) vk->vkDestroyFence(vk->device, c->fence, NULL);
    if (c->cmd) vk->vkFreeCommandBuffers(vk->device, vk->pool, 1, &c->cmd);
    memset(c, 0, sizeof(*c));
}
