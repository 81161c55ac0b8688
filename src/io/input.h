/*
 * Video input for the CLI and the tests: y4m (detected from its header) and
 * raw planar yuv (geometry given by the caller). Not part of the public API.
 *
 * A frame is read with few large system calls straight into the picture's
 * planes (packed rows make a plane one block): no intermediate buffer, no
 * second pass over the samples (the peak check of deeper samples reads each
 * 512 KiB as it lands, in the cache: sample_bits). Regular files are read at computed offsets
 * (preadv), so that several threads may read different frames of one
 * input (vqx_input_read_at); pipes, FIFOs and terminals are read in order.
 */
#ifndef VQX_IO_INPUT_H
#define VQX_IO_INPUT_H

#include <stdint.h>
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
/* The same on a descriptor already open (standard input), read from its
 * current offset; `name` is used in messages. The input owns `fd` from
 * this call on, failure included: vqx_input_close closes it. */
int vqx_input_open_fd(VqxInput **in, int fd, const char *name, const VqxRawFormat *raw,
                      char *err, size_t err_len);
/* The same on a stdio stream (fmemopen), read in order from its current
 * position; the input owns `f` from this call on, failure included. */
int vqx_input_open_stream(VqxInput **in, FILE *f, const char *name,
                          const VqxRawFormat *raw, char *err, size_t err_len);
void vqx_input_close(VqxInput **in);

/* The stream's format (known after open), and the name messages give it. */
const VqxRawFormat *vqx_input_format(const VqxInput *in);
/* The pair's colour range (y4m's XCOLORRANGE tag; unspecified for raw input):
 * the reference's, else the distorted's. */
enum VqxColorRange vqx_input_pair_range(const VqxInput *ref, const VqxInput *dis);
const char *vqx_input_name(const VqxInput *in);

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

/* The planes the reads fill (bit p: plane p; every plane by default). The
 * others are skipped in the file, and left as they are in the picture. */
void vqx_input_set_planes(VqxInput *in, unsigned planes);
unsigned vqx_input_planes(const VqxInput *in);

/* Read the next frame into `pic`: into its buffer when it already holds a
 * picture of the stream's format (e.g. from vqx_picture_alloc_from),
 * otherwise into a freshly allocated one (vqx_picture_alloc). `pic` must be
 * zeroed or hold a picture. Samples are stored as the file has them (16-bit
 * words in host order); they are not range-checked (vqx_send_pictures is).
 * `sample_bits` (may be NULL) gets the OR of the samples read, but for their
 * low 8 bits (0 for 8-bit streams): taken read by read while the bytes are
 * in the cache, it tells against the bit depth's peak whether every sample
 * is in range, with no pass over the picture.
 * Returns 1 when a frame was read, 0 at a clean end of stream, and a negative
 * errno value with a message (naming the file and the frame number) for a
 * truncated frame, a bad frame header or a read error. Frames are numbered
 * from 0. Errors: -ENODATA truncated frame, -EINVAL bad frame header,
 * -EIO read error, -ENOMEM, -ECANCELED (vqx_input_cancel).
 * On any return but 1, `pic` holds no allocation. */
int vqx_input_read(VqxInput *in, VqxPicture *pic, uint16_t *sample_bits, char *err,
                   size_t err_len);

/* Skip n frames (same return convention as read, 1 when all were skipped):
 * regular files are not read but for y4m frame headers. */
int vqx_input_skip(VqxInput *in, unsigned n, char *err, size_t err_len);

/* Number of the next frame vqx_input_read reads. */
unsigned vqx_input_next_frame(const VqxInput *in);

/* Complete frames from the next one to the end of a regular file (y4m:
 * counting plain frame headers); UINT64_MAX when the size does not tell
 * (a pipe). */
uint64_t vqx_input_frames_left(const VqxInput *in);

/* Frames at fixed offsets: when the input is a regular file whose next
 * frame has a plain header (always for raw), the bytes from one frame to
 * the next, else 0. Frames from vqx_input_next_frame on may then be read
 * by vqx_input_read_at, from several threads at once. */
uint64_t vqx_input_fixed_stride(VqxInput *in);
/* Read frame `frame` (absolute number, not below vqx_input_next_frame) at
 * its computed offset; the input's position does not move. Returns as
 * vqx_input_read, or VQX_INPUT_NOT_FIXED (and no message) when the frame's
 * header carries parameters: from that frame on, frames are not at fixed
 * offsets, and vqx_input_seek(in, frame) lets vqx_input_read go on there.
 * Thread-safe: it changes nothing in `in`. */
int vqx_input_read_at(VqxInput *in, unsigned frame, VqxPicture *pic, uint16_t *sample_bits,
                      char *err, size_t err_len);
#define VQX_INPUT_NOT_FIXED 2
/* Make frame `frame`, at its fixed offset, the next one vqx_input_read
 * reads (every frame before it has a plain header). */
void vqx_input_seek(VqxInput *in, unsigned frame);

/* From any thread: a read waiting for a pipe to deliver, now or later,
 * returns -ECANCELED within a fraction of a second. */
void vqx_input_cancel(VqxInput *in);

#endif
