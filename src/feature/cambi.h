/* CAMBI per-bit-depth input stage (cambi_tmpl.c). */
#ifndef VQX_FEATURE_CAMBI_H
#define VQX_FEATURE_CAMBI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitdepth.h"

/* Largest sample of a w x h plane. */
BF_DECL(unsigned, vqx_cambi_plane_max, const void *data, ptrdiff_t stride,
        unsigned w, unsigned h);

/* Nearest-neighbour resampling of a `bpc`-bit plane to 10 bits: output
 * sample (y, x) is input sample (rows[y], cols[x]), shifted left (bpc < 10)
 * or rounded right (bpc > 10). `out` has out_w samples per row. */
BF_DECL(void, vqx_cambi_load_10bit, const void *data, ptrdiff_t stride, unsigned bpc,
        const unsigned *rows, const unsigned *cols, unsigned out_w, unsigned out_h,
        uint16_t *out);

#endif
