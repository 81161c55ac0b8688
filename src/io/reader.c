/*
 * Reader threads. Frame i of the reader goes to slot i % depth; a thread
 * claims the next frame while its slot is free, reads it outside the lock
 * and marks the slot ready; the consumer takes slots in order. With several
 * threads every frame is read at its computed offset. A frame whose header
 * turns out to carry parameters (so later frames are not where computed)
 * is met by the consumer in order, with every frame before it read
 * correctly: reading then goes on from there by one thread in order, and
 * what the others read past it is dropped (`gen`).
 */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "context.h"
#include "io/reader.h"

#define MSG_LEN 512
/* Frames ready beyond those being read: how far reading runs ahead. */
#define READY_AHEAD 2
/* Chosen counts: a thread per this many bytes of a frame, at most
 * AUTO_MAX_THREADS, and at most a quarter of the processors, the rest being
 * the scoring's. On 16 processors (docs/PERF.md) 1080p 8-bit reads half as
 * fast again with 2 threads as with 1, and 2160p is fastest with 4 once
 * scoring competes for the processors. When a device scores every feature
 * the processors are the readers': up to VQX_READER_MAX_THREADS each, and
 * half of them (the two inputs take them all). */
#define BYTES_PER_THREAD (2u << 20)
#define AUTO_MAX_THREADS 4

typedef struct Slot {
    VqxPicture pic;
    int status;  /* of a ready slot: as vqx_input_read_at */
    bool ready;
    char msg[MSG_LEN];
} Slot;

typedef struct Worker {
    VqxReader *r;
    unsigned id;
    pthread_t thread;
} Worker;

struct VqxReader {
    VqxInput *in;
    VqxContext *ctx;
    VqxRawFormat fmt;
    unsigned first;          /* the input's number of the reader's frame 0 */
    unsigned limit;          /* frames to hand out at most */
    bool fixed;              /* every thread reads at offsets; else thread 0 in order */
    unsigned gen;            /* bumped when fixed reading gives way to in order */

    pthread_mutex_t lock;
    pthread_cond_t ready_cond; /* a slot became ready */
    pthread_cond_t free_cond;  /* a slot was taken, the mode changed, or stop */
    Slot *slots;
    unsigned depth;
    unsigned claim;          /* next frame to read */
    unsigned take;           /* next frame to hand out */
    unsigned end;            /* no frame from here on is read */
    bool stop;
    bool finished;           /* `final` was handed out and stays */
    int final;
    char final_msg[MSG_LEN];

    Worker workers[VQX_READER_MAX_THREADS];
    unsigned n_workers;
};

static int read_frame(VqxReader *r, bool fixed, unsigned i, VqxPicture *pic, char *msg)
{
    if (vqx_ctx_picture_alloc(r->ctx, pic, r->fmt.layout, r->fmt.bpc, r->fmt.w, r->fmt.h,
                              vqx_input_planes(r->in))) {
        vqx_input_frame_message(vqx_input_name(r->in), &r->fmt, VQX_INPUT_CANNOT_ALLOCATE, msg, MSG_LEN);
        return -ENOMEM;
    }
    uint16_t bits = 0;
    const int status = fixed ? vqx_input_read_at(r->in, r->first + i, pic, &bits, msg, MSG_LEN)
                             : vqx_input_read(r->in, pic, &bits, msg, MSG_LEN);
    if (status == 1 && !(bits & ~((1u << r->fmt.bpc) - 1)))
        vqx_ctx_mark_in_range(r->ctx, pic, vqx_input_planes(r->in));
    return status;
}

static void *work(void *arg)
{
    Worker *w = arg;
    VqxReader *r = w->r;
    pthread_mutex_lock(&r->lock);
    while (!r->stop && (r->fixed || !w->id)) {
        if (r->claim >= r->end || r->claim >= r->take + r->depth) {
            pthread_cond_wait(&r->free_cond, &r->lock);
            continue;
        }
        const unsigned i = r->claim++, gen = r->gen;
        const bool fixed = r->fixed;
        pthread_mutex_unlock(&r->lock);

        VqxPicture pic;
        char msg[MSG_LEN] = "";
        const int status = read_frame(r, fixed, i, &pic, msg);

        pthread_mutex_lock(&r->lock);
        if (gen != r->gen) { /* read where frame i is no longer known to be */
            vqx_picture_free(&pic);
            continue;
        }
        Slot *slot = &r->slots[i % r->depth];
        slot->pic = pic;
        slot->status = status;
        slot->ready = true;
        memcpy(slot->msg, msg, sizeof(msg));
        if (status != 1 && r->end > i + 1) r->end = i + 1;
        pthread_cond_signal(&r->ready_cond);
    }
    pthread_mutex_unlock(&r->lock);
    return NULL;
}

/* Frame `i` has a header with parameters: from it on, thread 0 reads in
 * order (the others end), and every frame read past it is dropped. Called
 * with the lock held, by the consumer, frame i being the next it takes. */
static void read_in_order_from(VqxReader *r, unsigned i)
{
    for (unsigned k = 0; k < r->depth; k++) {
        vqx_picture_free(&r->slots[k].pic);
        r->slots[k].ready = false;
    }
    r->fixed = false;
    r->gen++;
    r->claim = i;
    r->end = r->limit;
    vqx_input_seek(r->in, r->first + i);
    pthread_cond_broadcast(&r->free_cond);
}

int vqx_reader_next(VqxReader *r, VqxPicture *pic, char *err, size_t err_len)
{
    memset(pic, 0, sizeof(*pic));
    pthread_mutex_lock(&r->lock);
    while (!r->finished) {
        if (r->take >= r->limit) {
            r->finished = true;
            r->final = 0;
            break;
        }
        Slot *slot = &r->slots[r->take % r->depth];
        if (!slot->ready) {
            pthread_cond_wait(&r->ready_cond, &r->lock);
            continue;
        }
        if (slot->status == VQX_INPUT_NOT_FIXED) {
            read_in_order_from(r, r->take);
            continue;
        }
        slot->ready = false;
        if (slot->status == 1) {
            *pic = slot->pic;
            memset(&slot->pic, 0, sizeof(slot->pic));
            r->take++;
            pthread_cond_broadcast(&r->free_cond);
            pthread_mutex_unlock(&r->lock);
            return 1;
        }
        r->finished = true;
        r->final = slot->status;
        memcpy(r->final_msg, slot->msg, sizeof(r->final_msg));
    }
    const int status = r->final;
    if (status < 0 && err && err_len) snprintf(err, err_len, "%s", r->final_msg);
    pthread_mutex_unlock(&r->lock);
    return status;
}

unsigned vqx_reader_threads(const VqxReader *r)
{
    return r->n_workers;
}

static unsigned choose_threads(unsigned asked, uint64_t frame_bytes, bool cpu_scores)
{
    if (asked) return asked < VQX_READER_MAX_THREADS ? asked : VQX_READER_MAX_THREADS;
    const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    const uint64_t most = cpu_scores ? AUTO_MAX_THREADS : VQX_READER_MAX_THREADS;
    const uint64_t by_size = (frame_bytes + BYTES_PER_THREAD - 1) / BYTES_PER_THREAD;
    uint64_t n = by_size < most ? by_size : most;
    const uint64_t share = cpus > 0 ? (uint64_t)cpus / (cpu_scores ? 4 : 2) : n;
    if (n > share) n = share;
    return n ? (unsigned)n : 1;
}

void vqx_reader_stop(VqxReader **pr)
{
    VqxReader *r = pr ? *pr : NULL;
    if (!r) return;
    pthread_mutex_lock(&r->lock);
    r->stop = true;
    pthread_cond_broadcast(&r->free_cond);
    pthread_mutex_unlock(&r->lock);
    vqx_input_cancel(r->in);
    for (unsigned i = 0; i < r->n_workers; i++)
        pthread_join(r->workers[i].thread, NULL);
    for (unsigned k = 0; k < r->depth; k++)
        vqx_picture_free(&r->slots[k].pic);
    pthread_cond_destroy(&r->free_cond);
    pthread_cond_destroy(&r->ready_cond);
    pthread_mutex_destroy(&r->lock);
    free(r->slots);
    free(r);
    *pr = NULL;
}

int vqx_reader_start(VqxReader **out, VqxInput *in, const VqxReaderSettings *s,
                     char *err, size_t err_len)
{
    *out = NULL;
    VqxReader *r = calloc(1, sizeof(*r));
    if (!r) {
        snprintf(err, err_len, "out of memory");
        return -ENOMEM;
    }
    r->in = in;
    r->ctx = s->ctx;
    r->fmt = *vqx_input_format(in);
    r->first = vqx_input_next_frame(in);
    r->limit = s->limit ? s->limit : UINT_MAX;
    r->end = r->limit;
    const uint64_t stride = vqx_input_fixed_stride(in);
    /* one thread reads in order: the same speed, and no fallback */
    const unsigned n = stride ? choose_threads(s->threads, stride, vqx_ctx_scores_on_cpu(s->ctx)) : 1;
    r->fixed = n > 1;
    r->depth = n + READY_AHEAD;
    r->slots = calloc(r->depth, sizeof(*r->slots));
    int ret = r->slots ? pthread_mutex_init(&r->lock, NULL) : ENOMEM;
    const int ready_ret = ret ? ret : pthread_cond_init(&r->ready_cond, NULL);
    const int free_ret = ready_ret ? ready_ret : pthread_cond_init(&r->free_cond, NULL);
    if (free_ret) {
        if (!ready_ret) pthread_cond_destroy(&r->ready_cond);
        if (!ret) pthread_mutex_destroy(&r->lock);
        free(r->slots);
        free(r);
        snprintf(err, err_len, "cannot start reading: %s", strerror(free_ret));
        return -free_ret;
    }
    for (unsigned i = 0; i < n && !ret; i++) {
        r->workers[i] = (Worker){ r, i, 0 };
        ret = pthread_create(&r->workers[i].thread, NULL, work, &r->workers[i]);
        if (!ret) r->n_workers++;
    }
    if (ret) {
        vqx_reader_stop(&r);
        snprintf(err, err_len, "cannot start a reader thread: %s", strerror(ret));
        return -ret;
    }
    *out = r;
    return 0;
}
