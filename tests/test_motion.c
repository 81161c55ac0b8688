/*
 * motion, float_motion, float_psnr, float_ansnr and float_moment against
 * straightforward whole-frame computations written from libvmaf's recipes
 * (per-tap mirroring, libvmaf's order of float operations, float_motion's
 * two SADs per frame, integer motion's end-of-stream pass over all SAD
 * scores), through the public API with 0 and 2 threads: odd sizes, every
 * layout, 8 to 16 bits, random and extreme samples, 1 to 6 frames, the
 * options; cpumask 63 (the C) against 0 (SIMD); and the refusals (tiny
 * frames, missing chroma, bad options).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "feature/motion.h"
#include "vqx/vqx.h"

static unsigned n_pass, n_fail;

#define CHECK(cond) do { \
    if (cond) n_pass++; \
    else { n_fail++; fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

#define MAX_FRAMES 6
#define MAX_KEYS 4
#define NONE (-1.0) /* no value expected */

static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

/* ---- test clips: planes as plain arrays of samples ---- */

typedef struct Clip {
    enum VqxPixelLayout layout;
    unsigned bpc, w, h, n;
    unsigned pw[3], ph[3];
    uint16_t *ref[MAX_FRAMES][3], *dis[MAX_FRAMES][3];
} Clip;

enum Content { RANDOM, EXTREME, SMOOTH };

static uint16_t sample(enum Content c, unsigned bpc, unsigned f, unsigned x, unsigned y)
{
    const uint16_t max = (uint16_t)((1u << bpc) - 1);
    switch (c) {
    case RANDOM: return (uint16_t)(rnd() & max);
    case EXTREME: return ((x + y + f) & 1) ? max : 0;
    case SMOOTH: return (uint16_t)(((x * 7 + y * 3 + f * 5) * (max / 64)) & max);
    }
    return 0;
}

static void clip_make(Clip *c, enum VqxPixelLayout layout, unsigned bpc, unsigned w, unsigned h,
                      unsigned n, enum Content content)
{
    memset(c, 0, sizeof(*c));
    c->layout = layout;
    c->bpc = bpc;
    c->w = w;
    c->h = h;
    c->n = n;
    const unsigned ss_x = layout == VQX_PIX_420 || layout == VQX_PIX_422;
    const unsigned ss_y = layout == VQX_PIX_420;
    for (unsigned p = 0; p < 3; p++) {
        c->pw[p] = p ? (w + ss_x) >> ss_x : w;
        c->ph[p] = p ? (h + ss_y) >> ss_y : h;
    }
    for (unsigned f = 0; f < n; f++) {
        for (unsigned p = 0; p < 3; p++) {
            const size_t sz = (size_t)c->pw[p] * c->ph[p];
            c->ref[f][p] = malloc(sz * sizeof(uint16_t));
            c->dis[f][p] = malloc(sz * sizeof(uint16_t));
            for (unsigned y = 0; y < c->ph[p]; y++) {
                for (unsigned x = 0; x < c->pw[p]; x++) {
                    c->ref[f][p][y * c->pw[p] + x] = sample(content, bpc, f, x, y);
                    c->dis[f][p][y * c->pw[p] + x] = sample(content, bpc, f + 1, y, x);
                }
            }
        }
    }
}

static void clip_free(Clip *c)
{
    for (unsigned f = 0; f < c->n; f++) {
        for (unsigned p = 0; p < 3; p++) {
            free(c->ref[f][p]);
            free(c->dis[f][p]);
        }
    }
}

static void to_picture(const Clip *c, uint16_t *const planes[3], VqxPicture *pic)
{
    vqx_picture_alloc(pic, c->layout, c->bpc, c->w, c->h);
    for (unsigned p = 0; p < vqx_picture_planes(pic); p++) {
        for (unsigned y = 0; y < c->ph[p]; y++) {
            uint8_t *row = (uint8_t *)pic->data[p] + (ptrdiff_t)y * pic->stride[p];
            for (unsigned x = 0; x < c->pw[p]; x++) {
                const uint16_t v = planes[p][y * c->pw[p] + x];
                if (c->bpc == 8) row[x] = (uint8_t)v;
                else ((uint16_t *)row)[x] = v;
            }
        }
    }
}

/* Runs one feature over the clip; out[k][f] is the value of the feature's
 * k-th key at frame f (NONE when not written). Returns vqx_flush's result. */
static int run_feature_mask(const Clip *c, const char *name, const char *opts, unsigned threads,
                            unsigned cpumask, double out[MAX_KEYS][MAX_FRAMES], char *err,
                            size_t err_len)
{
    VqxSettings st;
    vqx_default_settings(&st);
    st.n_threads = threads;
    st.cpumask = cpumask;
    VqxContext *ctx = NULL;
    int ret = vqx_open(&ctx, &st);
    if (!ret) ret = vqx_use_feature(ctx, name, opts);
    for (unsigned f = 0; !ret && f < c->n; f++) {
        VqxPicture r, d;
        to_picture(c, c->ref[f], &r);
        to_picture(c, c->dis[f], &d);
        ret = vqx_send_pictures(ctx, &r, &d);
    }
    if (!ret) ret = vqx_flush(ctx);
    /* the k-th key of the extractor's table is the collector's k-th (its
     * registration order; vqx_key_name lists them in libvmaf's order) */
    const VqxCollector *collector = ctx ? vqx_ctx_collector(ctx) : NULL;
    for (unsigned k = 0; k < MAX_KEYS; k++) {
        const char *key = collector && k < collector->n_keys ? collector->keys[k].name : NULL;
        for (unsigned f = 0; f < MAX_FRAMES; f++)
            if (!key || vqx_score_at(ctx, key, f, &out[k][f])) out[k][f] = NONE;
    }
    if (err) snprintf(err, err_len, "%s", vqx_last_error(ctx));
    vqx_close(&ctx);
    return ret;
}

static int run_feature(const Clip *c, const char *name, const char *opts, unsigned threads,
                       double out[MAX_KEYS][MAX_FRAMES], char *err, size_t err_len)
{
    return run_feature_mask(c, name, opts, threads, 0, out, err, err_len);
}

/* Every expected value equal, for 0 and 2 threads. */
static bool run_and_compare(const Clip *c, const char *name, const char *opts,
                            double want[MAX_KEYS][MAX_FRAMES], unsigned n_keys)
{
    bool ok = true;
    for (unsigned threads = 0; threads <= 2; threads += 2) {
        double got[MAX_KEYS][MAX_FRAMES];
        if (run_feature(c, name, opts, threads, got, NULL, 0)) return false;
        for (unsigned k = 0; k < n_keys; k++) {
            for (unsigned f = 0; f < c->n; f++) {
                if (got[k][f] != want[k][f]) {
                    fprintf(stderr, "%s:%s %ux%u layout %d %u-bit, %u threads: key %u frame %u: "
                            "got %.17g want %.17g\n", name, opts, c->w, c->h, (int)c->layout,
                            c->bpc, threads, k, f, got[k][f], want[k][f]);
                    ok = false;
                }
            }
        }
    }
    return ok;
}

static int mirror_int(int i, int n)
{
    if (i < 0) return -i;
    if (i >= n) return 2 * n - i - 2;
    return i;
}

/* ---- integer motion ---- */

static const int64_t int_taps[5] = { 3571, 16004, 26386, 16004, 3571 };

static uint64_t ref_int_sad(const uint16_t *prev, const uint16_t *cur, int w, int h, unsigned bpc)
{
    const int shift = bpc == 8 ? 8 : (int)bpc;
    int64_t *col = malloc(sizeof(int64_t) * (size_t)w * (size_t)h);
    for (int i = 0; i < h; i++) {
        for (int j = 0; j < w; j++) {
            int64_t acc = 0;
            for (int k = 0; k < 5; k++) {
                const int r = mirror_int(i - 2 + k, h);
                acc += int_taps[k] * ((int64_t)prev[r * w + j] - cur[r * w + j]);
            }
            col[i * w + j] = (acc + ((int64_t)1 << (shift - 1))) >> shift;
        }
    }
    uint64_t sad = 0;
    for (int i = 0; i < h; i++) {
        uint32_t row = 0;
        for (int j = 0; j < w; j++) {
            int64_t acc = 0;
            for (int k = 0; k < 5; k++)
                acc += int_taps[k] * col[i * w + mirror_int(j - 2 + k, w)];
            row += (uint32_t)llabs((acc + 32768) >> 16);
        }
        sad += row;
    }
    free(col);
    return sad;
}

static void test_int_kernel(void)
{
    static const unsigned depths[] = { 8, 10, 12, 16 };
    static const unsigned sizes[][2] = { { 3, 3 }, { 4, 7 }, { 17, 9 }, { 64, 5 }, { 31, 33 } };
    for (unsigned d = 0; d < 4; d++) {
        for (unsigned s = 0; s < 5; s++) {
            for (int content = RANDOM; content <= SMOOTH; content++) {
                const unsigned bpc = depths[d], w = sizes[s][0], h = sizes[s][1];
                uint16_t *a = malloc(sizeof(uint16_t) * w * h), *b = malloc(sizeof(uint16_t) * w * h);
                uint8_t *a8 = malloc(w * h), *b8 = malloc(w * h);
                int32_t *row = malloc(sizeof(int32_t) * (w + 2 * VQX_MOTION_RADIUS));
                for (unsigned i = 0; i < w * h; i++) {
                    a[i] = sample((enum Content)content, bpc, 0, i % w, i / w);
                    b[i] = sample((enum Content)content, bpc, 1, i % w, i / w);
                    a8[i] = (uint8_t)a[i];
                    b8[i] = (uint8_t)b[i];
                }
                const uint64_t want = ref_int_sad(a, b, (int)w, (int)h, bpc);
                const uint64_t got = bpc == 8
                    ? vqx_motion_sad_8bpc(a8, w, b8, w, row, w, h, bpc)
                    : vqx_motion_sad_16bpc(a, 2 * w, b, 2 * w, row, w, h, bpc);
                CHECK(got == want);
                const uint64_t same = bpc == 8
                    ? vqx_motion_sad_8bpc(a8, w, a8, w, row, w, h, bpc)
                    : vqx_motion_sad_16bpc(a, 2 * w, a, 2 * w, row, w, h, bpc);
                CHECK(same == 0);
                free(a);
                free(b);
                free(a8);
                free(b8);
                free(row);
            }
        }
    }
}

typedef struct IntMotionOptions {
    bool force_zero, five_frame_window, moving_average, debug;
    double blend_factor, blend_offset, fps_weight, max_val;
} IntMotionOptions;

static double min_d(double a, double b)
{
    return a < b ? a : b;
}

static double blend_d(double v, double factor, double offset)
{
    return v * factor + (1 - factor) * min_d(offset, v);
}

/* All SAD scores first, then motion2/motion3 over the whole clip. */
static void ref_int_motion(const Clip *c, const IntMotionOptions *o, double want[MAX_KEYS][MAX_FRAMES])
{
    const unsigned first = o->five_frame_window ? 2 : 1, stride = first;
    double sad[MAX_FRAMES];
    for (unsigned f = 0; f < c->n; f++) {
        sad[f] = 0.0;
        if (!o->force_zero && f >= first) {
            const uint64_t s = ref_int_sad(c->ref[f - first][0], c->ref[f][0], (int)c->w, (int)c->h, c->bpc);
            sad[f] = min_d((double)s / 256. / (c->w * c->h) * o->fps_weight, o->max_val);
        }
        want[0][f] = sad[f];
        want[1][f] = o->debug ? sad[f] : NONE;
    }
    const double stamp = c->n > first ? min_d(blend_d(sad[first], o->blend_factor, o->blend_offset), o->max_val) : 0.0;
    double prev = 0.0;
    for (unsigned i = 0; i < c->n; i++) {
        if (i < first) {
            want[2][i] = 0.0;
            want[3][i] = stamp;
            prev = stamp;
            continue;
        }
        double m2;
        if (i + 1 >= c->n) m2 = sad[i];
        else if ((int)i - (int)(stride - 1) >= (int)first) m2 = min_d(sad[i - (stride - 1)], sad[i + 1]);
        else m2 = sad[i + 1];
        want[2][i] = m2;
        const double processed = min_d(blend_d(m2, o->blend_factor, o->blend_offset), o->max_val);
        want[3][i] = o->moving_average ? (processed + prev) / 2.0 : processed;
        prev = processed;
    }
}

static void test_int_motion(void)
{
    static const struct { const char *opts; IntMotionOptions o; } cases[] = {
        { "", { .blend_factor = 1, .blend_offset = 40, .fps_weight = 1, .max_val = 10000 } },
        { "motion_five_frame_window=true",
          { .five_frame_window = true, .blend_factor = 1, .blend_offset = 40, .fps_weight = 1, .max_val = 10000 } },
        { "mffw=true:mma=true:mmxv=18",
          { .five_frame_window = true, .moving_average = true, .blend_factor = 1, .blend_offset = 40,
            .fps_weight = 1, .max_val = 18 } },
        { "motion_moving_average=true:motion_max_val=0.5:debug=true",
          { .moving_average = true, .debug = true, .blend_factor = 1, .blend_offset = 40, .fps_weight = 1,
            .max_val = 0.5 } },
        { "motion_blend_factor=0.25:motion_blend_offset=2:motion_fps_weight=1.7",
          { .blend_factor = 0.25, .blend_offset = 2, .fps_weight = 1.7, .max_val = 10000 } },
        { "motion_force_zero=true",
          { .force_zero = true, .blend_factor = 1, .blend_offset = 40, .fps_weight = 1, .max_val = 10000 } },
    };
    static const struct { enum VqxPixelLayout l; unsigned bpc, w, h; enum Content c; } clips[] = {
        { VQX_PIX_420, 8, 17, 9, RANDOM }, { VQX_PIX_444, 10, 5, 3, SMOOTH },
        { VQX_PIX_422, 12, 3, 8, EXTREME }, { VQX_PIX_400, 16, 21, 13, RANDOM },
        { VQX_PIX_420, 8, 40, 30, EXTREME },
    };
    for (unsigned ci = 0; ci < sizeof(clips) / sizeof(clips[0]); ci++) {
        for (unsigned n = 1; n <= MAX_FRAMES; n++) {
            Clip c;
            clip_make(&c, clips[ci].l, clips[ci].bpc, clips[ci].w, clips[ci].h, n, clips[ci].c);
            for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
                double want[MAX_KEYS][MAX_FRAMES];
                ref_int_motion(&c, &cases[k].o, want);
                CHECK(run_and_compare(&c, "motion", cases[k].opts, want, 4));
            }
            clip_free(&c);
        }
    }
}

/* Sizes that leave every vector width a remainder, every depth: cpumask 63
 * (the C) and 0 (every ISA this CPU has) give the same bits, and the
 * reference's values. */
static void test_int_simd(void)
{
    static const unsigned sizes[][2] = { { 16, 5 }, { 67, 45 }, { 333, 37 }, { 1921, 4 } };
    static const enum Content contents[] = { RANDOM, EXTREME, SMOOTH };
    const IntMotionOptions o = { .debug = true, .blend_factor = 1, .blend_offset = 40,
                                 .fps_weight = 1, .max_val = 10000 };
    for (unsigned bpc = 8; bpc <= 16; bpc++) {
        for (unsigned si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
            Clip c;
            clip_make(&c, VQX_PIX_400, bpc, sizes[si][0], sizes[si][1], 3, contents[si % 3]);
            double want[MAX_KEYS][MAX_FRAMES], got[2][MAX_KEYS][MAX_FRAMES];
            ref_int_motion(&c, &o, want);
            const bool ran = run_feature_mask(&c, "motion", "debug=true", 0, 63, got[0], NULL, 0) == 0 &&
                             run_feature_mask(&c, "motion", "debug=true", 0, 0, got[1], NULL, 0) == 0;
            bool same = ran;
            for (unsigned k = 0; k < MAX_KEYS && same; k++)
                for (unsigned f = 0; f < c.n && same; f++)
                    same = !memcmp(&got[0][k][f], &got[1][k][f], sizeof(double)) &&
                           got[0][k][f] == want[k][f];
            if (!same)
                fprintf(stderr, "  simd: %u-bit %ux%u: cpumask 63, 0 and the reference %s\n", bpc,
                        c.w, c.h, ran ? "differ" : "failed");
            CHECK(same);
            clip_free(&c);
        }
    }
}

/* ---- the float features ---- */

/* libvmaf's picture_copy.c for 8, 10, 12, 16 bits; the same scaling for
 * the depths in between. */
static float to_float(uint16_t v, unsigned bpc, int offset)
{
    if (bpc == 8) return (float)v + offset;
    return (float)v / (float)(1u << (bpc - 8)) + offset;
}

static float *float_plane(const uint16_t *src, unsigned n, unsigned bpc, int offset)
{
    float *f = malloc(sizeof(float) * n);
    for (unsigned i = 0; i < n; i++) f[i] = to_float(src[i], bpc, offset);
    return f;
}

static const float taps5[5] = { 0.054488685f, 0.244201342f, 0.402619947f, 0.244201342f, 0.054488685f };
static const float taps3[3] = { 0.166378498f, 0.667243004f, 0.166378498f };
static const float taps1[5] = { 0.0f, 0.0f, 1.0f, 0.0f, 0.0f };

/* Columns then rows, whole frame, per-tap mirroring. */
static float *ref_blur(const float *src, int w, int h, const float *taps, int n)
{
    float *tmp = malloc(sizeof(float) * (size_t)w * (size_t)h);
    float *dst = malloc(sizeof(float) * (size_t)w * (size_t)h);
    for (int i = 0; i < h; i++) {
        for (int j = 0; j < w; j++) {
            float acc = 0;
            for (int k = 0; k < n; k++) acc += taps[k] * src[mirror_int(i - n / 2 + k, h) * w + j];
            tmp[i * w + j] = acc;
        }
    }
    for (int i = 0; i < h; i++) {
        for (int j = 0; j < w; j++) {
            float acc = 0;
            for (int k = 0; k < n; k++) acc += taps[k] * tmp[i * w + mirror_int(j - n / 2 + k, w)];
            dst[i * w + j] = acc;
        }
    }
    free(tmp);
    return dst;
}

static float mirror_f(float i, float right)
{
    return i < 0 ? -i : i > right ? 2 * right - i : i;
}

static float *ref_halve(const float *src, int w, int h, int *hw, int *hh)
{
    *hw = (int)(w * 0.5 + 0.5);
    *hh = (int)(h * 0.5 + 0.5);
    float *dst = malloc(sizeof(float) * (size_t)*hw * (size_t)*hh);
    const float rx = (float)w / *hw, ry = (float)h / *hh;
    for (int y = 0; y < *hh; y++) {
        const float yy = (y + 0.5) * ry - 0.5;
        const int y1 = mirror_f(floor(yy), h - 1), y2 = mirror_f(ceil(yy), h - 1);
        const float dy = yy - y1;
        for (int x = 0; x < *hw; x++) {
            const float xx = (x + 0.5) * rx - 0.5;
            const int x1 = mirror_f(floor(xx), w - 1), x2 = mirror_f(ceil(xx), w - 1);
            const float dx = xx - x1;
            dst[y * *hw + x] = (1 - dy) * (1 - dx) * src[y1 * w + x1] + (1 - dy) * dx * src[y1 * w + x2] +
                               dy * (1 - dx) * src[y2 * w + x1] + dy * dx * src[y2 * w + x2];
        }
    }
    return dst;
}

/* libvmaf's SAD: float row sums through double fabs. */
static float ref_sad(const float *a, const float *b, int w, int h)
{
    float acc = 0;
    for (int i = 0; i < h; i++) {
        float line = 0;
        for (int j = 0; j < w; j++) line += fabs(a[i * w + j] - b[i * w + j]);
        acc += line;
    }
    return (float)(acc / (w * h));
}

typedef struct FloatMotionOptions {
    bool force_zero, add_uv, add_scale1, no_debug;
    int filter_size;
    double blend_factor, blend_offset, fps_weight, max_val;
} FloatMotionOptions;

static double ref_pair_score(const Clip *c, float *const blur_a[3], float *const blur_b[3],
                             const FloatMotionOptions *o)
{
    double score = 0;
    for (unsigned p = 0; p < (o->add_uv ? 3u : 1u); p++) {
        const int w = (int)c->pw[p], h = (int)c->ph[p];
        float s = ref_sad(blur_a[p], blur_b[p], w, h);
        if (o->add_scale1) {
            int hw, hh;
            float *ha = ref_halve(blur_a[p], w, h, &hw, &hh), *hb = ref_halve(blur_b[p], w, h, &hw, &hh);
            s = s + ref_sad(ha, hb, hw, hh);
            free(ha);
            free(hb);
        }
        score = p ? score + s : s;
    }
    return score;
}

/* libvmaf's float_motion: per frame the SAD with the previous frame and the
 * SAD of the previous pair again. Keys: motion, motion2, motion3. */
static void ref_float_motion(const Clip *c, const FloatMotionOptions *o, double want[MAX_KEYS][MAX_FRAMES])
{
    for (unsigned k = 0; k < MAX_KEYS; k++)
        for (unsigned f = 0; f < MAX_FRAMES; f++) want[k][f] = NONE;
    if (o->force_zero) {
        for (unsigned f = 0; f < c->n; f++) {
            want[0][f] = o->no_debug ? NONE : 0.0;
            want[1][f] = want[2][f] = 0.0;
        }
        return;
    }
    const float *taps = o->filter_size == 1 ? taps1 : o->filter_size == 3 ? taps3 : taps5;
    const int n_taps = o->filter_size == 3 ? 3 : 5;
    float *blur[MAX_FRAMES][3] = { { 0 } };
    double score = 0;
    for (unsigned f = 0; f < c->n; f++) {
        for (unsigned p = 0; p < (o->add_uv ? 3u : 1u); p++) {
            float *fl = float_plane(c->ref[f][p], c->pw[p] * c->ph[p], c->bpc, -128);
            blur[f][p] = ref_blur(fl, (int)c->pw[p], (int)c->ph[p], taps, n_taps);
            free(fl);
        }
        if (f == 0) {
            want[1][0] = 0;
            if (!o->no_debug) want[0][0] = 0;
            continue;
        }
        score = ref_pair_score(c, blur[f - 1], blur[f], o);
        if (!o->no_debug) want[0][f] = min_d(score * o->fps_weight, o->max_val);
        if (f == 1) {
            want[2][0] = min_d(blend_d(score * o->fps_weight, o->blend_factor, o->blend_offset), o->max_val);
            continue;
        }
        double score2 = ref_pair_score(c, blur[f - 1], blur[f - 2], o);
        score2 = score2 < score ? score2 : score;
        want[1][f - 1] = min_d(score2 * o->fps_weight, o->max_val);
        want[2][f - 1] = min_d(blend_d(score2 * o->fps_weight, o->blend_factor, o->blend_offset), o->max_val);
    }
    const unsigned last = c->n - 1;
    if (last > 0) {
        want[1][last] = min_d(score * o->fps_weight, o->max_val);
        want[2][last] = min_d(blend_d(score * o->fps_weight, o->blend_factor, o->blend_offset), o->max_val);
    } else {
        want[2][0] = 0;
    }
    for (unsigned f = 0; f < c->n; f++)
        for (unsigned p = 0; p < 3; p++) free(blur[f][p]);
}

static void test_float_motion(void)
{
    static const struct { const char *opts; FloatMotionOptions o; } cases[] = {
        { "", { .filter_size = 5, .blend_factor = 1, .blend_offset = 40, .fps_weight = 1, .max_val = 10000 } },
        { "motion_add_uv=true",
          { .add_uv = true, .filter_size = 5, .blend_factor = 1, .blend_offset = 40, .fps_weight = 1, .max_val = 10000 } },
        { "motion_add_scale1=true:mau=true",
          { .add_uv = true, .add_scale1 = true, .filter_size = 5, .blend_factor = 1, .blend_offset = 40,
            .fps_weight = 1, .max_val = 10000 } },
        { "motion_filter_size=3:motion_add_scale1=true",
          { .add_scale1 = true, .filter_size = 3, .blend_factor = 1, .blend_offset = 40, .fps_weight = 1,
            .max_val = 10000 } },
        { "mfs=1:debug=false",
          { .no_debug = true, .filter_size = 1, .blend_factor = 1, .blend_offset = 40, .fps_weight = 1, .max_val = 10000 } },
        { "motion_blend_factor=0.3:motion_blend_offset=2:motion_fps_weight=1.5:motion_max_val=5",
          { .filter_size = 5, .blend_factor = 0.3, .blend_offset = 2, .fps_weight = 1.5, .max_val = 5 } },
        { "motion_force_zero=true",
          { .force_zero = true, .filter_size = 5, .blend_factor = 1, .blend_offset = 40, .fps_weight = 1,
            .max_val = 10000 } },
    };
    static const struct { enum VqxPixelLayout l; unsigned bpc, w, h; enum Content c; } clips[] = {
        { VQX_PIX_420, 8, 17, 9, RANDOM }, { VQX_PIX_444, 10, 5, 3, SMOOTH },
        { VQX_PIX_422, 12, 7, 8, EXTREME }, { VQX_PIX_420, 16, 21, 13, RANDOM },
        { VQX_PIX_444, 11, 6, 7, SMOOTH },
    };
    for (unsigned ci = 0; ci < sizeof(clips) / sizeof(clips[0]); ci++) {
        for (unsigned n = 1; n <= MAX_FRAMES; n++) {
            Clip c;
            clip_make(&c, clips[ci].l, clips[ci].bpc, clips[ci].w, clips[ci].h, n, clips[ci].c);
            for (unsigned k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
                double want[MAX_KEYS][MAX_FRAMES];
                ref_float_motion(&c, &cases[k].o, want);
                CHECK(run_and_compare(&c, "float_motion", cases[k].opts, want, 3));
            }
            clip_free(&c);
        }
    }
}

/* libvmaf's table for 8, 10, 12, 16 bits: 255, 255.75, 255.9375, 255.99609375 */
static double peak_of(unsigned bpc)
{
    return ((1 << bpc) - 1) / (double)(1 << (bpc - 8));
}

static double max_d(double a, double b)
{
    return a > b ? a : b;
}

static int mirror_half(int i, int n)
{
    if (i < 0) return -i;
    if (i >= n) return 2 * n - i - 1;
    return i;
}

static float *ref_filter2d(const float *src, int w, int h, const float *f, int n)
{
    float *dst = malloc(sizeof(float) * (size_t)w * (size_t)h);
    for (int i = 0; i < h; i++) {
        for (int j = 0; j < w; j++) {
            float acc = 0;
            for (int fi = 0; fi < n; fi++) {
                float inner = 0;
                for (int fj = 0; fj < n; fj++)
                    inner += f[fi * n + fj] *
                             src[mirror_half(i - n / 2 + fi, h) * w + mirror_half(j - n / 2 + fj, w)];
                acc += inner;
            }
            dst[i * w + j] = acc;
        }
    }
    return dst;
}

static void test_float_simple(void)
{
    static const float fr[9] = { 1.0 / 16, 2.0 / 16, 1.0 / 16, 2.0 / 16, 4.0 / 16, 2.0 / 16, 1.0 / 16, 2.0 / 16, 1.0 / 16 };
    static const double dis_w[25] = { 2, 7, 12, 7, 2, 7, 31, 52, 31, 7, 12, 52, 127, 52, 12, 7, 31, 52, 31, 7, 2, 7, 12, 7, 2 };
    float fd[25];
    for (int i = 0; i < 25; i++) fd[i] = (float)(dis_w[i] / 571.0);

    static const struct { enum VqxPixelLayout l; unsigned bpc, w, h; enum Content c; } clips[] = {
        { VQX_PIX_420, 8, 17, 9, RANDOM }, { VQX_PIX_444, 10, 3, 3, SMOOTH },
        { VQX_PIX_400, 12, 7, 8, EXTREME }, { VQX_PIX_420, 16, 21, 13, RANDOM },
        { VQX_PIX_422, 8, 33, 5, SMOOTH }, { VQX_PIX_420, 9, 6, 5, RANDOM },
        { VQX_PIX_444, 14, 4, 4, EXTREME },
    };
    for (unsigned ci = 0; ci < sizeof(clips) / sizeof(clips[0]); ci++) {
        Clip c;
        clip_make(&c, clips[ci].l, clips[ci].bpc, clips[ci].w, clips[ci].h, 3, clips[ci].c);
        const int w = (int)c.w, h = (int)c.h, n = w * h;
        const double peak = peak_of(c.bpc), psnr_max = 6.0 * c.bpc + 12;
        double want_psnr[MAX_KEYS][MAX_FRAMES], want_moment[MAX_KEYS][MAX_FRAMES],
               want_ansnr[MAX_KEYS][MAX_FRAMES];
        for (unsigned f = 0; f < c.n; f++) {
            float *r = float_plane(c.ref[f][0], (unsigned)n, c.bpc, 0);
            float *d = float_plane(c.dis[f][0], (unsigned)n, c.bpc, 0);
            double noise = 0, m[4] = { 0 };
            for (int i = 0; i < n; i++) {
                const float diff = r[i] - d[i];
                noise += diff * diff;
            }
            for (int i = 0; i < n; i++) m[0] += r[i];
            for (int i = 0; i < n; i++) m[1] += d[i];
            for (int i = 0; i < n; i++) m[2] += r[i] * r[i];
            for (int i = 0; i < n; i++) m[3] += d[i] * d[i];
            noise /= n;
            want_psnr[0][f] = min_d(10 * log10(peak * peak / max_d(noise, 1e-10)), psnr_max);
            for (int k = 0; k < 4; k++) want_moment[k][f] = m[k] / n;
            free(r);
            free(d);

            r = float_plane(c.ref[f][0], (unsigned)n, c.bpc, -128);
            d = float_plane(c.dis[f][0], (unsigned)n, c.bpc, -128);
            float *rf = ref_filter2d(r, w, h, fr, 3), *df = ref_filter2d(d, w, h, fd, 5);
            float sig = 0, nse = 0;
            for (int i = 0; i < h; i++) {
                float si = 0, ni = 0;
                for (int j = 0; j < w; j++) {
                    const float a = rf[i * w + j], b = df[i * w + j];
                    si += a * a;
                    ni += (a - b) * (a - b);
                }
                sig += si;
                nse += ni;
            }
            want_ansnr[0][f] = nse == 0 ? psnr_max : 10.0 * log10(sig / nse);
            want_ansnr[1][f] = min_d(10 * log10(peak * peak * w * h / max_d(nse, 1e-10)), psnr_max);
            free(r);
            free(d);
            free(rf);
            free(df);
        }
        CHECK(run_and_compare(&c, "float_psnr", "", want_psnr, 1));
        CHECK(run_and_compare(&c, "float_moment", "", want_moment, 4));
        CHECK(run_and_compare(&c, "float_ansnr", "", want_ansnr, 2));
        clip_free(&c);
    }

    /* identical frames: PSNR at its cap */
    Clip c;
    clip_make(&c, VQX_PIX_420, 10, 9, 7, 2, RANDOM);
    for (unsigned f = 0; f < c.n; f++)
        memcpy(c.dis[f][0], c.ref[f][0], sizeof(uint16_t) * c.w * c.h);
    double got[MAX_KEYS][MAX_FRAMES];
    CHECK(run_feature(&c, "float_psnr", "", 0, got, NULL, 0) == 0 && got[0][1] == 72.0);
    clip_free(&c);
}

/* ---- refusals ---- */

static void expect_refusal(enum VqxPixelLayout l, unsigned bpc, unsigned w, unsigned h,
                           const char *name, const char *opts, const char *msg)
{
    Clip c;
    clip_make(&c, l, bpc, w, h, 2, RANDOM);
    double got[MAX_KEYS][MAX_FRAMES];
    char err[512];
    const int ret = run_feature(&c, name, opts, 0, got, err, sizeof(err));
    CHECK(ret < 0 && strstr(err, msg) && got[0][0] == NONE);
    if (!(ret < 0 && strstr(err, msg))) fprintf(stderr, "  %s: ret %d, '%s'\n", name, ret, err);
    clip_free(&c);
}

static void test_refusals(void)
{
    expect_refusal(VQX_PIX_420, 8, 2, 9, "motion", "", "at least 3x3");
    expect_refusal(VQX_PIX_444, 10, 9, 1, "motion", "", "at least 3x3");
    expect_refusal(VQX_PIX_420, 8, 4, 4, "float_motion", "motion_add_uv=true", "at least 3x3");
    expect_refusal(VQX_PIX_400, 8, 8, 8, "float_motion", "motion_add_uv=true", "4:0:0");
    expect_refusal(VQX_PIX_420, 8, 2, 2, "float_ansnr", "", "at least 3x3");

    VqxContext *ctx = NULL;
    CHECK(vqx_open(&ctx, NULL) == 0);
    CHECK(vqx_use_feature(ctx, "motion", "motion_blend_factor=1.5") < 0);
    CHECK(vqx_use_feature(ctx, "motion", "motion_max_val=-1") < 0);
    CHECK(vqx_use_feature(ctx, "float_motion", "motion_filter_size=10") < 0);
    CHECK(vqx_use_feature(ctx, "float_psnr", "anything=1") < 0);
    vqx_close(&ctx);
}

int main(void)
{
    test_int_kernel();
    test_int_motion();
    test_int_simd();
    test_float_motion();
    test_float_simple();
    test_refusals();
    printf("%u passed, %u failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
