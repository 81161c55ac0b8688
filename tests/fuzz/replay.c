/*
 * Replays a fuzz harness's corpus without libFuzzer: every file of the
 * folders given is passed to LLVMFuzzerTestOneInput once, so that CI (and
 * its sanitizer run) checks every input the fuzzers ever kept.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return -1;
    }
    uint8_t *data = NULL;
    size_t size = 0, cap = 0;
    for (;;) {
        if (size == cap) {
            cap = cap ? 2 * cap : 4096;
            uint8_t *grown = realloc(data, cap);
            if (!grown) {
                free(data);
                fclose(f);
                return -1;
            }
            data = grown;
        }
        const size_t n = fread(data + size, 1, cap - size, f);
        size += n;
        if (n == 0) break;
    }
    const int failed = ferror(f);
    fclose(f);
    if (!failed) LLVMFuzzerTestOneInput(data, size);
    free(data);
    return failed ? -1 : 0;
}

int main(int argc, char **argv)
{
    unsigned replayed = 0, unreadable = 0;
    for (int i = 1; i < argc; i++) {
        DIR *dir = opendir(argv[i]);
        if (!dir) {
            perror(argv[i]);
            return 1;
        }
        for (struct dirent *e; (e = readdir(dir));) {
            if (e->d_name[0] == '.') continue;
            char path[4096];
            snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
            if (replay_file(path)) unreadable++;
            else replayed++;
        }
        closedir(dir);
    }
    printf("%u passed, %u failed\n", replayed, unreadable);
    return unreadable || !replayed ? 1 : 0;
}
