/*
 * Per-bit-depth compilation, as dav1d does it: a *_tmpl.c file is built once
 * with BITDEPTH=8 (uint8_t samples) and once with BITDEPTH=16 (uint16_t
 * samples, 9 to 16 bits). BF(name) gives the depth-suffixed symbol.
 */
#ifndef VQX_BITDEPTH_H
#define VQX_BITDEPTH_H

#include <stddef.h>
#include <stdint.h>

#if !defined(BITDEPTH)
/* included from a plain file: only the declaration helpers */
#elif BITDEPTH == 8
typedef uint8_t pixel;
#define BF(name) name##_8bpc
#elif BITDEPTH == 16
typedef uint16_t pixel;
#define BF(name) name##_16bpc
#else
#error BITDEPTH must be 8 or 16
#endif

/* Declare both depths of a templated function. */
#define BF_DECL(ret, name, ...) \
    ret name##_8bpc(__VA_ARGS__); \
    ret name##_16bpc(__VA_ARGS__)

/* Row `y` of a plane with a byte stride. */
#define PIXEL_ROW(type, data, stride, y) \
    ((const type *)((const uint8_t *)(data) + (ptrdiff_t)(y) * (stride)))

#endif
