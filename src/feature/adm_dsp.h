/*
 * Integer ADM's DSP table (as VifDSPContext, feature/vif_dsp.h): the DWT's
 * vertical and horizontal passes as pure functions on rows, filled with the
 * scalar C (adm_dsp.c) and then overridden by the SIMD versions the CPU
 * flags allow (src/x86/). Every entry gives the C's result bit for bit, for
 * every input; tests/checkasm/adm.c compares them.
 */
#ifndef VQX_FEATURE_ADM_DSP_H
#define VQX_FEATURE_ADM_DSP_H

#include <stdint.h>

/* Daubechies 2 taps in Q15, from libvmaf integer_adm.h (Netflix, BSD+Patent). */
static const int32_t vqx_adm_db2_lo[4] = { 15826, 27411, 7345, -4240 };
static const int32_t vqx_adm_db2_hi[4] = { -4240, -7345, 27411, -15826 };

/* Vertical pass: lo[j] and hi[j], j in [0, w), are (sum over k of the low
 * and high taps times src[k][j] + add) >> shift, cast to the row's type.
 * Level 0 (16-bit rows of centred samples) sums in 32 bits, levels 1 to 3
 * (32-bit rows) in 64. */
#define ADM_DWT_VERTICAL_16(name) \
    void name(const int16_t *const src[4], int w, int32_t add, unsigned shift, int16_t *lo, \
              int16_t *hi)
#define ADM_DWT_VERTICAL_32(name) \
    void name(const int32_t *const src[4], int w, int64_t add, unsigned shift, int32_t *lo, \
              int32_t *hi)
/* Horizontal pass: (w + 1) / 2 outputs from lo and hi, whose entries -1, w
 * and w + 1 are already mirrored; output j is (taps times entries 2j - 1 to
 * 2j + 2 + add) >> shift, cast to 32 bits: a and v from lo (low and high
 * taps), h and d from hi. */
#define ADM_DWT_HORIZONTAL_16(name) \
    void name(const int16_t *lo, const int16_t *hi, int w, int32_t add, unsigned shift, \
              int32_t *a, int32_t *h, int32_t *v, int32_t *d)
#define ADM_DWT_HORIZONTAL_32(name) \
    void name(const int32_t *lo, const int32_t *hi, int w, int64_t add, unsigned shift, \
              int32_t *a, int32_t *h, int32_t *v, int32_t *d)

typedef ADM_DWT_VERTICAL_16((*AdmDwtVertical16Fn));
typedef ADM_DWT_VERTICAL_32((*AdmDwtVertical32Fn));
typedef ADM_DWT_HORIZONTAL_16((*AdmDwtHorizontal16Fn));
typedef ADM_DWT_HORIZONTAL_32((*AdmDwtHorizontal32Fn));

typedef struct AdmDSPContext {
    AdmDwtVertical16Fn dwt_vertical_16;     /* level 0 */
    AdmDwtHorizontal16Fn dwt_horizontal_16;
    AdmDwtVertical32Fn dwt_vertical_32;     /* levels 1 to 3 */
    AdmDwtHorizontal32Fn dwt_horizontal_32;
} AdmDSPContext;

/* The table with the SIMD entries that `cpu_flags` (cpu.h, already masked)
 * allow; 0: the scalar C alone. */
void vqx_adm_dsp_init(AdmDSPContext *c, unsigned cpu_flags);

ADM_DWT_VERTICAL_16(vqx_adm_dwt_vertical_16_c);
ADM_DWT_VERTICAL_32(vqx_adm_dwt_vertical_32_c);
ADM_DWT_HORIZONTAL_16(vqx_adm_dwt_horizontal_16_c);
ADM_DWT_HORIZONTAL_32(vqx_adm_dwt_horizontal_32_c);

#endif
