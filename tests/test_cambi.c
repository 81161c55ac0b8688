/*
 * CAMBI unit tests on a synthetic clip (a slow ramp that bands, a noisy
 * block, flat two-level patches; odd size 333x219, 4:2:0, two frames):
 * every bit depth, the options that change the arithmetic, full_ref, the
 * heatmap files, and the refusals (too small, samples above the bit depth).
 * Expected values are libvmaf 3.2's (scalar C path) for the same clip.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vqx/vqx.h"

static unsigned n_pass, n_fail;

#define CHECK(cond) do { \
    if (cond) n_pass++; \
    else { n_fail++; fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

#define W 333
#define H 219
#define FRAMES 2

static unsigned hash32(unsigned a)
{
    a ^= a >> 16;
    a *= 0x7feb352dU;
    a ^= a >> 15;
    a *= 0x846ca68bU;
    a ^= a >> 16;
    return a;
}

/* 10-bit luma of the distorted (dis) or reference clip. */
static unsigned luma10(unsigned x, unsigned y, unsigned frame, bool dis)
{
    if (!dis) return 170 + (2 * x + y + 5 * frame) / 9;
    if (x >= 200 && y < 100) return 300 + hash32(x * 7919u + y * 104729u + frame * 1299709u) % 64;
    if (y >= 150 && x < 120) return 700 + ((x / 30 + y / 20) & 1) * 2;
    return 160 + (x + 2 * y + 3 * frame) / 12;
}

static void make_picture(VqxPicture *p, unsigned w, unsigned h, unsigned bpc,
                         unsigned frame, bool dis)
{
    if (vqx_picture_alloc(p, VQX_PIX_420, bpc, w, h)) abort();
    for (unsigned plane = 0; plane < 3; plane++) {
        for (unsigned y = 0; y < p->h[plane]; y++) {
            uint8_t *row = (uint8_t *)p->data[plane] + y * p->stride[plane];
            for (unsigned x = 0; x < p->w[plane]; x++) {
                unsigned v = 1u << (bpc - 1);
                if (!plane) {
                    v = luma10(x, y, frame, dis);
                    v = bpc >= 10 ? v << (bpc - 10) : v >> (10 - bpc);
                }
                if (bpc > 8) ((uint16_t *)row)[x] = (uint16_t)v;
                else row[x] = (uint8_t)v;
            }
        }
    }
}

static char notice_text[1024];

static void keep_notice(void *cookie, const char *msg)
{
    (void)cookie;
    snprintf(notice_text, sizeof(notice_text), "%s", msg);
}

typedef struct Run {
    VqxContext *ctx;
    int err; /* of the flush */
} Run;

/* Score the clip with one cambi configuration. */
static Run run_cambi(const char *options, unsigned w, unsigned h, unsigned bpc,
                     unsigned threads)
{
    Run r = { 0 };
    VqxSettings s;
    vqx_default_settings(&s);
    s.n_threads = threads;
    s.notice = keep_notice;
    notice_text[0] = 0;
    if (vqx_open(&r.ctx, &s) || vqx_use_feature(r.ctx, "cambi", options)) {
        r.err = -EINVAL;
        return r;
    }
    for (unsigned f = 0; f < FRAMES; f++) {
        VqxPicture ref, dis;
        make_picture(&ref, w, h, bpc, f, false);
        make_picture(&dis, w, h, bpc, f, true);
        if (vqx_send_pictures(r.ctx, &ref, &dis)) abort();
    }
    r.err = vqx_flush(r.ctx);
    return r;
}

static bool equals(const Run *r, const char *key, const double want[FRAMES])
{
    for (unsigned f = 0; f < FRAMES; f++) {
        double v;
        if (vqx_score_at(r->ctx, key, f, &v) || v != want[f]) {
            fprintf(stderr, "  %s[%u]: want %.17g, got %.17g\n", key, f, want[f], v);
            return false;
        }
    }
    return true;
}

/* libvmaf's values for the clip */
static const double cambi_8bit[FRAMES] = { 10.114583085731784, 10.076853420818809 };
static const double cambi_9bit[FRAMES] = { 8.4887747608586714, 8.4850016675788478 };
static const double cambi_10bit[FRAMES] = { 3.5345822438409416, 3.5082628529345685 };
static const double source_10bit[FRAMES] = { 3.4700067634219378, 3.4599414476547667 };
static const double full_reference_10bit[FRAMES] = { 0.064575480419003739, 0.048321405279801777 };
static const double cambi_pq[FRAMES] = { 7.3454014991363996, 7.3434019764312461 };
static const double cambi_top5[FRAMES] = { 8.5339692665870999, 8.5256786493368537 };
static const double cambi_top100[FRAMES] = { 2.2479358871800077, 2.23042503253378 };
static const double cambi_encode[FRAMES] = { 3.1945254036119017, 3.1268517003608398 };
static const double cambi_steps16[FRAMES] = { 6.79953974670959e-05, 7.7565120313744448e-05 };

static void test_depths(void)
{
    static const struct { unsigned bpc; const double *want; } cases[] = {
        { 8, cambi_8bit }, { 9, cambi_9bit }, { 10, cambi_10bit },
        /* rounded down to 10 bits, and not smoothed: as 10-bit */
        { 12, cambi_10bit }, { 16, cambi_10bit },
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        for (unsigned threads = 0; threads <= 2; threads += 2) {
            Run r = run_cambi(NULL, W, H, cases[i].bpc, threads);
            CHECK(!r.err);
            CHECK(equals(&r, "cambi", cases[i].want));
            vqx_close(&r.ctx);
        }
    }
}

static void test_options(void)
{
    static const struct { const char *options, *key; const double *want; } cases[] = {
        { "eotf=pq", "cambi_eotf_pq", cambi_pq },
        { "cambi_eotf=pq", "cambi_ceot_pq", cambi_pq },
        { "topk=0.05", "cambi_topk_0.05", cambi_top5 },
        { "cambi_topk=1", "cambi_ctpk_1", cambi_top100 },
        { "enc_width=240:enc_height=180:enc_bitdepth=8", "cambi_encbd_8_ench_180_encw_240", cambi_encode },
        { "max_log_contrast=4:tvi_threshold=0.01:cambi_vis_lum_threshold=10:window_size=127",
          "cambi_vlt_10_mlc_4_tvit_0.01_ws_127", cambi_steps16 },
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        Run r = run_cambi(cases[i].options, W, H, 10, 0);
        CHECK(!r.err);
        CHECK(equals(&r, cases[i].key, cases[i].want));
        vqx_close(&r.ctx);
    }
}

static void test_full_ref(void)
{
    Run r = run_cambi("full_ref=true", W, H, 10, 2);
    CHECK(!r.err);
    CHECK(equals(&r, "cambi", cambi_10bit));
    CHECK(equals(&r, "cambi_source", source_10bit));
    CHECK(equals(&r, "cambi_full_reference", full_reference_10bit));
    vqx_close(&r.ctx);

    /* the no-reference run has no reference keys */
    r = run_cambi(NULL, W, H, 10, 0);
    double v;
    CHECK(vqx_score_at(r.ctx, "cambi_source", 0, &v) != 0);
    vqx_close(&r.ctx);
}

/* FNV-1a of a file's samples taken as little-endian 16-bit. */
static uint64_t hash_samples(const char *path, long *size)
{
    uint64_t h = 0xcbf29ce484222325u;
    FILE *f = fopen(path, "rb");
    *size = -1;
    if (!f) return 0;
    uint16_t s;
    long n = 0;
    while (fread(&s, sizeof(s), 1, f) == 1) {
        const uint8_t bytes[2] = { (uint8_t)s, (uint8_t)(s >> 8) };
        for (unsigned i = 0; i < 2; i++) h = (h ^ bytes[i]) * 0x100000001b3u;
        n += 2;
    }
    fclose(f);
    *size = n;
    return h;
}

static void test_heatmaps(void)
{
    /* libvmaf's files for the 8-bit clip */
    static const struct { const char *name; long size; uint64_t hash; } files[] = {
        { "cambi_heatmap_scale_0_333x219_16b.gray", 291708, 0x604e446a4afe758au },
        { "cambi_heatmap_scale_1_167x110_16b.gray", 73480, 0x6f74573feaec1653u },
        { "cambi_heatmap_scale_2_84x55_16b.gray", 18480, 0x8e46a8316ea2f4b4u },
        { "cambi_heatmap_scale_3_42x28_16b.gray", 4704, 0x9587afabbe1a2e16u },
        { "cambi_heatmap_scale_4_21x14_16b.gray", 1176, 0x5076d88ee98fa3f9u },
    };
    char dir[] = "/tmp/vqx-cambi-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    char options[512], path[600];
    snprintf(options, sizeof(options), "heatmaps_path=%s/maps", dir);
    /* two instances write the frames of one file */
    Run r = run_cambi(options, W, H, 8, 2);
    CHECK(!r.err);
    CHECK(equals(&r, "cambi", cambi_8bit));
    vqx_close(&r.ctx);
    for (unsigned i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        snprintf(path, sizeof(path), "%s/maps/%s", dir, files[i].name);
        long size;
        const uint64_t h = hash_samples(path, &size);
        CHECK(size == files[i].size);
        CHECK(h == files[i].hash);
        unlink(path);
    }
    snprintf(path, sizeof(path), "%s/maps", dir);
    rmdir(path);
    rmdir(dir);

    /* a path that cannot be a folder */
    r = run_cambi("heatmaps_path=/dev/null/maps", W, H, 8, 0);
    CHECK(r.err != 0);
    CHECK(strstr(notice_text, "heatmaps_path") != NULL);
    vqx_close(&r.ctx);
}

static void test_refusals(void)
{
    /* libvmaf's minimum: width or height at least 216 */
    Run r = run_cambi(NULL, 215, 215, 8, 0);
    CHECK(r.err != 0);
    CHECK(strstr(notice_text, "216") != NULL);
    vqx_close(&r.ctx);

    r = run_cambi(NULL, 216, 100, 8, 0);
    CHECK(!r.err);
    double v;
    CHECK(!vqx_score_at(r.ctx, "cambi", 1, &v) && v >= 0);
    vqx_close(&r.ctx);

    r = run_cambi(NULL, 100, 216, 10, 2);
    CHECK(!r.err);
    vqx_close(&r.ctx);

    /* the encode may be smaller than the input, but not below 216 */
    r = run_cambi("enc_width=200:enc_height=200", W, H, 8, 0);
    CHECK(r.err != 0);
    vqx_close(&r.ctx);

    /* the window grows with width + height: past 65 at 6000 + 216 */
    r = run_cambi(NULL, 6000, 216, 8, 0);
    CHECK(r.err != 0);
    CHECK(strstr(notice_text, "window") != NULL);
    vqx_close(&r.ctx);
}

int main(void)
{
    test_depths();
    test_options();
    test_full_ref();
    test_heatmaps();
    test_refusals();
    printf("%u passed, %u failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
