/*
 * Opening an input, telling y4m from raw yuv, and reading frames. Both
 * formats store planes tightly packed, chroma ceil(w/2) x ceil(h/2) as
 * subsampled, samples above 8 bits as little-endian 16-bit words.
 *
 * Every read goes through transfer(): a list of segments (a plane to fill,
 * a header, or bytes to skip) becomes few readv/preadv calls straight into
 * the destination. A regular file is read at offsets and skipped bytes are
 * not read; an in-order source (pipe, FIFO, terminal, stdio stream) reads
 * skipped bytes into one discard buffer, and reads each y4m frame header
 * with the frame before it, so that the header is known before its planes
 * are read.
 */
#define _GNU_SOURCE /* preadv, readv; F_SETPIPE_SZ */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <unistd.h>

#include "io/input.h"
#include "io/y4m.h"
#include "picture.h"

/* Discard buffer of in-order sources: skipped bytes go there in chunks. */
#define DISCARD_CHUNK_BYTES (1u << 20)
/* One system call's iovecs and bytes (a total within any ssize_t). */
#define IOV_BATCH 64
#define BATCH_BYTES (1u << 30)
/* A read whose samples are ORed: small enough that they are still in the
 * cache (L2) when the OR reads them. */
#define OR_BATCH_BYTES (512u << 10)
/* How often a read waiting for a pipe looks at vqx_input_cancel. */
#define CANCEL_POLL_MS 100
/* Pipe buffer asked for: a few large reads per frame instead of many of
 * the default 64 KiB (Linux allows 1 MiB to anyone by default). */
#define PIPE_BYTES (1 << 20)
/* The start of a frame header with parameters. */
#define FRAME_WITH_PARAMS "FRAME "

struct VqxInput {
    int fd;               /* -1: `stream` */
    FILE *stream;
    char *name;
    bool seekable;        /* a regular file, read at offsets */
    uint64_t size;        /* of the regular file when opened (it may grow) */
    VqxRawFormat fmt;
    bool is_y4m;
    bool has_alpha;       /* y4m 444alpha: a luma-sized plane follows, unused */
    enum VqxColorRange range; /* y4m's XCOLORRANGE tag */
    unsigned planes;      /* planes the reads fill */
    uint64_t frame_bytes; /* sample data of one frame in the file */
    uint64_t data_start;  /* offset of frame 0 (of its header, for y4m) */
    uint64_t pos;         /* regular file: offset of the next frame */
    bool params;          /* regular file: the last y4m header had parameters */
    unsigned frame;       /* number of the next frame */
    /* In-order sources: bytes already read, handed out first by the next
     * read (raw: the probe for the y4m magic), or the next frame's header,
     * read with the frame before it (y4m). */
    uint8_t ahead[VQX_Y4M_MAGIC_LEN];
    size_t ahead_len;
    uint8_t *discard;
    size_t discard_len;
    atomic_bool cancelled;
};

/* Bytes to read into `data`, or to skip when it is NULL; `samples`: 16-bit
 * little-endian samples, whose bits transfer() ORs as they arrive. */
typedef struct Segment {
    uint8_t *data;
    uint64_t len;
    bool samples;
} Segment;

/* A frame's segments: a y4m header, three planes, an alpha plane, the next
 * y4m header. */
#define MAX_SEGMENTS 6

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

/* Bytes from one frame's start to the next one's, with plain y4m headers. */
static uint64_t stride(const VqxInput *in)
{
    return in->frame_bytes + (in->is_y4m ? VQX_Y4M_FRAME_LEN : 0);
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

/* ---- reading ---- */

/* Wait until a pipe has data or has ended; -ECANCELED once cancelled. */
static int wait_readable(VqxInput *in)
{
    struct pollfd p = { .fd = in->fd, .events = POLLIN };
    for (;;) {
        if (atomic_load(&in->cancelled)) return -ECANCELED;
        const int ready = poll(&p, 1, CANCEL_POLL_MS);
        if (ready > 0) return 0; /* data, the end or an error: the read tells */
        if (ready < 0 && errno != EINTR) return -errno;
    }
}

/* One system call's worth of bytes into `iov`, from `pos` of a regular
 * file. Returns the bytes read, 0 at the end, or a negative errno. */
static ssize_t read_some(VqxInput *in, const struct iovec *iov, int n, uint64_t pos)
{
    if (in->ahead_len) {
        size_t got = 0;
        for (int i = 0; i < n && got < in->ahead_len; i++) {
            size_t len = in->ahead_len - got;
            if (len > iov[i].iov_len) len = iov[i].iov_len;
            memcpy(iov[i].iov_base, in->ahead + got, len);
            got += len;
        }
        memmove(in->ahead, in->ahead + got, in->ahead_len - got);
        in->ahead_len -= got;
        return (ssize_t)got;
    }
    if (in->stream) {
        size_t got = 0;
        for (int i = 0; i < n; i++) {
            const size_t len = fread(iov[i].iov_base, 1, iov[i].iov_len, in->stream);
            got += len;
            if (len == iov[i].iov_len) continue;
            /* an error after some bytes shows again on the next read */
            if (ferror(in->stream) && !got) return errno ? -errno : -EIO;
            break;
        }
        return (ssize_t)got;
    }
    for (;;) {
        ssize_t got;
        if (in->seekable) {
            got = preadv(in->fd, iov, n, (off_t)pos);
        } else {
            const int ret = wait_readable(in);
            if (ret < 0) return ret;
            got = readv(in->fd, iov, n);
        }
        if (got >= 0) return got;
        if (errno != EINTR) return -errno;
    }
}

/* How many of `len` bytes from `pos` a regular file holds. */
static uint64_t bytes_held(const VqxInput *in, uint64_t pos, uint64_t len)
{
    uint64_t size = in->size;
    struct stat st;
    /* a file written while it is read has grown; if fstat fails, the size
     * at open stands */
    if (pos + len > size && fstat(in->fd, &st) == 0) size = (uint64_t)st.st_size;
    if (pos >= size) return 0;
    return size - pos < len ? size - pos : len;
}

/* The iovecs of one system call, from `off` into seg[s] on: up to a
 * skipped segment of a regular file, IOV_BATCH iovecs or `most` bytes;
 * skipped bytes of an in-order source go to the discard buffer. */
static int batch(const VqxInput *in, const Segment *seg, unsigned n, unsigned s, uint64_t off,
                 uint64_t most, struct iovec *iov)
{
    int k = 0;
    uint64_t want = 0;
    for (unsigned t = s; t < n && !(in->seekable && !seg[t].data); t++, off = 0) {
        for (uint64_t at = off; at < seg[t].len; ) {
            if (k == IOV_BATCH || want == most) return k;
            uint64_t len = seg[t].len - at;
            if (!seg[t].data && len > in->discard_len) len = in->discard_len;
            if (len > most - want) len = most - want;
            iov[k++] = (struct iovec){ seg[t].data ? seg[t].data + at : in->discard, (size_t)len };
            want += len;
            at += len;
        }
    }
    return k;
}

/* The OR of the high bytes of the 16-bit little-endian samples in bytes
 * [from, to) of a plane: the bits above the low 8, where a sample above a
 * 9- to 15-bit peak has one. A sample split between two reads is counted
 * when its high byte arrives. */
static uint8_t high_bytes_or(const uint8_t *plane, uint64_t from, uint64_t to)
{
    uint8_t bits = 0;
    if (from & 1 && from < to) bits = plane[from++];
    uint16_t words = 0;
    for (uint64_t i = from; i + 1 < to; i += 2) {
        uint16_t w;
        memcpy(&w, plane + i, sizeof(w));
        words |= w;
    }
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return (uint8_t)(bits | (words & 0xff));
#else
    return (uint8_t)(bits | words >> 8);
#endif
}

/* Fill the segments in order, from `pos` on for a regular file (whose
 * skipped segments are not read, only looked for in its size). With
 * `bits`, the high bytes of the samples segments are ORed into it, read by
 * read, while they are in the cache. Returns how many bytes of them the
 * source held, fewer only at its end, or a negative errno. */
static int64_t transfer(VqxInput *in, const Segment *seg, unsigned n, uint64_t pos,
                        uint8_t *bits)
{
    uint64_t done = 0, off = 0; /* off: into seg[s] */
    unsigned s = 0;
    while (s < n) {
        if (in->seekable && !seg[s].data) {
            const uint64_t left = seg[s].len - off, held = bytes_held(in, pos, left);
            done += held;
            pos += held;
            if (held < left) return (int64_t)done;
            s++;
            off = 0;
            continue;
        }
        struct iovec iov[IOV_BATCH];
        bool samples = false;
        for (unsigned t = s; t < n && bits; t++) samples |= seg[t].samples;
        const uint64_t most = samples ? OR_BATCH_BYTES : BATCH_BYTES;
        const ssize_t got = read_some(in, iov, batch(in, seg, n, s, off, most, iov), pos);
        if (got < 0) return got;
        if (!got) return (int64_t)done;
        done += (uint64_t)got;
        pos += (uint64_t)got;
        for (uint64_t left = (uint64_t)got; left; ) {
            const uint64_t step = seg[s].len - off < left ? seg[s].len - off : left;
            if (bits && seg[s].samples) *bits |= high_bytes_or(seg[s].data, off, off + step);
            off += step;
            left -= step;
            if (off == seg[s].len) {
                s++;
                off = 0;
            }
        }
    }
    return (int64_t)done;
}

/* Bytes of a header line into line[len..max): from `pos` + len on for a
 * regular file, as many as it holds; from an in-order source one at a time
 * up to the newline, so that nothing after it is consumed. Returns the
 * bytes now in `line`, or a negative errno. */
static int64_t read_line(VqxInput *in, uint64_t pos, char *line, size_t len, size_t max)
{
    if (in->seekable) {
        const Segment seg = { (uint8_t *)line + len, max - len, false };
        const int64_t got = transfer(in, &seg, 1, pos + len, NULL);
        return got < 0 ? got : (int64_t)len + got;
    }
    while (len < max && (!len || line[len - 1] != '\n')) {
        const Segment seg = { (uint8_t *)line + len, 1, false };
        const int64_t got = transfer(in, &seg, 1, 0, NULL);
        if (got < 0) return got;
        if (!got) break;
        len++;
    }
    return (int64_t)len;
}

static int read_failed(const VqxInput *in, unsigned frame, int64_t code, char *err, size_t err_len)
{
    if (code == -ECANCELED) {
        set_error(err, err_len, "%s: frame %u: reading was cancelled", in->name, frame);
        return -ECANCELED;
    }
    set_error(err, err_len, "%s: frame %u: read error: %s", in->name, frame, strerror((int)-code));
    return -EIO;
}

static int truncated(const VqxInput *in, unsigned frame, uint64_t got, char *err, size_t err_len)
{
    set_error(err, err_len, "%s: frame %u is truncated (got %llu of %llu bytes)", in->name,
              frame, (unsigned long long)got, (unsigned long long)in->frame_bytes);
    return -ENODATA;
}

static int header_result(const VqxInput *in, unsigned frame, const char *line, int64_t len,
                         size_t *used, char *err, size_t err_len)
{
    if (len < 0) return read_failed(in, frame, len, err, err_len);
    char why[256];
    const int ret = vqx_y4m_parse_frame_header(line, (size_t)len, used, why, sizeof(why));
    if (ret < 0) set_error(err, err_len, "%s: frame %u: %s", in->name, frame, why);
    return ret;
}

/* The planes of a frame in file order: those to fill into `pic` (NULL:
 * none), the others and the alpha plane skipped. */
static unsigned frame_segments(const VqxInput *in, VqxPicture *pic, Segment *seg)
{
    unsigned n = 0;
    for (unsigned p = 0; p < color_planes(&in->fmt); p++) {
        const bool fill = pic && in->planes >> p & 1;
        seg[n++] = (Segment){ fill ? pic->data[p] : NULL, plane_bytes(&in->fmt, p),
                              fill && in->fmt.bpc > 8 };
    }
    if (in->has_alpha) seg[n++] = (Segment){ NULL, plane_bytes(&in->fmt, 0), false };
    return n;
}

/* A regular file's frame whose header (y4m) or samples (raw) start at
 * `pos`: one preadv of a plain header and the planes to fill. `next` gets
 * the offset of the frame after it. `params` is NULL for frames at fixed
 * offsets, where a header with parameters returns VQX_INPUT_NOT_FIXED;
 * otherwise it tells whether the last header had parameters (then this
 * one is read first, on its own, rather than the planes twice), and is
 * updated. */
static int read_positioned(VqxInput *in, uint64_t pos, unsigned frame, VqxPicture *pic,
                           bool *params, uint64_t *next, uint8_t *bits, char *err, size_t err_len)
{
    char tag[VQX_Y4M_FRAME_LEN];
    Segment seg[MAX_SEGMENTS];
    unsigned n = 0;
    if (in->is_y4m) seg[n++] = (Segment){ (uint8_t *)tag, sizeof(tag), false };
    const unsigned planes_at = n;
    n += frame_segments(in, pic, seg + n);
    const bool line_first = params && *params;
    int64_t got = line_first ? 0 : transfer(in, seg, n, pos, bits);
    if (got < 0) return read_failed(in, frame, got, err, err_len);
    uint64_t data = pos;
    if (in->is_y4m) {
        if (!line_first && got >= (int64_t)sizeof(tag) && !memcmp(tag, VQX_Y4M_FRAME, sizeof(tag))) {
            data += sizeof(tag);
            got -= (int64_t)sizeof(tag);
        } else {
            /* the end, a bad header, or parameters: read the whole line */
            if (!params && got >= (int64_t)sizeof(tag) && !memcmp(tag, FRAME_WITH_PARAMS, sizeof(tag)))
                return VQX_INPUT_NOT_FIXED;
            char line[VQX_Y4M_HEADER_MAX];
            size_t used;
            const int ret = header_result(in, frame, line, read_line(in, pos, line, 0, sizeof(line)),
                                          &used, err, err_len);
            if (ret <= 0) return ret;
            data += used;
            if (bits) *bits = 0; /* the first read's planes were not this frame's */
            got = transfer(in, seg + planes_at, n - planes_at, data, bits);
            if (got < 0) return read_failed(in, frame, got, err, err_len);
        }
        if (params) *params = data - pos != VQX_Y4M_FRAME_LEN;
    } else if (!got) {
        return 0;
    }
    if ((uint64_t)got < in->frame_bytes) return truncated(in, frame, (uint64_t)got, err, err_len);
    *next = data + in->frame_bytes;
    return 1;
}

/* An in-order source's next y4m frame header, whose first bytes were read
 * with the frame before it. */
static int in_order_header(VqxInput *in, char *err, size_t err_len)
{
    char line[VQX_Y4M_HEADER_MAX];
    int64_t len = (int64_t)in->ahead_len;
    memcpy(line, in->ahead, in->ahead_len);
    in->ahead_len = 0;
    if (len == VQX_Y4M_FRAME_LEN && !memcmp(line, FRAME_WITH_PARAMS, VQX_Y4M_FRAME_LEN))
        len = read_line(in, 0, line, (size_t)len, sizeof(line));
    size_t used;
    return header_result(in, in->frame, line, len, &used, err, err_len);
}

/* An in-order source's next frame: one pass of readv over its planes and
 * the next frame's header. */
static int read_in_order(VqxInput *in, VqxPicture *pic, uint8_t *bits, char *err, size_t err_len)
{
    if (in->is_y4m) {
        const int ret = in_order_header(in, err, err_len);
        if (ret <= 0) return ret;
    }
    Segment seg[MAX_SEGMENTS];
    unsigned n = frame_segments(in, pic, seg);
    if (in->is_y4m) seg[n++] = (Segment){ in->ahead, VQX_Y4M_FRAME_LEN, false };
    const int64_t got = transfer(in, seg, n, 0, bits);
    if (got < 0) return read_failed(in, in->frame, got, err, err_len);
    if (!got && !in->is_y4m) return 0;
    if ((uint64_t)got < in->frame_bytes) return truncated(in, in->frame, (uint64_t)got, err, err_len);
    if (in->is_y4m) in->ahead_len = (size_t)((uint64_t)got - in->frame_bytes);
    return 1;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
/* The files' little-endian words in host order. */
static void to_host_order(const VqxInput *in, VqxPicture *pic)
{
    if (in->fmt.bpc <= 8) return;
    for (unsigned p = 0; p < color_planes(&in->fmt); p++) {
        if (!(in->planes >> p & 1)) continue;
        uint16_t *s = pic->data[p];
        for (size_t i = 0, n = (size_t)pic->w[p] * pic->h[p]; i < n; i++)
            s[i] = (uint16_t)(s[i] >> 8 | s[i] << 8);
    }
}
#else
/* The files' little-endian words are the host's: samples land as they are. */
static void to_host_order(const VqxInput *in, VqxPicture *pic)
{
    (void)in;
    (void)pic;
}
#endif

/* Reuse `pic` when it holds a picture of the stream's format. */
static int prepare_picture(const VqxInput *in, VqxPicture *pic, char *err, size_t err_len)
{
    if (pic->buf && pic->layout == in->fmt.layout && pic->bpc == in->fmt.bpc &&
        pic->w[0] == in->fmt.w && pic->h[0] == in->fmt.h)
        return 0;
    vqx_picture_free(pic);
    const int ret = vqx_picture_alloc(pic, in->fmt.layout, in->fmt.bpc, in->fmt.w, in->fmt.h);
    if (ret < 0) vqx_input_frame_message(in->name, &in->fmt, VQX_INPUT_CANNOT_ALLOCATE, err, err_len);
    return ret;
}

/* The next frame into `pic`, or skipped (NULL). */
static int read_next(VqxInput *in, VqxPicture *pic, uint8_t *bits, char *err, size_t err_len)
{
    uint64_t next = 0;
    const int ret = in->seekable ? read_positioned(in, in->pos, in->frame, pic, &in->params, &next,
                                                   bits, err, err_len)
                                 : read_in_order(in, pic, bits, err, err_len);
    if (ret != 1) return ret;
    in->pos = next;
    in->frame++;
    return 1;
}

/* The end of a read that returned `ret`: the picture freed unless a frame
 * came, else its samples in host order, and the high bytes' OR given as the
 * bits of 16-bit samples above their low 8. */
static int finish_read(const VqxInput *in, VqxPicture *pic, int ret, uint8_t high,
                       uint16_t *sample_bits)
{
    if (ret != 1) {
        vqx_picture_free(pic);
        return ret;
    }
    to_host_order(in, pic);
    if (sample_bits) *sample_bits = (uint16_t)(high << 8);
    return 1;
}

int vqx_input_read(VqxInput *in, VqxPicture *pic, uint16_t *sample_bits, char *err,
                   size_t err_len)
{
    if (!in || !pic) return -EINVAL;
    uint8_t high = 0;
    int ret = prepare_picture(in, pic, err, err_len);
    if (!ret) ret = read_next(in, pic, sample_bits ? &high : NULL, err, err_len);
    return finish_read(in, pic, ret, high, sample_bits);
}

int vqx_input_skip(VqxInput *in, unsigned n, char *err, size_t err_len)
{
    if (!in) return -EINVAL;
    for (unsigned i = 0; i < n; i++) {
        const int ret = read_next(in, NULL, NULL, err, err_len);
        if (ret <= 0) return ret;
    }
    return 1;
}

int vqx_input_read_at(VqxInput *in, unsigned frame, VqxPicture *pic, uint16_t *sample_bits,
                      char *err, size_t err_len)
{
    if (!in || !pic || !in->seekable) return -EINVAL;
    uint64_t next;
    uint8_t high = 0;
    int ret = prepare_picture(in, pic, err, err_len);
    if (!ret) ret = read_positioned(in, in->data_start + frame * stride(in), frame, pic, NULL,
                                    &next, sample_bits ? &high : NULL, err, err_len);
    return finish_read(in, pic, ret, high, sample_bits);
}

uint64_t vqx_input_fixed_stride(VqxInput *in)
{
    if (!in->seekable || in->pos != in->data_start + in->frame * stride(in)) return 0;
    if (in->is_y4m) {
        char tag[VQX_Y4M_FRAME_LEN];
        const Segment seg = { (uint8_t *)tag, sizeof(tag), false };
        if (transfer(in, &seg, 1, in->pos, NULL) != (int64_t)sizeof(tag) ||
            memcmp(tag, VQX_Y4M_FRAME, sizeof(tag)))
            return 0;
    }
    return stride(in);
}

void vqx_input_seek(VqxInput *in, unsigned frame)
{
    in->frame = frame;
    in->pos = in->data_start + frame * stride(in);
}

unsigned vqx_input_next_frame(const VqxInput *in)
{
    return in->frame;
}

uint64_t vqx_input_frames_left(const VqxInput *in)
{
    if (!in->seekable) return UINT64_MAX;
    return bytes_held(in, in->pos, UINT64_MAX - in->pos) / stride(in);
}

void vqx_input_set_planes(VqxInput *in, unsigned planes)
{
    in->planes = planes;
}

unsigned vqx_input_planes(const VqxInput *in)
{
    return in->planes;
}

void vqx_input_cancel(VqxInput *in)
{
    atomic_store(&in->cancelled, true);
}

/* ---- opening ---- */

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

/* What kind of descriptor: a regular file is read at offsets from where it
 * stands; a pipe gets a larger buffer. */
static int classify(VqxInput *in, char *err, size_t err_len)
{
    if (in->fd < 0) return 0;
    struct stat st;
    const int code = fstat(in->fd, &st) < 0 ? errno : S_ISDIR(st.st_mode) ? EISDIR : 0;
    if (code) {
        set_error(err, err_len, "%s: %s", in->name, strerror(code));
        return -code;
    }
    if (S_ISREG(st.st_mode)) {
        const off_t at = lseek(in->fd, 0, SEEK_CUR);
        if (at < 0) {
            set_error(err, err_len, "%s: %s", in->name, strerror(errno));
            return -errno;
        }
        in->seekable = true;
        in->size = (uint64_t)st.st_size;
        in->data_start = (uint64_t)at;
    } else if (S_ISFIFO(st.st_mode)) {
        /* a smaller buffer only costs more system calls: failure is fine */
        (void)fcntl(in->fd, F_SETPIPE_SZ, PIPE_BYTES);
    }
    return 0;
}

static int open_y4m(VqxInput *in, char *err, size_t err_len)
{
    in->is_y4m = true;
    char line[VQX_Y4M_HEADER_MAX - VQX_Y4M_MAGIC_LEN], why[256];
    const uint64_t at = in->data_start + VQX_Y4M_MAGIC_LEN;
    const int64_t len = read_line(in, at, line, 0, sizeof(line));
    if (len < 0) {
        set_error(err, err_len, "%s: read error in the header: %s", in->name, strerror((int)-len));
        return -EIO;
    }
    size_t used;
    const int ret = vqx_y4m_parse_header(line, (size_t)len, &used, &in->fmt, &in->has_alpha,
                                         &in->range, why, sizeof(why));
    if (ret < 0) {
        set_error(err, err_len, "%s: %s", in->name, why);
        return ret;
    }
    in->data_start = at + used;
    if (in->seekable) return 0;
    const Segment seg = { in->ahead, VQX_Y4M_FRAME_LEN, false }; /* frame 0's header */
    const int64_t got = transfer(in, &seg, 1, 0, NULL);
    if (got < 0) return read_failed(in, 0, got, err, err_len);
    in->ahead_len = (size_t)got;
    return 0;
}

static int open_input(VqxInput *in, const VqxRawFormat *raw, char *err, size_t err_len)
{
    int ret = classify(in, err, err_len);
    if (ret < 0) return ret;

    uint8_t probe[VQX_Y4M_MAGIC_LEN];
    const Segment seg = { probe, sizeof(probe), false };
    const int64_t got = transfer(in, &seg, 1, in->data_start, NULL);
    if (got < 0) {
        set_error(err, err_len, "%s: read error: %s", in->name, strerror((int)-got));
        return -EIO;
    }
    if (got == VQX_Y4M_MAGIC_LEN && !memcmp(probe, VQX_Y4M_MAGIC, VQX_Y4M_MAGIC_LEN)) {
        if ((ret = open_y4m(in, err, err_len)) < 0) return ret;
    } else if (!raw) {
        set_error(err, err_len, "%s: not a y4m file (no YUV4MPEG2 header); raw yuv input "
                  "needs -w, -h, -p and -b", in->name);
        return -EINVAL;
    } else {
        if ((ret = check_raw_format(raw, in->name, err, err_len)) < 0) return ret;
        in->fmt = *raw;
        if (!in->seekable) { /* a pipe cannot be rewound: the probe is handed out first */
            memcpy(in->ahead, probe, (size_t)got);
            in->ahead_len = (size_t)got;
        }
    }
    in->frame_bytes = frame_data_bytes(&in->fmt, in->has_alpha);
    if ((ret = check_frame_size(in, err, err_len)) < 0) return ret;
    in->pos = in->data_start;
    if (!in->seekable) {
        in->discard_len = in->frame_bytes < DISCARD_CHUNK_BYTES ? (size_t)in->frame_bytes
                                                                : DISCARD_CHUNK_BYTES;
        if (!(in->discard = malloc(in->discard_len))) {
            set_error(err, err_len, "%s: out of memory", in->name);
            return -ENOMEM;
        }
    }
    return 0;
}

/* Takes `fd` or `stream` over, failure included. */
static int open_source(VqxInput **out, int fd, FILE *stream, const char *name,
                       const VqxRawFormat *raw, char *err, size_t err_len)
{
    *out = NULL;
    VqxInput *in = calloc(1, sizeof(*in));
    char *name_copy = strdup(name ? name : "(stream)");
    if (!in || !name_copy) {
        free(in);
        free(name_copy);
        if (stream) fclose(stream);
        else close(fd);
        set_error(err, err_len, "%s: out of memory", name ? name : "(stream)");
        return -ENOMEM;
    }
    in->fd = fd;
    in->stream = stream;
    in->name = name_copy;
    in->planes = VQX_ALL_PLANES;
    atomic_init(&in->cancelled, false);
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
    return open_source(in, -1, f, name, raw, err, err_len);
}

int vqx_input_open_fd(VqxInput **in, int fd, const char *name, const VqxRawFormat *raw,
                      char *err, size_t err_len)
{
    if (in) *in = NULL;
    if (!in || fd < 0) {
        if (fd >= 0) close(fd);
        return -EINVAL;
    }
    return open_source(in, fd, NULL, name, raw, err, err_len);
}

int vqx_input_open(VqxInput **in, const char *path, const VqxRawFormat *raw,
                   char *err, size_t err_len)
{
    if (!in || !path) return -EINVAL;
    *in = NULL;
    const int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        const int saved = errno;
        set_error(err, err_len, "%s: %s", path, strerror(saved));
        return -saved;
    }
    return open_source(in, fd, NULL, path, raw, err, err_len);
}

void vqx_input_close(VqxInput **in)
{
    if (!in || !*in) return;
    /* a read-only descriptor loses nothing on close: its result says nothing */
    if ((*in)->stream) (void)fclose((*in)->stream);
    else (void)close((*in)->fd);
    free((*in)->discard);
    free((*in)->name);
    free(*in);
    *in = NULL;
}

const VqxRawFormat *vqx_input_format(const VqxInput *in)
{
    return &in->fmt;
}

enum VqxColorRange vqx_input_pair_range(const VqxInput *ref, const VqxInput *dis)
{
    return ref->range != VQX_RANGE_UNSPECIFIED ? ref->range : dis->range;
}

const char *vqx_input_name(const VqxInput *in)
{
    return in->name;
}
