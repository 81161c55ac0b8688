/*
 * Option parser fuzzer: the input is "feature\0options"; every registered
 * extractor may be named. Accepted option sets are then run on one small
 * frame pair, so values at the edges of their ranges reach the metrics.
 * It works in a temporary folder of its own: options such as cambi's
 * heatmaps_path create files; it is removed at exit.
 */
#define _XOPEN_SOURCE 700 /* nftw */
#include <ftw.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vqx/vqx.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char folder[] = "/tmp/vqx-fuzz-options-XXXXXX";

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st, (void)type, (void)ftw;
    return remove(path);
}

static void remove_folder(void)
{
    nftw(folder, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static bool in_folder;
    if (!in_folder) {
        in_folder = true;
        if (!mkdtemp(folder) || chdir(folder)) {
            perror(folder);
            abort();
        }
        atexit(remove_folder);
    }
    if (size > 4096) return 0;
    char *text = malloc(size + 2);
    if (!text) return 0;
    memcpy(text, data, size);
    text[size] = text[size + 1] = 0;
    const char *name = text;
    const char *options = text + strlen(text) + 1;
    if (options > text + size) options = "";

    VqxContext *ctx = NULL;
    if (!vqx_open(&ctx, NULL) && !vqx_use_feature(ctx, name, options)) {
        VqxPicture ref, dis;
        if (!vqx_picture_alloc(&ref, VQX_PIX_420, 8, 256, 224) &&
            !vqx_picture_alloc(&dis, VQX_PIX_420, 8, 256, 224)) {
            for (unsigned p = 0; p < 3; p++) {
                for (unsigned y = 0; y < ref.h[p]; y++) {
                    memset((uint8_t *)ref.data[p] + y * ref.stride[p], (int)(y * 3), ref.w[p]);
                    memset((uint8_t *)dis.data[p] + y * dis.stride[p], (int)(y * 5), dis.w[p]);
                }
            }
            vqx_send_pictures(ctx, &ref, &dis);
        }
        vqx_picture_free(&ref);
        vqx_picture_free(&dis);
        vqx_flush(ctx);
    }
    vqx_close(&ctx);
    free(text);
    return 0;
}
