/*
 * The Vulkan kernels of each metric, recorded into a command buffer
 * (vk.h). Buffers are device addresses; planes are rows of 32-bit words
 * (shaders/samples.glsl), pitch_words apart.
 */
#ifndef VQX_VULKAN_KERNELS_H
#define VQX_VULKAN_KERNELS_H

#include "feature/adm_fixed.h"
#include "vulkan/vk.h"

/* ---- total[index] = the sum of n 64-bit integers at terms (exact) ---- */
int vqx_vk_sum64_kernel(VqxVk *vk, VqxVkKernel *k);
void vqx_vk_sum64_record(VqxVk *vk, const VqxVkCommands *c, const VqxVkKernel *k,
                         VkDeviceAddress terms, uint32_t n, VkDeviceAddress total, uint32_t index);

/* ---- dst = src, n_words 32-bit words ---- */
int vqx_vk_copy_kernel(VqxVk *vk, VqxVkKernel *k);
void vqx_vk_copy_record(VqxVk *vk, const VqxVkCommands *c, const VqxVkKernel *k,
                        VkDeviceAddress src, VkDeviceAddress dst, uint32_t n_words);

/* ---- psnr: rows[y] receives row y's sum of squared differences (the
 * CPU's PsnrDSPContext row_sse) and total[index] the plane's sum ---- */
typedef struct VqxVkPsnrKernels {
    VqxVkKernel rows, sum;
} VqxVkPsnrKernels;

int vqx_vk_psnr_kernels(VqxVk *vk, VqxVkPsnrKernels *k);
void vqx_vk_psnr_kernels_free(VqxVk *vk, VqxVkPsnrKernels *k);

typedef struct VqxVkPsnrPlane {
    VkDeviceAddress ref, dis;
    uint32_t pitch_words, w, h, bpc;
    VkDeviceAddress rows;            /* h 64-bit sums */
    VkDeviceAddress total;           /* 64-bit sums */
    uint32_t index;
} VqxVkPsnrPlane;

void vqx_vk_psnr_record(VqxVk *vk, const VqxVkCommands *c, const VqxVkPsnrKernels *k,
                        const VqxVkPsnrPlane *plane);

/* ---- motion: the SAD of two luma planes (the CPU's vqx_motion_plane_sad):
 * mid receives the column pass (w x h 32-bit), rows[y] row y's sum modulo
 * 2^32, total[index] the plane's 64-bit sum ---- */
typedef struct VqxVkMotionKernels {
    VqxVkKernel columns, rows, sum;
} VqxVkMotionKernels;

int vqx_vk_motion_kernels(VqxVk *vk, VqxVkMotionKernels *k);
void vqx_vk_motion_kernels_free(VqxVk *vk, VqxVkMotionKernels *k);

typedef struct VqxVkMotionPlane {
    VkDeviceAddress prev, cur;
    uint32_t pitch_words, w, h, bpc;  /* w, h >= 3 */
    VkDeviceAddress mid, rows, total;
    uint32_t index;
} VqxVkMotionPlane;

void vqx_vk_motion_record(VqxVk *vk, const VqxVkCommands *c, const VqxVkMotionKernels *k,
                          const VqxVkMotionPlane *plane);

/* ---- integer adm: one level of adm.c's stages. The work buffer holds
 * shaders/adm_work.h's planes, the rows buffer each scored row's sums ---- */
typedef struct VqxVkAdmKernels {
    VqxVkKernel dwt, decouple, rows, sum;
} VqxVkAdmKernels;

int vqx_vk_adm_kernels(VqxVk *vk, VqxVkAdmKernels *k);
void vqx_vk_adm_kernels_free(VqxVk *vk, VqxVkAdmKernels *k);

/* The two buffers' sizes for the state's geometry (AdmState.stride set). */
size_t vqx_vk_adm_work_bytes(const AdmState *s);
size_t vqx_vk_adm_rows_bytes(const AdmState *s);

typedef struct VqxVkAdmFrame {
    VkDeviceAddress ref, dis;       /* the lumas, level 0's input */
    uint32_t pitch_words;
    VkDeviceAddress work, rows;
    VkDeviceAddress total;          /* device/adm_twin.h's result block */
} VqxVkAdmFrame;

/* Level `level`: the DWT of both pictures (the lumas, or the level
 * before's approximation bands in work) into work; when the level is
 * scored, the decoupling and the masking terms (work), each scored row's
 * nine sums after the row's rounding (rows: sum q of row r at
 * q * n_rows + r) and the level's nine sums into total. */
void vqx_vk_adm_record(VqxVk *vk, const VqxVkCommands *c, const VqxVkAdmKernels *k,
                       const AdmState *s, int level, const VqxVkAdmFrame *f);

/* ---- integer vif: one scale of the pyramid (the CPU's vif.c stages).
 * With sums, cols receives the vertical pass (five w x h word planes: the
 * means mu1, mu2, then the moments ref_sq, dis_sq, ref_dis, as the CPU's
 * VifColumns), rows[k * h + y] row y's k-th term of VifSums, and sums
 * the scale's VifSums. With next_ref, means receives the vertical low-pass
 * of the even rows (two w x next_h word planes, reference first) and
 * next_ref, next_dis the next scale's planes. ---- */
typedef struct VqxVkVifKernels {
    VqxVkKernel columns, rows, means, decimate, sum;
} VqxVkVifKernels;

int vqx_vk_vif_kernels(VqxVk *vk, VqxVkVifKernels *k);
void vqx_vk_vif_kernels_free(VqxVk *vk, VqxVkVifKernels *k);

typedef struct VqxVkVifScale {
    /* scale 0: the samples; later scales: 16-bit means, two to a word */
    VkDeviceAddress ref, dis;
    uint32_t pitch_words, w, h, bpc, scale; /* w, h > 8 >> scale */
    VkDeviceAddress sums;          /* 0: the scale is not scored */
    VkDeviceAddress cols, rows;
    VkDeviceAddress log2_table;    /* VifState's, as it is */
    double gain_limit;
    VkDeviceAddress next_ref, next_dis; /* 0 at the last scale, or none wanted */
    VkDeviceAddress means;
} VqxVkVifScale;

/* The words of a row of the 16-bit planes of scales 1..3. */
static inline uint32_t vqx_vk_vif_pitch_words(uint32_t w)
{
    return (w + 1) / 2;
}

void vqx_vk_vif_record(VqxVk *vk, const VqxVkCommands *c, const VqxVkVifKernels *k,
                       const VqxVkVifScale *scale);

/* ---- cambi: one picture's stages (feature/cambi.h), images and masks one
 * sample per 32-bit word in compact rows; the tables are device addresses:
 * steps holds tvi[CAMBI_MAX_STEPS] then the step weights, reciprocal
 * CambiState.reciprocal ---- */
typedef struct VqxVkCambiKernels {
    VqxVkKernel load, mask, scale, contrast;
} VqxVkCambiKernels;

int vqx_vk_cambi_kernels(VqxVk *vk, VqxVkCambiKernels *k);
void vqx_vk_cambi_kernels_free(VqxVk *vk, VqxVkCambiKernels *k);

/* image = vqx_cambi_load_10bit of plane through the maps rows and cols (w x h), then
 * vqx_cambi_smooth_2x2 when smooth; mask = its vqx_cambi_spatial_mask. */
typedef struct VqxVkCambiLoad {
    VkDeviceAddress plane, rows, cols, image, mask;
    uint32_t pitch_words, bpc, w, h, smooth, threshold;
} VqxVkCambiLoad;

void vqx_vk_cambi_load_record(VqxVk *vk, const VqxVkCambiKernels *k, const VqxVkCommands *c,
                              const VqxVkCambiLoad *l);
/* out_image = the mode filter of image (in_w x in_h), halved first when
 * halve (then the mask too, into out_mask). */
void vqx_vk_cambi_scale_record(VqxVk *vk, const VqxVkCambiKernels *k, const VqxVkCommands *c,
                               VkDeviceAddress image, VkDeviceAddress mask, uint32_t in_w,
                               uint32_t in_h, int halve, VkDeviceAddress out_image,
                               VkDeviceAddress out_mask);

/* contrast = vqx_cambi_contrast_values of image and mask (w x h); counts:
 * vqx_vk_cambi_counts_bytes of scratch. */
typedef struct VqxVkCambiContrast {
    VkDeviceAddress image, mask, contrast, counts, steps, reciprocal;
    uint32_t w, h, pad, n_steps, band_lo, band_size, vlt;
} VqxVkCambiContrast;

size_t vqx_vk_cambi_counts_bytes(uint32_t w, uint32_t h, uint32_t band_size);
void vqx_vk_cambi_contrast_record(VqxVk *vk, const VqxVkCambiKernels *k, const VqxVkCommands *c,
                                  const VqxVkCambiContrast *p);

#endif
