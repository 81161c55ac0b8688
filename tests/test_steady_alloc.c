/*
 * Steady state allocates nothing: with every feature and a model requested,
 * pictures taken from the context (vqx_picture_alloc_from) and sent, 100
 * frames after the first ones make no call to the allocator, with and
 * without worker threads. The test counts calls by defining the allocator's
 * entry points over glibc's own (__libc_*); sanitizer builds replace the
 * allocator themselves, so there it says so and skips.
 */
#include <errno.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "vqx/vqx.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define SANITIZED 1
#endif
#endif

#ifndef SANITIZED
extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);
extern void __libc_free(void *);

static atomic_uint allocations;

void *malloc(size_t n)
{
    atomic_fetch_add(&allocations, 1);
    return __libc_malloc(n);
}

void *calloc(size_t n, size_t size)
{
    atomic_fetch_add(&allocations, 1);
    return __libc_calloc(n, size);
}

void *realloc(void *p, size_t n)
{
    atomic_fetch_add(&allocations, 1);
    return __libc_realloc(p, n);
}

void *aligned_alloc(size_t align, size_t n)
{
    atomic_fetch_add(&allocations, 1);
    return __libc_memalign(align, n);
}

int posix_memalign(void **p, size_t align, size_t n)
{
    atomic_fetch_add(&allocations, 1);
    *p = __libc_memalign(align, n);
    return *p ? 0 : ENOMEM;
}

void free(void *p)
{
    if (p) atomic_fetch_add(&allocations, 1);
    __libc_free(p);
}
#endif

#ifndef SANITIZED
#define W 256
#define H 224
#define WARM_UP 12
#define COUNTED 100
/* temporal features write a frame's value once later frames came */
#define TAIL 8

static unsigned rng = 1;

static void fill(VqxPicture *p, unsigned frame, unsigned salt)
{
    for (unsigned c = 0; c < vqx_picture_planes(p); c++)
        for (unsigned y = 0; y < p->h[c]; y++) {
            uint8_t *row = (uint8_t *)p->data[c] + (ptrdiff_t)y * p->stride[c];
            for (unsigned x = 0; x < p->w[c]; x++) {
                rng = rng * 1103515245u + 12345u;
                row[x] = (uint8_t)((x * 3 + y * 5 + frame * 7 + salt) % 200 + (rng >> 28));
            }
        }
}

static void no_notice(void *cookie, const char *msg)
{
    (void)cookie;
    (void)msg;
}

static void check_threads(unsigned threads)
{
    VqxSettings s;
    vqx_default_settings(&s);
    s.n_threads = threads;
    s.notice = no_notice;
    VqxContext *ctx = NULL;
    CHECK(vqx_open(&ctx, &s) == 0, "open");
    for (unsigned i = 0; vqx_feature_name(i); i++)
        CHECK(vqx_use_feature(ctx, vqx_feature_name(i), NULL) == 0, "%s: %s", vqx_feature_name(i),
              vqx_last_error(ctx));
    CHECK(vqx_use_model(ctx, "version=vmaf_v0.6.1") == 0, "model: %s", vqx_last_error(ctx));
    /* the counting sees the library's calls: loading the model makes many */
    CHECK(atomic_load(&allocations) > 100, "the allocator's calls are not counted");

    unsigned start = 0;
    for (unsigned f = 0; f < WARM_UP + COUNTED + TAIL; f++) {
        if (f == WARM_UP) start = atomic_load(&allocations);
        VqxPicture ref, dis;
        CHECK(vqx_picture_alloc_from(ctx, &ref, VQX_PIX_420, 8, W, H) == 0, "alloc");
        CHECK(vqx_picture_alloc_from(ctx, &dis, VQX_PIX_420, 8, W, H) == 0, "alloc");
        fill(&ref, f, 0);
        fill(&dis, f, 1);
        CHECK(vqx_send_pictures(ctx, &ref, &dis) == 0, "send: %s", vqx_last_error(ctx));
    }
    /* the workers' work on the counted frames counts too: wait for it before
     * the flush, which runs once per stream */
    while (vqx_frames_complete(ctx) < WARM_UP + COUNTED) sched_yield();
    const unsigned counted = atomic_load(&allocations) - start;
    CHECK(vqx_flush(ctx) == 0, "flush: %s", vqx_last_error(ctx));
    CHECK(counted == 0, "%u threads: %u allocator calls over %u frames", threads, counted, COUNTED);
    CHECK(vqx_frame_count(ctx) == WARM_UP + COUNTED + TAIL, "frames");
    vqx_close(&ctx);
}

#endif

int main(void)
{
#ifdef SANITIZED
    printf("SKIP: a sanitizer replaces the allocator, whose calls this test counts\n");
    return 77;
#else
    check_threads(0);
    check_threads(2);
    return check_report();
#endif
}
