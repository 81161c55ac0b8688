/*
 * The float conversion at one vector width: included by
 * float_picture_avx2.c and float_picture_avx512.c, which first define
 *   VECF, LANES           the float vector type and its lanes
 *   VF(op)                the intrinsic _mm<bits>_op_ps (add, mul, ...)
 *   LOAD_8BPC(p)          LANES bytes from p as int32 lanes (zero-extended)
 *   LOAD_16BPC(p)         LANES uint16_t from p, likewise
 *   NAME(f)               f with the ISA's suffix
 * Each sample is converted exactly (below 2^24), then multiplied and added
 * as in the C (no fused multiply-add): LANES samples a step (steps.h). A
 * row narrower than LANES goes to the C.
 */
#ifndef VQX_X86_FLOAT_PICTURE_SIMD_H
#define VQX_X86_FLOAT_PICTURE_SIMD_H

#include <stdint.h>

#include "x86/float_picture.h"
#include "x86/steps.h"

#define CONVERT_ROWS(pixel, load, c_entry)                                                   \
    if (w < LANES) {                                                                         \
        c_entry(dst, dst_stride, src, src_stride, w, h, inv_scale, offset);                  \
        return;                                                                              \
    }                                                                                        \
    const VECF scale = VF(set1)(inv_scale), add = VF(set1)(offset);                          \
    for (unsigned y = 0; y < h; y++) {                                                       \
        const pixel *s = (const pixel *)((const uint8_t *)src + (ptrdiff_t)y * src_stride);  \
        float *d = dst + (ptrdiff_t)y * dst_stride;                                          \
        FOR_EACH_STEP(x, 0, w, VF(storeu)(d + x, VF(add)(VF(mul)(load(s + x), scale), add));); \
    }

FLOAT_CONVERT(NAME(vqx_float_convert_8bpc))
{
    CONVERT_ROWS(uint8_t, LOAD_8BPC, vqx_float_convert_8bpc)
}

FLOAT_CONVERT(NAME(vqx_float_convert_16bpc))
{
    CONVERT_ROWS(uint16_t, LOAD_16BPC, vqx_float_convert_16bpc)
}

#undef CONVERT_ROWS

#endif
