/*
 * Model module tests: the SVM and the score steps against hand-computed
 * values, spec parsing, the built-in models, malformed files, and the
 * per-frame model outputs of libvmaf's golden runs reproduced exactly from
 * the golden feature values.
 *
 * Usage: test_model SOURCE_ROOT (tests/data/models and, unless
 * VQX_SHARED_DIR is set, ../shared are found from it).
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "model/json_model.h"
#include "model/model.h"
#include "model/svm.h"
#include "model/svr.h"

static unsigned n_passed, n_failed;
static char data_dir[1024];

__attribute__((format(printf, 3, 4)))
static bool check(bool ok, int line, const char *fmt, ...)
{
    if (ok) {
        n_passed++;
        return true;
    }
    n_failed++;
    fprintf(stderr, "FAIL (line %d): ", line);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return false;
}

#define CHECK(cond, ...) check((cond), __LINE__, __VA_ARGS__)

/* Same double, sign of zero and NaN included. */
static bool same(double a, double b)
{
    return (isnan(a) && isnan(b)) || (a == b && signbit(a) == signbit(b));
}

static bool close_to(double a, double b, double tol)
{
    return fabs(a - b) <= tol * fmax(1.0, fabs(b));
}

static VqxModel *load(const char *spec, char *err, size_t err_len)
{
    VqxModel *m = NULL;
    err[0] = 0;
    if (vqx_model_load(&m, spec, err, err_len)) return NULL;
    return m;
}

/* Load tests/data/models/FILE with extra spec parameters. */
static VqxModel *load_data(const char *file, const char *extra, char *err, size_t err_len)
{
    char spec[2048];
    snprintf(spec, sizeof(spec), "path=%s/%s%s%s", data_dir, file, extra[0] ? ":" : "", extra);
    return load(spec, err, err_len);
}

/* ---- SVM and score steps ---- */

static void test_svm_decision(void)
{
    /* Sparse vectors (index 1 absent from the second) and a trailing space. */
    const char *text = "svm_type nu_svr\nkernel_type rbf\ngamma 0.5\nnr_class 2\n"
                       "total_sv 3\nrho 0.25\nSV\n2 1:0.5 2:-0.25 \n-1.5 2:1\n0.75 1:1 2:0\n";
    VqxSvm svm;
    char err[256];
    int ret = vqx_svm_parse(&svm, text, strlen(text), 2, err, sizeof(err));
    if (!CHECK(ret == 0, "tiny svm parses: %s", err)) return;
    CHECK(svm.n_sv == 3 && svm.dim == 2 && svm.gamma == 0.5 && svm.rho == 0.25,
          "tiny svm header");
    CHECK(svm.sv[2] == 0.0 && svm.sv[3] == 1.0, "absent index reads as 0");

    const double x[2] = { 0.5, 0.5 };
    const double got = vqx_svm_decision(&svm, x);
    /* |x - sv|^2 = 0.5625, 0.5, 0.5; libsvm's order of terms */
    const double expect = 2 * exp(-0.5 * 0.5625) + -1.5 * exp(-0.5 * 0.5) +
                          0.75 * exp(-0.5 * 0.5) - 0.25;
    CHECK(same(got, expect), "decision %.17g, expected %.17g", got, expect);
    /* exact value 0.67557861667446102347 (40-digit decimal arithmetic) */
    CHECK(close_to(got, 0.67557861667446102347, 1e-15), "decision %.17g by hand", got);
    vqx_svm_free(&svm);
}

static VqxSvrModel transform_model(void)
{
    VqxSvrModel m;
    memset(&m, 0, sizeof(m));
    m.transform.enabled = true;
    return m;
}

static void test_transform_and_clip(void)
{
    VqxSvrModel m = transform_model();
    m.transform.has_p[0] = m.transform.has_p[1] = m.transform.has_p[2] = true;
    m.transform.p[0] = 1;
    m.transform.p[1] = 2;
    m.transform.p[2] = 0.5;
    CHECK(vqx_svr_finish(&m, 2) == 7, "polynomial 1 + 2x + x^2/2 at 2");
    m.transform.has_p[0] = false;
    CHECK(vqx_svr_finish(&m, 2) == 6, "polynomial without p0");

    /* rectification against the untransformed score */
    m.transform.p[1] = -1;
    m.transform.p[2] = 0;
    m.transform.out_gte_in = true;
    CHECK(vqx_svr_finish(&m, 3) == 3, "out_gte_in keeps the input");
    m.transform.out_gte_in = false;
    m.transform.out_lte_in = true;
    m.transform.p[1] = 2;
    CHECK(vqx_svr_finish(&m, 3) == 3, "out_lte_in keeps the input");
    CHECK(vqx_svr_finish(&m, -3) == -6, "out_lte_in passes a lower output");

    /* knots (0,0) (10,20) (20,20) (30,40): ramp, flat, ramp */
    m = transform_model();
    const double kx[] = { 0, 10, 20, 30 }, ky[] = { 0, 20, 20, 40 };
    m.transform.n_knots = 4;
    memcpy(m.transform.knot_x, kx, sizeof(kx));
    memcpy(m.transform.knot_y, ky, sizeof(ky));
    const double at[][2] = { { 5, 10 }, { 15, 20 }, { 25, 30 }, { -5, -10 }, { 35, 50 },
                             { 10, 20 }, { 20, 20 }, { 0, 0 } };
    for (unsigned i = 0; i < sizeof(at) / sizeof(at[0]); i++)
        CHECK(vqx_svr_finish(&m, at[i][0]) == at[i][1], "knots at %g: %.17g, expected %g",
              at[i][0], vqx_svr_finish(&m, at[i][0]), at[i][1]);
    CHECK(vqx_svr_finish(&m, NAN) == 0, "knots map NaN to 0 as libvmaf does");

    /* disabled transform, clip */
    m.transform.enabled = false;
    CHECK(vqx_svr_finish(&m, 5) == 5, "transform off");
    m.clip = true;
    m.clip_min = 0;
    m.clip_max = 100;
    CHECK(vqx_svr_finish(&m, -1) == 0 && vqx_svr_finish(&m, 101) == 100 &&
          vqx_svr_finish(&m, 50) == 50, "clip to [0, 100]");
}

/* tiny.json: slopes/intercepts map inputs (0.5, 2) onto x = (0.5, 0.5). */
static void test_tiny_model(void)
{
    char err[512];
    const double in[2] = { 0.5, 2.0 };
    const double raw = (0.67557861667446102347 + 1.0) / 2.0;
    const double transformed = 3.026524079256548572590972253970810327854;
    struct { const char *extra; double expect; } cases[] = {
        { "", 0.5 },                                  /* clipped to [0, 0.5] */
        { "disable_clip", raw },
        { "disable_clip=true", raw },
        { "disable_clip=false", 0.5 },
        { "disable_clip:enable_transform", transformed },
        { "enable_transform", 0.5 },
    };
    for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        VqxModel *m = load_data("tiny.json", cases[i].extra, err, sizeof(err));
        if (!CHECK(m, "tiny.json with '%s' loads: %s", cases[i].extra, err)) continue;
        double out;
        CHECK(vqx_model_predict(m, in, &out) == 0, "predict");
        CHECK(close_to(out, cases[i].expect, 1e-15), "tiny.json '%s': %.17g, expected %.17g",
              cases[i].extra, out, cases[i].expect);
        vqx_model_free(&m);
    }

    /* exact: normalisation, SVM and de-normalisation in libvmaf's order */
    VqxModel *m = load_data("tiny.json", "disable_clip", err, sizeof(err));
    if (!m) return;
    const double x[2] = { 0.5 * 0.5 + 0.25, 0.25 * 2.0 + 0.0 };
    const double svm = 2 * exp(-0.5 * ((x[0] - 0.5) * (x[0] - 0.5) + (x[1] + 0.25) * (x[1] + 0.25))) +
                       -1.5 * exp(-0.5 * (x[0] * x[0] + (x[1] - 1) * (x[1] - 1))) +
                       0.75 * exp(-0.5 * ((x[0] - 1) * (x[0] - 1) + x[1] * x[1])) - 0.25;
    double out;
    vqx_model_predict(m, in, &out);
    CHECK(same(out, (svm - -1.0) / 2.0), "tiny.json exact: %.17g vs %.17g", out, (svm + 1.0) / 2.0);
    vqx_model_free(&m);
}

static void test_knots_model(void)
{
    char err[512];
    VqxModel *m = load_data("tiny_knots.json", "", err, sizeof(err));
    if (!CHECK(m, "tiny_knots.json loads: %s", err)) return;
    const double in = 0.0;
    double out;
    vqx_model_predict(m, &in, &out);
    CHECK(out == 10, "norm none, gamma 0: svm 5, knots map to 10 (got %.17g)", out);
    vqx_model_free(&m);
}

static void test_chroma_correction(void)
{
    char err[512];
    VqxModel *m = load_data("tiny_chroma.json", "", err, sizeof(err));
    if (!CHECK(m, "tiny_chroma.json loads: %s", err)) return;
    CHECK(vqx_model_input_count(m) == 2, "two inputs");
    const char *opts = vqx_model_input_options(m, 1);
    CHECK(opts && !strcmp(opts, "speed_prescale=0.5:speed_prescale_method=bilinear:speed_fast=true"),
          "speed options '%s'", opts);
    opts = vqx_model_input_options(m, 0);
    CHECK(opts && !strcmp(opts, "adm_csf_mode=2:adm_norm_view_dist=1.5"), "adm options '%s'", opts);

    /* speed 0 is replaced by 120 * (1 - adm3) = 30 for adm3 = 0.75 */
    double zero, thirty, other, other_ref;
    vqx_model_predict(m, (const double[]){ 0.75, 0.0 }, &zero);
    vqx_model_predict(m, (const double[]){ 0.75, 30.0 }, &thirty);
    CHECK(same(zero, thirty), "zero chroma corrected: %.17g vs %.17g", zero, thirty);
    vqx_model_predict(m, (const double[]){ 0.75, 5.0 }, &other);
    vqx_model_predict(m, (const double[]){ 0.5, 5.0 }, &other_ref);
    CHECK(!same(other, thirty) && !same(other, other_ref), "non-zero chroma left alone");
    vqx_model_free(&m);
}

/* tiny_bootstrap.json: gamma 0 makes every model a constant: "0" gives 42,
 * "1".."3" give 10, 30, 20, clipped to [0, 25]. */
static void test_bootstrap_model(void)
{
    char err[512];
    VqxModel *m = load_data("tiny_bootstrap.json", "name=b", err, sizeof(err));
    if (!CHECK(m, "tiny_bootstrap.json loads: %s", err)) return;
    static const char *const names[] = { "b", "b_0001", "b_0002", "b_0003", "b_bagging",
                                         "b_stddev", "b_ci_p95_lo", "b_ci_p95_hi" };
    CHECK(vqx_model_output_count(m) == 8, "8 outputs, got %u", vqx_model_output_count(m));
    for (unsigned i = 0; i < 8 && i < vqx_model_output_count(m); i++)
        CHECK(!strcmp(vqx_model_output_name(m, i), names[i]), "output %u '%s', expected '%s'",
              i, vqx_model_output_name(m, i), names[i]);
    CHECK(vqx_model_input_count(m) == 1, "inputs shared by the bootstrap models");

    double out[8];
    const double in = 0.25;
    vqx_model_predict(m, &in, out);
    /* mean 20; population stddev sqrt(200/3); percentiles 2.5 and 97.5 of
     * 10, 20, 30 by linear interpolation: 10.5 and 29.5 (clipped to 25) */
    const double expect[8] = { 42, 10, 25, 20, 20, sqrt(200.0 / 3.0), 10.5, 25 };
    for (unsigned i = 0; i < 8; i++)
        CHECK(close_to(out[i], expect[i], 1e-12), "%s = %.17g, expected %.17g", names[i],
              out[i], expect[i]);
    vqx_model_free(&m);
}

/* ---- specs ---- */

static void test_specs(void)
{
    char err[512];
    VqxModel *m = load("version=vmaf_v0.6.1", err, sizeof(err));
    if (CHECK(m, "vmaf_v0.6.1 loads: %s", err)) {
        CHECK(vqx_model_output_count(m) == 1 && !strcmp(vqx_model_output_name(m, 0), "vmaf"),
              "default name is vmaf");
        for (unsigned i = 0; i < vqx_model_input_count(m); i++)
            CHECK(!strcmp(vqx_model_input_options(m, i), ""), "no options on input %u", i);
        vqx_model_free(&m);
    }
    m = load("version=vmaf_v0.6.1:name=my_score", err, sizeof(err));
    if (CHECK(m, "name= loads: %s", err)) {
        CHECK(!strcmp(vqx_model_output_name(m, 0), "my_score"), "name=");
        vqx_model_free(&m);
    }

    /* The neg model equals v0.6.1 with the gain limits overridden to 1.0. */
    VqxModel *neg = load("version=vmaf_v0.6.1neg", err, sizeof(err));
    m = load("version=vmaf_v0.6.1:vif.vif_enhn_gain_limit=1.0:adm.adm_enhn_gain_limit=1.000",
             err, sizeof(err));
    if (CHECK(m && neg, "override loads: %s", err)) {
        for (unsigned i = 0; i < vqx_model_input_count(m); i++) {
            CHECK(!strcmp(vqx_model_input_options(m, i), vqx_model_input_options(neg, i)),
                  "override input %u: '%s' vs neg '%s'", i, vqx_model_input_options(m, i),
                  vqx_model_input_options(neg, i));
        }
        CHECK(!strcmp(vqx_model_input_options(m, 0), "adm_enhn_gain_limit=1"), "adm gain '%s'",
              vqx_model_input_options(m, 0));
    }
    vqx_model_free(&m);
    vqx_model_free(&neg);

    m = load("version=vmaf_v0.6.1:motion.motion_force_zero=true:float_vif.vif_kernelscale=2",
             err, sizeof(err));
    if (CHECK(m, "motion override loads: %s", err)) {
        CHECK(!strcmp(vqx_model_input_key(m, 1), "VMAF_integer_feature_motion2_score") &&
              !strcmp(vqx_model_input_options(m, 1), "motion_force_zero=true"),
              "motion override '%s'; float_vif (unused here) ignored", vqx_model_input_options(m, 1));
        CHECK(!strcmp(vqx_model_input_options(m, 2), ""), "vif untouched");
        vqx_model_free(&m);
    }

    /* an override replaces a model option in place */
    m = load("version=vmaf_v1.0.16_3d0h:adm.adm_csf_mode=1", err, sizeof(err));
    if (CHECK(m, "v1.0.16 override loads: %s", err)) {
        const char *o = vqx_model_input_options(m, 2);
        CHECK(!strcmp(o, "adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_noise_weight=0.02:"
                         "adm_norm_view_dist=3:adm_ref_display_height=1080:adm_min_val=0.5:"
                         "adm_csf_mode=1"), "adm options '%s'", o);
        vqx_model_free(&m);
    }

    struct { const char *spec, *message; } bad[] = {
        { "", "empty parameter" },
        { "name=x", "either version=NAME or path=FILE" },
        { "version=vmaf_v0.6.1:path=x.json", "either version=NAME or path=FILE" },
        { "version=vmaf_v9", "unknown model version 'vmaf_v9' (built-in: vmaf_v0.6.1," },
        { "version=vmaf_v0.6.1:bogus", "unknown parameter 'bogus'" },
        { "version=vmaf_v0.6.1:foo=bar", "unknown parameter 'foo'" },
        { "version=vmaf_v0.6.1::name=x", "empty parameter" },
        { "version=vmaf_v0.6.1:name=", "name needs a value" },
        { "version=vmaf_v0.6.1:vfi.vif_enhn_gain_limit=1", "unknown extractor 'vfi'" },
        { "version=vmaf_v0.6.1:vif.=1", "not EXTRACTOR.OPTION=VALUE" },
        { "version=vmaf_v0.6.1:vif.vif_enhn_gain_limit", "not EXTRACTOR.OPTION=VALUE" },
        { "path=/nonexistent/model.json", "/nonexistent/model.json: No such file" },
        { "path=/nonexistent/model.pkl", "pkl models are not supported" },
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        m = load(bad[i].spec, err, sizeof(err));
        CHECK(!m && strstr(err, bad[i].message), "spec '%s': error '%s', expected '%s'",
              bad[i].spec, err, bad[i].message);
        vqx_model_free(&m);
    }
}

/* An override names an option by its name or its alias; either replaces the
 * model's own value of that option (whichever way the model spells it), and
 * one option overridden twice in a spec is refused. */
static void test_override_aliases(void)
{
    char err[512];
    static const struct { const char *spec, *options; unsigned input; } good[] = {
        /* vmaf_v0.6.1neg's adm has adm_enhn_gain_limit=1 */
        { "version=vmaf_v0.6.1neg:adm.egl=1.5", "adm_enhn_gain_limit=1.5", 0 },
        { "version=vmaf_v0.6.1neg:adm.adm_enhn_gain_limit=1.5", "adm_enhn_gain_limit=1.5", 0 },
        { "version=vmaf_v0.6.1neg:vif.egl=1.5", "vif_enhn_gain_limit=1.5", 2 },
        /* added under the option's name */
        { "version=vmaf_v0.6.1:adm.egl=1", "adm_enhn_gain_limit=1", 0 },
        /* in place, by alias */
        { "version=vmaf_v1.0.16_3d0h:adm.nvd=5", "adm_dlm_weight=0.7:adm_enhn_gain_limit=1:"
          "adm_noise_weight=0.02:adm_norm_view_dist=5:adm_ref_display_height=1080:"
          "adm_min_val=0.5:adm_csf_mode=2", 2 },
        /* an option of another extractor: overrides of each are independent */
        { "version=vmaf_v0.6.1:adm.egl=1:vif.egl=1", "adm_enhn_gain_limit=1", 0 },
    };
    for (unsigned i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
        VqxModel *m = load(good[i].spec, err, sizeof(err));
        if (!CHECK(m, "'%s' loads: %s", good[i].spec, err)) continue;
        const char *o = vqx_model_input_options(m, good[i].input);
        CHECK(o && !strcmp(o, good[i].options), "'%s' input %u: '%s', expected '%s'",
              good[i].spec, good[i].input, o, good[i].options);
        vqx_model_free(&m);
    }

    /* the model spells the option by its alias; the override by its name */
    char src[sizeof(data_dir) + 32], tmp[] = "/tmp/vqx_test_model_XXXXXX";
    snprintf(src, sizeof(src), "%s/tiny_chroma.json", data_dir);
    FILE *in = fopen(src, "rb");
    const int fd = mkstemp(tmp);
    FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (CHECK(in && out, "copy of %s to %s", src, tmp)) {
        char line[1024];
        while (fgets(line, sizeof(line), in)) {
            char *at = strstr(line, "\"adm_norm_view_dist\"");
            if (at) fprintf(out, "%.*s\"nvd\"%s", (int)(at - line), line,
                            at + strlen("\"adm_norm_view_dist\""));
            else fputs(line, out);
        }
    }
    if (in) fclose(in);
    if (out) fclose(out);
    char spec[sizeof(tmp) + 64];
    snprintf(spec, sizeof(spec), "path=%s:adm.adm_norm_view_dist=3", tmp);
    VqxModel *m = load(spec, err, sizeof(err));
    if (CHECK(m, "'%s' loads: %s", spec, err)) {
        const char *o = vqx_model_input_options(m, 0);
        CHECK(!strcmp(o, "adm_csf_mode=2:nvd=3"), "alias in the model replaced: '%s'", o);
    }
    vqx_model_free(&m);
    remove(tmp);

    static const struct { const char *spec, *message; } bad[] = {
        { "version=vmaf_v0.6.1neg:adm.egl=1.5:adm.egl=2",
          "model 'version=vmaf_v0.6.1neg:adm.egl=1.5:adm.egl=2': adm option "
          "adm_enhn_gain_limit overridden twice" },
        { "version=vmaf_v0.6.1neg:adm.adm_enhn_gain_limit=1:adm.egl=2",
          "model 'version=vmaf_v0.6.1neg:adm.adm_enhn_gain_limit=1:adm.egl=2': adm option "
          "adm_enhn_gain_limit overridden twice (as adm.adm_enhn_gain_limit and adm.egl)" },
        { "version=vmaf_v0.6.1:vif.egl=1:name=x:vif.vif_enhn_gain_limit=1",
          "vif option vif_enhn_gain_limit overridden twice (as vif.egl and "
          "vif.vif_enhn_gain_limit)" },
        /* an option this build does not know: the same text twice */
        { "version=vmaf_v0.6.1:adm.bogus=1:adm.bogus=2", "adm option bogus overridden twice" },
    };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        m = load(bad[i].spec, err, sizeof(err));
        CHECK(!m && strstr(err, bad[i].message), "spec '%s': error '%s', expected '%s'",
              bad[i].spec, err, bad[i].message);
        vqx_model_free(&m);
    }
}

/* ---- built-in models ---- */

static void test_builtins(void)
{
    static const char *const v061[] = {
        "VMAF_integer_feature_adm2_score", "VMAF_integer_feature_motion2_score",
        "VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale1_score",
        "VMAF_integer_feature_vif_scale2_score", "VMAF_integer_feature_vif_scale3_score", NULL
    };
    static const char *const v061_float[] = {
        "VMAF_feature_adm2_score", "VMAF_feature_motion2_score", "VMAF_feature_vif_scale0_score",
        "VMAF_feature_vif_scale1_score", "VMAF_feature_vif_scale2_score",
        "VMAF_feature_vif_scale3_score", NULL
    };
    static const char *const v1016[] = {
        "Cambi_feature_cambi_score", "Speed_chroma_feature_speed_chroma_uv_score",
        "VMAF_integer_feature_adm3_score", "VMAF_integer_feature_motion3_score", NULL
    };
    static const struct { const char *version; const char *const *keys; unsigned outputs; } builtins[] = {
        { "vmaf_v0.6.1", v061, 1 },
        { "vmaf_v0.6.1neg", v061, 1 },
        { "vmaf_4k_v0.6.1", v061, 1 },
        { "vmaf_4k_v0.6.1neg", v061, 1 },
        { "vmaf_b_v0.6.3", v061, 25 },
        { "vmaf_float_v0.6.1", v061_float, 1 },
        { "vmaf_float_v0.6.1neg", v061_float, 1 },
        { "vmaf_float_4k_v0.6.1", v061_float, 1 },
        { "vmaf_float_b_v0.6.3", v061_float, 25 },
        { "vmaf_v1.0.16_3d0h", v1016, 1 },
        { "vmaf_v1.0.16_3d0h_2160", v1016, 1 },
        { "vmaf_v1.0.16_5d0h", v1016, 1 },
        { "vmaf_v1.0.16_1d5h_2160", v1016, 1 },
        { "vmaf_v1.0.16_hfr_3d0h", v1016, 1 },
        { "vmaf_v1.0.16_hfr_3d0h_2160", v1016, 1 },
        { "vmaf_v1.0.16_hfr_5d0h", v1016, 1 },
        { "vmaf_v1.0.16_hfr_1d5h_2160", v1016, 1 },
    };
    const unsigned n = sizeof(builtins) / sizeof(builtins[0]);
    unsigned n_builtin = 0;
    while (vqx_model_builtin_name(n_builtin)) n_builtin++;
    CHECK(n_builtin == n, "%u built-in models, expected %u", n_builtin, n);

    char err[512], spec[128];
    for (unsigned b = 0; b < n; b++) {
        snprintf(spec, sizeof(spec), "version=%s", builtins[b].version);
        VqxModel *m = load(spec, err, sizeof(err));
        if (!CHECK(m, "%s loads: %s", builtins[b].version, err)) continue;
        unsigned k = 0;
        for (; builtins[b].keys[k]; k++) {
            const char *key = vqx_model_input_key(m, k);
            CHECK(key && !strcmp(key, builtins[b].keys[k]), "%s input %u '%s', expected '%s'",
                  builtins[b].version, k, key ? key : "(none)", builtins[b].keys[k]);
        }
        CHECK(vqx_model_input_count(m) == k, "%s: %u inputs", builtins[b].version,
              vqx_model_input_count(m));
        CHECK(vqx_model_output_count(m) == builtins[b].outputs, "%s: %u outputs",
              builtins[b].version, vqx_model_output_count(m));
        vqx_model_free(&m);
    }

    VqxModel *m = load("version=vmaf_b_v0.6.3", err, sizeof(err));
    if (m) {
        CHECK(!strcmp(vqx_model_output_name(m, 1), "vmaf_0001") &&
              !strcmp(vqx_model_output_name(m, 20), "vmaf_0020") &&
              !strcmp(vqx_model_output_name(m, 21), "vmaf_bagging") &&
              !strcmp(vqx_model_output_name(m, 22), "vmaf_stddev") &&
              !strcmp(vqx_model_output_name(m, 23), "vmaf_ci_p95_lo") &&
              !strcmp(vqx_model_output_name(m, 24), "vmaf_ci_p95_hi"), "bootstrap output names");
        vqx_model_free(&m);
    }
    m = load("version=vmaf_v1.0.16_hfr_5d0h", err, sizeof(err));
    if (m) {
        static const char *const opts[] = {
            "cambi_high_res_speedup=1080:cambi_vis_lum_threshold=0.06:cambi_max_val=17",
            "speed_nn_floor=0.1:speed_sigma_nn=0.19:speed_weight_var_mode=5:speed_prescale=0.6:"
            "speed_prescale_method=bilinear:speed_max_val=45",
            "adm_dlm_weight=0.7:adm_enhn_gain_limit=1:adm_noise_weight=0.02:adm_norm_view_dist=5:"
            "adm_ref_display_height=1080:adm_min_val=0.5:adm_csf_mode=2",
            "motion_max_val=18:motion_five_frame_window=true:motion_moving_average=true",
        };
        for (unsigned i = 0; i < 4; i++)
            CHECK(!strcmp(vqx_model_input_options(m, i), opts[i]), "hfr_5d0h options %u: '%s'",
                  i, vqx_model_input_options(m, i));
        vqx_model_free(&m);
    }
}

/* ---- malformed files ---- */

static void test_malformed(void)
{
    static const struct { const char *file, *message; } bad[] = {
        { "bad_empty.json", "bad_empty.json:1:0: " },
        { "bad_truncated.json", "bad_truncated.json:" },
        { "bad_not_object.json", "the top level is not a JSON object" },
        { "bad_duplicate_key.json", "bad_duplicate_key.json:2:" },
        { "bad_missing_model.json", "model_dict.model: missing" },
        { "bad_missing_features.json", "model_dict.feature_names: missing" },
        { "bad_slopes_type.json", "model_dict.slopes: entry 0 is not a number" },
        { "bad_slopes_size.json", "model_dict.slopes: 2 numbers for 2 features" },
        { "bad_opts_size.json", "feature_opts_dicts: 1 entries for 2 features" },
        { "bad_opts_value.json", "option 'adm_csf_mode': not a number" },
        { "bad_model_type.json", "model_type: 'LIBSVMEPSSVR'" },
        { "bad_norm_type.json", "norm_type: 'clip_0to1'" },
        { "bad_clip.json", "score_clip: not [min, max]" },
        { "bad_knots.json", "knots: knot 1: x must ascend" },
        { "bad_rectify.json", "out_gte_in is not a string" },
        { "bad_chroma.json", "exactly one feature named *adm3*" },
        { "bad_svm_kernel.json", "kernel_type 'linear' is not supported" },
        { "bad_svm_index.json", "line 9: support vector 2: expected index:value with index in [1, 2]" },
        { "bad_svm_order.json", "support vector 3: index 1 after 2" },
        { "bad_svm_count.json", "total_sv is 5 but only 3 lines" },
        { "bad_svm_extra.json", "more support vectors than total_sv (2)" },
        { "bad_svm_number.json", "support vector 1: index 2 has no number" },
        { "bad_svm_no_sv.json", "no \"SV\" line" },
        { "bad_svm_header.json", "unknown header entry 'weights'" },
        { "bad_bootstrap_alone.json", "neither \"model_dict\" nor bootstrap models" },
        { "bad_bootstrap_type.json", "\"2\".model_dict.model_type: a bootstrap model must be" },
    };
    char err[512];
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        VqxModel *m = load_data(bad[i].file, "", err, sizeof(err));
        CHECK(!m && strstr(err, bad[i].message) && !strchr(err, '\n'),
              "%s: error '%s', expected '%s'", bad[i].file, err, bad[i].message);
        vqx_model_free(&m);
    }
}

/* ---- golden ---- */

/* The golden names of each model's inputs, in vqx_model_input_key order. */
#define INTEGER_V061 { "integer_adm2", "integer_motion2", "integer_vif_scale0", \
                       "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3" }
#define CAMBI "cambi_hrs_1080_cmxv_17_vlt_0.06"
#define SPEED(ps) "speed_chroma_uv_mxv_45_nnf_0.1_" ps "snn_0.19_wvm_5"
#define ADM3(extra) "integer_adm3_csf_2_dlmw_0.7_egl_1_min_0.5_nw_0.02" extra
#define MOTION3 "integer_motion3_mmxv_18"
#define MOTION3_HFR "integer_motion3_mffw_mmxv_18_mma"

static const struct {
    const char *run, *version;
    const char *inputs[6];
} golden_models[] = {
    { "v061_all", "vmaf_v0.6.1", INTEGER_V061 },
    { "models", "vmaf_v0.6.1neg",
      { "integer_adm2_egl_1", "integer_motion2", "integer_vif_scale0_egl_1",
        "integer_vif_scale1_egl_1", "integer_vif_scale2_egl_1", "integer_vif_scale3_egl_1" } },
    { "models", "vmaf_4k_v0.6.1", INTEGER_V061 },
    { "models", "vmaf_b_v0.6.3", INTEGER_V061 },
    { "models", "vmaf_float_v0.6.1",
      { "adm2", "motion2", "vif_scale0", "vif_scale1", "vif_scale2", "vif_scale3" } },
    { "models", "vmaf_v1.0.16_3d0h", { CAMBI, SPEED(""), ADM3(""), MOTION3 } },
    { "models", "vmaf_v1.0.16_5d0h",
      { CAMBI, SPEED("ps_0.6_psm_bilinear_"), ADM3("_nvd_5"), MOTION3 } },
    { "models", "vmaf_v1.0.16_1d5h_2160", { CAMBI, SPEED(""), ADM3("_nvd_1.5_rdh_2160"), MOTION3 } },
    { "models", "vmaf_v1.0.16_3d0h_2160",
      { CAMBI, SPEED("ps_0.5_psm_bilinear_"), ADM3("_rdh_2160"), MOTION3 } },
    { "models", "vmaf_v1.0.16_hfr_3d0h", { CAMBI, SPEED(""), ADM3(""), MOTION3_HFR } },
    { "models", "vmaf_v1.0.16_hfr_5d0h",
      { CAMBI, SPEED("ps_0.6_psm_bilinear_"), ADM3("_nvd_5"), MOTION3_HFR } },
    { "models", "vmaf_v1.0.16_hfr_1d5h_2160",
      { CAMBI, SPEED(""), ADM3("_nvd_1.5_rdh_2160"), MOTION3_HFR } },
    { "models", "vmaf_v1.0.16_hfr_3d0h_2160",
      { CAMBI, SPEED("ps_0.5_psm_bilinear_"), ADM3("_rdh_2160"), MOTION3_HFR } },
};

#define N_GOLDEN_MODELS (sizeof(golden_models) / sizeof(golden_models[0]))

/* A golden number: %.17g text as a JSON number, or "nan"/"inf"/"-inf". */
static double golden_value(const json_t *v)
{
    if (json_is_number(v)) return json_number_value(v);
    const char *s = json_string_value(v);
    return s ? strtod(s, NULL) : NAN;
}

static const json_t *find_run(const json_t *golden, const char *name)
{
    const json_t *runs = json_object_get(golden, "runs");
    for (size_t i = 0; i < json_array_size(runs); i++) {
        const json_t *run = json_array_get(runs, i);
        const char *run_name = json_string_value(json_object_get(run, "name"));
        if (run_name && !strcmp(run_name, name)) return run;
    }
    return NULL;
}

/* Returns the number of frames checked. */
static unsigned check_golden_model(const char *pair, const json_t *golden, unsigned g)
{
    const json_t *run = find_run(golden, golden_models[g].run);
    const json_t *per_frame = json_object_get(run, "per_frame");
    const char *version = golden_models[g].version;
    char spec[128], err[512];
    snprintf(spec, sizeof(spec), "version=%s:name=%s", version,
             strcmp(golden_models[g].run, "v061_all") ? version : "vmaf");
    VqxModel *m = load(spec, err, sizeof(err));
    if (!CHECK(m, "%s loads: %s", spec, err)) return 0;

    const unsigned n_in = vqx_model_input_count(m), n_out = vqx_model_output_count(m);
    const json_t *in_series[6] = { 0 }, *out_series[32] = { 0 };
    bool present = per_frame && n_in <= 6 && n_out <= 32;
    for (unsigned i = 0; present && i < n_in; i++)
        present = (in_series[i] = json_object_get(per_frame, golden_models[g].inputs[i])) != NULL;
    for (unsigned o = 0; present && o < n_out; o++)
        present = (out_series[o] = json_object_get(per_frame, vqx_model_output_name(m, o))) != NULL;
    if (!present) {
        printf("skip: %s has no %s (or its inputs) in run %s\n", pair, version, golden_models[g].run);
        vqx_model_free(&m);
        return 0;
    }

    const size_t frames = json_array_size(out_series[0]);
    unsigned mismatches = 0;
    for (size_t f = 0; f < frames; f++) {
        double in[6], out[32];
        for (unsigned i = 0; i < n_in; i++) in[i] = golden_value(json_array_get(in_series[i], f));
        vqx_model_predict(m, in, out);
        for (unsigned o = 0; o < n_out; o++) {
            const double want = golden_value(json_array_get(out_series[o], f));
            if (!same(out[o], want) && mismatches++ < 5)
                fprintf(stderr, "  %s frame %zu %s: %.17g, libvmaf %.17g\n", pair, f,
                        vqx_model_output_name(m, o), out[o], want);
        }
    }
    CHECK(!mismatches, "%s: %s reproduces libvmaf exactly (%u mismatches)", pair, version,
          mismatches);
    vqx_model_free(&m);
    return (unsigned)frames;
}

static void test_golden(const char *root)
{
    char shared[1024];
    const char *env = getenv("VQX_SHARED_DIR");
    if (env && *env)
        snprintf(shared, sizeof(shared), "%s", env);
    else
        snprintf(shared, sizeof(shared), "%s/../shared", root);

    char path[2048];
    snprintf(path, sizeof(path), "%s/golden/MANIFEST.json", shared);
    json_error_t je;
    json_t *manifest = json_load_file(path, 0, &je);
    if (!manifest) {
        printf("SKIP: %s not found\n", shared);
        return;
    }

    unsigned frames[N_GOLDEN_MODELS] = { 0 };
    const json_t *pairs = json_object_get(manifest, "pairs");
    for (size_t p = 0; p < json_array_size(pairs); p++) {
        const char *file = json_string_value(json_object_get(json_array_get(pairs, p), "golden"));
        if (!file) continue;
        snprintf(path, sizeof(path), "%s/golden/%s", shared, file);
        json_t *golden = json_load_file(path, 0, &je);
        if (!CHECK(golden, "%s:%d:%d: %s", path, je.line, je.column, je.text)) continue;
        for (unsigned g = 0; g < N_GOLDEN_MODELS; g++)
            frames[g] += check_golden_model(file, golden, g);
        json_decref(golden);
    }
    for (unsigned g = 0; g < N_GOLDEN_MODELS; g++) {
        CHECK(frames[g] > 0, "golden: %s never checked", golden_models[g].version);
        printf("golden: %s exact on %u frames\n", golden_models[g].version, frames[g]);
    }
    json_decref(manifest);
}

int main(int argc, char **argv)
{
    const char *root = argc > 1 ? argv[1] : ".";
    snprintf(data_dir, sizeof(data_dir), "%s/tests/data/models", root);

    test_svm_decision();
    test_transform_and_clip();
    test_tiny_model();
    test_knots_model();
    test_chroma_correction();
    test_bootstrap_model();
    test_specs();
    test_override_aliases();
    test_builtins();
    test_malformed();
    test_golden(root);

    printf("%u passed, %u failed\n", n_passed, n_failed);
    return n_failed ? 1 : 0;
}
