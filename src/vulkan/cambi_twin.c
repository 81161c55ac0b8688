/* The Vulkan twin of cambi: the device loads, smooths, masks, and at every
 * scale halves, filters and computes the contrast values of each picture
 * (kernels.h), into the result block. The host pools each scale's top-k
 * mean with the CPU's own vqx_mean_of_top (a double sum in quick_select's
 * order, which the CUDA twin reproduces with kernels of its own), makes the
 * heatmaps and scores (device/cambi_twin.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "device/cambi_twin.h"
#include "vulkan/twin.h"

typedef struct CambiVulkanTwin {
    CambiState cpu; /* first: the options and constants live there */
    VqxVkCambiKernels kernels;
    VkDeviceAddress rows[2], cols[2];  /* the geometries' maps */
    VkDeviceAddress steps, reciprocal; /* the contrast's tables */
    VkDeviceAddress image[2], mask[2]; /* the current scale and the next */
    VkDeviceAddress counts;            /* the contrast kernel's scratch */
    size_t at[2][CAMBI_SCALES];        /* byte offsets of the contrast values in the result */
} CambiVulkanTwin;

static int device_init(void *priv, const VqxFrameFormat *fmt, VqxDevice *dev, VqxSink *sink)
{
    CambiVulkanTwin *t = priv;
    CambiState *s = &t->cpu;
    int ret = vqx_cambi_setup(s, fmt, sink);
    if (ret) return ret;
    vqx_device_use_planes(dev, VQX_DEVICE_LUMA);
    size_t samples, scale0, counts = 0, result = 0;
    vqx_cambi_twin_largest(s, &samples, &scale0);
    for (unsigned pic = 0; pic < vqx_cambi_twin_pictures(s); pic++) {
        const CambiGeometry *g = vqx_cambi_twin_geometry(s, pic);
        for (unsigned scale = 0; scale < CAMBI_SCALES; scale++) {
            unsigned w, h;
            vqx_cambi_scale_size(s, g, scale, &w, &h);
            t->at[pic][scale] = result;
            result += (size_t)w * h * sizeof(float);
            const size_t bytes = vqx_vk_cambi_counts_bytes(w, h, s->band_size);
            counts = bytes > counts ? bytes : counts;
        }
    }
    vqx_device_result_bytes(dev, result);
    /* the host's copy of a scale's values, which the pooling reorders, and a heatmap */
    s->contrast = malloc(scale0 * sizeof(*s->contrast));
    if (s->heatmaps_path) s->heat = malloc((size_t)s->dis.w * s->dis.h * sizeof(*s->heat));
    if (!s->contrast || (s->heatmaps_path && !s->heat))
        return vqx_fail(sink, -ENOMEM, "out of memory");

    VqxVk *vk = vqx_vulkan_runtime(dev);
    ret = vqx_vk_cambi_kernels(vk, &t->kernels);
    if (ret) return vqx_vulkan_failed(dev, ret, sink);
    ret = vqx_vulkan_adopt_kernels(dev, &t->kernels.load, 4, sink);
    for (unsigned i = 0; i < 2 && !ret; i++) {
        ret = vqx_vulkan_buffer(dev, samples * sizeof(uint32_t), &t->image[i], sink);
        if (!ret) ret = vqx_vulkan_buffer(dev, samples * sizeof(uint32_t), &t->mask[i], sink);
    }
    if (!ret) ret = vqx_vulkan_buffer(dev, counts, &t->counts, sink);
    uint32_t steps[2 * CAMBI_MAX_STEPS];
    for (unsigned d = 0; d < CAMBI_MAX_STEPS; d++) {
        steps[d] = s->tvi[d];
        steps[CAMBI_MAX_STEPS + d] = (uint32_t)vqx_cambi_step_weights[d];
    }
    if (!ret) ret = vqx_vulkan_table(dev, steps, sizeof(steps), &t->steps, sink);
    if (!ret) ret = vqx_vulkan_table(dev, s->reciprocal, sizeof(s->reciprocal), &t->reciprocal,
                                     sink);
    for (unsigned pic = 0; pic < vqx_cambi_twin_pictures(s) && !ret; pic++) {
        const CambiGeometry *g = vqx_cambi_twin_geometry(s, pic);
        ret = vqx_vulkan_table(dev, g->rows, g->h * sizeof(unsigned), &t->rows[pic], sink);
        if (!ret) ret = vqx_vulkan_table(dev, g->cols, g->w * sizeof(unsigned), &t->cols[pic],
                                         sink);
    }
    return ret;
}

_Static_assert(sizeof(unsigned) == sizeof(uint32_t), "the maps are read as 32-bit words");

/* Picture `pic` of the frame, from its device plane to its contrast values. */
static void record_picture(const CambiVulkanTwin *t, const VqxDeviceFrame *f, unsigned pic,
                           VqxDevice *dev)
{
    const CambiState *s = &t->cpu;
    const CambiGeometry *g = vqx_cambi_twin_geometry(s, pic);
    VqxVk *vk = vqx_vulkan_runtime(dev);
    const VqxVkCommands *c = vqx_vulkan_commands(f);
    const VqxVkCambiLoad load = {
        .plane = vqx_vulkan_address(pic == CAMBI_DIS ? f->dis[0] : f->ref[0]),
        .rows = t->rows[pic], .cols = t->cols[pic], .image = t->image[0], .mask = t->mask[0],
        .pitch_words = (uint32_t)(f->pitch[0] / 4), .bpc = s->bpc, .w = g->w, .h = g->h,
        .smooth = s->smooth, .threshold = g->mask_threshold,
    };
    vqx_vk_cambi_load_record(vk, &t->kernels, c, &load);
    VqxVkCambiContrast p = {
        .counts = t->counts, .steps = t->steps, .reciprocal = t->reciprocal,
        .pad = g->window >> 1, .n_steps = s->n_steps, .band_lo = s->band_lo,
        .band_size = s->band_size, .vlt = s->vlt_luma,
    };
    unsigned image = 0, mask = 0, w = g->w, h = g->h;
    for (unsigned scale = 0; scale < CAMBI_SCALES; scale++) {
        const bool halve = scale || s->halve_first;
        vqx_vk_cambi_scale_record(vk, &t->kernels, c, t->image[image], t->mask[mask], w, h, halve,
                                  t->image[!image], t->mask[!mask]);
        image = !image;
        if (halve) {
            mask = !mask;
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
        }
        p.image = t->image[image];
        p.mask = t->mask[mask];
        p.contrast = vqx_vulkan_address(f->result) + t->at[pic][scale];
        p.w = w;
        p.h = h;
        vqx_vk_cambi_contrast_record(vk, &t->kernels, c, &p);
    }
}

static int record(void *priv, const VqxDeviceFrame *f, VqxDevice *dev)
{
    const CambiVulkanTwin *t = priv;
    for (unsigned pic = 0; pic < vqx_cambi_twin_pictures(&t->cpu); pic++)
        record_picture(t, f, pic, dev);
    return 0;
}

/* cambi.c's per-scale order: the heatmap of the values, then their pooling. */
static int collect(void *priv, const void *block, unsigned frame, VqxSink *sink)
{
    CambiVulkanTwin *t = priv;
    CambiState *s = &t->cpu;
    double mean[2][CAMBI_SCALES];
    for (unsigned pic = 0; pic < vqx_cambi_twin_pictures(s); pic++) {
        const CambiGeometry *g = vqx_cambi_twin_geometry(s, pic);
        for (unsigned scale = 0; scale < CAMBI_SCALES; scale++) {
            unsigned w, h;
            vqx_cambi_scale_size(s, g, scale, &w, &h);
            const size_t n = (size_t)w * h;
            memcpy(s->contrast, (const char *)block + t->at[pic][scale], n * sizeof(float));
            if (s->heatmaps_path && pic == CAMBI_DIS) {
                const double gain = vqx_cambi_heat_gain(s);
                for (size_t i = 0; i < n; i++) s->heat[i] = vqx_cambi_heat(gain, s->contrast[i]);
                const int err = vqx_cambi_write_heatmap(s, scale, w, h, frame, s->heat, sink);
                if (err) return err;
            }
            mean[pic][scale] = s->dsp.mean_of_top(s->contrast, (int)n, s->pool_topk);
        }
    }
    return vqx_cambi_twin_emit(s, frame, mean, sink);
}

const VqxFeatureExtractor vqx_fex_cambi_vulkan = {
    .name = "cambi",
    .backend = VQX_BACKEND_VULKAN,
    .keys = vqx_cambi_keys,
    .unsuffixed_keys = CAMBI_UNSUFFIXED_KEYS,
    .options = vqx_cambi_options,
    .state_size = sizeof(CambiVulkanTwin),
    .device_init = device_init,
    .record = record,
    .collect = collect,
    .close = vqx_cambi_close,
};
