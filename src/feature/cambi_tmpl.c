#include "bitdepth.h"
#include "feature/cambi.h"

void BF(vqx_cambi_load_10bit)(const void *data, ptrdiff_t stride, unsigned bpc,
                              const unsigned *rows, const unsigned *cols,
                              unsigned out_w, unsigned out_h, uint16_t *out)
{
    for (unsigned y = 0; y < out_h; y++) {
        const pixel *in = PIXEL_ROW(pixel, data, stride, rows[y]);
        uint16_t *o = out + (size_t)y * out_w;
        for (unsigned x = 0; x < out_w; x++)
            o[x] = vqx_cambi_to_10bit(in[cols[x]], bpc);
    }
}
