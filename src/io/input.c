/*
 * Opening an input, telling y4m from raw yuv, and reading planes. Both
 * formats store planes tightly packed, chroma ceil(w/2) x ceil(h/2) as
 * subsampled, samples above 8 bits as little-endian 16-bit words.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "io/input.h"
#include "io/y4m.h"

/* A large stdio buffer turns the row-sized reads into few system calls. */
#define STDIO_BUFFER_BYTES (1u << 20)
/* Chunk for data that is read and thrown away (skipped frames, alpha). */
#define DISCARD_CHUNK_BYTES (64u << 10)

struct VqxInput {
    FILE *f;
    char *name;
    char *stdio_buffer;
    VqxRawFormat fmt;
    bool is_y4m;
    bool has_alpha;       /* y4m 444alpha: a luma-sized plane follows, unused */
    unsigned frame;       /* number of the next frame */
    uint64_t frame_bytes; /* sample data of one frame in the file */
    /* Bytes read while looking for the y4m magic, handed out again to the
     * raw reader first: a pipe cannot be rewound. */
    uint8_t probe[VQX_Y4M_MAGIC_LEN];
    size_t probe_len, probe_pos;
    uint8_t *discard; /* DISCARD_CHUNK_BYTES, allocated on first use */
};

__attribute__((format(printf, 3, 4)))
static void set_error(char *err, size_t err_len, const char *fmt, ...)
{
    if (!err || !err_len) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, err_len, fmt, ap);
    va_end(ap);
}

static const char *layout_name(enum VqxPixelLayout layout)
{
    switch (layout) {
    case VQX_PIX_400: return "4:0:0";
    case VQX_PIX_420: return "4:2:0";
    case VQX_PIX_422: return "4:2:2";
    case VQX_PIX_444: return "4:4:4";
    }
    return "?";
}

static unsigned sample_bytes(const VqxRawFormat *fmt)
{
    return fmt->bpc > 8 ? 2 : 1;
}

static unsigned color_planes(const VqxRawFormat *fmt)
{
    return fmt->layout == VQX_PIX_400 ? 1 : 3;
}

/* Plane geometry, the same as vqx_picture_alloc's. */
static void plane_size(const VqxRawFormat *fmt, unsigned plane,
                       unsigned *w, unsigned *h)
{
    const unsigned ss_x = plane && (fmt->layout == VQX_PIX_420 || fmt->layout == VQX_PIX_422);
    const unsigned ss_y = plane && fmt->layout == VQX_PIX_420;
    *w = (fmt->w + ss_x) >> ss_x;
    *h = (fmt->h + ss_y) >> ss_y;
}

static uint64_t plane_bytes(const VqxRawFormat *fmt, unsigned plane)
{
    unsigned w, h;
    plane_size(fmt, plane, &w, &h);
    return (uint64_t)w * h * sample_bytes(fmt);
}

static uint64_t frame_data_bytes(const VqxRawFormat *fmt, bool has_alpha)
{
    uint64_t total = has_alpha ? plane_bytes(fmt, 0) : 0;
    for (unsigned p = 0; p < color_planes(fmt); p++)
        total += plane_bytes(fmt, p);
    return total;
}

/* "24 GiB", "3.1 MiB": three significant digits of the largest fitting unit. */
static void format_bytes(uint64_t n, char *buf, size_t len)
{
    static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
    unsigned u = 0;
    double v = (double)n;
    while (v >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
        v /= 1024;
        u++;
    }
    snprintf(buf, len, "%.3g %s", v, units[u]);
}

void vqx_input_frame_message(const char *name, const VqxRawFormat *fmt, const char *why,
                             char *err, size_t err_len)
{
    char size[32];
    format_bytes(frame_data_bytes(fmt, false), size, sizeof(size));
    set_error(err, err_len, "%s: a %ux%u %s %u-bit frame needs %s, %s", name, fmt->w, fmt->h,
              layout_name(fmt->layout), fmt->bpc, size, why);
}

/* Refuse, before anything is allocated, a frame that vqx does not take
 * (VQX_INPUT_MAX_PLANE_SAMPLES) or whose size does not fit a size_t with
 * room for row padding (32-bit hosts). */
static int check_frame_size(const VqxInput *in, char *err, size_t err_len)
{
    if ((uint64_t)in->fmt.w * in->fmt.h >= VQX_INPUT_MAX_PLANE_SAMPLES)
        vqx_input_frame_message(in->name, &in->fmt, "more than vqx takes (planes of fewer "
                                "than 2^31 samples)", err, err_len);
    else if (frame_data_bytes(&in->fmt, false) > SIZE_MAX / 2)
        vqx_input_frame_message(in->name, &in->fmt, "more than this system can address",
                                err, err_len);
    else
        return 0;
    return -ENOMEM;
}

static bool host_is_little_endian(void)
{
    const uint16_t probe = 1;
    uint8_t first;
    memcpy(&first, &probe, 1);
    return first == 1;
}

/* Read up to n bytes, the probed bytes first. Short only at the end of the
 * stream or on a read error. */
static size_t read_bytes(VqxInput *in, void *dst, size_t n)
{
    size_t got = 0;
    if (in->probe_pos < in->probe_len) {
        got = in->probe_len - in->probe_pos;
        if (got > n) got = n;
        memcpy(dst, in->probe + in->probe_pos, got);
        in->probe_pos += got;
    }
    if (got < n)
        got += fread((uint8_t *)dst + got, 1, n - got, in->f);
    return got;
}

static bool have_discard_buffer(VqxInput *in)
{
    if (!in->discard) in->discard = malloc(DISCARD_CHUNK_BYTES);
    return in->discard != NULL;
}

/* Read and drop n bytes (have_discard_buffer first); returns how many
 * there were. */
static uint64_t discard_bytes(VqxInput *in, uint64_t n)
{
    uint64_t got = 0;
    while (got < n) {
        const size_t want = n - got < DISCARD_CHUNK_BYTES ? (size_t)(n - got) : DISCARD_CHUNK_BYTES;
        const size_t chunk = read_bytes(in, in->discard, want);
        got += chunk;
        if (chunk < want) break;
    }
    return got;
}

static int out_of_memory(const VqxInput *in, char *err, size_t err_len)
{
    set_error(err, err_len, "%s: out of memory", in->name);
    return -ENOMEM;
}

/* True at the end of the stream; false, with the stream unchanged, when a
 * byte follows (or on a read error, which the next read reports). */
static bool at_end(VqxInput *in)
{
    if (in->probe_pos < in->probe_len) return false;
    const int c = getc(in->f);
    if (c == EOF) return !ferror(in->f);
    ungetc(c, in->f);
    return false;
}

/* The message and code for a frame that ended after `got` of its bytes. */
static int short_frame(const VqxInput *in, uint64_t got, char *err, size_t err_len)
{
    if (ferror(in->f)) {
        const int saved = errno ? errno : EIO;
        set_error(err, err_len, "%s: frame %u: read error: %s", in->name, in->frame,
                  strerror(saved));
        return -EIO;
    }
    set_error(err, err_len, "%s: frame %u is truncated (got %llu of %llu bytes)", in->name,
              in->frame, (unsigned long long)got, (unsigned long long)in->frame_bytes);
    return -ENODATA;
}

/* Little-endian words to host order, in place; returns the OR of the row,
 * which tells cheaply whether any sample exceeds the bit depth. */
static uint16_t row_from_le16(uint16_t *row, unsigned w)
{
    uint16_t all = 0;
    if (!host_is_little_endian()) {
        const uint8_t *bytes = (const uint8_t *)row;
        for (unsigned x = 0; x < w; x++)
            row[x] = (uint16_t)(bytes[2 * x] | bytes[2 * x + 1] << 8);
    }
    for (unsigned x = 0; x < w; x++)
        all |= row[x];
    return all;
}

static int out_of_range(const VqxInput *in, const uint16_t *row, unsigned w,
                        unsigned plane, unsigned y, char *err, size_t err_len)
{
    static const char plane_names[] = "YUV";
    const unsigned max = (1u << in->fmt.bpc) - 1;
    unsigned x = 0;
    while (x + 1 < w && row[x] <= max) x++;
    set_error(err, err_len, "%s: frame %u: sample value %u at x=%u y=%u of plane %c "
              "exceeds the %u-bit maximum %u", in->name, in->frame, row[x], x, y,
              plane_names[plane], in->fmt.bpc, max);
    return -ERANGE;
}

static int read_planes(VqxInput *in, VqxPicture *pic, char *err, size_t err_len)
{
    const unsigned bytes = sample_bytes(&in->fmt);
    uint64_t got = 0;
    for (unsigned p = 0; p < color_planes(&in->fmt); p++) {
        const size_t row_bytes = (size_t)pic->w[p] * bytes;
        for (unsigned y = 0; y < pic->h[p]; y++) {
            uint8_t *row = (uint8_t *)pic->data[p] + (ptrdiff_t)y * pic->stride[p];
            const size_t n = read_bytes(in, row, row_bytes);
            got += n;
            if (n < row_bytes) return short_frame(in, got, err, err_len);
            if (bytes == 2 && row_from_le16((uint16_t *)row, pic->w[p]) >> in->fmt.bpc)
                return out_of_range(in, (const uint16_t *)row, pic->w[p], p, y, err, err_len);
        }
    }
    if (in->has_alpha) {
        const uint64_t alpha = plane_bytes(&in->fmt, 0);
        const uint64_t n = discard_bytes(in, alpha);
        got += n;
        if (n < alpha) return short_frame(in, got, err, err_len);
    }
    return 0;
}

/* Position the stream at the next frame's data. Returns 1, 0 at a clean
 * end of stream, or a negative errno. */
static int start_frame(VqxInput *in, char *err, size_t err_len)
{
    if (!in->is_y4m) return at_end(in) ? 0 : 1;
    char why[256];
    const int ret = vqx_y4m_read_frame_header(in->f, why, sizeof(why));
    if (ret < 0)
        set_error(err, err_len, "%s: frame %u: %s", in->name, in->frame, why);
    return ret;
}

int vqx_input_read(VqxInput *in, VqxPicture *pic, char *err, size_t err_len)
{
    if (!in || !pic) return -EINVAL;
    const bool reuse = pic->buf && pic->layout == in->fmt.layout && pic->bpc == in->fmt.bpc &&
                       pic->w[0] == in->fmt.w && pic->h[0] == in->fmt.h;
    if (!reuse) vqx_picture_free(pic);
    int ret = start_frame(in, err, err_len);
    if (ret <= 0) {
        vqx_picture_free(pic);
        return ret;
    }
    if (!reuse) ret = vqx_picture_alloc(pic, in->fmt.layout, in->fmt.bpc, in->fmt.w, in->fmt.h);
    if (ret < 0) {
        vqx_input_frame_message(in->name, &in->fmt, VQX_INPUT_CANNOT_ALLOCATE, err, err_len);
        return ret;
    }
    ret = read_planes(in, pic, err, err_len);
    if (ret < 0) {
        vqx_picture_free(pic);
        return ret;
    }
    in->frame++;
    return 1;
}

int vqx_input_skip(VqxInput *in, unsigned n, char *err, size_t err_len)
{
    if (!in) return -EINVAL;
    if (n && !have_discard_buffer(in)) return out_of_memory(in, err, err_len);
    for (unsigned i = 0; i < n; i++) {
        const int ret = start_frame(in, err, err_len);
        if (ret <= 0) return ret;
        const uint64_t got = discard_bytes(in, in->frame_bytes);
        if (got < in->frame_bytes) return short_frame(in, got, err, err_len);
        in->frame++;
    }
    return 1;
}

static int check_raw_format(const VqxRawFormat *raw, const char *name,
                            char *err, size_t err_len)
{
    if (!raw->w || !raw->h || raw->w > VQX_Y4M_MAX_DIMENSION || raw->h > VQX_Y4M_MAX_DIMENSION) {
        set_error(err, err_len, "%s: raw yuv size %ux%u is out of range (1 to %u each)",
                  name, raw->w, raw->h, VQX_Y4M_MAX_DIMENSION);
        return -EINVAL;
    }
    if (raw->bpc < 8 || raw->bpc > 16) {
        set_error(err, err_len, "%s: raw yuv bit depth %u is out of range (8 to 16)",
                  name, raw->bpc);
        return -EINVAL;
    }
    if (raw->layout > VQX_PIX_444) {
        set_error(err, err_len, "%s: raw yuv pixel layout %d is unknown", name, (int)raw->layout);
        return -EINVAL;
    }
    return 0;
}

/* A regular file must hold a whole number of frames, from where reading
 * starts to its end; pipes are checked frame by frame as they are read. */
static int check_raw_size(const VqxInput *in, off_t start, char *err, size_t err_len)
{
    struct stat st;
    const int fd = fileno(in->f);
    if (fd < 0 || fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) return 0;
    const uint64_t size = st.st_size > start ? (uint64_t)(st.st_size - start) : 0;
    const uint64_t left_over = size % in->frame_bytes;
    if (!left_over) return 0;
    set_error(err, err_len, "%s: size %llu is not a whole number of %ux%u %s %u-bit frames "
              "(%llu bytes each, %llu left over)", in->name, (unsigned long long)size,
              in->fmt.w, in->fmt.h, layout_name(in->fmt.layout), in->fmt.bpc,
              (unsigned long long)in->frame_bytes, (unsigned long long)left_over);
    return -EINVAL;
}

static int open_input(VqxInput *in, const VqxRawFormat *raw, char *err, size_t err_len)
{
    struct stat st;
    const int fd = fileno(in->f);
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        set_error(err, err_len, "%s: %s", in->name, strerror(EISDIR));
        return -EISDIR;
    }
    off_t start = ftello(in->f);
    if (start < 0) start = 0;

    in->probe_len = fread(in->probe, 1, sizeof(in->probe), in->f);
    if (ferror(in->f)) {
        const int saved = errno ? errno : EIO;
        set_error(err, err_len, "%s: read error: %s", in->name, strerror(saved));
        return -EIO;
    }

    if (in->probe_len == VQX_Y4M_MAGIC_LEN &&
        !memcmp(in->probe, VQX_Y4M_MAGIC, VQX_Y4M_MAGIC_LEN)) {
        in->probe_len = 0;
        in->is_y4m = true;
        char why[256];
        int ret = vqx_y4m_read_header(in->f, &in->fmt, &in->has_alpha, why, sizeof(why));
        if (ret < 0) {
            set_error(err, err_len, "%s: %s", in->name, why);
            return ret;
        }
        in->frame_bytes = frame_data_bytes(&in->fmt, in->has_alpha);
        if ((ret = check_frame_size(in, err, err_len)) < 0) return ret;
        if (in->has_alpha && !have_discard_buffer(in)) return out_of_memory(in, err, err_len);
        return 0;
    }

    if (!raw) {
        set_error(err, err_len, "%s: not a y4m file (no YUV4MPEG2 header); raw yuv input "
                  "needs -w, -h, -p and -b", in->name);
        return -EINVAL;
    }
    int ret = check_raw_format(raw, in->name, err, err_len);
    if (ret < 0) return ret;
    in->fmt = *raw;
    in->frame_bytes = frame_data_bytes(&in->fmt, false);
    if ((ret = check_frame_size(in, err, err_len)) < 0) return ret;
    return check_raw_size(in, start, err, err_len);
}

static int open_with_buffer(VqxInput **out, FILE *f, const char *name, char *stdio_buffer,
                            const VqxRawFormat *raw, char *err, size_t err_len)
{
    VqxInput *in = calloc(1, sizeof(*in));
    char *name_copy = strdup(name ? name : "(stream)");
    if (!in || !name_copy) {
        free(in);
        free(name_copy);
        fclose(f);
        free(stdio_buffer);
        set_error(err, err_len, "%s: out of memory", name ? name : "(stream)");
        return -ENOMEM;
    }
    in->f = f;
    in->name = name_copy;
    in->stdio_buffer = stdio_buffer;
    const int ret = open_input(in, raw, err, err_len);
    if (ret < 0) {
        vqx_input_close(&in);
        return ret;
    }
    *out = in;
    return 0;
}

int vqx_input_open_stream(VqxInput **in, FILE *f, const char *name,
                          const VqxRawFormat *raw, char *err, size_t err_len)
{
    if (!in) {
        if (f) fclose(f);
        return -EINVAL;
    }
    *in = NULL;
    if (!f) return -EINVAL;
    return open_with_buffer(in, f, name, NULL, raw, err, err_len);
}

int vqx_input_open(VqxInput **in, const char *path, const VqxRawFormat *raw,
                   char *err, size_t err_len)
{
    if (!in || !path) return -EINVAL;
    *in = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        const int saved = errno ? errno : EIO;
        set_error(err, err_len, "%s: %s", path, strerror(saved));
        return -saved;
    }
    char *stdio_buffer = malloc(STDIO_BUFFER_BYTES);
    if (stdio_buffer) setvbuf(f, stdio_buffer, _IOFBF, STDIO_BUFFER_BYTES);
    return open_with_buffer(in, f, path, stdio_buffer, raw, err, err_len);
}

void vqx_input_close(VqxInput **in)
{
    if (!in || !*in) return;
    fclose((*in)->f);
    free((*in)->stdio_buffer);
    free((*in)->discard);
    free((*in)->name);
    free(*in);
    *in = NULL;
}

const VqxRawFormat *vqx_input_format(const VqxInput *in)
{
    return &in->fmt;
}
