/*
 * feature/float_picture: every sample value of every depth converts to the
 * float libvmaf's picture_copy writes (a division by 2^(bpc - 8), then the
 * offset), for whole planes and row ranges, with the scalar C and with the
 * SIMD entries this CPU has; the peak is the largest value.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cpu.h"
#include "feature/float_picture.h"
#include "vqx/vqx.h"

#include "check.h"

static unsigned sample(const VqxPicture *p, unsigned x, unsigned y)
{
    const uint8_t *row = (const uint8_t *)p->data[0] + (ptrdiff_t)y * p->stride[0];
    return p->bpc > 8 ? ((const uint16_t *)row)[x] : row[x];
}

/* libvmaf's expression: 8 bits (float)v + offset, deeper (float)v / scaler + offset. */
static float expected(unsigned v, unsigned bpc, float offset)
{
    if (bpc == 8) return (float)v + offset;
    return (float)v / (float)(1u << (bpc - 8)) + offset;
}

int main(void)
{
    /* 257 x 256 samples (odd width): every value of every depth, 0 to
     * 2^bpc - 1; and a row range that does not start at 0 */
    const unsigned w = 257, h = 256;
    const float offsets[] = { 0.0f, -128.0f };
    float *plane = malloc(sizeof(float) * vqx_float_stride(w) * h);
    for (unsigned bpc = 8; bpc <= 16; bpc++) {
        VqxPicture pic;
        if (vqx_picture_alloc(&pic, VQX_PIX_400, bpc, w, h)) return 1;
        const unsigned max = (1u << bpc) - 1;
        for (unsigned y = 0; y < h; y++) {
            uint8_t *row = (uint8_t *)pic.data[0] + (ptrdiff_t)y * pic.stride[0];
            for (unsigned x = 0; x < w; x++) {
                const unsigned v = (y * w + x) % (max + 1);
                if (bpc > 8) ((uint16_t *)row)[x] = (uint16_t)v;
                else row[x] = (uint8_t)v;
            }
        }

        /* offsets 0 and -128, with the C (o < 2), then with this CPU's SIMD entries */
        for (unsigned o = 0; o < 4; o++) {
            FloatPictureDSPContext dsp;
            vqx_float_picture_dsp_init(&dsp, o < 2 ? 0 : vqx_cpu_flags(0));
            const ptrdiff_t stride = (ptrdiff_t)vqx_float_stride(w);
            vqx_float_plane(&dsp, plane, stride, &pic, 0, offsets[o % 2]);
            unsigned bad = 0;
            for (unsigned y = 0; y < h; y++)
                for (unsigned x = 0; x < w; x++)
                    bad += plane[y * stride + x] !=
                           expected(sample(&pic, x, y), bpc, offsets[o % 2]);
            CHECK(!bad, "%u bits, offset %g: %u samples differ", bpc, (double)offsets[o % 2], bad);

            const unsigned y0 = 37, n = 5;
            vqx_float_rows(&dsp, plane, stride, &pic, 0, y0, n, offsets[o % 2]);
            bad = 0;
            for (unsigned y = 0; y < n; y++)
                for (unsigned x = 0; x < w; x++)
                    bad += plane[y * stride + x] !=
                           expected(sample(&pic, x, y0 + y), bpc, offsets[o % 2]);
            CHECK(!bad, "%u bits, rows %u..%u: %u samples differ", bpc, y0, y0 + n - 1, bad);
        }
        CHECK(vqx_float_peak(bpc) == (double)expected(max, bpc, 0.0f), "%u bits: peak %.17g",
              bpc, vqx_float_peak(bpc));
        vqx_picture_free(&pic);
    }
    free(plane);
    return check_report();
}
