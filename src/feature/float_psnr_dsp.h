/*
 * Float PSNR's DSP table (as MotionDSPContext, feature/motion_dsp.h): a
 * row's squared differences, a pure function on rows of floats, filled
 * with the scalar C (float_psnr_dsp.c) and then overridden by the SIMD
 * versions the CPU flags allow (src/x86/). Every entry gives the C's
 * double bit for bit; tests/checkasm/float_psnr.c compares them.
 */
#ifndef VQX_FEATURE_FLOAT_PSNR_DSP_H
#define VQX_FEATURE_FLOAT_PSNR_DSP_H

/* acc plus, for x in [0, w) in order, the float square of the float
 * ref[x] - dis[x], each added in double (libvmaf's noise). */
#define FLOAT_PSNR_ROW_NOISE(name) \
    double name(const float *ref, const float *dis, int w, double acc)

typedef FLOAT_PSNR_ROW_NOISE((*FloatPsnrRowNoiseFn));

typedef struct FloatPsnrDSPContext {
    FloatPsnrRowNoiseFn row_noise;
} FloatPsnrDSPContext;

/* The table with the SIMD entries that `cpu_flags` (cpu.h, already masked)
 * allow; 0: the scalar C alone. */
void vqx_float_psnr_dsp_init(FloatPsnrDSPContext *c, unsigned cpu_flags);

FLOAT_PSNR_ROW_NOISE(vqx_float_psnr_row_noise_c);

#endif
