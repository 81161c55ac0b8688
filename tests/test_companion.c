/*
 * Tests of the companion metrics: float_ssim, float_ms_ssim, ciede and
 * psnr_hvs. Exactness against libvmaf is the golden test's job; here: the
 * streaming SSIM kernel (C and SIMD tables) against a plain full-plane
 * computation, sizes at and below each minimum, 4:0:0 input, psnr_hvs at
 * 16 bits, identical frames, and ciede on subsampled input against the same
 * clip upsampled to 4:4:4.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "feature/float_picture.h"
#include "feature/ssim_core.h"
#include "vqx/vqx.h"

static unsigned n_pass, n_fail;

#define CHECK(cond) do { \
    if (cond) n_pass++; \
    else { n_fail++; fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

/* ---- pictures ---- */

static uint32_t rng_state;

static uint32_t rng(void)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return rng_state >> 8;
}

static unsigned get_sample(const VqxPicture *p, unsigned plane, unsigned x, unsigned y)
{
    const uint8_t *row = (const uint8_t *)p->data[plane] + (ptrdiff_t)y * p->stride[plane];
    return p->bpc > 8 ? ((const uint16_t *)row)[x] : row[x];
}

static void set_sample(VqxPicture *p, unsigned plane, unsigned x, unsigned y, unsigned v)
{
    uint8_t *row = (uint8_t *)p->data[plane] + (ptrdiff_t)y * p->stride[plane];
    if (p->bpc > 8) ((uint16_t *)row)[x] = (uint16_t)v;
    else row[x] = (uint8_t)v;
}

/* Smooth waves plus noise, full range of the bit depth. */
static void fill(VqxPicture *p, uint32_t seed)
{
    rng_state = seed;
    const unsigned peak = (1u << p->bpc) - 1;
    for (unsigned pl = 0; pl < vqx_picture_planes(p); pl++) {
        const double phase = rng() % 100 / 10.0;
        for (unsigned y = 0; y < p->h[pl]; y++)
            for (unsigned x = 0; x < p->w[pl]; x++) {
                const double wave = 0.5 + 0.3 * sin(x / 6.0 + phase) * cos(y / 9.0 - phase);
                const double noise = ((double)(rng() % 2001) - 1000) / 1000 * 0.15;
                double v = (wave + noise) * peak;
                v = v < 0 ? 0 : v > peak ? peak : v;
                set_sample(p, pl, x, y, (unsigned)v);
            }
    }
}

/* A distorted copy: about half the samples moved by up to +-peak/16. */
static void distort(VqxPicture *d, const VqxPicture *r, uint32_t seed)
{
    rng_state = seed;
    const int peak = (1 << r->bpc) - 1;
    for (unsigned pl = 0; pl < vqx_picture_planes(r); pl++)
        for (unsigned y = 0; y < r->h[pl]; y++)
            for (unsigned x = 0; x < r->w[pl]; x++) {
                int v = (int)get_sample(r, pl, x, y);
                if (rng() & 1) v += (int)(rng() % (unsigned)(peak / 8 + 1)) - peak / 16;
                set_sample(d, pl, x, y, (unsigned)(v < 0 ? 0 : v > peak ? peak : v));
            }
}

/* Copies the planes d has (a 4:0:0 d takes the luma of s). */
static void copy_picture(VqxPicture *d, const VqxPicture *s)
{
    for (unsigned pl = 0; pl < vqx_picture_planes(d); pl++)
        for (unsigned y = 0; y < d->h[pl]; y++)
            for (unsigned x = 0; x < d->w[pl]; x++)
                set_sample(d, pl, x, y, get_sample(s, pl, x, y));
}

/* Every sample scaled by 2^shift (a deeper version of the same content). */
static void deepen(VqxPicture *d, const VqxPicture *s, unsigned shift)
{
    for (unsigned pl = 0; pl < vqx_picture_planes(s); pl++)
        for (unsigned y = 0; y < s->h[pl]; y++)
            for (unsigned x = 0; x < s->w[pl]; x++)
                set_sample(d, pl, x, y, get_sample(s, pl, x, y) << shift);
}

/* The 4:4:4 picture holding, at each position, the chroma sample that
 * covers it in the subsampled one. */
static void upsample_to_444(VqxPicture *d, const VqxPicture *s)
{
    const unsigned ss_x = s->layout == VQX_PIX_420 || s->layout == VQX_PIX_422;
    const unsigned ss_y = s->layout == VQX_PIX_420;
    for (unsigned pl = 0; pl < 3; pl++)
        for (unsigned y = 0; y < d->h[pl]; y++)
            for (unsigned x = 0; x < d->w[pl]; x++)
                set_sample(d, pl, x, y, pl ? get_sample(s, pl, x >> ss_x, y >> ss_y)
                                           : get_sample(s, pl, x, y));
}

/* ---- running features through the public API ---- */

typedef struct Run {
    VqxContext *ctx;
    int flush_ret;
    char notices[1024];
} Run;

static void on_notice(void *cookie, const char *msg)
{
    Run *r = cookie;
    const size_t n = strlen(r->notices);
    snprintf(r->notices + n, sizeof(r->notices) - n, "%s\n", msg);
}

/* Runs `features` ("name" or "name=opts", NULL-terminated) on the frame
 * pairs; the pictures are copied, the caller keeps them. */
static void run_features(Run *r, const char *const *features, const VqxPicture *refs,
                         const VqxPicture *diss, unsigned n_frames, unsigned threads)
{
    memset(r, 0, sizeof(*r));
    VqxSettings s;
    vqx_default_settings(&s);
    s.n_threads = threads;
    s.notice = on_notice;
    s.notice_cookie = r;
    if (vqx_open(&r->ctx, &s)) {
        r->flush_ret = -ENOMEM;
        return;
    }
    for (const char *const *f = features; *f; f++) {
        char name[64];
        const char *eq = strchr(*f, '=');
        snprintf(name, sizeof(name), "%.*s", eq ? (int)(eq - *f) : (int)strlen(*f), *f);
        CHECK(vqx_use_feature(r->ctx, name, eq ? eq + 1 : NULL) == 0);
    }
    for (unsigned i = 0; i < n_frames; i++) {
        VqxPicture a, b;
        const VqxPicture *src[2] = { &refs[i], &diss[i] };
        VqxPicture *dst[2] = { &a, &b };
        for (int k = 0; k < 2; k++) {
            vqx_picture_alloc(dst[k], src[k]->layout, src[k]->bpc, src[k]->w[0], src[k]->h[0]);
            copy_picture(dst[k], src[k]);
        }
        CHECK(vqx_send_pictures(r->ctx, &a, &b) == 0);
    }
    r->flush_ret = vqx_flush(r->ctx);
}

static double score(const Run *r, const char *key, unsigned frame)
{
    double v;
    return vqx_score_at(r->ctx, key, frame, &v) ? NAN : v;
}

static bool has_score(const Run *r, const char *key, unsigned frame)
{
    double v;
    return vqx_score_at(r->ctx, key, frame, &v) == 0;
}

static void alloc_pair(VqxPicture *ref, VqxPicture *dis, enum VqxPixelLayout layout,
                       unsigned bpc, unsigned w, unsigned h, uint32_t seed)
{
    vqx_picture_alloc(ref, layout, bpc, w, h);
    vqx_picture_alloc(dis, layout, bpc, w, h);
    fill(ref, seed);
    distort(dis, ref, seed * 7 + 1);
}

/* ---- SSIM kernel against a plain full-plane computation ---- */

/* libvmaf's Gaussian taps, and its order of operations written plainly:
 * whole filtered planes, then the per-pixel terms. */
static const float taps[11] = {
    0.001028f, 0.007599f, 0.036001f, 0.109361f, 0.213006f, 0.266012f,
    0.213006f, 0.109361f, 0.036001f, 0.007599f, 0.001028f,
};

static void plain_filter(const float *in, int w, int h, float *out)
{
    const int ow = w - 10, oh = h - 10;
    float *tmp = malloc(sizeof(float) * (size_t)ow * h);
    for (int y = 0; y < h; y++)
        for (int x = 0; x < ow; x++) {
            double sum = 0.0;
            for (int k = 0; k < 11; k++) sum += in[y * w + x + k] * taps[k];
            tmp[y * ow + x] = (float)sum;
        }
    for (int y = 0; y < oh; y++)
        for (int x = 0; x < ow; x++) {
            double sum = 0.0;
            for (int k = 0; k < 11; k++) sum += tmp[(y + k) * ow + x] * taps[k];
            out[y * ow + x] = (float)sum;
        }
    free(tmp);
}

static VqxSsimMeans plain_ssim(const float *r, const float *c, int w, int h)
{
    const size_t n = (size_t)w * h;
    float *sq[3], *st[5];
    for (int i = 0; i < 3; i++) sq[i] = malloc(n * sizeof(float));
    for (int i = 0; i < 5; i++) st[i] = malloc(n * sizeof(float));
    for (size_t i = 0; i < n; i++) {
        sq[0][i] = r[i] * r[i];
        sq[1][i] = c[i] * c[i];
        sq[2][i] = r[i] * c[i];
    }
    plain_filter(r, w, h, st[0]);
    plain_filter(c, w, h, st[1]);
    for (int i = 0; i < 3; i++) plain_filter(sq[i], w, h, st[2 + i]);

    const float c1 = (0.01f * 255) * (0.01f * 255), c2 = (0.03f * 255) * (0.03f * 255), c3 = c2 / 2.0f;
    const int m = (w - 10) * (h - 10);
    double sum = 0, sl = 0, sc = 0, ss = 0;
    for (int i = 0; i < m; i++) {
        const float mr = st[0][i], mc = st[1][i];
        float vr = st[2][i] - mr * mr, vc = st[3][i] - mc * mc;
        vr = vr < 0 ? 0 : vr;
        vc = vc < 0 ? 0 : vc;
        const float cov = st[4][i] - mr * mc;
        const float sd = (float)sqrt(vr * vc);
        const double l = (2.0 * mr * mc + c1) / (mr * mr + mc * mc + c1);
        const double cc = (2.0 * sd + c2) / (vr + vc + c2);
        const double s = ((cov < 0 && sd <= 0 ? 0.0f : cov) + c3) / (sd + c3);
        sum += l * cc * s;
        sl += l;
        sc += cc;
        ss += s;
    }
    for (int i = 0; i < 3; i++) free(sq[i]);
    for (int i = 0; i < 5; i++) free(st[i]);
    return (VqxSsimMeans){ (float)(sum / m), (float)(sl / m), (float)(sc / m), (float)(ss / m) };
}

/* The streaming kernel through the C table and through the SIMD entries
 * this CPU has: both equal to the plain computation. */
static void test_ssim_kernel(void)
{
    static const unsigned sizes[][2] = { { 11, 11 }, { 12, 30 }, { 37, 23 }, { 64, 48 }, { 301, 157 } };
    static const unsigned depths[] = { 8, 10, 12, 16 };
    const unsigned flag_sets[2] = { 0, vqx_cpu_flags(0) };
    for (size_t si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++) {
        const unsigned w = sizes[si][0], h = sizes[si][1];
        VqxSsimScratch scratch[2];
        for (unsigned f = 0; f < 2; f++) CHECK(vqx_ssim_scratch_init(&scratch[f], w, flag_sets[f]) == 0);
        float *r = malloc(sizeof(float) * w * h), *c = malloc(sizeof(float) * w * h);
        for (size_t di = 0; di < sizeof(depths) / sizeof(depths[0]); di++) {
            VqxPicture ref, dis;
            alloc_pair(&ref, &dis, VQX_PIX_400, depths[di], w, h, (uint32_t)(w * 31 + h + di));
            FloatPictureDSPContext conversion;
            vqx_float_picture_dsp_init(&conversion, 0);
            vqx_float_plane(&conversion, r, w, &ref, 0, 0.0f);
            vqx_float_plane(&conversion, c, w, &dis, 0, 0.0f);
            /* the float conversion: the sample over 2^(bpc - 8) */
            CHECK(r[w + 3] == (float)get_sample(&ref, 0, 3, 1) / (float)(1u << (depths[di] - 8)));
            const VqxSsimMeans want = plain_ssim(r, c, (int)w, (int)h);
            for (unsigned f = 0; f < 2; f++) {
                VqxSsimMeans got;
                vqx_ssim_plane(&scratch[f], r, c, w, w, h, &got);
                CHECK(got.ssim == want.ssim && got.l == want.l && got.c == want.c && got.s == want.s);
                CHECK(got.ssim > 0.1f && got.ssim < 1.0f);
            }
            vqx_picture_free(&ref);
            vqx_picture_free(&dis);
        }
        free(r);
        free(c);
        for (unsigned f = 0; f < 2; f++) vqx_ssim_scratch_free(&scratch[f]);
    }
}

/* ---- extractors through the core ---- */

static void test_identical_frames(void)
{
    VqxPicture ref[2], dis[2];
    for (unsigned i = 0; i < 2; i++) {
        alloc_pair(&ref[i], &dis[i], VQX_PIX_420, 8 + 2 * i, 192, 180, 100 + i);
        copy_picture(&dis[i], &ref[i]);
    }
    static const char *const features[] = { "float_ssim=enable_lcs=true", "float_ms_ssim", "ciede", "psnr_hvs", NULL };
    for (unsigned i = 0; i < 2; i++) {
        Run r;
        run_features(&r, features, &ref[i], &dis[i], 1, 0);
        CHECK(r.flush_ret == 0);
        CHECK(fabs(score(&r, "float_ssim", 0) - 1) < 1e-6);
        CHECK(fabs(score(&r, "float_ssim_s", 0) - 1) < 1e-6);
        CHECK(fabs(score(&r, "float_ms_ssim", 0) - 1) < 1e-6);
        /* zero colour difference: 45 - 20 log10(0) */
        CHECK(isinf(score(&r, "ciede2000", 0)) && score(&r, "ciede2000", 0) > 0);
        CHECK(isinf(score(&r, "psnr_hvs_y", 0)) && isinf(score(&r, "psnr_hvs", 0)));

        /* written as libvmaf writes a non-finite value in JSON: null */
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        const VqxOutputSettings os = { .format = VQX_OUTPUT_JSON, .precision = VQX_PRECISION_LIBVMAF };
        CHECK(vqx_write_output(r.ctx, f, &os) == 0);
        fclose(f);
        CHECK(text && strstr(text, "\"ciede2000\": null"));
        free(text);
        vqx_close(&r.ctx);
    }
    for (unsigned i = 0; i < 2; i++) {
        vqx_picture_free(&ref[i]);
        vqx_picture_free(&dis[i]);
    }
}

static void test_sizes(void)
{
    static const char *const both[] = { "float_ssim", "float_ms_ssim", NULL };
    VqxPicture ref[3], dis[3];

    /* 160x90: SSIM works, MS-SSIM's fifth scale would be below the window */
    for (unsigned i = 0; i < 3; i++) alloc_pair(&ref[i], &dis[i], VQX_PIX_420, 8, 160, 90, 7 + i);
    for (unsigned threads = 0; threads <= 2; threads += 2) {
        Run r;
        run_features(&r, both, ref, dis, 3, threads);
        CHECK(r.flush_ret == -EINVAL);
        CHECK(strstr(vqx_last_error(r.ctx), "float_ms_ssim") != NULL);
        CHECK(strstr(r.notices, "float_ms_ssim") && strstr(r.notices, "176"));
        CHECK(!strstr(r.notices, "float_ssim:"));
        for (unsigned i = 0; i < 3; i++) {
            CHECK(has_score(&r, "float_ssim", i));
            CHECK(!has_score(&r, "float_ms_ssim", i));
        }
        vqx_close(&r.ctx);
    }
    for (unsigned i = 0; i < 3; i++) {
        vqx_picture_free(&ref[i]);
        vqx_picture_free(&dis[i]);
    }

    /* the smallest accepted sizes, and one below */
    static const struct { unsigned w, h; bool ssim, ms_ssim; } cases[] = {
        { 176, 176, true, true }, { 175, 176, true, false }, { 176, 175, true, false },
        { 11, 11, true, false }, { 10, 11, false, false }, { 11, 10, false, false },
    };
    for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
        alloc_pair(&ref[0], &dis[0], VQX_PIX_420, 8, cases[c].w, cases[c].h, 3);
        Run r;
        run_features(&r, both, ref, dis, 1, 0);
        CHECK(r.flush_ret == (cases[c].ssim && cases[c].ms_ssim ? 0 : -EINVAL));
        CHECK(has_score(&r, "float_ssim", 0) == cases[c].ssim);
        CHECK(has_score(&r, "float_ms_ssim", 0) == cases[c].ms_ssim);
        if (!cases[c].ssim) CHECK(strstr(r.notices, "float_ssim:") != NULL);
        if (cases[c].ssim) CHECK(score(&r, "float_ssim", 0) > 0 && score(&r, "float_ssim", 0) < 1);
        vqx_close(&r.ctx);
        vqx_picture_free(&ref[0]);
        vqx_picture_free(&dis[0]);
    }

    /* float_ssim's scale option can take the decimated luma below 11x11 */
    alloc_pair(&ref[0], &dis[0], VQX_PIX_420, 8, 64, 64, 5);
    static const char *const scaled[] = { "float_ssim=scale=6", NULL };
    Run r;
    run_features(&r, scaled, ref, dis, 1, 0);
    CHECK(r.flush_ret == -EINVAL && strstr(r.notices, "float_ssim") != NULL);
    vqx_close(&r.ctx);
    static const char *const scaled_ok[] = { "float_ssim=scale=5", NULL };
    run_features(&r, scaled_ok, ref, dis, 1, 0);
    CHECK(r.flush_ret == 0 && has_score(&r, "float_ssim", 0));
    vqx_close(&r.ctx);
    vqx_picture_free(&ref[0]);
    vqx_picture_free(&dis[0]);

    /* psnr_hvs needs one 8x8 block in every plane: 4:2:0 chroma of 15x15 is 8x8 */
    static const char *const hvs[] = { "psnr_hvs", NULL };
    for (unsigned side = 14; side <= 15; side++) {
        alloc_pair(&ref[0], &dis[0], VQX_PIX_420, 8, side, side, 9);
        run_features(&r, hvs, ref, dis, 1, 0);
        CHECK(has_score(&r, "psnr_hvs", 0) == (side == 15));
        if (side == 14) CHECK(strstr(r.notices, "psnr_hvs") != NULL);
        vqx_close(&r.ctx);
        vqx_picture_free(&ref[0]);
        vqx_picture_free(&dis[0]);
    }
}

/* Luma-only input: the SSIMs run, the colour metrics are dropped. */
static void test_gray(void)
{
    static const char *const all[] = { "float_ssim", "float_ms_ssim", "ciede", "psnr_hvs", NULL };
    VqxPicture ref[2], dis[2], ref420[2], dis420[2];
    for (unsigned i = 0; i < 2; i++) {
        alloc_pair(&ref420[i], &dis420[i], VQX_PIX_420, 10, 200, 180, 40 + i);
        vqx_picture_alloc(&ref[i], VQX_PIX_400, 10, 200, 180);
        vqx_picture_alloc(&dis[i], VQX_PIX_400, 10, 200, 180);
        copy_picture(&ref[i], &ref420[i]);
        copy_picture(&dis[i], &dis420[i]);
    }
    Run gray, color;
    run_features(&gray, all, ref, dis, 2, 2);
    run_features(&color, all, ref420, dis420, 2, 0);
    CHECK(gray.flush_ret == -EINVAL);
    CHECK(color.flush_ret == 0);
    CHECK(strstr(gray.notices, "ciede") && strstr(gray.notices, "psnr_hvs"));
    CHECK(strstr(gray.notices, "4:0:0") != NULL);
    for (unsigned i = 0; i < 2; i++) {
        /* the same luma gives the same SSIMs, with or without chroma */
        CHECK(score(&gray, "float_ssim", i) == score(&color, "float_ssim", i));
        CHECK(score(&gray, "float_ms_ssim", i) == score(&color, "float_ms_ssim", i));
        CHECK(!has_score(&gray, "ciede2000", i) && !has_score(&gray, "psnr_hvs_y", i));
        CHECK(has_score(&color, "ciede2000", i) && has_score(&color, "psnr_hvs", i));
    }
    vqx_close(&gray.ctx);
    vqx_close(&color.ctx);
    for (unsigned i = 0; i < 2; i++) {
        vqx_picture_free(&ref[i]);
        vqx_picture_free(&dis[i]);
        vqx_picture_free(&ref420[i]);
        vqx_picture_free(&dis420[i]);
    }
}

/* psnr_hvs beyond libvmaf's 12 bits: the same content at 12 and 16 bits
 * scores within a few hundredths of a dB (the integer DCT's rounding
 * shrinks with depth), and full-range extremes stay finite. */
static void test_psnr_hvs_16bit(void)
{
    static const char *const hvs[] = { "psnr_hvs", NULL };
    static const char *const keys[] = { "psnr_hvs_y", "psnr_hvs_cb", "psnr_hvs_cr", "psnr_hvs" };
    VqxPicture r8, d8, r12, d12, r16, d16;
    alloc_pair(&r8, &d8, VQX_PIX_420, 8, 96, 64, 77);
    vqx_picture_alloc(&r12, VQX_PIX_420, 12, 96, 64);
    vqx_picture_alloc(&d12, VQX_PIX_420, 12, 96, 64);
    vqx_picture_alloc(&r16, VQX_PIX_420, 16, 96, 64);
    vqx_picture_alloc(&d16, VQX_PIX_420, 16, 96, 64);
    deepen(&r12, &r8, 4);
    deepen(&d12, &d8, 4);
    deepen(&r16, &r8, 8);
    deepen(&d16, &d8, 8);
    Run a, b;
    run_features(&a, hvs, &r12, &d12, 1, 0);
    run_features(&b, hvs, &r16, &d16, 1, 0);
    CHECK(a.flush_ret == 0 && b.flush_ret == 0);
    for (unsigned k = 0; k < 4; k++) {
        const double v12 = score(&a, keys[k], 0), v16 = score(&b, keys[k], 0);
        CHECK(isfinite(v16) && v16 > 10 && v16 < 80);
        CHECK(fabs(v16 - v12) < 0.05);
    }
    vqx_close(&a.ctx);
    vqx_close(&b.ctx);

    /* extremes: 0 / 65535 checkerboards against their inverse */
    for (unsigned pl = 0; pl < 3; pl++)
        for (unsigned y = 0; y < r16.h[pl]; y++)
            for (unsigned x = 0; x < r16.w[pl]; x++) {
                const unsigned v = (x + y + pl) & 1 ? 65535 : 0;
                set_sample(&r16, pl, x, y, v);
                set_sample(&d16, pl, x, y, 65535 - v);
            }
    run_features(&b, hvs, &r16, &d16, 1, 0);
    for (unsigned k = 0; k < 4; k++) CHECK(isfinite(score(&b, keys[k], 0)));
    vqx_close(&b.ctx);
    vqx_picture_free(&r8);
    vqx_picture_free(&d8);
    vqx_picture_free(&r12);
    vqx_picture_free(&d12);
    vqx_picture_free(&r16);
    vqx_picture_free(&d16);
}

/* ciede on 4:2:0 and 4:2:2, odd sizes included, equals ciede on the same
 * clip with each chroma sample replicated over the pixels it covers
 * (libvmaf reads the wrong column on 4:2:2 and past the plane on odd
 * heights; vqx must not). */
static void test_ciede_subsampled(void)
{
    static const char *const ciede[] = { "ciede", NULL };
    static const enum VqxPixelLayout layouts[] = { VQX_PIX_420, VQX_PIX_422 };
    static const unsigned sizes[][2] = { { 40, 30 }, { 37, 23 }, { 1, 1 }, { 2, 3 } };
    for (unsigned li = 0; li < 2; li++)
        for (unsigned si = 0; si < sizeof(sizes) / sizeof(sizes[0]); si++)
            for (unsigned bpc = 8; bpc <= 10; bpc += 2) {
                const unsigned w = sizes[si][0], h = sizes[si][1];
                VqxPicture ref[2], dis[2], ref444[2], dis444[2];
                for (unsigned i = 0; i < 2; i++) {
                    alloc_pair(&ref[i], &dis[i], layouts[li], bpc, w, h, 300 + si * 4 + i + bpc);
                    vqx_picture_alloc(&ref444[i], VQX_PIX_444, bpc, w, h);
                    vqx_picture_alloc(&dis444[i], VQX_PIX_444, bpc, w, h);
                    upsample_to_444(&ref444[i], &ref[i]);
                    upsample_to_444(&dis444[i], &dis[i]);
                }
                Run sub, full;
                run_features(&sub, ciede, ref, dis, 2, 2);
                run_features(&full, ciede, ref444, dis444, 2, 0);
                CHECK(sub.flush_ret == 0 && full.flush_ret == 0);
                for (unsigned i = 0; i < 2; i++) {
                    const double a = score(&sub, "ciede2000", i), b = score(&full, "ciede2000", i);
                    CHECK(a == b);
                    CHECK(!isnan(a) && (w * h < 16 || (a > 10 && a < 60)));
                }
                vqx_close(&sub.ctx);
                vqx_close(&full.ctx);
                for (unsigned i = 0; i < 2; i++) {
                    vqx_picture_free(&ref[i]);
                    vqx_picture_free(&dis[i]);
                    vqx_picture_free(&ref444[i]);
                    vqx_picture_free(&dis444[i]);
                }
            }
}

int main(void)
{
    test_ssim_kernel();
    test_identical_frames();
    test_sizes();
    test_gray();
    test_psnr_hvs_16bit();
    test_ciede_subsampled();
    printf("%u passed, %u failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
