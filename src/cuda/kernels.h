/*
 * Launchers of the CUDA twins' kernels, callable from C. Each enqueues on
 * `stream` (a cudaStream_t) and returns the launch's CUDA status (0: none).
 * Pitches are in samples unless named otherwise. The arithmetic of each
 * kernel is its CPU reference's, in the same integer widths.
 */
#ifndef VQX_CUDA_KERNELS_H
#define VQX_CUDA_KERNELS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- plain copies and fills, recorded into the chain ---- */
int vqx_cuda_copy(void *dst, const void *src, size_t bytes, void *stream);
int vqx_cuda_zero(void *dst, size_t bytes, void *stream);

/* ---- psnr: *sse += sum of squared differences of one plane ---- */
int vqx_cuda_psnr_sse(const void *ref, const void *dis, size_t pitch, unsigned w, unsigned h,
                      unsigned bpc, unsigned long long *sse, void *stream);

/* ---- motion: *sad = vqx_motion_sad(prev, cur); row_sums holds h words ---- */
int vqx_cuda_motion_sad(const void *prev, const void *cur, size_t pitch, unsigned w, unsigned h,
                        unsigned bpc, uint32_t *row_sums, unsigned long long *sad, void *stream);

/* ---- vif ---- */
/* Scale `scale`'s sums (num_log, den_log, num_non_log, den_non_log) of the
 * planes ref/dis (8-bit samples when `bytes1`, else 16-bit) with the
 * vertical rounding shifts given. */
int vqx_cuda_vif_scale(const void *ref, const void *dis, size_t pitch, unsigned w, unsigned h,
                       int bytes1, unsigned scale, unsigned mean_shift, unsigned sq_shift,
                       const uint16_t *log2_table, double gain_limit, long long *sums,
                       void *stream);
/* Next scale (w/2 x h/2 of dst_w x dst_h) low-passed with filter `scale`. */
int vqx_cuda_vif_downsample(const void *ref, const void *dis, size_t pitch, unsigned w,
                            unsigned h, int bytes1, unsigned scale, unsigned shift,
                            uint16_t *dst_ref, uint16_t *dst_dis, unsigned dst_w,
                            unsigned dst_h, void *stream);

/* ---- adm ---- */
typedef struct VqxCudaAdmLevel {
    int level;
    int w, h;                       /* band size */
    int stride;                     /* elements per band row, every level */
    int roi_top, roi_bottom, roi_left, roi_right;
    int grown_top, grown_bottom, grown_left, grown_right;
    uint32_t q_weight[3];
    unsigned cube_shift[3], row_shift;
    unsigned ref_cube_shift, ref_row_shift;
    int skip_aim;
} VqxCudaAdmLevel;

typedef struct VqxCudaAdmBands {
    int32_t *band[3];               /* h, v, d */
} VqxCudaAdmBands;

/* Level 0 of a picture (8- or 16-bit samples) or level > 0 of the previous
 * approximation band `src` (in_w x in_h, stride `stride`). */
int vqx_cuda_adm_dwt(const void *src, size_t pitch, int in_w, int in_h, int level, unsigned bpc,
                     int stride, int32_t *approx, const VqxCudaAdmBands *out, void *stream);
/* Decoupling, masking sums and the level's nine integer sums: ref 3-norm
 * (uint64 h, v, d), masked num (int64 h, v, d), masked aim (int64 h, v, d). */
int vqx_cuda_adm_level(const VqxCudaAdmLevel *lv, const VqxCudaAdmBands *ref,
                       const VqxCudaAdmBands *dis, const VqxCudaAdmBands *restored,
                       const VqxCudaAdmBands *additive, uint32_t *const mask[4],
                       float cos_1deg_sq, double gain_limit, unsigned long long *sums,
                       void *stream);

#ifdef __cplusplus
}
#endif

#endif
