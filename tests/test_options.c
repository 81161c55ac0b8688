/*
 * Option parsing of every registered extractor: plain-decimal syntax only
 * (no spaces, hexadecimal, inf, nan, octal-looking integers), -0 taken as
 * 0 (same values, same key names), subnormals kept, duplicate keys (also a
 * name and its alias) refused, value sets (kernel scales) checked at parse
 * time with the set in the message; and every INT and DOUBLE option run at
 * its range ends, -0, the smallest subnormal and a tiny value on a small
 * frame pair: the values are finite, or init refuses with a message that
 * names the extractor. New options are covered through the registry.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feature/registry.h"
#include "io/input.h"
#include "options.h"
#include "vqx/vqx.h"

#include "check.h"

/* ---- the option layer, directly ---- */

static const VqxFeatureExtractor *cpu(const char *name)
{
    const VqxFeatureExtractor *fex = vqx_registry_find(name, VQX_BACKEND_CPU);
    if (!fex) {
        printf("no extractor %s\n", name);
        exit(1);
    }
    return fex;
}

/* vqx_options_apply on a copy of `text`; the state is returned in *state
 * (free it) when wanted. */
static int apply(const VqxFeatureExtractor *fex, const char *text, char *err, size_t len,
                 void **state)
{
    char *kv = strdup(text);
    void *s = calloc(1, fex->state_size ? fex->state_size : 1);
    err[0] = 0;
    const int ret = vqx_options_apply(fex, s, kv, err, len);
    free(kv);
    if (state) *state = s;
    else free(s);
    return ret;
}

static const VqxOption *option(const VqxFeatureExtractor *fex, const char *name)
{
    for (const VqxOption *o = fex->options; o && o->name; o++)
        if (!strcmp(o->name, name)) return o;
    printf("%s has no option %s\n", fex->name, name);
    exit(1);
}

static double double_of(const VqxFeatureExtractor *fex, const char *opt, const char *text)
{
    char err[512];
    void *s;
    double v = NAN;
    if (!apply(fex, text, err, sizeof(err), &s))
        memcpy(&v, (const uint8_t *)s + option(fex, opt)->offset, sizeof(v));
    free(s);
    return v;
}

static void test_duplicates(void)
{
    char err[512];
    const VqxFeatureExtractor *psnr = cpu("psnr"), *adm = cpu("adm");
    CHECK(apply(psnr, "enable_mse=true:enable_mse=false", err, sizeof(err), NULL) == -EINVAL,
          "duplicate accepted");
    CHECK(!strcmp(err, "psnr: option enable_mse given twice"), "message '%s'", err);
    /* the same value twice is still given twice */
    CHECK(apply(psnr, "enable_mse=true:enable_chroma=false:enable_mse=true", err, sizeof(err),
                NULL) == -EINVAL, "duplicate accepted");
    CHECK(apply(adm, "adm_enhn_gain_limit=2:egl=3", err, sizeof(err), NULL) == -EINVAL,
          "name and alias accepted");
    CHECK(!strcmp(err, "adm: option adm_enhn_gain_limit given twice (as adm_enhn_gain_limit "
                       "and egl)"), "message '%s'", err);
    CHECK(apply(adm, "egl=3:adm_enhn_gain_limit=2", err, sizeof(err), NULL) == -EINVAL &&
          strstr(err, "(as egl and adm_enhn_gain_limit)"), "message '%s'", err);
    /* the public API refuses it the same way */
    VqxContext *ctx;
    CHECK(!vqx_open(&ctx, NULL), "vqx_open");
    CHECK(vqx_use_feature(ctx, "adm", "adm_enhn_gain_limit=2:egl=3") == -EINVAL, "api");
    CHECK(strstr(vqx_last_error(ctx), "given twice (as adm_enhn_gain_limit and egl)"),
          "message '%s'", vqx_last_error(ctx));
    /* an override by the option's alias replaces the model's own value */
    const int ret = vqx_use_model(ctx, "version=vmaf_v0.6.1neg:adm.egl=1.5");
    CHECK(ret == 0, "model override: %d '%s'", ret, vqx_last_error(ctx));
    /* by its name it replaces the model's value */
    CHECK(!vqx_use_model(ctx, "version=vmaf_v0.6.1neg:adm.adm_enhn_gain_limit=1.5:name=n2"),
          "model override by name: %s", vqx_last_error(ctx));
    vqx_close(&ctx);

    /* every option of every extractor, by name twice and by name and alias */
    for (unsigned i = 0; vqx_feature_name(i); i++) {
        const VqxFeatureExtractor *fex = cpu(vqx_feature_name(i));
        for (const VqxOption *o = fex->options; o && o->name; o++) {
            char text[256], val[64];
            switch (o->type) {
            case VQX_OPT_BOOL: snprintf(val, sizeof(val), "%s", o->def.b ? "true" : "false"); break;
            case VQX_OPT_INT: snprintf(val, sizeof(val), "%.17g",
                                       o->n_values ? o->values[0] : o->min); break;
            case VQX_OPT_DOUBLE: snprintf(val, sizeof(val), "%.17g",
                                          o->n_values ? o->values[0] : o->max); break;
            case VQX_OPT_STRING: snprintf(val, sizeof(val), "%s",
                                          o->choices ? o->choices[0] : "x"); break;
            }
            snprintf(text, sizeof(text), "%s=%s:%s=%s", o->name, val, o->name, val);
            CHECK(apply(fex, text, err, sizeof(err), NULL) == -EINVAL &&
                  strstr(err, fex->name) && strstr(err, "given twice"),
                  "%s %s: '%s'", fex->name, text, err);
            if (!o->alias) continue;
            snprintf(text, sizeof(text), "%s=%s:%s=%s", o->alias, val, o->name, val);
            char want[256];
            snprintf(want, sizeof(want), "%s: option %s given twice (as %s and %s)", fex->name,
                     o->name, o->alias, o->name);
            CHECK(apply(fex, text, err, sizeof(err), NULL) == -EINVAL && !strcmp(err, want),
                  "%s %s: '%s'", fex->name, text, err);
        }
    }
}

static void test_syntax(void)
{
    const VqxFeatureExtractor *vif = cpu("float_vif"), *adm = cpu("adm");
    char err[512];
    static const char *const bad_double[] = {
        " 1", "1 ", "\t1", "1\n", "0x1p-3", "0X1P0", "0x0", "inf", "-inf", "INF", "infinity",
        "nan", "NaN", "-nan", "nan(1)", "", ".", "-", "+", "e1", "1e", "1e+", "1.0x", "1,5",
        "--1", "+-1", "1..0", "١",
    };
    for (size_t i = 0; i < sizeof(bad_double) / sizeof(bad_double[0]); i++) {
        char text[64];
        snprintf(text, sizeof(text), "vif_sigma_nsq=%s", bad_double[i]);
        char want[80];
        snprintf(want, sizeof(want), "not '%s'", bad_double[i]);
        CHECK(apply(vif, text, err, sizeof(err), NULL) == -ERANGE &&
              strstr(err, "float_vif: option vif_sigma_nsq takes a number in [0, 5]") &&
              strstr(err, "no spaces, hexadecimal, inf or nan") && strstr(err, want),
              "'%s': '%s'", text, err);
    }
    static const struct { const char *text; double v; } good_double[] = {
        { "1", 1 }, { "+1", 1 }, { "1.", 1 }, { ".5", 0.5 }, { "+.5", 0.5 }, { "0.5", 0.5 },
        { "00.5", 0.5 }, { "5e-1", 0.5 }, { "5E-1", 0.5 }, { "0.05e+1", 0.5 }, { "5", 5 },
        { "0", 0 }, { "-0", 0 }, { "-0.0", 0 }, { "-0e5", 0 }, { "-1e-400", 0 }, { "1e-400", 0 },
        { "4.9406564584124654e-324", 4.9406564584124654e-324 }, { "1e-310", 1e-310 },
    };
    for (size_t i = 0; i < sizeof(good_double) / sizeof(good_double[0]); i++) {
        char text[64];
        snprintf(text, sizeof(text), "vif_sigma_nsq=%s", good_double[i].text);
        const double v = double_of(vif, "vif_sigma_nsq", text);
        /* bitwise: -0 must come out as +0 */
        CHECK(!memcmp(&v, &good_double[i].v, sizeof(v)), "'%s' gives %a", text, v);
    }
    CHECK(apply(vif, "vif_sigma_nsq=-1e-300", err, sizeof(err), NULL) == -ERANGE,
          "below the range");
    CHECK(apply(vif, "vif_sigma_nsq=5.000000000000001", err, sizeof(err), NULL) == -ERANGE,
          "above the range");
    const VqxFeatureExtractor *psnr = cpu("psnr");
    CHECK(apply(psnr, "min_sse=1e999", err, sizeof(err), NULL) == -ERANGE &&
          strstr(err, "not '1e999'"), "overflow: '%s'", err);
    CHECK(double_of(psnr, "min_sse", "min_sse=1.7976931348623157e308") == DBL_MAX, "DBL_MAX");

    static const char *const bad_int[] = {
        " 3", "3 ", "\t3", "03", "00", "-03", "0x3", "0X3", "3.0", "3.", "3e0", "1e1", "",
        "+", "-", "3a", "inf", "nan", "++3", "99999999999999999999",
    };
    for (size_t i = 0; i < sizeof(bad_int) / sizeof(bad_int[0]); i++) {
        char text[64], want[80];
        snprintf(text, sizeof(text), "adm_csf_mode=%s", bad_int[i]);
        snprintf(want, sizeof(want), "not '%s'", bad_int[i]);
        CHECK(apply(adm, text, err, sizeof(err), NULL) == -ERANGE &&
              strstr(err, "adm: option adm_csf_mode takes an integer in [0, 3]") &&
              strstr(err, want), "'%s': '%s'", text, err);
    }
    CHECK(apply(adm, "adm_csf_mode=+3", err, sizeof(err), NULL) == 0, "+3: %s", err);
    CHECK(apply(adm, "adm_csf_mode=-0", err, sizeof(err), NULL) == 0, "-0: %s", err);
    CHECK(apply(adm, "adm_csf_mode=0", err, sizeof(err), NULL) == 0, "0: %s", err);
    CHECK(apply(adm, "adm_csf_mode=4", err, sizeof(err), NULL) == -ERANGE &&
          !strcmp(err, "adm: option adm_csf_mode takes an integer in [0, 3], not '4'"),
          "'%s'", err);

    /* -0 keys and identifies exactly as 0 */
    void *a, *b;
    char sa[256], sb[256], ia[256], ib[256];
    CHECK(!apply(vif, "vif_sigma_nsq=-0", err, sizeof(err), &a), "%s", err);
    CHECK(!apply(vif, "vif_sigma_nsq=0", err, sizeof(err), &b), "%s", err);
    vqx_options_key_suffix(vif, a, sa, sizeof(sa));
    vqx_options_key_suffix(vif, b, sb, sizeof(sb));
    vqx_options_identity(vif, a, ia, sizeof(ia));
    vqx_options_identity(vif, b, ib, sizeof(ib));
    CHECK(!strcmp(sa, "_snsq_0") && !strcmp(sa, sb), "suffixes '%s' '%s'", sa, sb);
    CHECK(!strcmp(ia, ib), "identities '%s' '%s'", ia, ib);
    free(a);
    free(b);
}

static void test_value_sets(void)
{
    char err[512];
    static const char *const ks_features[][2] = {
        { "float_vif", "vif_kernelscale" }, { "speed_chroma", "speed_kernelscale" },
        { "speed_temporal", "speed_kernelscale" },
    };
    for (size_t f = 0; f < 3; f++) {
        const VqxFeatureExtractor *fex = cpu(ks_features[f][0]);
        char text[128], want[512];
        snprintf(text, sizeof(text), "%s=0.1", ks_features[f][1]);
        snprintf(want, sizeof(want), "%s: option %s takes one of 0.444444, 0.5, 0.666667, "
                 "0.711111, 0.74074, 1, 1.06667, 1.11111, 1.16667, 1.25, 1.33333, 1.41667, 1.4746, "
                 "1.5, 1.54, 1.6, 1.66667, 2, 2.4, 3, 3.71134 (each within 0.001), not '0.1'",
                 ks_features[f][0], ks_features[f][1]);
        CHECK(apply(fex, text, err, sizeof(err), NULL) == -EINVAL && !strcmp(err, want),
              "%s: '%s'", text, err);
        /* libvmaf's test: |float(v) - scale| < 1e-3 in float; 0.501 passes it in
         * float (not in double), 0.4989 does not */
        static const struct { const char *v; bool ok; } cases[] = {
            { "0.501", true }, { "0.499", true }, { "0.4989", false }, { "0.6667", true },
            { "0.666", true }, { "1.0667", true }, { "3.7113", true }, { "3.713", false },
            { "4", false }, { "1.2", false }, { "-0", false }, { "1e-310", false },
            { "1e300", false }, { "-1e300", false },
        };
        for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
            snprintf(text, sizeof(text), "%s=%s", ks_features[f][1], cases[c].v);
            const int ret = apply(fex, text, err, sizeof(err), NULL);
            CHECK(cases[c].ok ? ret == 0 : ret == -EINVAL && strstr(err, "takes one of"),
                  "%s %s: %d '%s'", fex->name, text, ret, err);
        }
    }
    /* the sets that replaced "a range, some values of which do something" */
    static const struct { const char *fex, *text, *want; } refused[] = {
        { "cambi", "cambi_high_res_speedup=1000",
          "cambi: option cambi_high_res_speedup takes one of 0, 1080, 1440, 2160, not '1000'" },
        { "float_motion", "motion_filter_size=7",
          "float_motion: option motion_filter_size takes one of 1, 3, 5, not '7'" },
        { "float_adm", "adm_csf_mode=3",
          "float_adm: option adm_csf_mode takes one of 0, 1, 2, not '3'" },
    };
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        CHECK(apply(cpu(refused[i].fex), refused[i].text, err, sizeof(err), NULL) == -EINVAL &&
              !strcmp(err, refused[i].want), "%s: '%s'", refused[i].text, err);
    }
    /* a syntax error in a set option lists the set too */
    CHECK(apply(cpu("cambi"), "hrs=01080", err, sizeof(err), NULL) == -ERANGE &&
          strstr(err, "takes one of 0, 1080, 1440, 2160, written as decimal digits"),
          "'%s'", err);

    /* every listed value is accepted as printed, and the one within the
     * tolerance too (that is what the message promises) */
    for (unsigned i = 0; vqx_feature_name(i); i++) {
        const VqxFeatureExtractor *fex = cpu(vqx_feature_name(i));
        for (const VqxOption *o = fex->options; o && o->name; o++) {
            for (unsigned k = 0; k < o->n_values; k++) {
                char text[128];
                const double v = o->flags & VQX_OPT_VALUES_FLOAT ? (float)o->values[k]
                                                                 : o->values[k];
                snprintf(text, sizeof(text), "%s=%g", o->name, v);
                CHECK(!apply(fex, text, err, sizeof(err), NULL), "%s %s: %s", fex->name, text, err);
                snprintf(text, sizeof(text), "%s=%.17g", o->name, v);
                CHECK(!apply(fex, text, err, sizeof(err), NULL), "%s %s: %s", fex->name, text, err);
            }
        }
    }
}

/* ---- every option on a small frame pair ---- */

typedef struct Result {
    int ret;            /* vqx_use_feature, then the run */
    char err[512];
    unsigned n_keys;
    char keys[64][128];
    double values[64][2];
    bool written[64][2];
} Result;

static void quiet_notice(void *cookie, const char *msg)
{
    char *last = cookie;
    snprintf(last, 512, "%s", msg);
}

static uint32_t rng;

static unsigned noise(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

/* Structure plus noise above, a slow ramp below (banding, for cambi); the
 * distorted picture has more noise and a coarser ramp, and frame 1 moves,
 * so that every metric has something to say. */
static void make_picture(VqxPicture *p, unsigned w, unsigned h, unsigned frame, bool distorted)
{
    vqx_picture_alloc(p, VQX_PIX_444, 8, w, h);
    rng = 12345 + frame * 7 + distorted;
    for (unsigned pl = 0; pl < 3; pl++)
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++) {
                int v;
                if (y < h / 2) {
                    v = 128 + (int)(60 * sin((x + 3 * frame) * 0.11 + pl) * cos(y * 0.08 - pl)) +
                        (int)(noise() % 9) - 4 + (distorted ? (int)(noise() % 21) - 10 : 0);
                } else {
                    const int ramp = 60 + (int)(x + frame) / 6;
                    v = distorted ? ramp & ~3 : ramp;
                }
                ((uint8_t *)p->data[pl])[y * p->stride[pl] + x] =
                    (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
            }
}

/* With a samples folder on the command line, the sweep runs on the first
 * two frames of the bundled pair instead (size 0). */
static VqxPicture sample[2][2];

static void copy_picture(VqxPicture *dst, const VqxPicture *src)
{
    vqx_picture_alloc(dst, src->layout, src->bpc, src->w[0], src->h[0]);
    for (unsigned p = 0; p < vqx_picture_planes(src); p++)
        for (unsigned y = 0; y < src->h[p]; y++)
            memcpy((uint8_t *)dst->data[p] + y * dst->stride[p],
                   (const uint8_t *)src->data[p] + y * src->stride[p],
                   src->w[p] * (src->bpc > 8 ? 2u : 1u));
}

static void read_samples(const char *dir)
{
    static const char *const names[2] = { "city_ref_320x180.y4m", "city_x264_100k_320x180.y4m" };
    for (unsigned i = 0; i < 2; i++) {
        char path[1024], err[256];
        snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
        VqxInput *in = NULL;
        if (vqx_input_open(&in, path, NULL, err, sizeof(err)) ||
            vqx_input_read(in, &sample[0][i], NULL, err, sizeof(err)) != 1 ||
            vqx_input_read(in, &sample[1][i], NULL, err, sizeof(err)) != 1) {
            printf("%s: %s\n", path, err);
            exit(1);
        }
        vqx_input_close(&in);
    }
}

static void run(const char *name, const char *opts, unsigned size, Result *r)
{
    memset(r, 0, sizeof(*r));
    VqxSettings s;
    vqx_default_settings(&s);
    char last_notice[512] = "";
    s.notice = quiet_notice;
    s.notice_cookie = last_notice;
    VqxContext *ctx;
    if (vqx_open(&ctx, &s)) {
        r->ret = -ENOMEM;
        return;
    }
    r->ret = vqx_use_feature(ctx, name, opts);
    for (unsigned f = 0; !r->ret && f < 2; f++) {
        VqxPicture ref, dis;
        if (size) {
            make_picture(&ref, size, size, f, false);
            make_picture(&dis, size, size, f, true);
        } else {
            copy_picture(&ref, &sample[f][0]);
            copy_picture(&dis, &sample[f][1]);
        }
        r->ret = vqx_send_pictures(ctx, &ref, &dis);
    }
    if (!r->ret) r->ret = vqx_flush(ctx);
    snprintf(r->err, sizeof(r->err), "%s", r->ret ? vqx_last_error(ctx) : last_notice);
    r->n_keys = vqx_key_count(ctx);
    if (r->n_keys > 64) r->n_keys = 64;
    for (unsigned k = 0; k < r->n_keys; k++) {
        snprintf(r->keys[k], sizeof(r->keys[k]), "%s", vqx_key_name(ctx, k));
        for (unsigned f = 0; f < 2; f++)
            r->written[k][f] = !vqx_score_at(ctx, r->keys[k], f, &r->values[k][f]);
    }
    vqx_close(&ctx);
}

/* Non-finite values that libvmaf gives as well, documented (docs/adm.md:
 * the Barten CSF overflows the fixed point). */
static bool known_non_finite(const char *fex, const char *opts)
{
    return !strcmp(fex, "adm") && !strcmp(opts, "adm_csf_mode=1");
}

static unsigned n_runs, n_refused_at_init;

static const char *where(unsigned size)
{
    static char buf[32];
    if (!size) return "the sample pair";
    snprintf(buf, sizeof(buf), "%ux%u", size, size);
    return buf;
}

/* Runs `opts`; the values must be finite, or the run refused with a
 * message naming the extractor. Returns whether it ran. */
static bool check_run(const char *fex, const char *opts, unsigned size, Result *r)
{
    run(fex, opts, size, r);
    n_runs++;
    if (r->ret) {
        n_refused_at_init++;
        CHECK(strstr(r->err, fex) != NULL, "%s=%s on %s: %d with message '%s'", fex, opts,
              where(size), r->ret, r->err);
        if (getenv("VQX_TEST_VERBOSE")) printf("  refused %s=%s: %s\n", fex, opts, r->err);
        return false;
    }
    if (known_non_finite(fex, opts)) return true;
    for (unsigned k = 0; k < r->n_keys; k++)
        for (unsigned f = 0; f < 2; f++)
            CHECK(!r->written[k][f] || isfinite(r->values[k][f]),
                  "%s=%s on %s: %s frame %u is %g", fex, opts, where(size), r->keys[k], f,
                  r->values[k][f]);
    return true;
}

/* The smallest square frame at which the extractor runs with its defaults
 * and writes a value other than 0 (SpEED needs several blocks for a
 * regular covariance); else the smallest at which it runs. */
static unsigned smallest_size(const char *fex)
{
    static const unsigned sizes[] = { 64, 96, 128, 176, 216, 256 };
    Result *r = malloc(sizeof(*r));
    unsigned runs = 0, says = 0;
    for (size_t i = 0; !says && i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        run(fex, NULL, sizes[i], r);
        if (r->ret) continue;
        if (!runs) runs = sizes[i];
        for (unsigned k = 0; k < r->n_keys; k++)
            if (r->written[k][1] && r->values[k][1] != 0) says = sizes[i];
    }
    free(r);
    return says ? says : runs;
}

static bool accepted_by_table(const VqxOption *o, double v)
{
    if (o->n_values) {
        for (unsigned k = 0; k < o->n_values; k++)
            if (v == o->values[k]) return true;
        return false;
    }
    return v >= o->min && v <= o->max;
}

static void sweep_option(const VqxFeatureExtractor *fex, const VqxOption *o, unsigned size)
{
    char values[64][48];
    unsigned n = 0;
    if (o->n_values) {
        for (unsigned k = 0; k < o->n_values && n < 60; k++)
            snprintf(values[n++], 48, "%.17g", o->values[k]);
    } else if (o->type == VQX_OPT_INT && o->max - o->min < 16) {
        /* a short integer range: every value */
        for (double v = o->min; v <= o->max; v++) snprintf(values[n++], 48, "%.17g", v);
    } else {
        snprintf(values[n++], 48, "%.17g", o->min);
        snprintf(values[n++], 48, "%.17g", o->max);
    }
    if (o->type == VQX_OPT_DOUBLE) {
        snprintf(values[n++], 48, "-0");
        snprintf(values[n++], 48, "4.9406564584124654e-324");
        snprintf(values[n++], 48, "1e-300");
        snprintf(values[n++], 48, "1e-9");
    } else if (!o->n_values) {
        snprintf(values[n++], 48, "%.17g", o->min - 1);
        snprintf(values[n++], 48, "%.17g", o->max + 1);
    }
    Result *r = malloc(sizeof(*r)), *zero = malloc(sizeof(*zero));
    for (unsigned i = 0; i < n; i++) {
        const double v = strtod(values[i], NULL);
        char text[128], err[512];
        snprintf(text, sizeof(text), "%s=%.47s", o->name, values[i]);
        const int parsed = apply(fex, text, err, sizeof(err), NULL);
        const bool want = accepted_by_table(o, v);
        CHECK(!parsed == want, "%s %s: parsed %d, the table says %s ('%s')", fex->name, text,
              parsed, want ? "accepted" : "refused", err);
        if (parsed) {
            CHECK(strstr(err, fex->name) && strstr(err, o->name) && strstr(err, values[i]),
                  "%s %s: message '%s'", fex->name, text, err);
            continue;
        }
        const bool ran = check_run(fex->name, text, size, r);
        if (!ran || strcmp(values[i], "-0")) continue;
        /* -0 gives exactly what 0 gives: keys and values, bit for bit */
        char text0[128];
        snprintf(text0, sizeof(text0), "%s=0", o->name);
        run(fex->name, text0, size, zero);
        bool same = !zero->ret && zero->n_keys == r->n_keys;
        for (unsigned k = 0; same && k < r->n_keys; k++) {
            same = !strcmp(r->keys[k], zero->keys[k]);
            for (unsigned f = 0; same && f < 2; f++)
                same = r->written[k][f] == zero->written[k][f] &&
                       !memcmp(&r->values[k][f], &zero->values[k][f], sizeof(double));
        }
        CHECK(same, "%s: %s differs from %s", fex->name, text, text0);
    }
    free(r);
    free(zero);
}

static void test_every_option(bool on_samples)
{
    for (unsigned i = 0; vqx_feature_name(i); i++) {
        const VqxFeatureExtractor *fex = cpu(vqx_feature_name(i));
        const unsigned size = on_samples ? 0 : smallest_size(fex->name);
        CHECK(size || on_samples, "%s runs at none of the sizes tried", fex->name);
        if (!size && !on_samples) continue;
        Result *r = malloc(sizeof(*r));
        check_run(fex->name, "", size, r);
        if (getenv("VQX_TEST_VERBOSE"))
            for (unsigned k = 0; k < r->n_keys; k++)
                if (r->written[k][1])
                    printf("  %s at %u: %s %g\n", fex->name, size, r->keys[k], r->values[k][1]);
        free(r);
        for (const VqxOption *o = fex->options; o && o->name; o++)
            if (o->type == VQX_OPT_INT || o->type == VQX_OPT_DOUBLE) sweep_option(fex, o, size);
    }
    printf("%u runs, %u refused at init\n", n_runs, n_refused_at_init);
}

int main(int argc, char **argv)
{
    test_duplicates();
    test_syntax();
    test_value_sets();
    test_every_option(false);
    if (argc > 1) {
        read_samples(argv[1]);
        test_every_option(true);
        for (unsigned f = 0; f < 2; f++)
            for (unsigned i = 0; i < 2; i++) vqx_picture_free(&sample[f][i]);
    }
    return check_report();
}
