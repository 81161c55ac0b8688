/*
 * Video input for the CLI and the tests: y4m (detected from its header) and
 * raw planar yuv (geometry given by the caller). Not part of the public API.
 */
#ifndef VQX_IO_INPUT_H
#define VQX_IO_INPUT_H

#include <stdio.h>

#include "vqx/vqx.h"

typedef struct VqxInput VqxInput;

typedef struct VqxRawFormat {
    unsigned w, h, bpc;
    enum VqxPixelLayout layout;
} VqxRawFormat;

/* Open `path`. A file that starts with "YUV4MPEG2 " is read as y4m (`raw`
 * is ignored); anything else needs `raw` (NULL: an error saying so). Every
 * failure writes one line naming the file and the problem to `err`.
 * Returns 0 or a negative errno value. */
int vqx_input_open(VqxInput **in, const char *path, const VqxRawFormat *raw,
                   char *err, size_t err_len);
/* The same on a stream already open (stdin, fmemopen), read from its
 * current position; `name` is used in messages. The input owns `f` from
 * this call on, failure included: vqx_input_close closes it. */
int vqx_input_open_stream(VqxInput **in, FILE *f, const char *name,
                          const VqxRawFormat *raw, char *err, size_t err_len);
void vqx_input_close(VqxInput **in);

/* The stream's format (known after open). */
const VqxRawFormat *vqx_input_format(const VqxInput *in);

/* Frames with a plane of VQX_INPUT_MAX_PLANE_SAMPLES samples or more are
 * refused at open (before any allocation: with overcommit, allocating such
 * a frame can succeed and fail only when used). 2^31 keeps a plane's sample
 * count within an int, as cambi's pooling counts them. */
#define VQX_INPUT_MAX_PLANE_SAMPLES (1ull << 31)

/* Write "NAME: a WxH 4:2:0 8-bit frame needs SIZE, WHY" to `err`, for a
 * frame of `fmt` that is refused or could not be allocated. */
void vqx_input_frame_message(const char *name, const VqxRawFormat *fmt, const char *why,
                             char *err, size_t err_len);
#define VQX_INPUT_CANNOT_ALLOCATE "which cannot be allocated"

/* Read the next frame into `pic`: into its buffer when it already holds a
 * picture of the stream's format (e.g. from vqx_picture_alloc_from),
 * otherwise into a freshly allocated one (vqx_picture_alloc). `pic` must be
 * zeroed or hold a picture.
 * Returns 1 when a frame was read, 0 at a clean end of stream, and a negative
 * errno value with a message (naming the file and the frame number) for a
 * truncated frame, a bad frame header or a read error. Frames are numbered
 * from 0. Errors: -ENODATA truncated frame, -EINVAL bad frame header,
 * -ERANGE a sample above the bit depth's maximum, -EIO read error, -ENOMEM.
 * On any return but 1, `pic` holds no allocation. */
int vqx_input_read(VqxInput *in, VqxPicture *pic, char *err, size_t err_len);

/* Skip n frames (same return convention as read, 1 when all were skipped). */
int vqx_input_skip(VqxInput *in, unsigned n, char *err, size_t err_len);

#endif
