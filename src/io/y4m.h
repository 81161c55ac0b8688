/*
 * YUV4MPEG2 stream and frame headers. These functions know nothing of file
 * names: they describe a problem in `why` and the caller adds the name.
 */
#ifndef VQX_IO_Y4M_H
#define VQX_IO_Y4M_H

#include <stdbool.h>
#include <stddef.h>

#include "io/input.h"

#define VQX_Y4M_MAGIC "YUV4MPEG2 "
#define VQX_Y4M_MAGIC_LEN 10

/* Largest stream or frame header line accepted, newline included. */
#define VQX_Y4M_HEADER_MAX 4096

/* Largest width or height accepted (that of vqx_picture_alloc). */
#define VQX_Y4M_MAX_DIMENSION 65536u

/* Parse the parameters of a stream header, `params` being the line after
 * the magic without its newline. `has_alpha` tells that frames carry a
 * fourth, luma-sized plane (444alpha); `range` gets FFmpeg's XCOLORRANGE
 * tag (unspecified without one). Returns 0 or -EINVAL. */
int vqx_y4m_parse_params(const char *params, VqxRawFormat *fmt, bool *has_alpha,
                         enum VqxColorRange *range, char *why, size_t why_len);

/* Parse a stream header line from the bytes after the magic: `len` bytes,
 * of which the line is a prefix (VQX_Y4M_HEADER_MAX - VQX_Y4M_MAGIC_LEN are
 * enough to tell). `used` gets the line's length, newline included.
 * Returns 0 or -EINVAL. */
int vqx_y4m_parse_header(const char *line, size_t len, size_t *used, VqxRawFormat *fmt,
                         bool *has_alpha, enum VqxColorRange *range, char *why,
                         size_t why_len);

/* The plain frame header, which most writers use for every frame. */
#define VQX_Y4M_FRAME "FRAME\n"
#define VQX_Y4M_FRAME_LEN 6

/* Parse a "FRAME[ params]\n" line at the start of `len` bytes (the stream's
 * end follows them when fewer than VQX_Y4M_HEADER_MAX). Returns 1 with
 * `used` its length, 0 when `len` is 0 (the clean end of the stream),
 * -ENODATA when the bytes end inside it and -EINVAL when it is not a frame
 * header. */
int vqx_y4m_parse_frame_header(const char *buf, size_t len, size_t *used,
                               char *why, size_t why_len);

#endif
