/*
 * Integer ADM's DSP table (as VifDSPContext, feature/vif_dsp.h): every
 * per-sample stage as a pure function on rows, filled with the scalar C
 * (adm_dsp.c, adm_tmpl.c: loops over adm_pixel.h's statements, which the
 * CUDA kernels share), which is the definition, and then overridden by the
 * SIMD versions the CPU flags allow (src/x86/). Every entry gives the
 * C's result bit for bit, for every input; tests/checkasm/adm.c compares
 * them. Entries named _16 serve level 0 (16-bit rows, or libvmaf's 16-bit
 * weights and 32-bit products), those named _32 levels 1 to 3 (32-bit rows,
 * 32-bit weights, 64-bit products). Where libvmaf's C wraps around, the C
 * here does the same with explicit modular arithmetic (unsigned sums and
 * products), so that no input is undefined behaviour.
 */
#ifndef VQX_FEATURE_ADM_DSP_H
#define VQX_FEATURE_ADM_DSP_H

#include <stdint.h>

#include "feature/adm_pixel.h"

/* Daubechies 2 taps in Q15 (adm_pixel.h, as the masking weights). */
static const int32_t vqx_adm_db2_lo[4] = ADM_DB2_LO;
static const int32_t vqx_adm_db2_hi[4] = ADM_DB2_HI;

/* Picture row to samples centred on zero: dst[j] = src[j] - 2^(bpc-1), j in
 * [0, w), bytes (8 bits) or 16-bit words (9 to 16 bits). */
#define ADM_ROW_TO_INT(name) void name(const void *src, int16_t *dst, int w, unsigned bpc)

/* DWT, vertical pass: lo[j] and hi[j], j in [0, w), are (sum over k of the
 * low and high taps times src[k][j] + add) >> shift, cast to the row's type.
 * Level 0 sums in 32 bits, levels 1 to 3 in 64. */
#define ADM_DWT_VERTICAL_16(name) \
    void name(const int16_t *const src[4], int w, int32_t add, unsigned shift, int16_t *lo, \
              int16_t *hi)
#define ADM_DWT_VERTICAL_32(name) \
    void name(const int32_t *const src[4], int w, int64_t add, unsigned shift, int32_t *lo, \
              int32_t *hi)
/* DWT, horizontal pass: (w + 1) / 2 outputs from lo and hi, whose entries
 * -1, w and w + 1 are already mirrored; output j is (taps times entries
 * 2j - 1 to 2j + 2 + add) >> shift, cast to 32 bits: a and v from lo (low
 * and high taps), h and d from hi. */
#define ADM_DWT_HORIZONTAL_16(name) \
    void name(const int16_t *lo, const int16_t *hi, int w, int32_t add, unsigned shift, \
              int32_t *a, int32_t *h, int32_t *v, int32_t *d)
#define ADM_DWT_HORIZONTAL_32(name) \
    void name(const int32_t *lo, const int32_t *hi, int w, int64_t add, unsigned shift, \
              int32_t *a, int32_t *h, int32_t *v, int32_t *d)

/* Decoupling of w positions of the h, v, d bands: o (reference) and t
 * (distorted) to the restored part r and the additive part a = t - r
 * (rows apart from o and t). The gain k = clamp(t / o, 0, 1) in Q15 comes
 * from recip[i] = 2^30 / i, i in [1, 32768] (recip[0] = 0), after |o| is
 * rounded to its top 15 bits; r = k o, or, where (oh, ov) and (th, tv) are
 * within 1 degree (cos_1deg_sq: the float cos^2(1 deg)) and k > 0,
 * k o * gain_limit (1 to 100) clamped to t (libvmaf adm_decouple). */
#define ADM_DECOUPLE(name) \
    void name(const int32_t *const o[3], const int32_t *const t[3], int w, \
              const int32_t *recip, float cos_1deg_sq, double gain_limit, int32_t *const r[3], \
              int32_t *const a[3])

/* Masking terms of w positions: per position, the sum over the h, v, d
 * bands of what the band's |q x| contributes to a neighbour's threshold
 * (1/30, to sum) and to its own (1/15, to centre), in 32-bit modular
 * arithmetic; q[b] is the band's CSF weight. */
#define ADM_MASK_TERMS_16(name) \
    void name(const int32_t *const x[3], int w, const uint32_t q[3], uint32_t *sum, \
              uint32_t *centre)
#define ADM_MASK_TERMS_32(name) ADM_MASK_TERMS_16(name)

/* Masking threshold of w positions: the 3x3 sum of the neighbour terms of
 * the rows above, at and below (sum[0..2], whose entries -1 and w are
 * already mirrored) less the centre's neighbour term plus its centre term
 * (centre), modulo 2^32. */
#define ADM_MASK_THRESHOLD(name) \
    void name(const uint32_t *const sum[3], const uint32_t *centre, int w, uint32_t *thr)

/* Masked cubes of one band row: the sum over w positions of
 * max(|q x| - (thr << thr_shift), 0)^3, in libvmaf's fixed point: the
 * square rounded by sq_shift and cut to 32 bits (where libvmaf's wraps),
 * each cube rounded by cube_shift; the sum modulo 2^64. Level 0 weighs x by
 * q modulo 2^32, levels 1 to 3 by (q x + 2^27) >> 28. */
#define ADM_MASKED_CUBES_16(name) \
    int64_t name(const int32_t *x, const uint32_t *thr, int w, uint32_t q, unsigned thr_shift, \
                 unsigned sq_shift, unsigned cube_shift)
#define ADM_MASKED_CUBES_32(name) ADM_MASKED_CUBES_16(name)

/* Cubes of the reference of one band row, summed modulo 2^64: level 0 the
 * exact |x|^3 of the low 16 bits of |x|; levels 1 to 3 the square rounded
 * by sq_shift (libvmaf adds 2^sq_shift, not half of it), times |x|, rounded
 * by cube_shift. */
#define ADM_REFERENCE_CUBES_16(name) uint64_t name(const int32_t *x, int w)
#define ADM_REFERENCE_CUBES_32(name) \
    uint64_t name(const int32_t *x, int w, unsigned sq_shift, unsigned cube_shift)

typedef ADM_ROW_TO_INT((*AdmRowToIntFn));
typedef ADM_DWT_VERTICAL_16((*AdmDwtVertical16Fn));
typedef ADM_DWT_VERTICAL_32((*AdmDwtVertical32Fn));
typedef ADM_DWT_HORIZONTAL_16((*AdmDwtHorizontal16Fn));
typedef ADM_DWT_HORIZONTAL_32((*AdmDwtHorizontal32Fn));
typedef ADM_DECOUPLE((*AdmDecoupleFn));
typedef ADM_MASK_TERMS_16((*AdmMaskTermsFn));
typedef ADM_MASK_THRESHOLD((*AdmMaskThresholdFn));
typedef ADM_MASKED_CUBES_16((*AdmMaskedCubesFn));
typedef ADM_REFERENCE_CUBES_16((*AdmReferenceCubes16Fn));
typedef ADM_REFERENCE_CUBES_32((*AdmReferenceCubes32Fn));

typedef struct AdmDSPContext {
    AdmRowToIntFn row_to_int_8;             /* 8-bit pictures */
    AdmRowToIntFn row_to_int_16;            /* 9 to 16 bits */
    AdmDwtVertical16Fn dwt_vertical_16;     /* level 0 */
    AdmDwtHorizontal16Fn dwt_horizontal_16;
    AdmDwtVertical32Fn dwt_vertical_32;     /* levels 1 to 3 */
    AdmDwtHorizontal32Fn dwt_horizontal_32;
    AdmDecoupleFn decouple;
    AdmMaskTermsFn mask_terms_16;
    AdmMaskTermsFn mask_terms_32;
    AdmMaskThresholdFn mask_threshold;
    AdmMaskedCubesFn masked_cubes_16;
    AdmMaskedCubesFn masked_cubes_32;
    AdmReferenceCubes16Fn reference_cubes_16;
    AdmReferenceCubes32Fn reference_cubes_32;
} AdmDSPContext;

/* The table with the SIMD entries that `cpu_flags` (cpu.h, already masked)
 * allow; 0: the scalar C alone. */
void vqx_adm_dsp_init(AdmDSPContext *c, unsigned cpu_flags);

ADM_ROW_TO_INT(vqx_adm_row_to_int_8bpc);
ADM_ROW_TO_INT(vqx_adm_row_to_int_16bpc);
ADM_DWT_VERTICAL_16(vqx_adm_dwt_vertical_16_c);
ADM_DWT_VERTICAL_32(vqx_adm_dwt_vertical_32_c);
ADM_DWT_HORIZONTAL_16(vqx_adm_dwt_horizontal_16_c);
ADM_DWT_HORIZONTAL_32(vqx_adm_dwt_horizontal_32_c);
ADM_DECOUPLE(vqx_adm_decouple_c);
ADM_MASK_TERMS_16(vqx_adm_mask_terms_16_c);
ADM_MASK_TERMS_32(vqx_adm_mask_terms_32_c);
ADM_MASK_THRESHOLD(vqx_adm_mask_threshold_c);
ADM_MASKED_CUBES_16(vqx_adm_masked_cubes_16_c);
ADM_MASKED_CUBES_32(vqx_adm_masked_cubes_32_c);
ADM_REFERENCE_CUBES_16(vqx_adm_reference_cubes_16_c);
ADM_REFERENCE_CUBES_32(vqx_adm_reference_cubes_32_c);

#endif
