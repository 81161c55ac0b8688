/*
 * CUDA benchmark of vqx.
 *   cuda_bench api W H BPC FRAMES cpu|cuda|vulkan THREADS [WHAT]
 *       throughput at the API level from frames already in host memory
 *       (pictures the caller owns), after 8 warm-up frames. WHAT: a model
 *       (version=NAME or path=FILE; default version=vmaf_v0.6.1) or a
 *       feature (NAME or NAME=K=V:K=V).
 *   cuda_bench h2d
 *       pinned host-to-device bandwidth (cudaMemcpyAsync, median of 20 copies
 *       of 256 MiB) and single-thread memcpy bandwidth into pinned memory.
 *   cuda_bench copy BYTES
 *       the staging copy's rate: BYTES from pageable into pinned memory,
 *       split over 1, 2, 4, 8 and 16 threads (median of 9 copies each).
 *   cuda_bench y4m PATH W H BPC FRAMES ref|dis
 *       writes a 4:2:0 y4m clip (dis: ref with noise) for the CLI benchmark.
 * Prints one line "key: value ..." per measurement.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cuda_runtime_api.h>

#include "context.h"
#include "cuda/device.h"
#include "vqx/vqx.h"

#define SETS 8   /* distinct frame pairs, cycled */
#define WARMUP 8

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static uint32_t rng = 1;

static unsigned rnd(void)
{
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

/* a smooth moving pattern plus noise; dis adds more noise */
static void fill(VqxPicture *p, unsigned frame, int dis)
{
    const unsigned max = (1u << p->bpc) - 1;
    for (unsigned pl = 0; pl < 3; pl++)
        for (unsigned y = 0; y < p->h[pl]; y++) {
            uint8_t *row = (uint8_t *)p->data[pl] + y * p->stride[pl];
            for (unsigned x = 0; x < p->w[pl]; x++) {
                unsigned v = ((x + 3 * frame) * 5 + y * 3 + ((x * y) >> 7)) % 256;
                v = (v + rnd() % 8 + (dis ? rnd() % 16 : 0)) % 256;
                v = v * max / 255;
                if (p->bpc == 8) row[x] = (uint8_t)v;
                else ((uint16_t *)row)[x] = (uint16_t)v;
            }
        }
}

/* A model (version= or path=), or features with options, comma-separated. */
static int use(VqxContext *ctx, const char *what)
{
    if (!strncmp(what, "version=", 8) || !strncmp(what, "path=", 5))
        return vqx_use_model(ctx, what);
    while (*what) {
        char spec[256];
        const char *comma = strchr(what, ',');
        const size_t len = comma ? (size_t)(comma - what) : strlen(what);
        if (len >= sizeof(spec)) return -EINVAL;
        memcpy(spec, what, len);
        spec[len] = 0;
        char *eq = strchr(spec, '=');
        if (eq) *eq = 0;
        const int ret = vqx_use_feature(ctx, spec, eq ? eq + 1 : NULL);
        if (ret) return ret;
        what += len + (comma != NULL);
    }
    return 0;
}

static const char *const backend_names[] = { "cpu", "cuda", "vulkan" };

static enum VqxBackend backend_of(const char *name)
{
    for (unsigned b = 0; b < sizeof(backend_names) / sizeof(backend_names[0]); b++)
        if (!strcmp(name, backend_names[b])) return (enum VqxBackend)b;
    return VQX_BACKEND_CPU;
}

static int bench_api(unsigned w, unsigned h, unsigned bpc, unsigned frames,
                     enum VqxBackend backend, unsigned threads, const char *what)
{
    VqxPicture ref[SETS], dis[SETS];
    for (unsigned i = 0; i < SETS; i++) {
        if (vqx_picture_alloc(&ref[i], VQX_PIX_420, bpc, w, h) ||
            vqx_picture_alloc(&dis[i], VQX_PIX_420, bpc, w, h)) return 1;
        fill(&ref[i], i, 0);
        fill(&dis[i], i, 1);
    }
    VqxSettings s;
    vqx_default_settings(&s);
    s.backend = backend;
    const bool cuda = backend == VQX_BACKEND_CUDA;
    s.strict_backend = 1;
    s.n_threads = threads;
    VqxContext *ctx = NULL;
    if (vqx_open(&ctx, &s) || use(ctx, what)) {
        fprintf(stderr, "cuda_bench: %s\n", vqx_last_error(ctx));
        return 1;
    }
    if (cuda) vqx_device_profile(vqx_ctx_device(ctx), true);
    double t0 = 0;
    for (unsigned n = 0; n < frames + WARMUP; n++) {
        if (n == WARMUP) t0 = now();
        /* caller-owned pictures: the library reads them, never frees them */
        VqxPicture r = ref[n % SETS], d = dis[n % SETS];
        r.buf = d.buf = NULL;
        if (vqx_send_pictures(ctx, &r, &d)) {
            fprintf(stderr, "cuda_bench: %s\n", vqx_last_error(ctx));
            return 1;
        }
    }
    if (vqx_flush(ctx)) {
        fprintf(stderr, "cuda_bench: %s\n", vqx_last_error(ctx));
        return 1;
    }
    const double t = now() - t0;
    printf("api: %s %ux%u %u-bit backend=%s threads=%u frames=%u seconds=%.4f fps=%.1f "
           "ms_per_frame=%.3f", what, w, h, bpc, backend_names[backend], threads, frames, t,
           frames / t, t / frames * 1e3);
    double vmaf;
    if (!vqx_score_pooled(ctx, "vmaf", VQX_POOL_MEAN, 0, frames + WARMUP - 1, &vmaf))
        printf(" vmaf_mean=%.6f", vmaf);
    if (cuda) {
        unsigned timed;
        const double ms = vqx_device_gpu_ms(vqx_ctx_device(ctx), &timed);
        printf(" gpu_ms_per_frame=%.4f gpu_bound_fps=%.1f blocks=%d", ms / timed, timed / ms * 1e3,
               VQX_DEVICE_BLOCKS);
    }
    printf("\n");
    vqx_close(&ctx);
    for (unsigned i = 0; i < SETS; i++) {
        vqx_picture_free(&ref[i]);
        vqx_picture_free(&dis[i]);
    }
    return 0;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

#define CK(call) do { cudaError_t e_ = (call); if (e_) { \
    fprintf(stderr, "cuda_bench: %s: %s\n", #call, cudaGetErrorString(e_)); return 1; } } while (0)

static int bench_h2d(void)
{
    const size_t bytes = (size_t)256 << 20;
    void *host, *dev;
    cudaStream_t st;
    cudaEvent_t a, b;
    CK(cudaHostAlloc(&host, bytes, cudaHostAllocDefault));
    CK(cudaMalloc(&dev, bytes));
    CK(cudaStreamCreate(&st));
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    memset(host, 1, bytes);
    double gbs[20];
    for (int i = -3; i < 20; i++) {
        CK(cudaEventRecord(a, st));
        CK(cudaMemcpyAsync(dev, host, bytes, cudaMemcpyHostToDevice, st));
        CK(cudaEventRecord(b, st));
        CK(cudaEventSynchronize(b));
        float ms;
        CK(cudaEventElapsedTime(&ms, a, b));
        if (i >= 0) gbs[i] = bytes / (ms * 1e-3) / 1e9;
    }
    qsort(gbs, 20, sizeof(double), cmp_double);
    printf("h2d_pinned_GBps: %.2f (median of 20 x 256 MiB; min %.2f max %.2f)\n", gbs[10], gbs[0], gbs[19]);
    uint8_t *src = malloc(bytes);
    if (!src) return 1;
    memset(src, 2, bytes);
    double best[5];
    for (int i = 0; i < 5; i++) {
        const double t = now();
        memcpy(host, src, bytes);
        best[i] = bytes / (now() - t) / 1e9;
    }
    qsort(best, 5, sizeof(double), cmp_double);
    printf("memcpy_to_pinned_GBps: %.2f (one thread, median of 5 x 256 MiB)\n", best[2]);
    free(src);
    cudaFreeHost(host);
    cudaFree(dev);
    return 0;
}

typedef struct CopyShare {
    uint8_t *dst;
    const uint8_t *src;
    size_t bytes;
} CopyShare;

static void *copy_share(void *arg)
{
    const CopyShare *c = arg;
    memcpy(c->dst, c->src, c->bytes);
    return NULL;
}

static int bench_copy(size_t bytes)
{
    uint8_t *host, *src = malloc(bytes);
    if (!src) return 1;
    CK(cudaHostAlloc((void **)&host, bytes, cudaHostAllocDefault));
    memset(src, 3, bytes);
    memset(host, 0, bytes);
    static const unsigned counts[] = { 1, 2, 4, 8, 16 };
    for (unsigned c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
        const unsigned n = counts[c];
        pthread_t th[16];
        CopyShare share[16];
        double rate[9];
        for (int rep = 0; rep < 9; rep++) {
            const double t = now();
            for (unsigned i = 0; i < n; i++) {
                const size_t a = bytes * i / n, b = bytes * (i + 1) / n;
                share[i] = (CopyShare){ host + a, src + a, b - a };
                if (i) pthread_create(&th[i], NULL, copy_share, &share[i]);
            }
            copy_share(&share[0]);
            for (unsigned i = 1; i < n; i++) pthread_join(th[i], NULL);
            rate[rep] = bytes / (now() - t) / 1e9;
        }
        qsort(rate, 9, sizeof(double), cmp_double);
        printf("copy_to_pinned_GBps: %.2f (%zu bytes, %u threads, median of 9)\n", rate[4], bytes, n);
    }
    cudaFreeHost(host);
    free(src);
    return 0;
}

static int write_y4m(const char *path, unsigned w, unsigned h, unsigned bpc, unsigned frames,
                     int dis)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        perror(path);
        return 1;
    }
    fprintf(f, "YUV4MPEG2 W%u H%u F25:1 Ip A1:1 C%s\n", w, h,
            bpc == 8 ? "420jpeg" : bpc == 10 ? "420p10" : bpc == 12 ? "420p12" : "420p16");
    VqxPicture p[SETS];
    for (unsigned i = 0; i < SETS; i++) {
        if (vqx_picture_alloc(&p[i], VQX_PIX_420, bpc, w, h)) return 1;
        rng = 1 + i;
        fill(&p[i], i, dis);
    }
    const unsigned bps = bpc == 8 ? 1 : 2;
    for (unsigned n = 0; n < frames; n++) {
        const VqxPicture *q = &p[n % SETS];
        fputs("FRAME\n", f);
        for (unsigned pl = 0; pl < 3; pl++)
            for (unsigned y = 0; y < q->h[pl]; y++)
                fwrite((const uint8_t *)q->data[pl] + y * q->stride[pl], bps, q->w[pl], f);
    }
    for (unsigned i = 0; i < SETS; i++) vqx_picture_free(&p[i]);
    return fclose(f) ? 1 : 0;
}

int main(int argc, char **argv)
{
    if ((argc == 8 || argc == 9) && !strcmp(argv[1], "api"))
        return bench_api((unsigned)atoi(argv[2]), (unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]),
                         (unsigned)atoi(argv[5]), backend_of(argv[6]), (unsigned)atoi(argv[7]),
                         argc == 9 ? argv[8] : "version=vmaf_v0.6.1");
    if (argc == 2 && !strcmp(argv[1], "h2d")) return bench_h2d();
    if (argc == 3 && !strcmp(argv[1], "copy")) return bench_copy((size_t)strtoull(argv[2], NULL, 10));
    if (argc == 8 && !strcmp(argv[1], "y4m"))
        return write_y4m(argv[2], (unsigned)atoi(argv[3]), (unsigned)atoi(argv[4]),
                         (unsigned)atoi(argv[5]), (unsigned)atoi(argv[6]), !strcmp(argv[7], "dis"));
    fprintf(stderr, "usage: %s api W H BPC FRAMES cpu|cuda|vulkan THREADS [WHAT] | h2d | copy BYTES | "
            "y4m PATH W H BPC FRAMES ref|dis\n",
            argv[0]);
    return 2;
}
