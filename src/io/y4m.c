/*
 * YUV4MPEG2 headers: "YUV4MPEG2 W.. H.. [F..] [I..] [A..] [C..] [X..]\n",
 * then for each frame "FRAME[ params]\n" and the planes. Only the geometry
 * and the sample format matter here; frame rate, interlacing, aspect ratio
 * and comments are accepted and ignored.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "io/y4m.h"

static bool is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* A decimal number made of digits only; values above `max` are refused. */
static bool parse_bounded(const char *s, unsigned max, unsigned *out)
{
    unsigned long value = 0;
    if (!*s) return false;
    for (; *s; s++) {
        if (!is_digit(*s)) return false;
        value = value * 10 + (unsigned long)(*s - '0');
        if (value > max) return false;
    }
    *out = (unsigned)value;
    return true;
}

static int parse_dimension(const char *value, const char *what, unsigned *out,
                           char *why, size_t why_len)
{
    if (parse_bounded(value, VQX_Y4M_MAX_DIMENSION, out) && *out)
        return 0;
    bool numeric = *value != 0;
    for (const char *s = value; *s; s++)
        numeric &= is_digit(*s);
    if (numeric)
        snprintf(why, why_len, "%s %.24s is out of range (1 to %u)",
                 what, value, VQX_Y4M_MAX_DIMENSION);
    else
        snprintf(why, why_len, "%s '%.24s' is not a number", what, value);
    return -EINVAL;
}

/* Colour tags without a depth suffix: 8-bit samples. */
static const struct {
    const char *name;
    enum VqxPixelLayout layout;
    bool alpha;
} eight_bit_colours[] = {
    { "420",      VQX_PIX_420, false },
    { "420jpeg",  VQX_PIX_420, false },
    { "420mpeg2", VQX_PIX_420, false },
    { "420paldv", VQX_PIX_420, false },
    { "422",      VQX_PIX_422, false },
    { "444",      VQX_PIX_444, false },
    { "444alpha", VQX_PIX_444, true },
    { "mono",     VQX_PIX_400, false },
};

/* Colour tags with a depth suffix, "420p10", "mono12"...: 9 to 16 bits. */
static const struct {
    const char *prefix;
    enum VqxPixelLayout layout;
} high_bit_colours[] = {
    { "420p", VQX_PIX_420 },
    { "422p", VQX_PIX_422 },
    { "444p", VQX_PIX_444 },
    { "mono", VQX_PIX_400 },
};

static int parse_colour(const char *value, VqxRawFormat *fmt, bool *has_alpha,
                        char *why, size_t why_len)
{
    for (size_t i = 0; i < sizeof(eight_bit_colours) / sizeof(eight_bit_colours[0]); i++) {
        if (!strcmp(value, eight_bit_colours[i].name)) {
            fmt->layout = eight_bit_colours[i].layout;
            fmt->bpc = 8;
            *has_alpha = eight_bit_colours[i].alpha;
            return 0;
        }
    }
    for (size_t i = 0; i < sizeof(high_bit_colours) / sizeof(high_bit_colours[0]); i++) {
        const size_t len = strlen(high_bit_colours[i].prefix);
        unsigned bpc;
        if (!strncmp(value, high_bit_colours[i].prefix, len) &&
            parse_bounded(value + len, 16, &bpc) && bpc >= 9) {
            fmt->layout = high_bit_colours[i].layout;
            fmt->bpc = bpc;
            *has_alpha = false;
            return 0;
        }
    }
    snprintf(why, why_len, "unsupported colour space C%.24s", value);
    return -EINVAL;
}

int vqx_y4m_parse_params(const char *params, VqxRawFormat *fmt, bool *has_alpha,
                         enum VqxColorRange *range, char *why, size_t why_len)
{
    /* No C tag: 4:2:0, 8 bits, as the format defines it. */
    VqxRawFormat parsed = { .bpc = 8, .layout = VQX_PIX_420 };
    enum VqxColorRange tagged = VQX_RANGE_UNSPECIFIED;
    bool alpha = false;
    bool have_w = false, have_h = false;
    char token[VQX_Y4M_HEADER_MAX];

    const char *s = params;
    while (*s) {
        if (*s == ' ') {
            s++;
            continue;
        }
        const size_t len = strcspn(s, " ");
        if (len >= sizeof(token)) {
            snprintf(why, why_len, "header parameter is too long");
            return -EINVAL;
        }
        memcpy(token, s, len);
        token[len] = 0;
        s += len;

        int ret = 0;
        switch (token[0]) {
        case 'W':
            ret = parse_dimension(token + 1, "width", &parsed.w, why, why_len);
            have_w = true;
            break;
        case 'H':
            ret = parse_dimension(token + 1, "height", &parsed.h, why, why_len);
            have_h = true;
            break;
        case 'C':
            ret = parse_colour(token + 1, &parsed, &alpha, why, why_len);
            break;
        case 'X': /* FFmpeg's XCOLORRANGE=FULL|LIMITED; other X tags carry nothing we need */
            if (!strcmp(token, "XCOLORRANGE=FULL")) tagged = VQX_RANGE_FULL;
            else if (!strcmp(token, "XCOLORRANGE=LIMITED")) tagged = VQX_RANGE_LIMITED;
            break;
        default: /* F, I, A and tags of future versions carry nothing we need */
            break;
        }
        if (ret < 0) return ret;
    }
    if (!have_w || !have_h) {
        snprintf(why, why_len, "header has no %s", !have_w ? "width (W tag)" : "height (H tag)");
        return -EINVAL;
    }
    *fmt = parsed;
    *has_alpha = alpha;
    *range = tagged;
    return 0;
}

/* A byte that may not appear inside a header line. */
static bool is_control(unsigned char c)
{
    return c < 0x20 || c == 0x7f;
}

int vqx_y4m_parse_header(const char *line, size_t len, size_t *used, VqxRawFormat *fmt,
                         bool *has_alpha, enum VqxColorRange *range, char *why,
                         size_t why_len)
{
    char params[VQX_Y4M_HEADER_MAX];
    size_t i = 0;
    for (;; i++) {
        if (i == len) {
            snprintf(why, why_len, "y4m header ends before its newline");
            return -EINVAL;
        }
        const unsigned char c = (unsigned char)line[i];
        if (c == '\n') break;
        if (is_control(c)) {
            snprintf(why, why_len, "y4m header contains the non-text byte 0x%02x", (unsigned)c);
            return -EINVAL;
        }
        if (i + VQX_Y4M_MAGIC_LEN + 2 > sizeof(params)) {
            snprintf(why, why_len, "y4m header is longer than %d bytes", VQX_Y4M_HEADER_MAX);
            return -EINVAL;
        }
        params[i] = (char)c;
    }
    params[i] = 0;
    *used = i + 1;
    return vqx_y4m_parse_params(params, fmt, has_alpha, range, why, why_len);
}

int vqx_y4m_parse_frame_header(const char *buf, size_t len, size_t *used,
                               char *why, size_t why_len)
{
    static const char tag[] = "FRAME";
    if (!len) return 0;
    const size_t tag_len = sizeof(tag) - 1;
    if (memcmp(buf, tag, len < tag_len ? len : tag_len)) {
        snprintf(why, why_len, "no FRAME header where one should start");
        return -EINVAL;
    }
    if (len > tag_len && buf[tag_len] != '\n' && buf[tag_len] != ' ') {
        snprintf(why, why_len, "FRAME is followed by the byte 0x%02x instead of a space or a newline",
                 (unsigned)(unsigned char)buf[tag_len]);
        return -EINVAL;
    }
    /* Frame parameters, if any, carry nothing we need. */
    for (size_t i = tag_len; i < len; i++) {
        if (buf[i] == '\n') {
            *used = i + 1;
            return 1;
        }
        if (i + 1 >= VQX_Y4M_HEADER_MAX) {
            snprintf(why, why_len, "frame header is longer than %d bytes", VQX_Y4M_HEADER_MAX);
            return -EINVAL;
        }
    }
    snprintf(why, why_len, "frame header is truncated");
    return -ENODATA;
}
