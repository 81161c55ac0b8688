/*
 * The planes of integer adm's Vulkan work buffer: 32-bit values, plane_words
 * each, band rows the level-0 band stride apart (adm.c's layout). Level k
 * reads the approximation bands of parity (k - 1) & 1 and writes those of
 * parity k & 1. Only preprocessor lines: the C (adm_kernels.c) and the
 * shaders include it.
 */
#ifndef VQX_VULKAN_ADM_WORK_H
#define VQX_VULKAN_ADM_WORK_H

/* picture 0 the reference, 1 the distorted; band b 0 h, 1 v, 2 d */
#define ADM_WORK_APPROX(pic, parity) (2 * (pic) + (parity))
#define ADM_WORK_BAND(pic, b) (4 + 3 * (pic) + (b))
#define ADM_WORK_RESTORED(b) (10 + (b))
#define ADM_WORK_ADDITIVE(b) (13 + (b))
/* masking terms: m 0 of the additive part (the numerator's), 1 of the
 * restored part (AIM's) */
#define ADM_WORK_MASK_SUM(m) (16 + 2 * (m))
#define ADM_WORK_MASK_CENTRE(m) (17 + 2 * (m))
#define ADM_WORK_PLANES 20

/* Per level, the row sums before the sum64 kernel: VQX_ADM_TWIN_SUMS runs
 * of the scored rows' rounded sums. */
#define ADM_ROW_SUMS 9

#endif
