/*
 * Reader threads: the frames of one input read ahead, into pictures from a
 * context's pool, and handed out in order, so that reading overlaps
 * scoring. A regular file whose frames lie at fixed offsets (raw; y4m with
 * plain "FRAME\n" headers) may be read by several threads at once, each
 * frame at its own offset; anything else by one thread in order.
 */
#ifndef VQX_IO_READER_H
#define VQX_IO_READER_H

#include "io/input.h"
#include "vqx/vqx.h"

typedef struct VqxReader VqxReader;

/* Most reader threads one input gets. */
#define VQX_READER_MAX_THREADS 8

typedef struct VqxReaderSettings {
    VqxContext *ctx;  /* pictures come from vqx_picture_alloc_from(ctx) */
    unsigned limit;   /* frames to read at most, 0: every frame */
    /* Threads, 0: chosen from the frame size and the processors online.
     * An input whose frames are not at fixed offsets gets one. */
    unsigned threads;
} VqxReaderSettings;

/* Start reading `in` from its next frame, the planes vqx_input_set_planes
 * chose. The input must stay open until vqx_reader_stop, and is read by
 * the reader only. Returns 0 or a negative errno with a message. */
int vqx_reader_start(VqxReader **r, VqxInput *in, const VqxReaderSettings *s,
                     char *err, size_t err_len);

/* The next frame, in order; returns as vqx_input_read (1 a frame, 0 the
 * end, a negative errno with its message), and once it has returned
 * anything but 1, the same again. `pic` is overwritten: on 1 it holds a
 * picture of the pool, otherwise nothing. */
int vqx_reader_next(VqxReader *r, VqxPicture *pic, char *err, size_t err_len);

/* Threads reading (1 for an input read in order). */
unsigned vqx_reader_threads(const VqxReader *r);

/* Stop the threads (a read waiting for a pipe is cancelled) and free the
 * frames read ahead. The input can then only be closed. */
void vqx_reader_stop(VqxReader **r);

#endif
