/* CAMBI's Vulkan kernels (kernels.h): shaders/cambi_load.comp,
 * cambi_mask.comp, cambi_scale.comp and cambi_contrast.comp. */
#include "vulkan/kernels.h"
#include "vulkan/spirv.h"

/* Threads of a contrast workgroup (the shader's local size), and about how
 * many threads a picture gets: each keeps its own counts, and a run's first
 * row costs it the counting of 2 pad rows. */
#define CONTRAST_THREADS 64
#define CONTRAST_TARGET 16384

/* The shaders' push constants, member for member. */
typedef struct LoadPush {
    uint64_t plane, rows, cols, image;
    uint32_t pitch_words, bpc, w, h, smooth;
} LoadPush;

typedef struct MaskPush {
    uint64_t image, mask;
    uint32_t w, h, threshold;
} MaskPush;

typedef struct ScalePush {
    uint64_t image, mask, out_image, out_mask;
    uint32_t in_w, step, w, h;
} ScalePush;

typedef struct ContrastPush {
    uint64_t image, mask, contrast, counts, steps, reciprocal;
    uint32_t w, h, rows, pad, n_steps, band_lo, band_size, vlt;
} ContrastPush;

int vqx_vk_cambi_kernels(VqxVk *vk, VqxVkCambiKernels *k)
{
    int ret = vqx_vk_kernel(vk, vqx_spirv_cambi_load, vqx_spirv_cambi_load_bytes, sizeof(LoadPush),
                            &k->load);
    if (!ret) ret = vqx_vk_kernel(vk, vqx_spirv_cambi_mask, vqx_spirv_cambi_mask_bytes,
                                  sizeof(MaskPush), &k->mask);
    if (!ret) ret = vqx_vk_kernel(vk, vqx_spirv_cambi_scale, vqx_spirv_cambi_scale_bytes,
                                  sizeof(ScalePush), &k->scale);
    if (!ret) ret = vqx_vk_kernel(vk, vqx_spirv_cambi_contrast, vqx_spirv_cambi_contrast_bytes,
                                  sizeof(ContrastPush), &k->contrast);
    if (ret) vqx_vk_cambi_kernels_free(vk, k);
    return ret;
}

void vqx_vk_cambi_kernels_free(VqxVk *vk, VqxVkCambiKernels *k)
{
    vqx_vk_kernel_free(vk, &k->load);
    vqx_vk_kernel_free(vk, &k->mask);
    vqx_vk_kernel_free(vk, &k->scale);
    vqx_vk_kernel_free(vk, &k->contrast);
}

void vqx_vk_cambi_load_record(VqxVk *vk, const VqxVkCambiKernels *k, const VqxVkCommands *c,
                              const VqxVkCambiLoad *l)
{
    const uint32_t groups = (l->w + 255) / 256;
    const LoadPush load = { l->plane, l->rows, l->cols, l->image, l->pitch_words, l->bpc, l->w,
                            l->h, l->smooth };
    vqx_vk_dispatch(vk, c, &k->load, &load, groups, l->h, 1);
    const MaskPush mask = { l->image, l->mask, l->w, l->h, l->threshold };
    vqx_vk_dispatch(vk, c, &k->mask, &mask, groups, l->h, 1);
}

void vqx_vk_cambi_scale_record(VqxVk *vk, const VqxVkCambiKernels *k, const VqxVkCommands *c,
                               VkDeviceAddress image, VkDeviceAddress mask, uint32_t in_w,
                               uint32_t in_h, int halve, VkDeviceAddress out_image,
                               VkDeviceAddress out_mask)
{
    const uint32_t step = halve ? 2 : 1;
    const uint32_t w = halve ? (in_w + 1) >> 1 : in_w, h = halve ? (in_h + 1) >> 1 : in_h;
    const ScalePush push = { image, mask, out_image, out_mask, in_w, step, w, h };
    vqx_vk_dispatch(vk, c, &k->scale, &push, (w + 255) / 256, h, 1);
}

/* The contrast's runs of rows, one thread a column of each. */
static void contrast_runs(uint32_t w, uint32_t h, uint32_t *runs, uint32_t *rows)
{
    uint32_t n = (CONTRAST_TARGET + w - 1) / w;
    if (n > (h + 15) / 16) n = (h + 15) / 16;
    if (!n) n = 1;
    *rows = (h + n - 1) / n;
    *runs = (h + *rows - 1) / *rows;
}

size_t vqx_vk_cambi_counts_bytes(uint32_t w, uint32_t h, uint32_t band_size)
{
    uint32_t runs, rows;
    contrast_runs(w, h, &runs, &rows);
    return (size_t)runs * band_size * w * sizeof(uint32_t);
}

void vqx_vk_cambi_contrast_record(VqxVk *vk, const VqxVkCambiKernels *k, const VqxVkCommands *c,
                                  const VqxVkCambiContrast *p)
{
    uint32_t runs, rows;
    contrast_runs(p->w, p->h, &runs, &rows);
    const ContrastPush push = { p->image, p->mask, p->contrast, p->counts, p->steps, p->reciprocal,
                                p->w, p->h, rows, p->pad, p->n_steps, p->band_lo, p->band_size,
                                p->vlt };
    vqx_vk_dispatch(vk, c, &k->contrast, &push, (p->w + CONTRAST_THREADS - 1) / CONTRAST_THREADS,
                    runs, 1);
}
