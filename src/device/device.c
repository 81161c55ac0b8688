/* The device interface (device.h): the dispatch to the backend, and what
 * every backend shares. */
#include "device/device.h"

#include "device/counters.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int vqx_device_open(VqxDevice **dev, enum VqxBackend backend, unsigned gpu, void *cuda_context,
                    char *err, size_t len)
{
    *dev = NULL;
    if (backend == VQX_BACKEND_CUDA) return vqx_cuda_device_open(dev, gpu, cuda_context, err, len);
    if (backend == VQX_BACKEND_VULKAN) {
        if (cuda_context) {
            snprintf(err, len, "backend vulkan: a CUDA context was given");
            return -EINVAL;
        }
        return vqx_vulkan_device_open(dev, gpu, err, len);
    }
    snprintf(err, len, "unknown backend %d", (int)backend);
    return -EINVAL;
}

void vqx_device_counters(enum VqxBackend backend, VqxDeviceCounters *out)
{
    if (backend == VQX_BACKEND_CUDA) vqx_cuda_counters(out);
    else if (backend == VQX_BACKEND_VULKAN) vqx_vk_counters(out);
    else memset(out, 0, sizeof(*out));
}

void vqx_device_quiesce(VqxDevice *dev)
{
    if (dev) dev->ops->quiesce(dev);
}

void vqx_device_close(VqxDevice **dev)
{
    if (!*dev) return;
    (*dev)->ops->close(*dev);
    *dev = NULL;
}

void vqx_device_free_members(VqxDevice *dev)
{
    free(dev->members);
    dev->members = NULL;
    dev->n_members = 0;
}

int vqx_device_fail(VqxDevice *dev, int err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(dev->error, sizeof(dev->error), fmt, ap);
    va_end(ap);
    dev->failed = true;
    return err;
}

const char *vqx_device_error(const VqxDevice *dev)
{
    return dev->error;
}

static int bind(VqxDevice *dev)
{
    return dev->ops->bind ? dev->ops->bind(dev) : 0;
}

void vqx_device_use_planes(VqxDevice *dev, unsigned planes)
{
    dev->planes |= planes;
}

void vqx_device_result_bytes(VqxDevice *dev, size_t bytes)
{
    dev->setting_up->result_bytes = (bytes + 7) & ~(size_t)7;
}

int vqx_device_add(VqxDevice *dev, const VqxFeatureExtractor *fex, void *state,
                   VqxSink *sink, const VqxFrameFormat *fmt)
{
    if (bind(dev)) return vqx_fail(sink, -EIO, "%s", dev->error);
    VqxDeviceMember *m = realloc(dev->members, (dev->n_members + 1) * sizeof(*m));
    if (!m) return vqx_fail(sink, -ENOMEM, "out of memory");
    dev->members = m;
    m = &m[dev->n_members];
    *m = (VqxDeviceMember){ .fex = fex, .state = state, .sink = sink,
                            .temporal = fex->flags & VQX_FEX_TEMPORAL };
    const unsigned planes_before = dev->planes;
    dev->setting_up = m;
    const int ret = fex->device_init(state, fmt, dev, sink);
    dev->setting_up = NULL;
    if (ret) {
        dev->planes = planes_before;
        return ret;
    }
    dev->n_members++;
    dev->any_temporal |= m->temporal;
    return 0;
}

bool vqx_device_has_members(const VqxDevice *dev)
{
    return dev && dev->n_members;
}

void vqx_device_layout_results(VqxDevice *dev)
{
    size_t off = 0;
    for (unsigned i = 0; i < dev->n_members; i++) {
        dev->members[i].result_off = off;
        off += dev->members[i].result_bytes;
    }
    dev->result_size = off ? off : 8;
}

/* Waits for the frame in block s and hands its results to the members'
 * collect. */
static int finish(VqxDevice *dev, unsigned s)
{
    VqxDeviceSlot *sl = &dev->slot[s];
    if (!sl->busy) return 0;
    sl->busy = false;
    const unsigned char *results;
    int ret = dev->ops->finish(dev, s, &results);
    if (ret) return ret;
    for (unsigned i = 0; i < dev->n_members; i++) {
        const VqxDeviceMember *m = &dev->members[i];
        if (!m->temporal && !sl->sampled) continue;
        vqx_sink_start_call(m->sink, sl->index);
        ret = m->fex->collect(m->state, results + m->result_off, sl->index, m->sink);
        if (ret)
            return vqx_device_fail(dev, ret, "%s: frame %u: cannot store its results",
                                   m->fex->name, sl->index);
    }
    dev->collected = sl->index + 1;
    return 0;
}

void vqx_device_layout_input(const VqxDevice *dev, const VqxFrameFormat *fmt, size_t row_align,
                             VqxDeviceInput *in)
{
    const size_t plane_align = 256, bps = fmt->bpc == 8 ? 1 : 2;
    in->n_planes = (dev->planes & VQX_DEVICE_CHROMA) && fmt->layout != VQX_PIX_400 ? 3 :
                   dev->planes ? 1 : 0;
    size_t off = 0;
    for (unsigned pic = 0; pic < 2; pic++) {
        for (unsigned p = 0; p < in->n_planes; p++) {
            in->plane_h[p] = vqx_plane_h(fmt, p);
            in->row_bytes[p] = (size_t)vqx_plane_w(fmt, p) * bps;
            in->pitch[p] = (in->row_bytes[p] + row_align - 1) / row_align * row_align;
            in->plane_off[pic][p] = off;
            off += (in->pitch[p] * in->plane_h[p] + plane_align - 1) / plane_align * plane_align;
        }
    }
    in->frame_bytes = off;
}

int vqx_device_start(VqxDevice *dev, const VqxFrameFormat *fmt)
{
    if (bind(dev)) return -EIO;
    vqx_device_layout_results(dev);
    const int ret = dev->ops->start(dev, fmt);
    if (ret) dev->failed = true;
    return ret;
}

int vqx_device_frame(VqxDevice *dev, const VqxPicture *ref, const VqxPicture *dis,
                     unsigned index, bool sampled, enum VqxFrameMemory memory, bool *held)
{
    *held = false;
    if (dev->failed || bind(dev)) return -EIO;
    if (!sampled && !dev->any_temporal) {
        bool idle = true;
        for (unsigned s = 0; s < VQX_DEVICE_BLOCKS; s++) idle &= !dev->slot[s].busy;
        if (idle) dev->collected = index + 1;
        return 0;
    }
    const unsigned s = dev->n_launched % VQX_DEVICE_BLOCKS;
    int ret = finish(dev, s);
    if (ret) return ret;
    ret = dev->ops->launch(dev, s, ref, dis, index, memory, held);
    if (ret) {
        char msg[VQX_DEVICE_ERR_LEN + 32];
        snprintf(msg, sizeof(msg), "frame %u: %s", index, dev->error);
        memcpy(dev->error, msg, sizeof(dev->error) - 1); /* may truncate */
        dev->failed = true;
        return ret;
    }
    dev->slot[s] = (VqxDeviceSlot){ .busy = true, .sampled = sampled, .index = index };
    dev->n_launched++;
    return 0;
}

int vqx_device_wait(VqxDevice *dev, unsigned index)
{
    if (dev->failed || bind(dev)) return -EIO;
    int ret = 0;
    for (unsigned i = 0; i < VQX_DEVICE_BLOCKS && !ret; i++) {
        const unsigned s = (dev->n_launched + i) % VQX_DEVICE_BLOCKS;
        if (dev->slot[s].busy && dev->slot[s].index <= index) ret = finish(dev, s);
    }
    return ret;
}

int vqx_device_drain(VqxDevice *dev)
{
    if (dev->failed || bind(dev)) return -EIO;
    int ret = 0;
    /* oldest first: the block of the next launch holds the oldest frame */
    for (unsigned i = 0; i < VQX_DEVICE_BLOCKS && !ret; i++)
        ret = finish(dev, (dev->n_launched + i) % VQX_DEVICE_BLOCKS);
    return ret;
}

unsigned vqx_device_collected(const VqxDevice *dev)
{
    return dev->collected;
}

bool vqx_device_wants_pinned(const VqxDevice *dev)
{
    return dev && dev->ops->pinned_pool;
}

void *vqx_device_memory_alloc(VqxDevice *dev, size_t bytes)
{
    return dev->ops->memory_alloc && !bind(dev) ? dev->ops->memory_alloc(dev, bytes) : NULL;
}

void vqx_device_memory_free(VqxDevice *dev, void *ptr)
{
    if (ptr && dev->ops->memory_free && !bind(dev)) dev->ops->memory_free(dev, ptr);
}

int vqx_device_find_overflow(VqxDevice *dev, const VqxPicture *const pics[2], unsigned planes,
                             unsigned *which, VqxSampleOverflow *at)
{
    if (pics[0]->bpc == 8) return 0; /* no 8-bit sample exceeds the peak */
    if (dev->failed || bind(dev)) return -EIO;
    if (!dev->ops->find_overflow) return -ENOTSUP;
    return dev->ops->find_overflow(dev, pics, planes, which, at);
}

void vqx_device_profile(VqxDevice *dev, bool on)
{
    dev->profile = on;
}

double vqx_device_gpu_ms(const VqxDevice *dev, unsigned *frames)
{
    *frames = dev->gpu_frames;
    return dev->gpu_ms;
}
