/* Integer vif's Vulkan kernels (kernels.h): shaders/vif_columns.comp,
 * vif_rows.comp, vif_means.comp and vif_decimate.comp. */
#include <string.h>

#include "feature/vif.h"
#include "vulkan/kernels.h"
#include "vulkan/spirv.h"

/* The shaders' push constants, member for member. */
typedef struct VifColumnsPush {
    uint64_t ref, dis, cols;
    uint32_t pitch_words, width, height, wide, scale, mean_shift, sq_shift;
} VifColumnsPush;

typedef struct VifRowsPush {
    uint64_t cols, rows, log2_table, gain_limit, eps;
    uint32_t width, height, scale;
} VifRowsPush;

typedef struct VifMeansPush {
    uint64_t ref, dis, means;
    uint32_t pitch_words, width, height, out_height, wide, scale, shift;
} VifMeansPush;

typedef struct VifDecimatePush {
    uint64_t means, ref, dis;
    uint32_t width, out_width, out_height, pitch_words, scale;
} VifDecimatePush;

int vqx_vk_vif_kernels(VqxVk *vk, VqxVkVifKernels *k)
{
    memset(k, 0, sizeof(*k)); /* a failure frees the kernels not made as zero handles */
    int ret = vqx_vk_kernel(vk, vqx_spirv_vif_columns, vqx_spirv_vif_columns_bytes,
                            sizeof(VifColumnsPush), &k->columns);
    if (!ret) ret = vqx_vk_kernel(vk, vqx_spirv_vif_rows, vqx_spirv_vif_rows_bytes,
                                  sizeof(VifRowsPush), &k->rows);
    if (!ret) ret = vqx_vk_kernel(vk, vqx_spirv_vif_means, vqx_spirv_vif_means_bytes,
                                  sizeof(VifMeansPush), &k->means);
    if (!ret) ret = vqx_vk_kernel(vk, vqx_spirv_vif_decimate, vqx_spirv_vif_decimate_bytes,
                                  sizeof(VifDecimatePush), &k->decimate);
    if (!ret) ret = vqx_vk_sum64_kernel(vk, &k->sum);
    if (ret) vqx_vk_vif_kernels_free(vk, k);
    return ret;
}

void vqx_vk_vif_kernels_free(VqxVk *vk, VqxVkVifKernels *k)
{
    vqx_vk_kernel_free(vk, &k->columns);
    vqx_vk_kernel_free(vk, &k->rows);
    vqx_vk_kernel_free(vk, &k->means);
    vqx_vk_kernel_free(vk, &k->decimate);
    vqx_vk_kernel_free(vk, &k->sum);
}

/* A double's bits, as soft_double.h carries it. */
static uint64_t double_bits(double d)
{
    uint64_t bits;
    memcpy(&bits, &d, sizeof(bits));
    return bits;
}

void vqx_vk_vif_record(VqxVk *vk, const VqxVkCommands *c, const VqxVkVifKernels *k,
                       const VqxVkVifScale *s)
{
    /* scale 0 reads the samples as they are, later scales 16-bit means */
    const uint32_t wide = s->scale > 0 || s->bpc > 8;
    if (s->sums) {
        const VifShifts sh = vqx_vif_shifts(s->scale, s->bpc);
        const VifColumnsPush columns = { s->ref, s->dis, s->cols, s->pitch_words, s->w, s->h,
                                         wide, s->scale, sh.mean, sh.sq };
        vqx_vk_dispatch(vk, c, &k->columns, &columns, (s->w + 255) / 256, s->h, 1);
        const VifRowsPush rows = { s->cols, s->rows, s->log2_table, double_bits(s->gain_limit),
                                   double_bits(VIF_EPS), s->w, s->h, s->scale };
        vqx_vk_dispatch(vk, c, &k->rows, &rows, s->h, 1, 1);
        for (uint32_t term = 0; term < 4; term++)
            vqx_vk_sum64_record(vk, c, &k->sum, s->rows + 8ull * term * s->h, s->h, s->sums,
                                term);
    }
    if (s->next_ref) {
        const uint32_t next_w = s->w / 2, next_h = s->h / 2;
        /* the next scale's filter; its means round the samples' bpc bits away at scale 0 */
        const VifMeansPush means = { s->ref, s->dis, s->means, s->pitch_words, s->w, s->h,
                                     next_h, wide, s->scale + 1, s->scale ? 16 : s->bpc };
        vqx_vk_dispatch(vk, c, &k->means, &means, (s->w + 255) / 256, next_h, 1);
        const uint32_t pitch = vqx_vk_vif_pitch_words(next_w);
        const VifDecimatePush decimate = { s->means, s->next_ref, s->next_dis, s->w, next_w,
                                           next_h, pitch, s->scale + 1 };
        vqx_vk_dispatch(vk, c, &k->decimate, &decimate, (pitch + 255) / 256, next_h, 1);
    }
}
