/*
 * libFuzzer harness of the video input: arbitrary bytes are opened as a
 * stream (fmemopen) and every frame is read or skipped. Input that is not
 * y4m is read as raw yuv in a small format chosen by its first byte, so
 * that the raw path is covered too. Must never crash, hang or leak.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "io/input.h"

/* Larger frames cannot be complete in a fuzzer input; still read them,
 * but only up to this size, to keep each run fast and small. */
#define MAX_FRAME_SAMPLES (1u << 18)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!size) return 0;
    FILE *f = fmemopen((void *)data, size, "rb");
    if (!f) return 0;

    static const unsigned depths[8] = { 8, 9, 10, 12, 14, 16, 8, 10 };
    const VqxRawFormat raw = {
        .layout = (enum VqxPixelLayout)(data[0] & 3),
        .w = 1 + ((data[0] >> 2) & 3),
        .h = 1 + ((data[0] >> 4) & 1),
        .bpc = depths[data[0] >> 5],
    };
    VqxInput *in;
    char err[256];
    if (vqx_input_open_stream(&in, f, "fuzz", &raw, err, sizeof(err)) < 0) return 0;

    const VqxRawFormat *fmt = vqx_input_format(in);
    if ((uint64_t)fmt->w * fmt->h <= MAX_FRAME_SAMPLES) {
        for (unsigned frame = 0;; frame++) {
            int ret;
            if (frame % 3 == 2) {
                ret = vqx_input_skip(in, 1, err, sizeof(err));
            } else {
                VqxPicture pic = { 0 };
                ret = vqx_input_read(in, &pic, NULL, err, sizeof(err));
                vqx_picture_free(&pic);
            }
            if (ret <= 0) break;
        }
    }
    vqx_input_close(&in);
    return 0;
}
