/*
 * vqx_bench: throughput of the vqx API on frames held in memory.
 *
 * A pool of frame pairs is loaded once (from y4m or raw files, or made up
 * with --synthetic), then each configuration (feature set x thread count)
 * scores --frames frames, visiting the pool forwards and backwards so that
 * motion stays smooth. The pictures sent are borrowed views of the pool
 * (VqxPicture.buf NULL): no sample is copied inside the timed loop. What a
 * copy of each pair would cost is measured on its own and printed as
 * copy_ms_per_frame, for applications that must copy decoded frames.
 *
 * The timed span of a repeat runs from the first vqx_send_pictures to the
 * end of vqx_flush: it includes the extractors' init (run at the first
 * frame) and model prediction, not the context set-up or the model load.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "io/input.h"
#include "vqx/vqx.h"

#define MAX_ITEMS 64
#define MAX_REPEAT 101

typedef struct Spec {
    bool is_model;
    const char *name;    /* feature name, or model spec */
    const char *options; /* feature options "k=v:k=v", NULL: defaults */
    char model_spec[256];
    char label[64];
} Spec;

typedef struct Bench {
    Spec specs[MAX_ITEMS];
    unsigned n_specs;
    bool each;                 /* one configuration per spec */
    unsigned threads[MAX_ITEMS];
    unsigned n_threads;
    unsigned frames, pool_size, warmup, repeat;
    unsigned cpumask;          /* VqxSettings.cpumask: 63 times the scalar C */
    const char *ref_path, *dis_path;
    VqxRawFormat raw;
    unsigned raw_fields;
    VqxRawFormat synthetic;
    bool use_synthetic;
    const char *dump_ref, *dump_dis;
    VqxPicture *ref, *dis;     /* the pool */
    unsigned n_pool;
    double copy_ms;
} Bench;

static double clock_seconds(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now_seconds(void)
{
    return clock_seconds(CLOCK_MONOTONIC);
}

/* ---- synthetic content ---- */

static uint32_t hash3(uint32_t x, uint32_t y, uint32_t seed)
{
    uint32_t h = x * 0x8da6b343u ^ y * 0xd8163841u ^ seed * 0xcb1ab31fu;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    return h;
}

static float unit_hash(uint32_t x, uint32_t y, uint32_t seed)
{
    return (hash3(x, y, seed) >> 8) * (1.0f / 16777216.0f);
}

/* Value noise: random values on a lattice of `cell` pixels, smoothly
 * interpolated; in [0, 1). */
static float value_noise(uint32_t x, uint32_t y, uint32_t cell, uint32_t seed)
{
    const uint32_t cx = x / cell, cy = y / cell;
    float fx = (float)(x % cell) / cell, fy = (float)(y % cell) / cell;
    fx = fx * fx * (3 - 2 * fx);
    fy = fy * fy * (3 - 2 * fy);
    const float top = unit_hash(cx, cy, seed) * (1 - fx) + unit_hash(cx + 1, cy, seed) * fx;
    const float bottom = unit_hash(cx, cy + 1, seed) * (1 - fx) + unit_hash(cx + 1, cy + 1, seed) * fx;
    return top * (1 - fy) + bottom * fy;
}

/* Natural-ish texture in [0, 1): octaves of falling weight (a roughly 1/f
 * spectrum), sharp-edged blobs from a thresholded octave, and fine grain. */
static float texture(uint32_t x, uint32_t y, uint32_t seed)
{
    const float coarse = value_noise(x, y, 96, seed);
    const float edges = value_noise(x, y, 40, seed + 1) > 0.5f ? 1.0f : 0.0f;
    return 0.40f * coarse + 0.20f * edges + 0.22f * value_noise(x, y, 24, seed + 2) +
           0.12f * value_noise(x, y, 6, seed + 3) + 0.06f * unit_hash(x, y, seed + 4);
}

static void put_sample(VqxPicture *pic, unsigned p, unsigned x, unsigned y, unsigned v)
{
    uint8_t *row = (uint8_t *)pic->data[p] + y * pic->stride[p];
    if (pic->bpc > 8) ((uint16_t *)row)[x] = (uint16_t)v;
    else row[x] = (uint8_t)v;
}

static unsigned get_sample(const VqxPicture *pic, unsigned p, unsigned x, unsigned y)
{
    const uint8_t *row = (const uint8_t *)pic->data[p] + y * pic->stride[p];
    return pic->bpc > 8 ? ((const uint16_t *)row)[x] : row[x];
}

/* Frame t of the reference: the texture seen through a window that moves
 * 3 pixels right and 1 down per frame (half that in chroma). */
static void make_reference(VqxPicture *pic, unsigned t)
{
    const unsigned shift = pic->bpc - 8;
    for (unsigned p = 0; p < vqx_picture_planes(pic); p++) {
        const unsigned dx = p ? 3 * t / 2 : 3 * t, dy = p ? t / 2 : t;
        const float lo = p ? 64.0f : 16.0f, span = p ? 128.0f : 219.0f;
        for (unsigned y = 0; y < pic->h[p]; y++)
            for (unsigned x = 0; x < pic->w[p]; x++) {
                const float v = lo + span * texture(x + dx, y + dy, 17 * p + 1);
                put_sample(pic, p, x, y, (unsigned)v << shift);
            }
    }
}

/* The distorted picture: the reference under a [1 2 1] blur (edges
 * replicated) plus uniform noise of +-3 (8-bit scale). */
static void make_distorted(VqxPicture *dis, const VqxPicture *ref, unsigned t)
{
    const int max = (1 << ref->bpc) - 1, amp = 3 << (ref->bpc - 8);
    for (unsigned p = 0; p < vqx_picture_planes(ref); p++) {
        const unsigned w = ref->w[p], h = ref->h[p];
        for (unsigned y = 0; y < h; y++) {
            const unsigned ys[3] = { y ? y - 1 : 0, y, y + 1 < h ? y + 1 : h - 1 };
            for (unsigned x = 0; x < w; x++) {
                const unsigned xs[3] = { x ? x - 1 : 0, x, x + 1 < w ? x + 1 : w - 1 };
                int sum = 0;
                for (unsigned j = 0; j < 3; j++)
                    for (unsigned i = 0; i < 3; i++)
                        sum += (int)get_sample(ref, p, xs[i], ys[j]) << ((i == 1) + (j == 1));
                const int noise = (int)(hash3(x, y, 1000 + 3 * t + p) % (2u * amp + 1)) - amp;
                int v = (sum + 8) / 16 + noise;
                v = v < 0 ? 0 : v > max ? max : v;
                put_sample(dis, p, x, y, (unsigned)v);
            }
        }
    }
}

static int make_synthetic_pool(Bench *b)
{
    const VqxRawFormat *f = &b->synthetic;
    for (unsigned t = 0; t < b->pool_size; t++) {
        if (vqx_picture_alloc(&b->ref[t], f->layout, f->bpc, f->w, f->h) ||
            vqx_picture_alloc(&b->dis[t], f->layout, f->bpc, f->w, f->h)) {
            fprintf(stderr, "vqx_bench: cannot allocate %ux%u %u-bit pictures\n", f->w, f->h, f->bpc);
            return -ENOMEM;
        }
        b->n_pool = t + 1;
        make_reference(&b->ref[t], t);
        make_distorted(&b->dis[t], &b->ref[t], t);
    }
    return 0;
}

/* ---- file input ---- */

static int load_pool(Bench *b)
{
    const VqxRawFormat *raw = b->raw_fields == 15 ? &b->raw : NULL;
    VqxInput *in[2] = { NULL, NULL };
    const char *paths[2] = { b->ref_path, b->dis_path };
    VqxPicture *dst[2] = { b->ref, b->dis };
    char msg[512];
    int ret = 0;
    for (unsigned i = 0; i < 2 && !ret; i++)
        ret = vqx_input_open(&in[i], paths[i], raw, msg, sizeof(msg));
    while (!ret && b->n_pool < b->pool_size) {
        const unsigned n = b->n_pool;
        int got[2];
        for (unsigned i = 0; i < 2; i++) {
            got[i] = vqx_input_read(in[i], &dst[i][n], NULL, msg, sizeof(msg));
            if (got[i] < 0) ret = got[i];
        }
        if (!ret && (got[0] == 0 || got[1] == 0)) {
            vqx_picture_free(&dst[0][n]);
            vqx_picture_free(&dst[1][n]);
            break;
        }
        b->n_pool = n + 1;
    }
    if (ret) fprintf(stderr, "vqx_bench: %s\n", msg);
    else if (!b->n_pool) ret = -ENODATA, fprintf(stderr, "vqx_bench: no frame pair in the inputs\n");
    vqx_input_close(&in[0]);
    vqx_input_close(&in[1]);
    return ret;
}

/* Pool index of frame i: 0, 1, .., n-1, n-2, .., 1, 0, 1, .. */
static unsigned pool_index(unsigned i, unsigned n)
{
    if (n == 1) return 0;
    const unsigned k = i % (2 * n - 2);
    return k < n ? k : 2 * n - 2 - k;
}

static size_t picture_bytes(const VqxPicture *pic, unsigned p)
{
    return (size_t)pic->w[p] * (pic->bpc > 8 ? 2 : 1);
}

static void copy_picture(VqxPicture *dst, const VqxPicture *src)
{
    for (unsigned p = 0; p < vqx_picture_planes(src); p++)
        for (unsigned y = 0; y < src->h[p]; y++)
            memcpy((uint8_t *)dst->data[p] + y * dst->stride[p],
                   (const uint8_t *)src->data[p] + y * src->stride[p], picture_bytes(src, p));
}

/* What copying each pair into preallocated pictures costs per frame. */
static int measure_copy(Bench *b)
{
    const VqxPicture *f = &b->ref[0];
    VqxPicture ref, dis;
    if (vqx_picture_alloc(&ref, f->layout, f->bpc, f->w[0], f->h[0])) return -ENOMEM;
    if (vqx_picture_alloc(&dis, f->layout, f->bpc, f->w[0], f->h[0])) {
        vqx_picture_free(&ref);
        return -ENOMEM;
    }
    const unsigned n = b->frames;
    const double t0 = now_seconds();
    for (unsigned i = 0; i < n; i++) {
        const unsigned k = pool_index(i, b->n_pool);
        copy_picture(&ref, &b->ref[k]);
        copy_picture(&dis, &b->dis[k]);
    }
    b->copy_ms = (now_seconds() - t0) * 1e3 / n;
    vqx_picture_free(&ref);
    vqx_picture_free(&dis);
    return 0;
}

/* ---- y4m dump ---- */

static int dump_y4m(const Bench *b, const char *path, const VqxPicture *pool)
{
    FILE *f = fopen(path, "wb");
    if (!f) {
        fprintf(stderr, "vqx_bench: cannot write %s: %s\n", path, strerror(errno));
        return -errno;
    }
    static const char *const chroma[] = { "mono", "420", "422", "444" };
    const VqxPicture *p0 = &pool[0];
    char depth[16] = "";
    if (p0->bpc > 8) snprintf(depth, sizeof(depth), "p%u", p0->bpc);
    fprintf(f, "YUV4MPEG2 W%u H%u F25:1 Ip A1:1 C%s%s\n", p0->w[0], p0->h[0],
            chroma[p0->layout], depth);
    for (unsigned i = 0; i < b->frames; i++) {
        const VqxPicture *pic = &pool[pool_index(i, b->n_pool)];
        fputs("FRAME\n", f);
        for (unsigned p = 0; p < vqx_picture_planes(pic); p++)
            for (unsigned y = 0; y < pic->h[p]; y++)
                fwrite((const uint8_t *)pic->data[p] + y * pic->stride[p], 1, picture_bytes(pic, p), f);
    }
    if (fclose(f)) {
        fprintf(stderr, "vqx_bench: cannot write %s\n", path);
        return -EIO;
    }
    return 0;
}

/* ---- timing ---- */

static int configure(VqxContext *ctx, const Spec *specs, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        const int ret = specs[i].is_model ? vqx_use_model(ctx, specs[i].name)
                                          : vqx_use_feature(ctx, specs[i].name, specs[i].options);
        if (ret) {
            fprintf(stderr, "vqx_bench: %s\n", vqx_last_error(ctx));
            return ret;
        }
    }
    return 0;
}

/* Score `frames` frames; *seconds is the span from the first picture sent
 * to the end of the flush, *cpu_seconds the CPU time of every thread of the
 * process over that span (robust to other load on the machine). *score: the mean of the first model's score (or
 * of the first key), as a check that the run computed something. */
static int run_once(const Bench *b, const Spec *specs, unsigned n_specs, unsigned threads,
                    unsigned frames, double *seconds, double *cpu_seconds, double *score)
{
    VqxSettings s;
    vqx_default_settings(&s);
    s.n_threads = threads;
    s.cpumask = b->cpumask;
    VqxContext *ctx;
    int ret = vqx_open(&ctx, &s);
    if (ret) {
        fprintf(stderr, "vqx_bench: cannot open a context: %s\n", strerror(-ret));
        return ret;
    }
    ret = configure(ctx, specs, n_specs);
    const double t0 = now_seconds(), cpu0 = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    for (unsigned i = 0; !ret && i < frames; i++) {
        const unsigned k = pool_index(i, b->n_pool);
        VqxPicture ref = b->ref[k], dis = b->dis[k];
        ref.buf = dis.buf = NULL; /* borrowed: the pool outlives the context */
        ret = vqx_send_pictures(ctx, &ref, &dis);
        if (ret) fprintf(stderr, "vqx_bench: %s\n", vqx_last_error(ctx));
    }
    if (!ret) {
        ret = vqx_flush(ctx);
        *seconds = now_seconds() - t0;
        *cpu_seconds = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - cpu0;
        if (ret) fprintf(stderr, "vqx_bench: %s\n", vqx_last_error(ctx));
    }
    if (!ret) {
        const char *key = vqx_model_count(ctx) ? vqx_model_key(ctx, 0)
                          : vqx_key_count(ctx) ? vqx_key_name(ctx, 0) : NULL;
        *score = 0;
        if (key) vqx_score_pooled(ctx, key, VQX_POOL_MEAN, 0, frames - 1, score);
    }
    vqx_close(&ctx);
    return ret;
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

typedef struct Result {
    char label[256];
    unsigned threads;
    double ms_median, ms_min, fps_median, fps_min, cpu_ms;
} Result;

static int bench_config(const Bench *b, const Spec *specs, unsigned n_specs, unsigned threads,
                        Result *r)
{
    double secs[MAX_REPEAT], cpu[MAX_REPEAT], score = 0;
    int ret = 0;
    if (b->warmup) ret = run_once(b, specs, n_specs, threads, b->warmup, &secs[0], &cpu[0], &score);
    for (unsigned i = 0; !ret && i < b->repeat; i++)
        ret = run_once(b, specs, n_specs, threads, b->frames, &secs[i], &cpu[i], &score);
    if (ret) return ret;
    qsort(cpu, b->repeat, sizeof(cpu[0]), cmp_double);
    qsort(secs, b->repeat, sizeof(secs[0]), cmp_double);
    const double median = b->repeat % 2 ? secs[b->repeat / 2]
                                        : (secs[b->repeat / 2 - 1] + secs[b->repeat / 2]) / 2;
    r->label[0] = '\0';
    for (unsigned i = 0; i < n_specs; i++) {
        const size_t len = strlen(r->label);
        snprintf(r->label + len, sizeof(r->label) - len, "%s%s", i ? "+" : "", specs[i].label);
    }
    r->threads = threads;
    r->ms_median = median * 1e3 / b->frames;
    r->ms_min = secs[0] * 1e3 / b->frames;
    r->fps_median = b->frames / median;
    r->fps_min = b->frames / secs[b->repeat - 1];
    r->cpu_ms = cpu[0] * 1e3 / b->frames;
    const VqxPicture *f = &b->ref[0];
    printf("feature=%s threads=%u cpumask=%u %ux%u bpc=%u frames=%u repeat=%u fps_median=%.3f "
           "fps_min=%.3f "
           "ms_per_frame=%.3f ms_per_frame_min=%.3f cpu_ms_per_frame=%.3f copy_ms_per_frame=%.3f "
           "score=%.6f\n",
           r->label, threads, b->cpumask, f->w[0], f->h[0], f->bpc, b->frames, b->repeat, r->fps_median,
           r->fps_min, r->ms_median, r->ms_min, r->cpu_ms, b->copy_ms, score);
    fflush(stdout);
    return 0;
}

/* ---- command line ---- */

static void usage(void)
{
    printf("usage: vqx_bench [options] REF DIS\n"
           "       vqx_bench [options] --synthetic WxH:BPC\n"
           "Times the vqx API on frame pairs held in memory; one line per configuration.\n"
           "  -w W -h H -p 420|422|444|400 -b BPC   geometry of raw inputs\n"
           "  --synthetic WxH:BPC   made-up 4:2:0 content (moving texture; distorted: blur + noise)\n"
           "  --feature NAME[=K=V:K=V]   feature extractor (repeatable)\n"
           "  -m SPEC               model, 'version=NAME', 'path=FILE' or NAME (repeatable);\n"
           "                        with neither --feature nor -m: vmaf_v0.6.1\n"
           "  --each                one configuration per --feature / -m instead of all together\n"
           "  --threads N[,N..]     worker threads, 0: the calling thread only (default 0)\n"
           "  --frames F            frames per timed run (default 30)\n"
           "  --pool N              frame pairs held in memory (default 8)\n"
           "  --warmup F            frames of an untimed run first (default 4)\n"
           "  --repeat R            timed runs; median and min are reported (default 5)\n"
           "  --cpumask N           VqxSettings.cpumask: ISAs not to use, as libvmaf's bits\n"
           "                        (default 0: all the CPU has; 63: the scalar C)\n"
           "  --dump REF.y4m,DIS.y4m   write the F frames as y4m and exit\n");
}

static int parse_unsigned(const char *arg, unsigned *out)
{
    char *end;
    errno = 0;
    const unsigned long v = strtoul(arg, &end, 10);
    if (arg[0] == '-' || errno || end == arg || *end || v > UINT_MAX) return -EINVAL;
    *out = (unsigned)v;
    return 0;
}

/* A model spec: "version=NAME", "path=FILE" (libvmaf's syntax) or a bare NAME. */
static int add_model(Bench *b, const char *arg)
{
    if (b->n_specs == MAX_ITEMS) return -ENOMEM;
    Spec *s = &b->specs[b->n_specs++];
    s->is_model = true;
    const bool bare = !strchr(arg, '=');
    snprintf(s->model_spec, sizeof(s->model_spec), "%s%s", bare ? "version=" : "", arg);
    s->name = s->model_spec;
    const char *v = strstr(s->model_spec, "version="), *p = strstr(s->model_spec, "path=");
    const char *label = v ? v + 8 : p ? p + 5 : arg;
    if (!v && p && strrchr(p, '/')) label = strrchr(p, '/') + 1;
    snprintf(s->label, sizeof(s->label), "%.*s", (int)strcspn(label, ":"), label);
    return 0;
}

/* A feature spec: NAME or NAME=K=V:K=V, as vqx's --feature. */
static int add_feature(Bench *b, char *arg)
{
    if (b->n_specs == MAX_ITEMS) return -ENOMEM;
    Spec *s = &b->specs[b->n_specs++];
    char *eq = strchr(arg, '=');
    if (eq) *eq = '\0';
    s->name = arg;
    s->options = eq ? eq + 1 : NULL;
    snprintf(s->label, sizeof(s->label), "%s%s%s", arg, eq ? ":" : "", eq ? eq + 1 : "");
    return 0;
}

static int parse_layout(const char *arg, enum VqxPixelLayout *out)
{
    static const char *const names[] = { "400", "420", "422", "444" };
    for (unsigned i = 0; i < 4; i++)
        if (!strcmp(arg, names[i])) {
            *out = (enum VqxPixelLayout)i;
            return 0;
        }
    return -EINVAL;
}

static int bad(const char *what, const char *arg)
{
    fprintf(stderr, "vqx_bench: invalid %s '%s' (see --help)\n", what, arg);
    return 2;
}

enum { ARG_FEATURE = 256, ARG_THREADS, ARG_FRAMES, ARG_POOL, ARG_WARMUP, ARG_REPEAT,
       ARG_SYNTHETIC, ARG_DUMP, ARG_EACH, ARG_CPUMASK, ARG_HELP };

static int parse_args(Bench *b, int argc, char **argv)
{
    static const struct option opts[] = {
        { "feature", required_argument, NULL, ARG_FEATURE },
        { "threads", required_argument, NULL, ARG_THREADS },
        { "frames", required_argument, NULL, ARG_FRAMES },
        { "pool", required_argument, NULL, ARG_POOL },
        { "warmup", required_argument, NULL, ARG_WARMUP },
        { "repeat", required_argument, NULL, ARG_REPEAT },
        { "synthetic", required_argument, NULL, ARG_SYNTHETIC },
        { "dump", required_argument, NULL, ARG_DUMP },
        { "each", no_argument, NULL, ARG_EACH },
        { "cpumask", required_argument, NULL, ARG_CPUMASK },
        { "help", no_argument, NULL, ARG_HELP },
        { NULL, 0, NULL, 0 },
    };
    b->frames = 30, b->pool_size = 8, b->warmup = 4, b->repeat = 5;
    int c;
    while ((c = getopt_long(argc, argv, "w:h:p:b:m:", opts, NULL)) != -1) {
        switch (c) {
        case 'w':
            if (parse_unsigned(optarg, &b->raw.w) || !b->raw.w) return bad("width", optarg);
            b->raw_fields |= 1;
            break;
        case 'h':
            if (parse_unsigned(optarg, &b->raw.h) || !b->raw.h) return bad("height", optarg);
            b->raw_fields |= 2;
            break;
        case 'p':
            if (parse_layout(optarg, &b->raw.layout)) return bad("pixel format", optarg);
            b->raw_fields |= 4;
            break;
        case 'b':
            if (parse_unsigned(optarg, &b->raw.bpc) || b->raw.bpc < 8 || b->raw.bpc > 16)
                return bad("bit depth", optarg);
            b->raw_fields |= 8;
            break;
        case 'm':
        case ARG_FEATURE:
            if (c == 'm' ? add_model(b, optarg) : add_feature(b, optarg))
                return bad("(one too many) spec", optarg);
            break;
        case ARG_THREADS:
            for (char *tok = strtok(optarg, ","); tok; tok = strtok(NULL, ",")) {
                if (b->n_threads == MAX_ITEMS || parse_unsigned(tok, &b->threads[b->n_threads]) ||
                    b->threads[b->n_threads] > 256)
                    return bad("thread count", tok);
                b->n_threads++;
            }
            break;
        case ARG_FRAMES:
            if (parse_unsigned(optarg, &b->frames) || !b->frames) return bad("frame count", optarg);
            break;
        case ARG_POOL:
            if (parse_unsigned(optarg, &b->pool_size) || !b->pool_size) return bad("pool size", optarg);
            break;
        case ARG_WARMUP:
            if (parse_unsigned(optarg, &b->warmup)) return bad("warmup", optarg);
            break;
        case ARG_REPEAT:
            if (parse_unsigned(optarg, &b->repeat) || !b->repeat || b->repeat > MAX_REPEAT)
                return bad("repeat count (1 to 101)", optarg);
            break;
        case ARG_SYNTHETIC: {
            VqxRawFormat *f = &b->synthetic;
            char tail;
            if (sscanf(optarg, "%ux%u:%u%c", &f->w, &f->h, &f->bpc, &tail) != 3 ||
                !f->w || !f->h || f->w > 16384 || f->h > 16384 || f->bpc < 8 || f->bpc > 16)
                return bad("synthetic format (WxH:BPC)", optarg);
            f->layout = VQX_PIX_420;
            b->use_synthetic = true;
            break;
        }
        case ARG_DUMP: {
            char *comma = strchr(optarg, ',');
            if (!comma) return bad("dump paths (REF.y4m,DIS.y4m)", optarg);
            *comma = '\0';
            b->dump_ref = optarg;
            b->dump_dis = comma + 1;
            break;
        }
        case ARG_EACH: b->each = true; break;
        case ARG_CPUMASK:
            if (parse_unsigned(optarg, &b->cpumask)) return bad("cpumask", optarg);
            break;
        case ARG_HELP: usage(); exit(0);
        default: fprintf(stderr, "see vqx_bench --help\n"); return 2;
        }
    }
    if (b->use_synthetic == (argc - optind == 2)) {
        fprintf(stderr, "vqx_bench: give either REF DIS or --synthetic (see --help)\n");
        return 2;
    }
    if (!b->use_synthetic) {
        b->ref_path = argv[optind];
        b->dis_path = argv[optind + 1];
        if (b->raw_fields && b->raw_fields != 15) {
            fprintf(stderr, "vqx_bench: raw input needs all of -w -h -p -b\n");
            return 2;
        }
    }
    if (!b->n_specs) add_model(b, "vmaf_v0.6.1");
    if (!b->n_threads) b->n_threads = 1;
    return 0;
}

int main(int argc, char **argv)
{
    static Bench b;
    int ret = parse_args(&b, argc, argv);
    if (ret) return ret;
    b.ref = calloc(b.pool_size, sizeof(*b.ref));
    b.dis = calloc(b.pool_size, sizeof(*b.dis));
    if (!b.ref || !b.dis) return 1;
    ret = b.use_synthetic ? make_synthetic_pool(&b) : load_pool(&b);
    if (!ret && b.dump_ref) {
        ret = dump_y4m(&b, b.dump_ref, b.ref);
        if (!ret) ret = dump_y4m(&b, b.dump_dis, b.dis);
        goto done;
    }
    if (!ret) ret = measure_copy(&b);

    const unsigned n_configs = (b.each ? b.n_specs : 1) * b.n_threads;
    Result *results = calloc(n_configs, sizeof(*results));
    if (!results) ret = -ENOMEM;
    for (unsigned c = 0; !ret && c < n_configs; c++) {
        const unsigned s = c / b.n_threads;
        ret = bench_config(&b, b.each ? &b.specs[s] : b.specs, b.each ? 1 : b.n_specs,
                           b.threads[c % b.n_threads], &results[c]);
    }
    if (!ret) {
        const VqxPicture *f = &b.ref[0];
        printf("# %ux%u %u-bit, cpumask %u, %u frames (pool of %u pairs), median of %u runs; "
               "copying a pair would cost %.3f ms/frame (not timed)\n",
               f->w[0], f->h[0], f->bpc, b.cpumask, b.frames, b.n_pool, b.repeat, b.copy_ms);
        printf("# %-32s %7s %9s %9s %9s %9s %9s\n", "feature", "threads", "fps", "fps min",
               "ms/frame", "ms min", "cpu ms");
        for (unsigned c = 0; c < n_configs; c++) {
            const Result *r = &results[c];
            printf("# %-32s %7u %9.2f %9.2f %9.2f %9.2f %9.2f\n", r->label, r->threads,
                   r->fps_median, r->fps_min, r->ms_median, r->ms_min, r->cpu_ms);
        }
    }
    free(results);
done:
    for (unsigned i = 0; i < b.n_pool; i++) {
        vqx_picture_free(&b.ref[i]);
        vqx_picture_free(&b.dis[i]);
    }
    free(b.ref);
    free(b.dis);
    return ret ? 1 : 0;
}
