/* Integer adm's Vulkan kernels (kernels.h): shaders/adm_dwt.comp,
 * adm_decouple.comp and adm_rows.comp, then sum64.comp per sum. */
#include <string.h>

#include "device/adm_twin.h"
#include "vulkan/kernels.h"
#include "vulkan/shaders/adm_work.h"
#include "vulkan/spirv.h"

_Static_assert(ADM_ROW_SUMS == VQX_ADM_TWIN_SUMS, "a level's sums");

/* The shaders' push constants, member for member. */
typedef struct AdmDwtPush {
    uint64_t ref, dis, work;
    int64_t v_add, h_add;
    uint32_t v_shift, h_shift, pitch, in_w, in_h, w, stride, plane_words, level, bpc;
} AdmDwtPush;

typedef struct AdmDecouplePush {
    uint64_t work, gain_limit;
    uint32_t cos_1deg_sq, q_weight[3], top, left, width, stride, plane_words, level, skip_aim;
} AdmDecouplePush;

typedef struct AdmRowsPush {
    uint64_t work, rows;
    uint32_t q_weight[3], cube_shift[3], row_shift, ref_cube_shift, ref_row_shift, top, left,
        right, n_rows, w, h, stride, plane_words, level, skip_aim;
} AdmRowsPush;

int vqx_vk_adm_kernels(VqxVk *vk, VqxVkAdmKernels *k)
{
    int ret = vqx_vk_kernel(vk, vqx_spirv_adm_dwt, vqx_spirv_adm_dwt_bytes, sizeof(AdmDwtPush),
                            &k->dwt);
    if (!ret) ret = vqx_vk_kernel(vk, vqx_spirv_adm_decouple, vqx_spirv_adm_decouple_bytes,
                                  sizeof(AdmDecouplePush), &k->decouple);
    if (!ret) ret = vqx_vk_kernel(vk, vqx_spirv_adm_rows, vqx_spirv_adm_rows_bytes,
                                  sizeof(AdmRowsPush), &k->rows);
    if (!ret) ret = vqx_vk_sum64_kernel(vk, &k->sum);
    if (ret) vqx_vk_adm_kernels_free(vk, k);
    return ret;
}

void vqx_vk_adm_kernels_free(VqxVk *vk, VqxVkAdmKernels *k)
{
    vqx_vk_kernel_free(vk, &k->dwt);
    vqx_vk_kernel_free(vk, &k->decouple);
    vqx_vk_kernel_free(vk, &k->rows);
    vqx_vk_kernel_free(vk, &k->sum);
}

/* 32-bit values per plane: level 0's bands */
static uint32_t plane_words(const AdmState *s)
{
    return (uint32_t)s->stride * (uint32_t)s->level[0].h;
}

/* level 0 has the most scored rows */
static uint32_t max_rows(const AdmState *s)
{
    return (uint32_t)(s->level[0].roi.bottom - s->level[0].roi.top);
}

size_t vqx_vk_adm_work_bytes(const AdmState *s)
{
    return sizeof(int32_t) * ADM_WORK_PLANES * plane_words(s);
}

size_t vqx_vk_adm_rows_bytes(const AdmState *s)
{
    return sizeof(uint64_t) * ADM_ROW_SUMS * max_rows(s);
}

static uint32_t float_bits(float x)
{
    uint32_t b;
    memcpy(&b, &x, sizeof(b));
    return b;
}

static uint64_t double_bits(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof(b));
    return b;
}

void vqx_vk_adm_record(VqxVk *vk, const VqxVkCommands *c, const VqxVkAdmKernels *k,
                       const AdmState *s, int level, const VqxVkAdmFrame *f)
{
    const AdmLevel *lv = &s->level[level];
    const AdmDwtRounding rnd = adm_dwt_rounding(level, s->bpc);
    int in_w, in_h;
    vqx_adm_twin_input(s, level, &in_w, &in_h);
    const uint32_t words = plane_words(s), stride = (uint32_t)s->stride;
    const AdmDwtPush dwt = {
        f->ref, f->dis, f->work, rnd.v_add, rnd.h_add, rnd.v_shift, rnd.h_shift,
        level ? stride : f->pitch_words, (uint32_t)in_w, (uint32_t)in_h, (uint32_t)lv->w, stride,
        words, (uint32_t)level, s->bpc,
    };
    vqx_vk_dispatch(vk, c, &k->dwt, &dwt, ((uint32_t)lv->w + 255) / 256, (uint32_t)lv->h, 2);
    if (!vqx_adm_twin_scored(s, level)) return;

    const AdmRegion g = lv->grown, r = lv->roi;
    AdmDecouplePush decouple = {
        f->work, double_bits(s->gain_limit), float_bits(s->cos_1deg_sq), { 0 },
        (uint32_t)g.top, (uint32_t)g.left, (uint32_t)(g.right - g.left), stride, words,
        (uint32_t)level, s->skip_aim,
    };
    const uint32_t n_rows = (uint32_t)(r.bottom - r.top);
    AdmRowsPush rows = {
        f->work, f->rows, { 0 }, { 0 }, lv->row_shift, lv->ref_cube_shift, lv->ref_row_shift,
        (uint32_t)r.top, (uint32_t)r.left, (uint32_t)r.right, n_rows, (uint32_t)lv->w,
        (uint32_t)lv->h, stride, words, (uint32_t)level, s->skip_aim,
    };
    for (int b = 0; b < 3; b++) {
        decouple.q_weight[b] = rows.q_weight[b] = lv->q_weight[b];
        rows.cube_shift[b] = lv->cube_shift[b];
    }
    vqx_vk_dispatch(vk, c, &k->decouple, &decouple, (decouple.width + 255) / 256,
                    (uint32_t)(g.bottom - g.top), 1);
    vqx_vk_dispatch(vk, c, &k->rows, &rows, n_rows, 1, 1);
    for (uint32_t q = 0; q < ADM_ROW_SUMS; q++)
        vqx_vk_sum64_record(vk, c, &k->sum, f->rows + sizeof(uint64_t) * q * n_rows, n_rows,
                            f->total, ADM_ROW_SUMS * (uint32_t)level + q);
}
