/*
 * Unit tests of the video input (src/io): y4m and raw yuv files written to
 * a temporary directory or fed through pipes, read back and compared sample
 * by sample, and the messages of every kind of bad input; the reader
 * threads (order, several threads on one file, the fall-back to reading
 * in order, stopping while a pipe stalls).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "io/input.h"
#include "io/reader.h"

static char tmp_dir[] = "/tmp/vqx_test_input_XXXXXX";
static bool current_ok;

#define CHECK(cond, ...) do { \
    if (!(cond)) { \
        fprintf(stderr, "%s:%d: check failed: %s\n    ", __FILE__, __LINE__, #cond); \
        fprintf(stderr, __VA_ARGS__); \
        fputc('\n', stderr); \
        current_ok = false; \
    } \
} while (0)

static const char *tmp_path(const char *name)
{
    static char path[4][512];
    static unsigned next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof(path[0]), "%s/%s", tmp_dir, name);
    return p;
}

/* Deterministic samples spread over the whole range of the bit depth,
 * its extremes included. */
static unsigned sample_value(unsigned bpc, unsigned frame, unsigned plane,
                             unsigned x, unsigned y)
{
    const unsigned max = (1u << bpc) - 1;
    if (x == 0 && y == 0) return plane & 1 ? max : 0;
    uint32_t h = x * 2654435761u ^ (y + 1) * 40503u ^ (plane + 1) * 0x9e3779b9u ^ frame * 7919u;
    h ^= h >> 15;
    h *= 0x2c1b3c6du;
    h ^= h >> 12;
    return h & max;
}

static void plane_dims(const VqxRawFormat *fmt, unsigned plane, unsigned *w, unsigned *h)
{
    const bool ss_x = plane && plane < 3 && (fmt->layout == VQX_PIX_420 || fmt->layout == VQX_PIX_422);
    const bool ss_y = plane && plane < 3 && fmt->layout == VQX_PIX_420;
    *w = ss_x ? (fmt->w + 1) / 2 : fmt->w;
    *h = ss_y ? (fmt->h + 1) / 2 : fmt->h;
}

static unsigned file_planes(const VqxRawFormat *fmt, bool alpha)
{
    return fmt->layout == VQX_PIX_400 ? 1 : alpha ? 4 : 3;
}

static size_t frame_size(const VqxRawFormat *fmt, bool alpha)
{
    size_t total = 0;
    for (unsigned p = 0; p < file_planes(fmt, alpha); p++) {
        unsigned w, h;
        plane_dims(fmt, p, &w, &h);
        total += (size_t)w * h * (fmt->bpc > 8 ? 2 : 1);
    }
    return total;
}

/* One frame as a file stores it: planes tightly packed, little-endian
 * words above 8 bits. The alpha plane gets values that no check expects. */
static void write_frame(FILE *f, const VqxRawFormat *fmt, bool alpha, unsigned frame)
{
    for (unsigned p = 0; p < file_planes(fmt, alpha); p++) {
        unsigned w, h;
        plane_dims(fmt, p, &w, &h);
        for (unsigned y = 0; y < h; y++) {
            for (unsigned x = 0; x < w; x++) {
                const unsigned v = p == 3 ? 0xa5u & ((1u << fmt->bpc) - 1)
                                          : sample_value(fmt->bpc, frame, p, x, y);
                fputc((int)(v & 0xff), f);
                if (fmt->bpc > 8) fputc((int)(v >> 8), f);
            }
        }
    }
}

static void write_raw(const char *path, const VqxRawFormat *fmt, unsigned frames)
{
    FILE *f = fopen(path, "wb");
    for (unsigned i = 0; i < frames; i++)
        write_frame(f, fmt, false, i);
    fclose(f);
}

static void write_bytes(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    fwrite(data, 1, len, f);
    fclose(f);
}

/* A y4m stream with header parameters `params`: every odd frame from
 * `plain_until` on has a frame header with parameters, the others plain
 * ones. Returns the bytes (free them) and their length. */
static char *y4m_data(const char *params, const VqxRawFormat *fmt, bool alpha,
                      unsigned frames, unsigned plain_until, size_t *len)
{
    char *data;
    FILE *f = open_memstream(&data, len);
    fprintf(f, "YUV4MPEG2 %s\n", params);
    for (unsigned i = 0; i < frames; i++) {
        fputs(i >= plain_until && i % 2 ? "FRAME Ip XVQX=1\n" : "FRAME\n", f);
        write_frame(f, fmt, alpha, i);
    }
    fclose(f);
    return data;
}

/* A y4m file (odd frames with header parameters); `frames` frames of
 * which the last loses `cut` bytes. */
static void write_y4m(const char *path, const char *params, const VqxRawFormat *fmt,
                      bool alpha, unsigned frames, size_t cut)
{
    size_t len;
    char *data = y4m_data(params, fmt, alpha, frames, 0, &len);
    write_bytes(path, data, len - cut);
    free(data);
}

static bool picture_matches(const VqxPicture *pic, const VqxRawFormat *fmt, unsigned frame)
{
    if (pic->layout != fmt->layout || pic->bpc != fmt->bpc) return false;
    for (unsigned p = 0; p < file_planes(fmt, false); p++) {
        unsigned w, h;
        plane_dims(fmt, p, &w, &h);
        if (pic->w[p] != w || pic->h[p] != h) return false;
        for (unsigned y = 0; y < h; y++) {
            const uint8_t *row = (const uint8_t *)pic->data[p] + (ptrdiff_t)y * pic->stride[p];
            for (unsigned x = 0; x < w; x++) {
                const unsigned v = fmt->bpc > 8 ? ((const uint16_t *)row)[x] : row[x];
                if (v != sample_value(fmt->bpc, frame, p, x, y)) {
                    fprintf(stderr, "    frame %u plane %u (%u,%u): %u, expected %u\n",
                            frame, p, x, y, v, sample_value(fmt->bpc, frame, p, x, y));
                    return false;
                }
            }
        }
    }
    return true;
}

/* Read every frame and compare; returns the number read, or the negative
 * error of the read that ended the stream. */
static int read_all(VqxInput *in, const VqxRawFormat *fmt, char *err, size_t err_len)
{
    for (unsigned frame = 0;; frame++) {
        VqxPicture pic = { 0 };
        const int ret = vqx_input_read(in, &pic, NULL, err, err_len);
        if (ret <= 0) {
            CHECK(!pic.buf, "no allocation is left after ret %d", ret);
            return ret < 0 ? ret : (int)frame;
        }
        CHECK(picture_matches(&pic, fmt, frame), "frame %u differs", frame);
        vqx_picture_free(&pic);
    }
}

static bool formats_equal(const VqxRawFormat *a, const VqxRawFormat *b)
{
    return a->w == b->w && a->h == b->h && a->bpc == b->bpc && a->layout == b->layout;
}

static void test_y4m_colour_tags(void)
{
    static const struct {
        const char *tag;
        enum VqxPixelLayout layout;
        unsigned bpc;
        bool alpha;
    } tags[] = {
        { NULL, VQX_PIX_420, 8, false },
        { "420", VQX_PIX_420, 8, false },
        { "420jpeg", VQX_PIX_420, 8, false },
        { "420mpeg2", VQX_PIX_420, 8, false },
        { "420paldv", VQX_PIX_420, 8, false },
        { "422", VQX_PIX_422, 8, false },
        { "444", VQX_PIX_444, 8, false },
        { "444alpha", VQX_PIX_444, 8, true },
        { "mono", VQX_PIX_400, 8, false },
        { "420p9", VQX_PIX_420, 9, false },
        { "420p10", VQX_PIX_420, 10, false },
        { "420p12", VQX_PIX_420, 12, false },
        { "420p14", VQX_PIX_420, 14, false },
        { "420p16", VQX_PIX_420, 16, false },
        { "422p10", VQX_PIX_422, 10, false },
        { "422p12", VQX_PIX_422, 12, false },
        { "422p16", VQX_PIX_422, 16, false },
        { "444p10", VQX_PIX_444, 10, false },
        { "444p12", VQX_PIX_444, 12, false },
        { "444p16", VQX_PIX_444, 16, false },
        { "mono10", VQX_PIX_400, 10, false },
        { "mono12", VQX_PIX_400, 12, false },
        { "mono16", VQX_PIX_400, 16, false },
    };
    static const unsigned sizes[][2] = { { 5, 3 }, { 8, 6 }, { 1, 1 }, { 7, 10 } };
    for (size_t t = 0; t < sizeof(tags) / sizeof(tags[0]); t++) {
        for (size_t s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            const VqxRawFormat fmt = { sizes[s][0], sizes[s][1], tags[t].bpc, tags[t].layout };
            char params[128];
            if (tags[t].tag)
                snprintf(params, sizeof(params), "W%u H%u F30000:1001 It A1:1 C%s XYSCSS=X",
                         fmt.w, fmt.h, tags[t].tag);
            else
                snprintf(params, sizeof(params), "W%u H%u", fmt.w, fmt.h);
            const char *path = tmp_path("tags.y4m");
            write_y4m(path, params, &fmt, tags[t].alpha, 3, 0);

            VqxInput *in;
            char err[256] = "";
            int ret = vqx_input_open(&in, path, NULL, err, sizeof(err));
            CHECK(ret == 0, "C%s %ux%u: open: %s", tags[t].tag, fmt.w, fmt.h, err);
            if (ret) continue;
            CHECK(formats_equal(vqx_input_format(in), &fmt), "C%s: format", tags[t].tag);
            ret = read_all(in, &fmt, err, sizeof(err));
            CHECK(ret == 3, "C%s %ux%u: read %d: %s", tags[t].tag, fmt.w, fmt.h, ret, err);
            vqx_input_close(&in);
            CHECK(!in, "close clears the handle");
        }
    }
}

static void test_raw_round_trip(void)
{
    static const enum VqxPixelLayout layouts[] = { VQX_PIX_400, VQX_PIX_420, VQX_PIX_422, VQX_PIX_444 };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    static const unsigned sizes[][2] = { { 5, 3 }, { 3, 5 }, { 1, 1 }, { 16, 9 } };
    for (size_t l = 0; l < 4; l++) {
        for (size_t d = 0; d < 4; d++) {
            for (size_t s = 0; s < 4; s++) {
                const VqxRawFormat fmt = { sizes[s][0], sizes[s][1], depths[d], layouts[l] };
                const char *path = tmp_path("round.yuv");
                write_raw(path, &fmt, 4);
                VqxInput *in;
                char err[256] = "";
                int ret = vqx_input_open(&in, path, &fmt, err, sizeof(err));
                CHECK(ret == 0, "open: %s", err);
                if (ret) continue;
                CHECK(formats_equal(vqx_input_format(in), &fmt), "format");
                ret = read_all(in, &fmt, err, sizeof(err));
                CHECK(ret == 4, "layout %d bpc %u %ux%u: read %d: %s", (int)fmt.layout,
                      fmt.bpc, fmt.w, fmt.h, ret, err);
                vqx_input_close(&in);
            }
        }
    }
}

/* A raw stream that is not a regular file (fmemopen here, a pipe in use):
 * no size check at open, bytes read while probing for y4m are not lost,
 * and a short last frame is reported when it is read. */
static void test_raw_stream(void)
{
    const VqxRawFormat fmt = { 5, 3, 8, VQX_PIX_420 };
    const size_t frame = frame_size(&fmt, false);
    char *data;
    size_t len;
    FILE *mem = open_memstream(&data, &len);
    for (unsigned i = 0; i < 3; i++)
        write_frame(mem, &fmt, false, i);
    fclose(mem);
    memcpy(data, "YUV4MPEG2", 9); /* looks like the magic but is not */

    FILE *f = fmemopen(data, len - 10, "rb");
    VqxInput *in;
    char err[256] = "";
    int ret = vqx_input_open_stream(&in, f, "pipe.yuv", &fmt, err, sizeof(err));
    CHECK(ret == 0, "open: %s", err);
    if (!ret) {
        VqxPicture pic = { 0 };
        ret = vqx_input_read(in, &pic, NULL, err, sizeof(err));
        CHECK(ret == 1, "read: %s", err);
        const uint8_t *row = pic.data[0];
        CHECK(ret == 1 && !memcmp(row, "YUV4M", 5) && !memcmp(row + pic.stride[0], "PEG2", 4),
              "probed bytes come first");
        vqx_picture_free(&pic);
        ret = vqx_input_read(in, &pic, NULL, err, sizeof(err));
        CHECK(ret == 1 && picture_matches(&pic, &fmt, 1), "frame 1: %s", err);
        vqx_picture_free(&pic);
        ret = vqx_input_read(in, &pic, NULL, err, sizeof(err));
        char expected[128];
        snprintf(expected, sizeof(expected), "pipe.yuv: frame 2 is truncated (got %zu of %zu bytes)",
                 frame - 10, frame);
        CHECK(ret == -ENODATA && !strcmp(err, expected), "%d: %s", ret, err);
        vqx_input_close(&in);
    }

    /* Shorter than the magic: 1x1 4:0:0 frames of one byte. */
    const VqxRawFormat tiny = { 1, 1, 8, VQX_PIX_400 };
    f = fmemopen(data, 3, "rb");
    ret = vqx_input_open_stream(&in, f, "tiny", &tiny, err, sizeof(err));
    CHECK(ret == 0, "open: %s", err);
    if (!ret) {
        for (unsigned i = 0; i < 3; i++) {
            VqxPicture pic = { 0 };
            ret = vqx_input_read(in, &pic, NULL, err, sizeof(err));
            CHECK(ret == 1 && ((uint8_t *)pic.data[0])[0] == (uint8_t)data[i], "byte %u", i);
            vqx_picture_free(&pic);
        }
        VqxPicture pic = { 0 };
        CHECK(vqx_input_read(in, &pic, NULL, err, sizeof(err)) == 0, "end");
        vqx_input_close(&in);
    }
    free(data);
}

/* A raw file that is not a whole number of frames: the complete frames
 * are read, then the last one is reported, as a truncated y4m frame is. */
static void test_raw_partial_frame(void)
{
    const VqxRawFormat fmt = { 5, 3, 8, VQX_PIX_420 }; /* 15 + 2 * 6 = 27 bytes */
    const char *path = tmp_path("odd.yuv");
    write_raw(path, &fmt, 3);
    if (truncate(path, 60) < 0) perror("truncate");
    VqxInput *in;
    char err[256] = "", expected[512];
    int ret = vqx_input_open(&in, path, &fmt, err, sizeof(err));
    CHECK(ret == 0, "open: %s", err);
    if (!ret) {
        CHECK(vqx_input_frames_left(in) == 2, "2 complete frames: %llu",
              (unsigned long long)vqx_input_frames_left(in));
        ret = read_all(in, &fmt, err, sizeof(err));
        snprintf(expected, sizeof(expected), "%s: frame 2 is truncated (got 6 of 27 bytes)", path);
        CHECK(ret == -ENODATA && !strcmp(err, expected), "%d: %s", ret, err);
        vqx_input_close(&in);
    }

    /* Luma only: a frame is complete only with its chroma planes, read or not. */
    const VqxRawFormat hbd = { 4, 2, 10, VQX_PIX_422 }; /* (8 + 2 * 4) * 2 = 32 bytes */
    write_raw(path, &hbd, 2);
    if (truncate(path, 48) < 0) perror("truncate");
    ret = vqx_input_open(&in, path, &hbd, err, sizeof(err));
    CHECK(ret == 0, "open: %s", err);
    if (!ret) {
        vqx_input_set_planes(in, 1);
        VqxPicture pic = { 0 };
        CHECK(vqx_input_read(in, &pic, NULL, err, sizeof(err)) == 1, "frame 0: %s", err);
        ret = vqx_input_read(in, &pic, NULL, err, sizeof(err));
        CHECK(ret == -ENODATA && !pic.buf && strstr(err, "frame 1 is truncated (got 16 of 32 bytes)"),
              "%d: %s", ret, err);
        vqx_input_close(&in);
    }

    /* Empty: zero frames, no error. */
    write_bytes(path, "", 0);
    ret = vqx_input_open(&in, path, &fmt, err, sizeof(err));
    CHECK(ret == 0, "open empty: %s", err);
    if (!ret) {
        VqxPicture pic = { 0 };
        CHECK(vqx_input_read(in, &pic, NULL, err, sizeof(err)) == 0, "empty reads nothing");
        vqx_input_close(&in);
    }
}

static void test_raw_format_needed(void)
{
    const char *path = tmp_path("noformat.yuv");
    write_bytes(path, "0123456789abcdef", 16);
    VqxInput *in;
    char err[256] = "";
    int ret = vqx_input_open(&in, path, NULL, err, sizeof(err));
    CHECK(ret == -EINVAL && strstr(err, path) && strstr(err, "-w, -h, -p and -b"),
          "%d: %s", ret, err);

    static const VqxRawFormat bad[] = {
        { 0, 4, 8, VQX_PIX_420 }, { 4, 0, 8, VQX_PIX_420 }, { 65537, 4, 8, VQX_PIX_420 },
        { 4, 4, 7, VQX_PIX_420 }, { 4, 4, 17, VQX_PIX_420 }, { 4, 4, 8, (enum VqxPixelLayout)7 },
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        err[0] = 0;
        ret = vqx_input_open(&in, path, &bad[i], err, sizeof(err));
        CHECK(ret == -EINVAL && !in && strstr(err, path) && (strstr(err, "out of range") ||
              strstr(err, "unknown")), "bad format %zu: %d: %s", i, ret, err);
    }
}

static void test_missing_file(void)
{
    const char *path = tmp_path("does-not-exist.y4m");
    VqxInput *in = (VqxInput *)&in;
    char err[256] = "", expected[512];
    int ret = vqx_input_open(&in, path, NULL, err, sizeof(err));
    snprintf(expected, sizeof(expected), "%s: %s", path, strerror(ENOENT));
    CHECK(ret == -ENOENT && !in && !strcmp(err, expected), "%d: %s", ret, err);

    ret = vqx_input_open(&in, tmp_dir, NULL, err, sizeof(err));
    CHECK(ret == -EISDIR && !in && strstr(err, tmp_dir), "%d: %s", ret, err);
}

static void test_truncated(void)
{
    const VqxRawFormat fmt = { 5, 3, 10, VQX_PIX_420 };
    const size_t frame = frame_size(&fmt, false);
    char err[256] = "", expected[512];
    VqxInput *in;

    const char *path = tmp_path("trunc.y4m");
    write_y4m(path, "W5 H3 C420p10", &fmt, false, 12, 7);
    int ret = vqx_input_open(&in, path, NULL, err, sizeof(err));
    CHECK(ret == 0, "open: %s", err);
    if (!ret) {
        ret = read_all(in, &fmt, err, sizeof(err));
        snprintf(expected, sizeof(expected), "%s: frame 11 is truncated (got %zu of %zu bytes)",
                 path, frame - 7, frame);
        CHECK(ret == -ENODATA && !strcmp(err, expected), "%d: %s", ret, err);
        vqx_input_close(&in);
    }

    /* Only the frame header of the last frame. */
    write_y4m(path, "W5 H3 C420p10", &fmt, false, 2, frame);
    vqx_input_open(&in, path, NULL, err, sizeof(err));
    ret = read_all(in, &fmt, err, sizeof(err));
    CHECK(ret == -ENODATA && strstr(err, "frame 1 is truncated (got 0 of"), "%d: %s", ret, err);
    vqx_input_close(&in);

    /* Cut inside the frame header. */
    write_y4m(path, "W5 H3 C420p10", &fmt, false, 2, frame + 3);
    vqx_input_open(&in, path, NULL, err, sizeof(err));
    ret = read_all(in, &fmt, err, sizeof(err));
    CHECK(ret == -ENODATA && strstr(err, "frame 1: frame header is truncated"), "%d: %s", ret, err);
    vqx_input_close(&in);

    /* Cut inside the alpha plane, which counts in the frame size. */
    const VqxRawFormat fmt444 = { 5, 3, 8, VQX_PIX_444 };
    write_y4m(path, "W5 H3 C444alpha", &fmt444, true, 2, 4);
    vqx_input_open(&in, path, NULL, err, sizeof(err));
    ret = read_all(in, &fmt444, err, sizeof(err));
    CHECK(ret == -ENODATA && strstr(err, "frame 1 is truncated (got 56 of 60 bytes)"),
          "%d: %s", ret, err);
    vqx_input_close(&in);

    /* Raw through a stream (no size check at open). */
    char *data;
    size_t len;
    FILE *mem = open_memstream(&data, &len);
    for (unsigned i = 0; i < 3; i++)
        write_frame(mem, &fmt, false, i);
    fclose(mem);
    FILE *f = fmemopen(data, len - 1, "rb");
    ret = vqx_input_open_stream(&in, f, "raw-pipe", &fmt, err, sizeof(err));
    CHECK(ret == 0, "open: %s", err);
    if (!ret) {
        ret = read_all(in, &fmt, err, sizeof(err));
        snprintf(expected, sizeof(expected), "raw-pipe: frame 2 is truncated (got %zu of %zu bytes)",
                 frame - 1, frame);
        CHECK(ret == -ENODATA && !strcmp(err, expected), "%d: %s", ret, err);
        vqx_input_close(&in);
    }
    free(data);
}

static void test_malformed_headers(void)
{
    static const struct {
        const char *header;
        const char *message;
    } cases[] = {
        { "YUV4MPEG2 H4 C420\n", "header has no width (W tag)" },
        { "YUV4MPEG2 W4\n", "header has no height (H tag)" },
        { "YUV4MPEG2 \n", "header has no width" },
        { "YUV4MPEG2 W0 H4\n", "width 0 is out of range (1 to 65536)" },
        { "YUV4MPEG2 W4 H65537\n", "height 65537 is out of range (1 to 65536)" },
        { "YUV4MPEG2 W4 H99999999999999999999\n", "height 99999999999999999999 is out of range" },
        { "YUV4MPEG2 W4x H4\n", "width '4x' is not a number" },
        { "YUV4MPEG2 W-4 H4\n", "width '-4' is not a number" },
        { "YUV4MPEG2 W H4\n", "width '' is not a number" },
        { "YUV4MPEG2 W4 H4 C411\n", "unsupported colour space C411" },
        { "YUV4MPEG2 W4 H4 C420p8\n", "unsupported colour space C420p8" },
        { "YUV4MPEG2 W4 H4 C420p17\n", "unsupported colour space C420p17" },
        { "YUV4MPEG2 W4 H4 Cmono1\n", "unsupported colour space Cmono1" },
        { "YUV4MPEG2 W4 H4 C\n", "unsupported colour space C" },
        { "YUV4MPEG2 W4 H4 C420", "header ends before its newline" },
        { "YUV4MPEG2 W4 H4\tC420\n", "non-text byte 0x09" },
        { "YUV4MPEG2 W4 \x01\x02\x03\n", "non-text byte 0x01" },
    };
    char err[256];
    VqxInput *in;
    const char *path = tmp_path("bad.y4m");
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        write_bytes(path, cases[i].header, strlen(cases[i].header));
        err[0] = 0;
        const int ret = vqx_input_open(&in, path, NULL, err, sizeof(err));
        CHECK(ret == -EINVAL && !in && !strncmp(err, path, strlen(path)) &&
              strstr(err, cases[i].message), "case %zu: %d: '%s'", i, ret, err);
    }

    /* A header line of 5000 bytes, all of them plausible. */
    char long_header[5002];
    memset(long_header, 'X', sizeof(long_header));
    memcpy(long_header, "YUV4MPEG2 W4 H4 ", 16);
    long_header[5000] = '\n';
    write_bytes(path, long_header, 5001);
    const int ret = vqx_input_open(&in, path, NULL, err, sizeof(err));
    CHECK(ret == -EINVAL && strstr(err, "header is longer than 4096 bytes"), "%d: %s", ret, err);

    /* Limits are accepted: a header of exactly 4096 bytes. */
    memset(long_header, 'X', sizeof(long_header));
    memcpy(long_header, "YUV4MPEG2 W4 H4 ", 16);
    long_header[4095] = '\n';
    write_bytes(path, long_header, 4096);
    CHECK(vqx_input_open(&in, path, NULL, err, sizeof(err)) == 0, "%s", err);
    vqx_input_close(&in);
}

static void test_bad_frame_headers(void)
{
    static const struct {
        const char *frame;
        const char *message;
    } cases[] = {
        { "FRAMX\nabcd", "frame 1: no FRAME header where one should start" },
        { "\nFRAME\nabcd", "frame 1: no FRAME header where one should start" },
        { "FRAME\t\nabcd", "frame 1: FRAME is followed by the byte 0x09" },
        { "FRAMEabcd", "frame 1: FRAME is followed by the byte 0x61" },
        { "FRA", "frame 1: frame header is truncated" },
        { "FRAME", "frame 1: frame header is truncated" },
        { "FRAME Ixx", "frame 1: frame header is truncated" },
    };
    const VqxRawFormat fmt = { 2, 2, 8, VQX_PIX_400 };
    const char *path = tmp_path("badframe.y4m");
    char err[256];
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        write_y4m(path, "W2 H2 Cmono", &fmt, false, 1, 0);
        FILE *f = fopen(path, "ab");
        fputs(cases[i].frame, f);
        fclose(f);
        VqxInput *in;
        int ret = vqx_input_open(&in, path, NULL, err, sizeof(err));
        CHECK(ret == 0, "open: %s", err);
        if (ret) continue;
        ret = read_all(in, &fmt, err, sizeof(err));
        CHECK(ret < 0 && !strncmp(err, path, strlen(path)) && strstr(err, cases[i].message),
              "case %zu: %d: %s", i, ret, err);
        vqx_input_close(&in);
    }

    /* A frame header longer than the limit. */
    write_y4m(path, "W2 H2 Cmono", &fmt, false, 1, 0);
    FILE *f = fopen(path, "ab");
    fputs("FRAME ", f);
    for (unsigned i = 0; i < 5000; i++) fputc('X', f);
    fputs("\nabcd", f);
    fclose(f);
    VqxInput *in;
    vqx_input_open(&in, path, NULL, err, sizeof(err));
    const int ret = read_all(in, &fmt, err, sizeof(err));
    CHECK(ret == -EINVAL && strstr(err, "frame 1: frame header is longer than 4096 bytes"),
          "%d: %s", ret, err);
    vqx_input_close(&in);
}

/* Samples above the bit depth's peak are the library's to refuse: they
 * are read as the file has them, with no pass over the samples. */
static void test_out_of_range(void)
{
    const VqxRawFormat fmt = { 4, 4, 12, VQX_PIX_420 };
    const char *path = tmp_path("range.yuv");
    write_raw(path, &fmt, 2);
    FILE *f = fopen(path, "r+b");
    fputc(0x00, f);
    fputc(0x80, f);
    fclose(f);
    VqxInput *in;
    char err[256] = "";
    vqx_input_open(&in, path, &fmt, err, sizeof(err));
    VqxPicture pic = { 0 };
    const int ret = vqx_input_read(in, &pic, NULL, err, sizeof(err));
    CHECK(ret == 1 && ((const uint16_t *)pic.data[0])[0] == 0x8000, "%d: %s", ret, err);
    vqx_picture_free(&pic);
    vqx_input_close(&in);
}

static void test_skip(void)
{
    static const VqxRawFormat formats[] = {
        { 5, 3, 8, VQX_PIX_420 }, { 3, 3, 10, VQX_PIX_444 },
    };
    for (size_t k = 0; k < 2; k++) {
        const VqxRawFormat *fmt = &formats[k];
        for (int y4m = 0; y4m < 2; y4m++) {
            const char *path = tmp_path(y4m ? "skip.y4m" : "skip.yuv");
            if (y4m)
                write_y4m(path, fmt->bpc == 8 ? "W5 H3" : "W3 H3 C444p10", fmt, false, 6, 0);
            else
                write_raw(path, fmt, 6);
            VqxInput *in;
            char err[256] = "";
            int ret = vqx_input_open(&in, path, fmt, err, sizeof(err));
            CHECK(ret == 0, "open: %s", err);
            if (ret) continue;
            VqxPicture pic = { 0 };
            CHECK(vqx_input_skip(in, 0, err, sizeof(err)) == 1, "skip 0");
            CHECK(vqx_input_skip(in, 2, err, sizeof(err)) == 1, "skip 2: %s", err);
            ret = vqx_input_read(in, &pic, NULL, err, sizeof(err));
            CHECK(ret == 1 && picture_matches(&pic, fmt, 2), "frame 2 after skip: %s", err);
            vqx_picture_free(&pic);
            CHECK(vqx_input_skip(in, 1, err, sizeof(err)) == 1, "skip 1: %s", err);
            ret = vqx_input_read(in, &pic, NULL, err, sizeof(err));
            CHECK(ret == 1 && picture_matches(&pic, fmt, 4), "frame 4 after skip: %s", err);
            vqx_picture_free(&pic);
            CHECK(vqx_input_skip(in, 5, err, sizeof(err)) == 0, "skip past the end");
            CHECK(vqx_input_read(in, &pic, NULL, err, sizeof(err)) == 0, "end");
            vqx_input_close(&in);
        }
    }

    /* Skipping over a truncated frame reports it. */
    const VqxRawFormat fmt = { 5, 3, 8, VQX_PIX_420 };
    const char *path = tmp_path("skip-trunc.y4m");
    write_y4m(path, "W5 H3", &fmt, false, 3, 5);
    VqxInput *in;
    char err[256] = "";
    vqx_input_open(&in, path, NULL, err, sizeof(err));
    const int ret = vqx_input_skip(in, 3, err, sizeof(err));
    CHECK(ret == -ENODATA && strstr(err, "frame 2 is truncated (got 22 of 27 bytes)"),
          "%d: %s", ret, err);
    vqx_input_close(&in);
}

static void test_y4m_without_frames(void)
{
    const char *path = tmp_path("empty.y4m");
    write_bytes(path, "YUV4MPEG2 W6 H4\n", 16);
    VqxInput *in;
    char err[256] = "";
    int ret = vqx_input_open(&in, path, NULL, err, sizeof(err));
    CHECK(ret == 0, "open: %s", err);
    if (!ret) {
        VqxPicture pic = { 0 };
        CHECK(vqx_input_read(in, &pic, NULL, err, sizeof(err)) == 0, "no frames");
        CHECK(vqx_input_skip(in, 1, err, sizeof(err)) == 0, "nothing to skip");
        vqx_input_close(&in);
    }
    /* The magic wins over a raw format given by the caller. */
    const VqxRawFormat raw = { 100, 100, 16, VQX_PIX_444 };
    ret = vqx_input_open(&in, path, &raw, err, sizeof(err));
    CHECK(ret == 0 && vqx_input_format(in)->w == 6 && vqx_input_format(in)->bpc == 8, "y4m wins");
    vqx_input_close(&in);
}

/* ---- pipes ---- */

typedef struct Feed {
    int fd;
    const char *data;
    size_t len;
    bool keep_open; /* a writer that stalls: the test closes fd */
    pthread_t thread;
} Feed;

/* Pieces of an odd size: reads end inside samples. */
#define FEED_PIECE 4099

static void *feed_pipe(void *arg)
{
    Feed *f = arg;
    for (size_t at = 0; at < f->len;) {
        const size_t piece = f->len - at < FEED_PIECE ? f->len - at : FEED_PIECE;
        const ssize_t n = write(f->fd, f->data + at, piece);
        if (n <= 0) break; /* the reader is gone */
        at += (size_t)n;
    }
    if (!f->keep_open) close(f->fd);
    return NULL;
}

/* Open `data` as an input read through a pipe that a thread writes. */
static int open_pipe(VqxInput **in, Feed *feed, const char *data, size_t len, bool keep_open,
                     const VqxRawFormat *raw, char *err, size_t err_len)
{
    int fds[2];
    if (pipe(fds) < 0) {
        perror("pipe");
        return -errno;
    }
    *feed = (Feed){ fds[1], data, len, keep_open, 0 };
    pthread_create(&feed->thread, NULL, feed_pipe, feed);
    return vqx_input_open_fd(in, fds[0], "pipe", raw, err, err_len);
}

static void close_pipe(VqxInput **in, Feed *feed)
{
    vqx_input_close(in); /* first: a writer blocked on a full pipe gets EPIPE */
    pthread_join(feed->thread, NULL);
}

static char *raw_data(const VqxRawFormat *fmt, unsigned frames, size_t *len)
{
    char *data;
    FILE *f = open_memstream(&data, len);
    for (unsigned i = 0; i < frames; i++)
        write_frame(f, fmt, false, i);
    fclose(f);
    return data;
}

/* The OR of the high bytes of a frame's 16-bit little-endian words. */
static uint16_t high_bits(const char *frame, size_t len)
{
    uint16_t bits = 0;
    for (size_t i = 1; i < len; i += 2) bits |= (uint16_t)((uint8_t)frame[i] << 8);
    return bits;
}

/* sample_bits: the OR of the samples above their low 8 bits, from a file
 * (in order and at offsets) and from a pipe (reads ending inside samples);
 * frame 1 has a sample above the 10-bit peak in its last plane. */
static void test_sample_bits(void)
{
    const VqxRawFormat fmt = { 600, 400, 10, VQX_PIX_420 };
    size_t len;
    char *data = raw_data(&fmt, 3, &len);
    const size_t frame = frame_size(&fmt, false);
    data[2 * frame - 1] = 0x04;
    const char *path = tmp_path("bits.yuv");
    write_bytes(path, data, len);
    uint16_t want[3];
    for (unsigned i = 0; i < 3; i++) want[i] = high_bits(data + i * frame, frame);
    CHECK(want[0] == 0x300 && want[1] == 0x700, "the test's frames: %#x %#x", want[0], want[1]);
    for (int how = 0; how < 3; how++) {
        VqxInput *in;
        Feed feed;
        char err[256] = "";
        const int ret = how == 2 ? open_pipe(&in, &feed, data, len, false, &fmt, err, sizeof(err))
                                 : vqx_input_open(&in, path, &fmt, err, sizeof(err));
        CHECK(ret == 0, "open: %s", err);
        if (ret) continue;
        for (unsigned i = 0; i < 3; i++) {
            VqxPicture pic = { 0 };
            uint16_t bits = 0xffff;
            const int got = how == 1 ? vqx_input_read_at(in, i, &pic, &bits, err, sizeof(err))
                                     : vqx_input_read(in, &pic, &bits, err, sizeof(err));
            CHECK(got == 1 && bits == want[i], "%s frame %u: %d, bits %#x, want %#x: %s",
                  how == 2 ? "pipe" : how ? "at offsets" : "in order", i, got, bits, want[i], err);
            vqx_picture_free(&pic);
        }
        if (how == 2) close_pipe(&in, &feed);
        else vqx_input_close(&in);
    }
    free(data);

    /* 8-bit samples have no bits above their low 8 */
    const VqxRawFormat fmt8 = { 6, 4, 8, VQX_PIX_420 };
    const char *path8 = tmp_path("bits8.yuv");
    write_raw(path8, &fmt8, 1);
    VqxInput *in;
    char err[256] = "";
    vqx_input_open(&in, path8, &fmt8, err, sizeof(err));
    VqxPicture pic = { 0 };
    uint16_t bits = 0xffff;
    CHECK(vqx_input_read(in, &pic, &bits, err, sizeof(err)) == 1 && bits == 0, "8-bit: %#x", bits);
    vqx_picture_free(&pic);
    vqx_input_close(&in);
}

/* y4m (frame headers with and without parameters, alpha) and raw through a
 * pipe read as from a file, the short last frame reported with its bytes. */
static void test_pipes(void)
{
    static const struct {
        const char *params;
        VqxRawFormat fmt;
        bool alpha;
    } cases[] = {
        { "W5 H3 C420p10", { 5, 3, 10, VQX_PIX_420 }, false },
        { "W7 H2 C444alpha", { 7, 2, 8, VQX_PIX_444 }, true },
        { "W3 H3 Cmono", { 3, 3, 8, VQX_PIX_400 }, false },
        { "W600 H400 C422p12", { 600, 400, 12, VQX_PIX_422 }, false }, /* frames larger than a pipe */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        for (int y4m = 0; y4m < 2; y4m++) {
            size_t len;
            char *data = y4m ? y4m_data(cases[i].params, &cases[i].fmt, cases[i].alpha, 5, 0, &len)
                             : raw_data(&cases[i].fmt, 5, &len);
            if (!y4m && cases[i].alpha) {
                free(data);
                continue;
            }
            for (int cut = 0; cut < 2; cut++) {
                Feed feed;
                VqxInput *in;
                char err[256] = "";
                int ret = open_pipe(&in, &feed, data, len - (size_t)cut * 3, false,
                                    &cases[i].fmt, err, sizeof(err));
                CHECK(ret == 0, "%s: open: %s", cases[i].params, err);
                if (ret) continue;
                CHECK(vqx_input_fixed_stride(in) == 0 && vqx_input_frames_left(in) == UINT64_MAX,
                      "a pipe has no fixed offsets nor a known length");
                ret = read_all(in, &cases[i].fmt, err, sizeof(err));
                const size_t frame = frame_size(&cases[i].fmt, cases[i].alpha);
                char expected[128];
                snprintf(expected, sizeof(expected), "pipe: frame 4 is truncated (got %zu of %zu bytes)",
                         frame - 3, frame);
                CHECK(cut ? ret == -ENODATA && !strcmp(err, expected) : ret == 5,
                      "%s %s cut %d: %d: %s", cases[i].params, y4m ? "y4m" : "raw", cut, ret, err);
                close_pipe(&in, &feed);
            }
            free(data);
        }
    }
}

/* Planes that no feature reads are skipped in the file, and left as they
 * are in the picture: from a file and from a pipe, y4m and raw. */
static void test_skipped_planes(void)
{
    const VqxRawFormat fmt = { 6, 5, 10, VQX_PIX_420 };
    for (int y4m = 0; y4m < 2; y4m++) {
        size_t len;
        char *data = y4m ? y4m_data("W6 H5 C420p10", &fmt, false, 4, 0, &len) : raw_data(&fmt, 4, &len);
        const char *path = tmp_path(y4m ? "luma.y4m" : "luma.yuv");
        write_bytes(path, data, len);
        for (int piped = 0; piped < 2; piped++) {
            Feed feed;
            VqxInput *in;
            char err[256] = "";
            int ret = piped ? open_pipe(&in, &feed, data, len, false, &fmt, err, sizeof(err))
                            : vqx_input_open(&in, path, &fmt, err, sizeof(err));
            CHECK(ret == 0, "open: %s", err);
            if (ret) continue;
            vqx_input_set_planes(in, 1);
            VqxPicture pic;
            vqx_picture_alloc(&pic, fmt.layout, fmt.bpc, fmt.w, fmt.h);
            for (unsigned frame = 0; frame < 4; frame++) {
                for (unsigned p = 1; p < 3; p++)
                    memset(pic.data[p], 0x5a, (size_t)pic.stride[p] * pic.h[p]);
                ret = vqx_input_read(in, &pic, NULL, err, sizeof(err));
                CHECK(ret == 1, "frame %u: %s", frame, err);
                if (ret != 1) break;
                bool luma = true, chroma_kept = true;
                for (unsigned x = 0; x < fmt.w * fmt.h; x++)
                    luma &= ((uint16_t *)pic.data[0])[x] ==
                            sample_value(fmt.bpc, frame, 0, x % fmt.w, x / fmt.w);
                for (unsigned p = 1; p < 3; p++)
                    for (size_t b = 0; b < (size_t)pic.stride[p] * pic.h[p]; b++)
                        chroma_kept &= ((uint8_t *)pic.data[p])[b] == 0x5a;
                CHECK(luma && chroma_kept, "%s %s frame %u: luma read %d, chroma untouched %d",
                      y4m ? "y4m" : "raw", piped ? "pipe" : "file", frame, luma, chroma_kept);
            }
            CHECK(vqx_input_read(in, &pic, NULL, err, sizeof(err)) == 0 && !pic.buf, "end");
            if (piped) close_pipe(&in, &feed);
            else vqx_input_close(&in);
        }
        free(data);
    }
}

/* Skipping on a pipe reads and drops the frames (headers with parameters
 * included); on a file it does not read them. */
static void test_pipe_skip(void)
{
    const VqxRawFormat fmt = { 5, 3, 8, VQX_PIX_420 };
    for (int y4m = 0; y4m < 2; y4m++) {
        size_t len;
        char *data = y4m ? y4m_data("W5 H3", &fmt, false, 6, 0, &len) : raw_data(&fmt, 6, &len);
        Feed feed;
        VqxInput *in;
        char err[256] = "";
        int ret = open_pipe(&in, &feed, data, len, false, &fmt, err, sizeof(err));
        CHECK(ret == 0, "open: %s", err);
        if (!ret) {
            VqxPicture pic = { 0 };
            CHECK(vqx_input_skip(in, 3, err, sizeof(err)) == 1, "skip 3: %s", err);
            ret = vqx_input_read(in, &pic, NULL, err, sizeof(err));
            CHECK(ret == 1 && picture_matches(&pic, &fmt, 3) && vqx_input_next_frame(in) == 4,
                  "%s: frame 3 after the skip: %s", y4m ? "y4m" : "raw", err);
            vqx_picture_free(&pic);
            CHECK(vqx_input_skip(in, 3, err, sizeof(err)) == 0, "a skip past the end");
            close_pipe(&in, &feed);
        }
        free(data);
    }
}

/* An open descriptor is read from its offset (a shell's `< file` after
 * something read the start). */
static void test_descriptor_offset(void)
{
    const VqxRawFormat fmt = { 5, 3, 10, VQX_PIX_444 };
    const char *path = tmp_path("offset.yuv");
    write_raw(path, &fmt, 4);
    const int fd = open(path, O_RDONLY);
    lseek(fd, (off_t)(2 * frame_size(&fmt, false)), SEEK_SET);
    VqxInput *in;
    char err[256] = "";
    int ret = vqx_input_open_fd(&in, fd, "stdin", &fmt, err, sizeof(err));
    CHECK(ret == 0, "open: %s", err);
    if (!ret) {
        CHECK(vqx_input_frames_left(in) == 2, "two frames left");
        VqxPicture pic = { 0 };
        ret = vqx_input_read(in, &pic, NULL, err, sizeof(err));
        CHECK(ret == 1 && picture_matches(&pic, &fmt, 2), "the file's frame 2 first: %s", err);
        vqx_picture_free(&pic);
        vqx_input_close(&in);
    }
}

/* Frames at computed offsets, in any order; a header with parameters says
 * so, and reading in order goes on from it. */
static void test_fixed_offsets(void)
{
    const VqxRawFormat fmt = { 5, 3, 10, VQX_PIX_420 };
    const size_t frame = frame_size(&fmt, false);
    const char *raw_path = tmp_path("fixed.yuv"), *y4m_path = tmp_path("fixed.y4m");
    write_raw(raw_path, &fmt, 6);
    size_t len;
    char *data = y4m_data("W5 H3 C420p10", &fmt, false, 6, 3, &len); /* frame 3 has parameters */
    write_bytes(y4m_path, data, len);
    free(data);
    static const unsigned order[] = { 5, 0, 3, 1, 4, 2 };
    char err[256] = "";
    VqxInput *in;

    vqx_input_open(&in, raw_path, &fmt, err, sizeof(err));
    CHECK(vqx_input_fixed_stride(in) == frame && vqx_input_frames_left(in) == 6, "raw: fixed");
    for (unsigned k = 0; k < 6; k++) {
        VqxPicture pic = { 0 };
        const int ret = vqx_input_read_at(in, order[k], &pic, NULL, err, sizeof(err));
        CHECK(ret == 1 && picture_matches(&pic, &fmt, order[k]), "raw frame %u: %s", order[k], err);
        vqx_picture_free(&pic);
    }
    VqxPicture pic = { 0 };
    CHECK(vqx_input_read_at(in, 6, &pic, NULL, err, sizeof(err)) == 0, "raw: past the end");
    CHECK(vqx_input_next_frame(in) == 0, "read_at does not move the input");
    vqx_input_close(&in);

    vqx_input_open(&in, y4m_path, NULL, err, sizeof(err));
    CHECK(vqx_input_fixed_stride(in) == frame + 6, "y4m: fixed while the next header is plain");
    for (unsigned f = 0; f < 3; f++) {
        const int ret = vqx_input_read_at(in, f, &pic, NULL, err, sizeof(err));
        CHECK(ret == 1 && picture_matches(&pic, &fmt, f), "y4m frame %u: %s", f, err);
    }
    CHECK(vqx_input_read_at(in, 3, &pic, NULL, err, sizeof(err)) == VQX_INPUT_NOT_FIXED && !pic.buf,
          "frame 3's header has parameters");
    vqx_input_seek(in, 3);
    CHECK(vqx_input_fixed_stride(in) == 0, "not fixed at a header with parameters");
    for (unsigned f = 3; f < 6; f++) {
        const int ret = vqx_input_read(in, &pic, NULL, err, sizeof(err));
        CHECK(ret == 1 && picture_matches(&pic, &fmt, f), "y4m frame %u in order: %s", f, err);
    }
    CHECK(vqx_input_read(in, &pic, NULL, err, sizeof(err)) == 0, "y4m: end");
    vqx_input_close(&in);
}

/* Every frame of a reader, in order, compared; returns the final status. */
static int reader_all(VqxReader *r, const VqxRawFormat *fmt, unsigned first, unsigned *n,
                      char *err, size_t err_len)
{
    for (*n = 0;; ++*n) {
        VqxPicture pic;
        const int ret = vqx_reader_next(r, &pic, err, err_len);
        if (ret != 1) {
            CHECK(!pic.buf, "nothing handed out with %d", ret);
            VqxPicture again;
            CHECK(vqx_reader_next(r, &again, err, err_len) == ret, "the end stays");
            return ret;
        }
        CHECK(picture_matches(&pic, fmt, first + *n), "reader frame %u differs", first + *n);
        vqx_picture_free(&pic);
    }
}

static void test_reader(void)
{
    VqxContext *ctx;
    VqxSettings vs;
    vqx_default_settings(&vs);
    if (vqx_open(&ctx, &vs)) {
        CHECK(false, "vqx_open");
        return;
    }
    const VqxRawFormat fmt = { 5, 3, 10, VQX_PIX_420 };
    const size_t frame = frame_size(&fmt, false);
    size_t len;
    char *data = y4m_data("W5 H3 C420p10", &fmt, false, 40, 21, &len); /* parameters on 21, 23... */
    const char *y4m_path = tmp_path("reader.y4m"), *raw_path = tmp_path("reader.yuv");
    write_bytes(y4m_path, data, len);
    write_raw(raw_path, &fmt, 40);
    if (truncate(raw_path, (off_t)(40 * frame - 5)) < 0) perror("truncate");

    static const struct {
        bool y4m;
        unsigned skip, threads, limit, want_threads, frames;
        int end;
    } cases[] = {
        { true, 0, 3, 0, 3, 40, 0 },    /* three threads, then in order from frame 21 */
        { true, 0, 1, 0, 1, 40, 0 },
        { true, 2, 4, 10, 4, 10, 0 },   /* frames 2 to 11 */
        { true, 21, 3, 0, 1, 19, 0 },   /* from a header with parameters: in order */
        { false, 0, 3, 0, 3, 39, -ENODATA },
        { false, 5, 2, 0, 2, 34, -ENODATA },
        { false, 0, 0, 0, 1, 39, -ENODATA }, /* small frames: one thread */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        VqxInput *in;
        char err[256] = "";
        vqx_input_open(&in, cases[i].y4m ? y4m_path : raw_path, &fmt, err, sizeof(err));
        CHECK(vqx_input_skip(in, cases[i].skip, err, sizeof(err)) == 1, "skip: %s", err);
        VqxReader *r;
        const VqxReaderSettings rs = { ctx, cases[i].limit, cases[i].threads };
        int ret = vqx_reader_start(&r, in, &rs, err, sizeof(err));
        CHECK(ret == 0, "start: %s", err);
        if (!ret) {
            CHECK(vqx_reader_threads(r) == cases[i].want_threads, "case %zu: %u threads", i,
                  vqx_reader_threads(r));
            unsigned n;
            ret = reader_all(r, &fmt, cases[i].skip, &n, err, sizeof(err));
            CHECK(ret == cases[i].end && n == cases[i].frames, "case %zu: %u frames, then %d: %s",
                  i, n, ret, err);
            char expected[128];
            snprintf(expected, sizeof(expected), "frame 39 is truncated (got %zu of %zu bytes)",
                     frame - 5, frame);
            if (ret == -ENODATA) CHECK(strstr(err, expected), "%s", err);
            vqx_reader_stop(&r);
            CHECK(!r, "stop clears the handle");
        }
        vqx_input_close(&in);
    }

    /* A pipe: one thread, whatever is asked. */
    Feed feed;
    VqxInput *in;
    char err[256] = "";
    open_pipe(&in, &feed, data, len, false, NULL, err, sizeof(err));
    VqxReader *r;
    const VqxReaderSettings rs = { ctx, 0, 4 };
    if (!vqx_reader_start(&r, in, &rs, err, sizeof(err))) {
        unsigned n;
        const int ret = reader_all(r, &fmt, 0, &n, err, sizeof(err));
        CHECK(vqx_reader_threads(r) == 1 && ret == 0 && n == 40, "pipe: %u threads, %u frames, %d",
              vqx_reader_threads(r), n, ret);
        vqx_reader_stop(&r);
    }
    close_pipe(&in, &feed);

    /* A writer that stalls inside a frame: stopping does not wait for it. */
    open_pipe(&in, &feed, data, 40 + frame / 2, true, NULL, err, sizeof(err));
    if (!vqx_reader_start(&r, in, &rs, err, sizeof(err))) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        nanosleep(&(struct timespec){ 0, 50000000 }, NULL);
        vqx_reader_stop(&r);
        clock_gettime(CLOCK_MONOTONIC, &t1);
        const double waited = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) * 1e-9;
        CHECK(waited < 1.0, "stopped %.3f s after the start", waited);
    }
    pthread_join(feed.thread, NULL);
    close(feed.fd);
    vqx_input_close(&in);
    free(data);
    vqx_close(&ctx);
}

static void remove_tmp_dir(void)
{
    static const char *const names[] = {
        "tags.y4m", "round.yuv", "odd.yuv", "noformat.yuv", "trunc.y4m", "bad.y4m",
        "badframe.y4m", "range.y4m", "range.yuv", "skip.y4m", "skip.yuv",
        "skip-trunc.y4m", "empty.y4m", "luma.y4m", "luma.yuv", "offset.yuv", "fixed.yuv",
        "fixed.y4m", "reader.y4m", "reader.yuv", "bits.yuv", "bits8.yuv",
    };
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        unlink(tmp_path(names[i]));
    if (rmdir(tmp_dir) < 0) perror(tmp_dir);
}

int main(void)
{
    static const struct {
        const char *name;
        void (*run)(void);
    } tests[] = {
        { "y4m colour tags", test_y4m_colour_tags },
        { "raw round trip", test_raw_round_trip },
        { "raw stream", test_raw_stream },
        { "raw file ending inside a frame", test_raw_partial_frame },
        { "raw format needed", test_raw_format_needed },
        { "missing file", test_missing_file },
        { "truncated frames", test_truncated },
        { "malformed headers", test_malformed_headers },
        { "bad frame headers", test_bad_frame_headers },
        { "samples above the peak are read as they are", test_out_of_range },
        { "the OR of the samples' high bits", test_sample_bits },
        { "skip", test_skip },
        { "y4m without frames", test_y4m_without_frames },
        { "pipes", test_pipes },
        { "skipped planes", test_skipped_planes },
        { "skip on a pipe", test_pipe_skip },
        { "descriptor at an offset", test_descriptor_offset },
        { "fixed offsets", test_fixed_offsets },
        { "reader threads", test_reader },
    };
    signal(SIGPIPE, SIG_IGN); /* a pipe's reader that stops early: the writer sees EPIPE */
    if (!mkdtemp(tmp_dir)) {
        perror("mkdtemp");
        return 1;
    }
    unsigned passed = 0, failed = 0;
    for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
        current_ok = true;
        tests[i].run();
        printf("%s: %s\n", current_ok ? "ok  " : "FAIL", tests[i].name);
        current_ok ? passed++ : failed++;
    }
    remove_tmp_dir();
    printf("%u passed, %u failed\n", passed, failed);
    return failed ? 1 : 0;
}
