/*
 * ADM tests through the public API, for adm and float_adm: identical frames,
 * the same picture at every bit depth giving the same doubles (a 16-bit
 * sample path and the scaling of each depth, 9..16), odd sizes, the smallest
 * frame and a clear error below it, option errors, key names, and results
 * that do not depend on the thread count or on cpumask. The golden comparison
 * (tests/golden.py) is the acceptance test against libvmaf.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vqx/vqx.h"

static unsigned n_pass, n_fail;

#define CHECK(cond) do { \
    if (cond) n_pass++; \
    else { n_fail++; fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

#define N_FRAMES 3

/* Deterministic content: a smooth gradient, an edge and noise, so that every
 * band and both decoupled parts are busy; `distort` adds blur and noise. */
static uint32_t rng_state;

static unsigned rnd(unsigned n)
{
    rng_state = rng_state * 1664525u + 1013904223u;
    return (rng_state >> 8) % n;
}

static unsigned sample8(unsigned x, unsigned y, unsigned frame, bool distort)
{
    int v = (int)((x * 3 + y * 2 + frame * 7) % 200) + (x > y ? 40 : 0);
    if (distort) v = (v * 3 + (int)rnd(60)) / 4;
    else v += (int)rnd(16);
    return v < 0 ? 0 : v > 255 ? 255 : (unsigned)v;
}

/* 8-bit content shifted up to `bpc` (an exact scaling for ADM) */
static void fill(VqxPicture *p, unsigned frame, bool distort, unsigned seed)
{
    rng_state = seed * 7919u + frame * 104729u + distort;
    for (unsigned y = 0; y < p->h[0]; y++) {
        uint8_t *row = (uint8_t *)p->data[0] + (ptrdiff_t)y * p->stride[0];
        for (unsigned x = 0; x < p->w[0]; x++) {
            const unsigned v = sample8(x, y, frame, distort);
            if (p->bpc == 8) row[x] = (uint8_t)v;
            else ((uint16_t *)row)[x] = (uint16_t)(v << (p->bpc - 8));
        }
    }
    for (unsigned c = 1; c < vqx_picture_planes(p); c++) {
        for (unsigned y = 0; y < p->h[c]; y++) {
            uint8_t *row = (uint8_t *)p->data[c] + (ptrdiff_t)y * p->stride[c];
            for (unsigned x = 0; x < p->w[c]; x++) {
                if (p->bpc == 8) row[x] = 0x40;
                else ((uint16_t *)row)[x] = (uint16_t)(0x40 << (p->bpc - 8));
            }
        }
    }
}

typedef struct Run {
    int err;
    char error[256];
    unsigned n_keys;
    char keys[24][96];
    double value[24][N_FRAMES];
} Run;

static void run_mask(Run *r, const char *feature, const char *opts, unsigned bpc, unsigned w,
                     unsigned h, bool identical, unsigned threads, unsigned cpumask)
{
    memset(r, 0, sizeof(*r));
    VqxSettings set;
    vqx_default_settings(&set);
    set.n_threads = threads;
    set.cpumask = cpumask;
    VqxContext *ctx = NULL;
    r->err = vqx_open(&ctx, &set);
    if (!r->err) r->err = vqx_use_feature(ctx, feature, opts);
    for (unsigned f = 0; f < N_FRAMES && !r->err; f++) {
        VqxPicture ref, dis;
        vqx_picture_alloc(&ref, VQX_PIX_420, bpc, w, h);
        vqx_picture_alloc(&dis, VQX_PIX_420, bpc, w, h);
        fill(&ref, f, false, 1);
        fill(&dis, f, !identical, identical ? 1 : 2);
        r->err = vqx_send_pictures(ctx, &ref, &dis);
        vqx_picture_free(&ref);
        vqx_picture_free(&dis);
    }
    if (!r->err) r->err = vqx_flush(ctx);
    if (ctx) snprintf(r->error, sizeof(r->error), "%s", vqx_last_error(ctx));
    for (unsigned k = 0; ctx && !r->err && k < vqx_key_count(ctx) && k < 24; k++) {
        snprintf(r->keys[r->n_keys], sizeof(r->keys[0]), "%s", vqx_key_name(ctx, k));
        bool written = true;
        for (unsigned f = 0; f < N_FRAMES; f++)
            written &= !vqx_score_at(ctx, r->keys[r->n_keys], f, &r->value[r->n_keys][f]);
        if (written) r->n_keys++;
    }
    vqx_close(&ctx);
}

static void run(Run *r, const char *feature, const char *opts, unsigned bpc, unsigned w,
                unsigned h, bool identical, unsigned threads)
{
    run_mask(r, feature, opts, bpc, w, h, identical, threads, 0);
}

static const double *value_of(const Run *r, const char *key)
{
    for (unsigned k = 0; k < r->n_keys; k++)
        if (!strcmp(r->keys[k], key)) return r->value[k];
    return NULL;
}

static bool same_results(const Run *a, const Run *b)
{
    if (a->err || b->err || a->n_keys != b->n_keys || !a->n_keys) return false;
    for (unsigned k = 0; k < a->n_keys; k++) {
        if (strcmp(a->keys[k], b->keys[k])) return false;
        if (memcmp(a->value[k], b->value[k], sizeof(a->value[k]))) return false;
    }
    return true;
}

static bool all_finite(const Run *r)
{
    for (unsigned k = 0; k < r->n_keys; k++)
        for (unsigned f = 0; f < N_FRAMES; f++)
            if (!isfinite(r->value[k][f])) return false;
    return r->n_keys > 0;
}

static void test_identical(const char *feature, const char *adm2, const char *aim)
{
    Run r;
    run(&r, feature, NULL, 8, 96, 64, true, 0);
    CHECK(r.err == 0);
    const double *d = value_of(&r, adm2), *a = value_of(&r, aim);
    CHECK(d && a);
    for (unsigned f = 0; d && a && f < N_FRAMES; f++) {
        CHECK(fabs(d[f] - 1.0) < 1e-3);
        CHECK(a[f] == 0.0);
    }
}

/* The same picture at every depth gives the same doubles: the DWT's first
 * rounding removes the scaling exactly. */
static void test_bit_depths(const char *feature)
{
    Run base, other;
    run(&base, feature, NULL, 8, 75, 49, false, 0);
    CHECK(base.err == 0 && all_finite(&base));
    for (unsigned bpc = 9; bpc <= 16; bpc++) {
        run(&other, feature, NULL, bpc, 75, 49, false, 0);
        if (!same_results(&base, &other))
            fprintf(stderr, "%s: %u bits differ from 8 bits\n", feature, bpc);
        CHECK(same_results(&base, &other));
    }
}

static void test_sizes(const char *feature, unsigned min_side)
{
    const unsigned sizes[][2] = { { min_side, min_side }, { min_side, min_side + 1 },
                                  { min_side + 1, min_side }, { 37, 41 }, { 201, 35 },
                                  { 34, 133 } };
    Run r;
    for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        run(&r, feature, NULL, 10, sizes[i][0], sizes[i][1], false, 0);
        if (r.err) fprintf(stderr, "%s %ux%u: %s\n", feature, sizes[i][0], sizes[i][1], r.error);
        CHECK(r.err == 0 && all_finite(&r));
    }
    const unsigned small[][2] = { { min_side - 1, 200 }, { 200, min_side - 1 } };
    for (unsigned i = 0; i < 2; i++) {
        run(&r, feature, NULL, 8, small[i][0], small[i][1], false, 0);
        CHECK(r.err == -EINVAL);
        CHECK(strstr(r.error, "too small") != NULL);
    }
}

static void test_threads(const char *feature, const char *opts)
{
    Run a, b;
    run(&a, feature, opts, 12, 120, 68, false, 0);
    run(&b, feature, opts, 12, 120, 68, false, 2);
    CHECK(same_results(&a, &b));
}

/* Sizes that leave every vector width a remainder at every level, every
 * depth: cpumask 63 (the C), 16 (AVX2 without AVX-512) and 0 (every ISA
 * this CPU has) give the same bits. */
static void test_simd(void)
{
    static const unsigned sizes[][2] = { { 33, 33 }, { 67, 45 }, { 333, 97 }, { 1921, 36 } };
    static const unsigned masks[2] = { 16, 0 };
    for (unsigned bpc = 8; bpc <= 16; bpc++) {
        for (unsigned i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
            static Run c, v;
            run_mask(&c, "adm", "debug=true", bpc, sizes[i][0], sizes[i][1], false, 0, 63);
            for (unsigned m = 0; m < 2; m++) {
                run_mask(&v, "adm", "debug=true", bpc, sizes[i][0], sizes[i][1], false, 0,
                         masks[m]);
                if (!same_results(&c, &v))
                    fprintf(stderr, "adm: %u-bit %ux%u: cpumask %u and 63 differ\n", bpc,
                            sizes[i][0], sizes[i][1], masks[m]);
                CHECK(same_results(&c, &v));
            }
        }
    }
}

static void test_options(void)
{
    Run r;
    /* key suffixes as libvmaf names them, sorted by option name */
    run(&r, "adm", "adm_csf_mode=2:adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_min_val=0.5:"
        "adm_noise_weight=0.02:adm_norm_view_dist=1.5:adm_ref_display_height=2160", 8, 64, 48,
        false, 0);
    CHECK(r.err == 0);
    CHECK(value_of(&r, "integer_adm3_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02_nvd_1.5_rdh_2160"));
    CHECK(value_of(&r, "integer_adm_scale3_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02_nvd_1.5_rdh_2160"));
    const double *adm3 = value_of(&r, "integer_adm3_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02_nvd_1.5_rdh_2160");
    for (unsigned f = 0; adm3 && f < N_FRAMES; f++) CHECK(adm3[f] >= 0.5);

    run(&r, "adm", "debug=true:adm_csf_mode=3", 8, 64, 48, false, 0);
    CHECK(r.err == 0 && all_finite(&r));
    CHECK(value_of(&r, "integer_adm_num_csf_3") && value_of(&r, "integer_adm_den_scale3_csf_3"));
    CHECK(r.n_keys == 18);

    run(&r, "adm", "adm_skip_scale0=true:adm_skip_aim=true", 8, 64, 48, false, 0);
    CHECK(r.err == 0);
    const double *s0 = value_of(&r, "integer_adm_scale0_ssz");
    const double *aim = value_of(&r, "integer_aim_ssz");
    CHECK(s0 && s0[0] == 0.0 && aim && aim[0] == 0.0);

    /* a blend CSF without a table for this display, and a view below 3 H
     * on 1080 lines, are refused */
    run(&r, "adm", "adm_csf_mode=2:adm_ref_display_height=1440", 8, 64, 48, false, 0);
    CHECK(r.err == -EINVAL && strstr(r.error, "no table"));
    run(&r, "adm", "adm_norm_view_dist=2", 8, 64, 48, false, 0);
    CHECK(r.err == -EINVAL && strstr(r.error, "at least"));
    run(&r, "adm", "adm_csf_mode=4", 8, 64, 48, false, 0);
    CHECK(r.err != 0);

    run(&r, "float_adm", "debug=true:adm_p_norm=2.5:adm_bypass_cm=1:adm_f1s2=0.1:"
        "adm_skip_aim_scale=3:adm_adm3_apply_hm=true:adm_csf_mode=2:adm_ref_display_height=720",
        8, 64, 48, false, 0);
    CHECK(r.err == 0 && all_finite(&r));
    CHECK(value_of(&r, "adm2_aah_bcm_1_csf_2_f1s2_0.1_apn_2.5_rdf_720_sasc_3"));
    run(&r, "float_adm", "adm_csf_mode=1:adm_csf_scale=2", 8, 64, 48, false, 0);
    CHECK(r.err == 0 && all_finite(&r) && value_of(&r, "adm2_csf_1_scf_2"));
}

int main(void)
{
    test_identical("adm", "integer_adm2", "integer_aim");
    test_identical("float_adm", "adm2", "aim");
    test_bit_depths("adm");
    test_bit_depths("float_adm");
    test_sizes("adm", 33);
    test_sizes("float_adm", 17);
    test_threads("adm", NULL);
    test_threads("adm", "adm_csf_mode=1");
    test_threads("float_adm", NULL);
    test_simd();
    test_options();
    printf("%u passed, %u failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
