/*
 * Writes the 16-bit R'G'B' frames that the ssimulacra2 extractor scores, as
 * 16-bit binary PPM (P6, maxval 65535), one file per frame: PREFIX_NNNN.ppm.
 * libjxl's ssimulacra2 tool run on these frames (as PNG, see
 * tests/data/ssimulacra2/README.md) gives the reference values.
 *
 * usage: ssimulacra2_rgb INPUT PREFIX MATRIX RANGE [W H LAYOUT BPC]
 *        (LAYOUT 420, 422 or 444; the geometry for raw input only)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feature/ssimulacra2.h"
#include "io/input.h"

static int write_frame(const char *prefix, unsigned n, const VqxPicture *pic,
                       const Ssimu2YuvCoeffs *k, uint16_t *row, unsigned char *bytes)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s_%04u.ppm", prefix, n);
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "%s: %s\n", path, strerror(errno));
        return -errno;
    }
    const unsigned w = pic->w[0];
    fprintf(f, "P6\n%u %u\n65535\n", w, pic->h[0]);
    int ok = 1;
    for (unsigned y = 0; y < pic->h[0] && ok; y++) {
        vqx_ssimu2_rgb16_row(pic, y, k, row);
        for (unsigned i = 0; i < 3 * w; i++) {
            bytes[2 * i] = (unsigned char)(row[i] >> 8);
            bytes[2 * i + 1] = (unsigned char)row[i];
        }
        ok = fwrite(bytes, 6, w, f) == w;
    }
    if (fclose(f) || !ok) {
        fprintf(stderr, "%s: write failed\n", path);
        return -EIO;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 5 && argc != 9) {
        fprintf(stderr, "usage: %s INPUT PREFIX MATRIX RANGE [W H LAYOUT BPC]\n", argv[0]);
        return 2;
    }
    VqxRawFormat raw = { 0 };
    if (argc == 9) {
        raw.w = (unsigned)atoi(argv[5]);
        raw.h = (unsigned)atoi(argv[6]);
        raw.layout = !strcmp(argv[7], "444") ? VQX_PIX_444
                   : !strcmp(argv[7], "422") ? VQX_PIX_422 : VQX_PIX_420;
        raw.bpc = (unsigned)atoi(argv[8]);
    }
    char err[512];
    VqxInput *in = NULL;
    if (vqx_input_open(&in, argv[1], argc == 9 ? &raw : NULL, err, sizeof(err)) < 0) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    const VqxRawFormat *fmt = vqx_input_format(in);
    Ssimu2YuvCoeffs k;
    if (fmt->layout == VQX_PIX_400 ||
        vqx_ssimu2_yuv_coeffs(&k, argv[3], argv[4], fmt->bpc) < 0) {
        fprintf(stderr, "%s: needs 4:2:0, 4:2:2 or 4:4:4 input and a known matrix and range\n",
                argv[0]);
        vqx_input_close(&in);
        return 1;
    }
    uint16_t *row = malloc(sizeof(uint16_t) * 3 * fmt->w);
    unsigned char *bytes = malloc(6 * (size_t)fmt->w);
    VqxPicture pic = { 0 };
    int ret = row && bytes ? 0 : -ENOMEM;
    unsigned n = 0;
    while (!ret) {
        const int read = vqx_input_read(in, &pic, NULL, err, sizeof(err));
        if (read < 0) fprintf(stderr, "%s\n", err);
        if (read <= 0) {
            ret = read;
            break;
        }
        ret = write_frame(argv[2], n++, &pic, &k, row, bytes);
        vqx_picture_free(&pic);
    }
    free(row);
    free(bytes);
    vqx_input_close(&in);
    return ret < 0 ? 1 : 0;
}
