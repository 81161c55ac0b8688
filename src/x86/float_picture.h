/* The float conversion's x86 entries (float_picture_avx2.c,
 * float_picture_avx512.c, each built with its own -m flags) and where they
 * replace the C. */
#ifndef VQX_X86_FLOAT_PICTURE_H
#define VQX_X86_FLOAT_PICTURE_H

#include "cpu.h"
#include "feature/float_picture.h"

FLOAT_CONVERT(vqx_float_convert_8bpc_avx2);
FLOAT_CONVERT(vqx_float_convert_16bpc_avx2);
FLOAT_CONVERT(vqx_float_convert_8bpc_avx512);
FLOAT_CONVERT(vqx_float_convert_16bpc_avx512);

static inline void vqx_float_picture_dsp_init_x86(FloatPictureDSPContext *c, unsigned flags)
{
    if (flags & VQX_CPU_AVX2) {
        c->convert[0] = vqx_float_convert_8bpc_avx2;
        c->convert[1] = vqx_float_convert_16bpc_avx2;
    }
    if (flags & VQX_CPU_AVX512) {
        c->convert[0] = vqx_float_convert_8bpc_avx512;
        c->convert[1] = vqx_float_convert_16bpc_avx512;
    }
}

#endif
