/*
 * YUV4MPEG2 stream and frame headers. These functions know nothing of file
 * names: they describe a problem in `why` and the caller adds the name.
 */
#ifndef VQX_IO_Y4M_H
#define VQX_IO_Y4M_H

#include <stdbool.h>
#include <stdio.h>

#include "io/input.h"

#define VQX_Y4M_MAGIC "YUV4MPEG2 "
#define VQX_Y4M_MAGIC_LEN 10

/* Largest stream or frame header line accepted, newline included. */
#define VQX_Y4M_HEADER_MAX 4096

/* Largest width or height accepted (that of vqx_picture_alloc). */
#define VQX_Y4M_MAX_DIMENSION 65536u

/* Parse the parameters of a stream header, `params` being the line after
 * the magic without its newline. `has_alpha` tells that frames carry a
 * fourth, luma-sized plane (444alpha). Returns 0 or -EINVAL. */
int vqx_y4m_parse_params(const char *params, VqxRawFormat *fmt,
                         bool *has_alpha, char *why, size_t why_len);

/* Read the rest of a stream header from `f`, positioned just after the
 * magic, up to and including its newline. Returns 0 or a negative errno. */
int vqx_y4m_read_header(FILE *f, VqxRawFormat *fmt, bool *has_alpha,
                        char *why, size_t why_len);

/* Read a "FRAME[ params]\n" line. Returns 1 when one was read, 0 at a clean
 * end of stream, -ENODATA when the stream ends inside it, -EINVAL when it is
 * not a frame header and -EIO on a read error. */
int vqx_y4m_read_frame_header(FILE *f, char *why, size_t why_len);

#endif
