/*
 * SpEED unit tests: each stage against a plain, independent evaluation of
 * what libvmaf computes (full-image filtering, per-pair covariance loops,
 * per-pixel resampling, the score formula written out), the linear algebra
 * against double-precision references, and the extractors through the
 * public API: singular planes, every prescale method and weight mode, bit
 * depths, the size limit, and speed_temporal with an enlarging prescale
 * (run this test under AddressSanitizer to check for overruns).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "feature/float_picture.h"
#include "feature/speed.h"
#include "vqx/vqx.h"

#include "check.h"

/* ---- test images ---- */

static unsigned long long rng_state;

static double uniform(void)
{
    rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (double)(rng_state >> 11) / 9007199254740992.0;
}

/* Smooth structure plus noise, in 0..255. */
static unsigned sample8(unsigned x, unsigned y, unsigned seed)
{
    const double v = 128 + 50 * sin(x * 0.09 + seed) * cos(y * 0.07 - seed) +
                     40 * (uniform() - 0.5);
    return v < 0 ? 0 : v > 255 ? 255 : (unsigned)v;
}

enum PlaneFill { FILL_TEXTURE, FILL_FLAT };

/* A picture whose every plane holds 8-bit content shifted to `bpc` bits;
 * the same seed gives the same content at every depth. */
static void make_picture(VqxPicture *p, enum VqxPixelLayout layout, unsigned bpc,
                         unsigned w, unsigned h, unsigned seed, const enum PlaneFill fill[3])
{
    if (vqx_picture_alloc(p, layout, bpc, w, h)) {
        printf("cannot allocate a %ux%u picture\n", w, h);
        exit(1);
    }
    rng_state = seed * 7919ULL + 1;
    for (unsigned pl = 0; pl < vqx_picture_planes(p); pl++) {
        for (unsigned y = 0; y < p->h[pl]; y++) {
            for (unsigned x = 0; x < p->w[pl]; x++) {
                const unsigned v = fill[pl] == FILL_FLAT ? 100 + 20 * pl : sample8(x, y, seed + pl);
                if (bpc > 8)
                    ((uint16_t *)((uint8_t *)p->data[pl] + y * p->stride[pl]))[x] =
                        (uint16_t)(v << (bpc - 8));
                else
                    ((uint8_t *)p->data[pl] + y * p->stride[pl])[x] = (uint8_t)v;
            }
        }
    }
}

static float *random_image(unsigned w, unsigned h, ptrdiff_t stride, unsigned seed)
{
    float *img = malloc(sizeof(float) * stride * h);
    rng_state = seed;
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++)
            img[y * stride + x] = (float)sample8(x, y, seed) - 128.0f;
    return img;
}

/* ---- running an extractor through the public API ---- */

typedef struct Clip {
    enum VqxPixelLayout layout;
    unsigned bpc, w, h, frames;
    enum PlaneFill ref_fill[3], dis_fill[3];
} Clip;

/* Runs `feature` with `options`; returns the flush status and leaves the
 * context open for reading (*ctx). */
static int run(VqxContext **ctx, const char *feature, const char *options, const Clip *c,
               unsigned threads)
{
    VqxSettings s;
    vqx_default_settings(&s);
    s.n_threads = threads;
    s.notice = NULL;
    if (vqx_open(ctx, &s)) return -1;
    int ret = vqx_use_feature(*ctx, feature, options);
    if (ret) return ret;
    for (unsigned f = 0; f < c->frames; f++) {
        VqxPicture ref, dis;
        make_picture(&ref, c->layout, c->bpc, c->w, c->h, 10 + f, c->ref_fill);
        make_picture(&dis, c->layout, c->bpc, c->w, c->h, 30 + f, c->dis_fill);
        ret = vqx_send_pictures(*ctx, &ref, &dis);
        if (ret) return ret;
    }
    return vqx_flush(*ctx);
}

static void quiet_notice(void *cookie, const char *msg)
{
    (void)cookie;
    (void)msg;
}

static int run_quiet(VqxContext **ctx, const char *feature, const char *options, const Clip *c,
                     char *err, size_t err_len)
{
    VqxSettings s;
    vqx_default_settings(&s);
    s.notice = quiet_notice;
    if (vqx_open(ctx, &s)) return -1;
    int ret = vqx_use_feature(*ctx, feature, options);
    for (unsigned f = 0; !ret && f < c->frames; f++) {
        VqxPicture ref, dis;
        make_picture(&ref, c->layout, c->bpc, c->w, c->h, 10 + f, c->ref_fill);
        make_picture(&dis, c->layout, c->bpc, c->w, c->h, 30 + f, c->dis_fill);
        ret = vqx_send_pictures(*ctx, &ref, &dis);
    }
    if (!ret) ret = vqx_flush(*ctx);
    snprintf(err, err_len, "%s", vqx_last_error(*ctx));
    return ret;
}

static double score(VqxContext *ctx, const char *key, unsigned frame)
{
    double v = NAN;
    if (vqx_score_at(ctx, key, frame, &v)) return NAN;
    return v;
}

/* ---- plain evaluations of libvmaf's steps ---- */

static int mirror(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - i - 2 : i;
}

/* Separable filter of the whole image, vertical then horizontal, float
 * accumulators from 0 (libvmaf's vif_filter1d_s). */
static void filter_full(const float *f, int taps, const float *src, ptrdiff_t stride,
                        int w, int h, float *dst)
{
    float *tmp = malloc(sizeof(float) * w);
    for (int i = 0; i < h; i++) {
        for (int j = 0; j < w; j++) {
            float acc = 0;
            for (int t = 0; t < taps; t++)
                acc += f[t] * src[mirror(i - taps / 2 + t, h) * stride + j];
            tmp[j] = acc;
        }
        for (int j = 0; j < w; j++) {
            float acc = 0;
            for (int t = 0; t < taps; t++)
                acc += f[t] * tmp[mirror(j - taps / 2 + t, w)];
            dst[i * stride + j] = acc;
        }
    }
    free(tmp);
}

static SpeedParams params_default(void)
{
    return (SpeedParams){ .kernelscale = 1.0, .prescale = 1.0, .scaler = VQX_RESAMPLE_NEAREST,
                          .sigma_nn = 0.29f, .nn_floor = 0.0f, .weight_var_mode = 0 };
}

/* ---- stage tests ---- */

static void test_decimate(void)
{
    static const double scales[] = { 1.0, 0.5, 2.0, 3.0, 360.0 / 97.0 };
    static const unsigned sizes[][2] = { { 80, 80 }, { 163, 97 }, { 250, 181 } };
    for (size_t k = 0; k < sizeof(scales) / sizeof(scales[0]); k++) {
        for (size_t z = 0; z < sizeof(sizes) / sizeof(sizes[0]); z++) {
            const unsigned w = sizes[z][0], h = sizes[z][1];
            SpeedParams prm = params_default();
            prm.kernelscale = scales[k];
            SpeedPlan plan;
            char err[256];
            if (vqx_speed_plan_init(&plan, w, h, &prm, err, sizeof(err))) {
                CHECK(0, "plan %ux%u ks %g: %s", w, h, scales[k], err);
                continue;
            }
            const ptrdiff_t stride = w + 3;
            float *img = random_image(w, h, stride, 5 + (unsigned)z);
            float *full = malloc(sizeof(float) * stride * h);
            filter_full(plan.antialias, plan.antialias_len, img, stride, (int)w, (int)h, full);
            float *row = malloc(sizeof(float) * w);
            const unsigned dw = plan.geo.dec_w, dh = plan.geo.dec_h;
            float *dec = malloc(sizeof(float) * dw * dh);
            vqx_speed_decimate(&plan, img, stride, row, dec, dw);
            bool same = true;
            for (unsigned i = 0; i < dh; i++)
                for (unsigned j = 0; j < dw; j++)
                    same &= dec[i * dw + j] == full[i * 16 * stride + j * 16];
            CHECK(same, "decimated filter differs from full filter, %ux%u ks %g", w, h, scales[k]);

            /* demean: the small filter of the whole decimated image */
            float *local = malloc(sizeof(float) * dw * dh), *want = malloc(sizeof(float) * dw * dh);
            filter_full(plan.local_mean, plan.local_mean_len, dec, dw, (int)dw, (int)dh, want);
            for (unsigned i = 0; i < dw * dh; i++)
                want[i] = dec[i] - want[i];
            vqx_speed_demean(&plan, dec, local, dw, row);
            CHECK(!memcmp(dec, want, sizeof(float) * dw * dh), "demean differs, %ux%u", w, h);

            free(img);
            free(full);
            free(row);
            free(dec);
            free(local);
            free(want);
            vqx_speed_plan_free(&plan);
        }
    }
}

/* The prescaled size rounds w * prescale to nearest (the resampling itself
 * is test_resample's). */
static void test_prescale_size(void)
{
    static const double prescales[] = { 0.6, 0.5, 1.37, 2.0 };
    for (size_t k = 0; k < sizeof(prescales) / sizeof(prescales[0]); k++) {
        const unsigned w = 331, h = 213;
        SpeedParams prm = params_default();
        prm.prescale = prescales[k];
        SpeedPlan plan;
        char err[256];
        if (vqx_speed_plan_init(&plan, w, h, &prm, err, sizeof(err))) {
            CHECK(0, "plan: %s", err);
            continue;
        }
        CHECK(plan.geo.scaled_w == (unsigned)(w * prescales[k] + 0.5) &&
              plan.geo.scaled_h == (unsigned)(h * prescales[k] + 0.5) && plan.geo.rescale,
              "scaled size %ux%u", plan.geo.scaled_w, plan.geo.scaled_h);
        vqx_speed_plan_free(&plan);
    }
}

static void test_covariance(void)
{
    SpeedGeometry g = { 0 };
    g.dec_w = 23;
    g.dec_h = 17;
    g.blocks_x = 4;
    g.blocks_y = 3;
    g.n_blocks = 12;
    g.cov_w = 16;
    g.cov_h = 11;
    const ptrdiff_t stride = 29;
    float *dec = random_image(g.dec_w, g.dec_h, stride, 9);
    float cov[SPEED_DIM * SPEED_DIM];
    vqx_speed_covariance(&g, dec, stride, cov);

    /* per pair, libvmaf's loops: float means, double sums */
    bool same = true;
    const unsigned n = g.cov_w * g.cov_h;
    for (int a = 0; a < SPEED_DIM; a++) {
        for (int b = 0; b <= a; b++) {
            const float *pa = dec + (a / 5) * stride + a % 5, *pb = dec + (b / 5) * stride + b % 5;
            float ma = 0, mb = 0;
            for (unsigned i = 0; i < g.cov_h; i++)
                for (unsigned j = 0; j < g.cov_w; j++) {
                    ma += pa[i * stride + j];
                    mb += pb[i * stride + j];
                }
            ma = ma / n;
            mb = mb / n;
            double sum = 0;
            for (unsigned i = 0; i < g.cov_h; i++)
                for (unsigned j = 0; j < g.cov_w; j++)
                    sum += ((double)pa[i * stride + j] - ma) * ((double)pb[i * stride + j] - mb);
            const float want = sum / n;
            same &= cov[a * SPEED_DIM + b] == want && cov[b * SPEED_DIM + a] == want;
        }
    }
    CHECK(same, "covariance differs from per-pair loops");

    float samples[SPEED_DIM * 12];
    vqx_speed_block_samples(&g, dec, stride, samples);
    same = true;
    for (int o = 0; o < SPEED_DIM; o++)
        for (unsigned b = 0; b < 12; b++)
            same &= samples[o * 12 + b] ==
                    dec[((b / 4) * 5 + o / 5) * stride + (b % 4) * 5 + o % 5];
    CHECK(same, "block samples misplaced");
    free(dec);
}

/* Cyclic Jacobi in double: the reference eigenvalues. */
static void jacobi_eigenvalues(const float *m, double *eig)
{
    double a[SPEED_DIM][SPEED_DIM];
    for (int i = 0; i < SPEED_DIM; i++)
        for (int j = 0; j < SPEED_DIM; j++)
            a[i][j] = m[i * SPEED_DIM + j];
    for (int sweep = 0; sweep < 100; sweep++) {
        double off = 0;
        for (int p = 0; p < SPEED_DIM; p++)
            for (int q = p + 1; q < SPEED_DIM; q++)
                off += a[p][q] * a[p][q];
        if (off < 1e-24) break;
        for (int p = 0; p < SPEED_DIM; p++) {
            for (int q = p + 1; q < SPEED_DIM; q++) {
                if (a[p][q] == 0) continue;
                const double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
                const double t = (theta >= 0 ? 1 : -1) / (fabs(theta) + sqrt(theta * theta + 1));
                const double c = 1 / sqrt(t * t + 1), s = t * c;
                for (int k = 0; k < SPEED_DIM; k++) {
                    const double akp = a[k][p], akq = a[k][q];
                    a[k][p] = c * akp - s * akq;
                    a[k][q] = s * akp + c * akq;
                }
                for (int k = 0; k < SPEED_DIM; k++) {
                    const double apk = a[p][k], aqk = a[q][k];
                    a[p][k] = c * apk - s * aqk;
                    a[q][k] = s * apk + c * aqk;
                }
            }
        }
    }
    for (int i = 0; i < SPEED_DIM; i++)
        eig[i] = a[i][i];
}

static int cmp_double(const void *a, const void *b)
{
    const double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static void test_linalg(void)
{
    /* a covariance as SpEED builds it, from a real decimated image */
    SpeedParams prm = params_default();
    SpeedPlan plan;
    char err[256];
    if (vqx_speed_plan_init(&plan, 400, 300, &prm, err, sizeof(err))) {
        CHECK(0, "plan: %s", err);
        return;
    }
    SpeedWork w;
    if (vqx_speed_work_init(&w, &plan)) {
        CHECK(0, "work: out of memory");
        return;
    }
    float *img = random_image(400, 300, 400, 21);
    vqx_speed_decimate(&plan, img, 400, w.row, w.dec, w.dec_stride);
    vqx_speed_demean(&plan, w.dec, w.local, w.dec_stride, w.row);
    vqx_speed_covariance(&plan.geo, w.dec, w.dec_stride, w.cov);
    vqx_speed_eigenvalues(w.cov, w.eig, w.linalg);

    double want[SPEED_DIM], got[SPEED_DIM];
    jacobi_eigenvalues(w.cov, want);
    for (int i = 0; i < SPEED_DIM; i++)
        got[i] = w.eig[i];
    qsort(want, SPEED_DIM, sizeof(double), cmp_double);
    qsort(got, SPEED_DIM, sizeof(double), cmp_double);
    double worst = 0;
    for (int i = 0; i < SPEED_DIM; i++)
        worst = fmax(worst, fabs(got[i] - want[i]));
    CHECK(worst < 1e-4 * want[SPEED_DIM - 1], "eigenvalues off by %g (largest %g)", worst,
          want[SPEED_DIM - 1]);
    CHECK(vqx_speed_is_regular(w.eig), "textured covariance judged singular");

    /* diagonal matrix: exact eigenvalues */
    float diag[SPEED_DIM * SPEED_DIM] = { 0 }, eig[SPEED_DIM];
    for (int i = 0; i < SPEED_DIM; i++)
        diag[i * SPEED_DIM + i] = (float)(i + 1) * 0.5f;
    vqx_speed_eigenvalues(diag, eig, w.linalg);
    bool exact = true;
    for (int i = 0; i < SPEED_DIM; i++)
        exact &= eig[i] == (float)(i + 1) * 0.5f;
    CHECK(exact, "eigenvalues of a diagonal matrix not exact");

    /* solve: cov * x = samples */
    vqx_speed_block_samples(&plan.geo, w.dec, w.dec_stride, w.samples);
    const unsigned nb = plan.geo.n_blocks;
    CHECK(!vqx_speed_solve(&plan.dsp, w.cov, w.samples, nb, w.solution, w.linalg),
          "regular system refused");
    double resid = 0, norm = 0;
    for (int i = 0; i < SPEED_DIM; i++) {
        for (unsigned b = 0; b < nb; b++) {
            double s = 0;
            for (int k = 0; k < SPEED_DIM; k++)
                s += (double)w.cov[i * SPEED_DIM + k] * w.solution[k * nb + b];
            resid = fmax(resid, fabs(s - w.samples[i * nb + b]));
            norm = fmax(norm, fabs(w.samples[i * nb + b]));
        }
    }
    CHECK(resid < 1e-3 * norm, "solve residual %g (rhs up to %g)", resid, norm);

    /* a flat plane: zero covariance, singular, refused */
    float zero[SPEED_DIM * SPEED_DIM] = { 0 };
    vqx_speed_eigenvalues(zero, eig, w.linalg);
    CHECK(!vqx_speed_is_regular(eig), "zero covariance judged regular");
    /* a pivot below 1e-6: refused by the solve itself */
    for (int i = 0; i < SPEED_DIM; i++)
        diag[i * SPEED_DIM + i] = i == 7 ? 1e-7f : 1.0f;
    CHECK(vqx_speed_solve(&plan.dsp, diag, w.samples, nb, w.solution, w.linalg) == -EINVAL,
          "near-singular system solved");

    free(img);
    vqx_speed_work_free(&w);
    vqx_speed_plan_free(&plan);
}

/* The score formula written out, with libvmaf's float/double steps. */
static float score_written_out(int mode, unsigned nb, const float *er, const float *vr,
                               const float *ed, const float *vd, float snn, float nnf)
{
    const double log2_2pie = log2(2 * 3.14159265358979323846 * 2.7182818284590452354);
    const float base = 25 * (log2((1 + nnf) * snn) + log2_2pie);
    float sum = 0;
    for (unsigned b = 0; b < nb; b++) {
        if (er[b] < base && ed[b] < base) continue;
        const float r = vr[b], d = vd[b];
        double wr = 1 + r, wd = 1 + d;
        switch (mode) {
        case 0: wr = (float)(1 + r); wd = (float)(1 + d); break;
        case 1: wr = (float)(1 + r); wd = (float)(1 + r); break;
        case 2: wr = (float)(1 + d); wd = (float)(1 + d); break;
        case 3: wr = wd = 1 + (float)(r + d) / 2.0; break;
        case 4: wr = (float)(1 + r); wd = 1 + (float)(r + d) / 2.0; break;
        case 5: wr = (float)(1 + r); wd = 1 + (0.75 * r + 0.25 * d); break;
        case 6: wr = (float)(1 + r); wd = 1 + (0.25 * r + 0.75 * d); break;
        }
        const float sr = (double)er[b] * log2(wr), sd = (double)ed[b] * log2(wd);
        sum += fabsf(sr - sd);
    }
    return sum / nb;
}

static void test_score_modes(void)
{
    SpeedParams prm = params_default();
    prm.sigma_nn = 0.19f;
    prm.nn_floor = 0.1f;
    for (int mode = 0; mode <= 6; mode++) {
        prm.weight_var_mode = mode;
        SpeedPlan plan;
        char err[256];
        if (vqx_speed_plan_init(&plan, 320, 240, &prm, err, sizeof(err))) {
            CHECK(0, "plan: %s", err);
            return;
        }
        const unsigned nb = plan.geo.n_blocks;
        SpeedStats ref, dis;
        vqx_speed_stats_init(&ref, &plan);
        vqx_speed_stats_init(&dis, &plan);
        rng_state = 77 + mode;
        for (unsigned b = 0; b < nb; b++) {
            ref.variance[b] = (float)(uniform() * 50);
            dis.variance[b] = (float)(uniform() * 50);
            /* some blocks under the noise floor in both, some in one */
            ref.entropy[b] = (float)(b % 3 == 0 ? 10 + uniform() * 10 : 60 + uniform() * 40);
            dis.entropy[b] = (float)(b % 5 == 0 ? 10 + uniform() * 10 : 60 + uniform() * 40);
        }
        ref.singular = dis.singular = false;
        const float want = score_written_out(mode, nb, ref.entropy, ref.variance, dis.entropy,
                                             dis.variance, prm.sigma_nn, prm.nn_floor);
        const float got = vqx_speed_score(&plan, &ref, &dis);
        CHECK(got == want, "weight mode %d: score %.9g, written out %.9g", mode, got, want);
        dis.singular = true;
        CHECK(vqx_speed_score(&plan, &ref, &dis) == 0.0f, "one singular plane: score not 0");
        vqx_speed_stats_free(&ref);
        vqx_speed_stats_free(&dis);
        vqx_speed_plan_free(&plan);
    }
}

/* ---- extractor tests ---- */

static void test_singular_planes(void)
{
    VqxContext *ctx = NULL;
    /* U flat in both pictures: u singular, uv takes v */
    Clip c = { VQX_PIX_444, 8, 480, 320, 2,
               { FILL_TEXTURE, FILL_FLAT, FILL_TEXTURE }, { FILL_TEXTURE, FILL_FLAT, FILL_TEXTURE } };
    CHECK(!run(&ctx, "speed_chroma", "", &c, 0), "flat U: %s", vqx_last_error(ctx));
    for (unsigned f = 0; f < 2; f++) {
        const double u = score(ctx, "speed_chroma_u", f), v = score(ctx, "speed_chroma_v", f);
        const double uv = score(ctx, "speed_chroma_uv", f);
        CHECK(isfinite(u) && isfinite(v) && v > 0, "flat U: u %g v %g", u, v);
        CHECK(uv == v, "flat U: uv %.17g != v %.17g", uv, v);
    }
    vqx_close(&ctx);

    /* V flat only in the reference: v is 0 (one-sided), uv takes u */
    Clip c2 = { VQX_PIX_444, 8, 480, 320, 1,
                { FILL_TEXTURE, FILL_TEXTURE, FILL_FLAT }, { FILL_TEXTURE, FILL_TEXTURE, FILL_TEXTURE } };
    CHECK(!run(&ctx, "speed_chroma", "", &c2, 0), "flat V: %s", vqx_last_error(ctx));
    CHECK(score(ctx, "speed_chroma_v", 0) == 0.0, "one-sided flat V: v %g",
          score(ctx, "speed_chroma_v", 0));
    CHECK(score(ctx, "speed_chroma_uv", 0) == (double)(float)score(ctx, "speed_chroma_u", 0) &&
          score(ctx, "speed_chroma_u", 0) > 0, "one-sided flat V: uv %g u %g",
          score(ctx, "speed_chroma_uv", 0), score(ctx, "speed_chroma_u", 0));
    vqx_close(&ctx);

    /* everything flat: both singular, finite scores */
    Clip c3 = { VQX_PIX_444, 8, 480, 320, 2,
                { FILL_FLAT, FILL_FLAT, FILL_FLAT }, { FILL_FLAT, FILL_FLAT, FILL_FLAT } };
    CHECK(!run(&ctx, "speed_chroma", "", &c3, 0), "flat: %s", vqx_last_error(ctx));
    CHECK(score(ctx, "speed_chroma_uv", 0) == 0.0, "flat: uv %g", score(ctx, "speed_chroma_uv", 0));
    vqx_close(&ctx);
    CHECK(!run(&ctx, "speed_temporal", "", &c3, 0), "flat temporal: %s", vqx_last_error(ctx));
    CHECK(score(ctx, "speed_temporal", 1) == 0.0, "flat temporal: %g", score(ctx, "speed_temporal", 1));
    vqx_close(&ctx);
}

static void test_prescale_methods_and_modes(void)
{
    static const char *const methods[] = { "nearest", "bilinear", "bicubic", "lanczos4" };
    const Clip c = { VQX_PIX_444, 8, 400, 300, 2,
                     { FILL_TEXTURE, FILL_TEXTURE, FILL_TEXTURE }, { FILL_TEXTURE, FILL_TEXTURE, FILL_TEXTURE } };
    for (int m = 0; m < 4; m++) {
        char opts[128], key[128];
        snprintf(opts, sizeof(opts), "speed_prescale=1.5:speed_prescale_method=%s", methods[m]);
        VqxContext *ctx = NULL;
        CHECK(!run(&ctx, "speed_chroma", opts, &c, 2), "%s: %s", opts, vqx_last_error(ctx));
        snprintf(key, sizeof(key), "speed_chroma_uv_ps_1.5%s%s", m ? "_psm_" : "",
                 m ? methods[m] : "");
        const double v = score(ctx, key, 1);
        CHECK(isfinite(v) && v > 0, "%s: %s = %g", opts, key, v);
        vqx_close(&ctx);
    }
    for (int mode = 0; mode <= 6; mode++) {
        char opts[64], key[64];
        snprintf(opts, sizeof(opts), "speed_weight_var_mode=%d", mode);
        VqxContext *ctx = NULL;
        CHECK(!run(&ctx, "speed_chroma", opts, &c, 0), "%s: %s", opts, vqx_last_error(ctx));
        if (mode) snprintf(key, sizeof(key), "speed_chroma_u_wvm_%d", mode);
        else snprintf(key, sizeof(key), "speed_chroma_u");
        const double v = score(ctx, key, 0);
        CHECK(isfinite(v) && v > 0, "%s: %s = %g", opts, key, v);
        vqx_close(&ctx);
    }
}

static void test_bit_depths(void)
{
    /* the same 8-bit content at any depth: equal scores */
    double want[4] = { 0 };
    static const char *const keys[4] = { "speed_chroma_u", "speed_chroma_v", "speed_chroma_uv",
                                         "speed_temporal" };
    static const unsigned depths[] = { 8, 9, 10, 12, 16 };
    for (size_t d = 0; d < sizeof(depths) / sizeof(depths[0]); d++) {
        const Clip c = { VQX_PIX_422, depths[d], 962, 330, 2,
                         { FILL_TEXTURE, FILL_TEXTURE, FILL_TEXTURE }, { FILL_TEXTURE, FILL_TEXTURE, FILL_TEXTURE } };
        for (int feature = 0; feature < 2; feature++) {
            VqxContext *ctx = NULL;
            const char *name = feature ? "speed_temporal" : "speed_chroma";
            CHECK(!run(&ctx, name, "", &c, 0), "%u-bit %s: %s", depths[d], name, vqx_last_error(ctx));
            for (int k = feature ? 3 : 0; k < (feature ? 4 : 3); k++) {
                const double v = score(ctx, keys[k], 1);
                if (d == 0) want[k] = v;
                CHECK(isfinite(v) && v == want[k], "%u-bit %s %.17g, 8-bit %.17g", depths[d],
                      keys[k], v, want[k]);
            }
            vqx_close(&ctx);
        }
    }
}

/* SpEED of one chroma plane of two pictures, by the stages on a w x h
 * region of the plane (samples - 128). */
static float plane_speed(const VqxPicture *ref, const VqxPicture *dis, unsigned plane,
                         unsigned w, unsigned h)
{
    const SpeedParams prm = params_default();
    SpeedPlan plan;
    SpeedWork work;
    SpeedStats st[2];
    char err[256];
    if (vqx_speed_plan_init(&plan, w, h, &prm, err, sizeof(err)) ||
        vqx_speed_work_init(&work, &plan) || vqx_speed_stats_init(&st[0], &plan) ||
        vqx_speed_stats_init(&st[1], &plan)) {
        CHECK(0, "stages: %s", err);
        exit(1);
    }
    float *img = malloc(sizeof(float) * w * h);
    const VqxPicture *pics[2] = { ref, dis };
    for (int i = 0; i < 2; i++) {
        for (unsigned y = 0; y < h; y++)
            for (unsigned x = 0; x < w; x++)
                img[y * w + x] =
                    (float)((const uint8_t *)pics[i]->data[plane] + y * pics[i]->stride[plane])[x] -
                    128.0f;
        vqx_speed_analyse(&plan, &work, img, w, &st[i]);
    }
    const float score = vqx_speed_score(&plan, &st[0], &st[1]);
    free(img);
    vqx_speed_stats_free(&st[0]);
    vqx_speed_stats_free(&st[1]);
    vqx_speed_work_free(&work);
    vqx_speed_plan_free(&plan);
    return score;
}

/* Odd sizes: speed_chroma analyses the whole ceil(w/2) x ceil(h/2) plane,
 * last column and row included (libvmaf drops them). 256 chroma columns
 * decimate to 16, 255 to 15: here the last column changes the score. */
static void test_odd_chroma(void)
{
    const Clip c = { VQX_PIX_420, 8, 511, 331, 1,
                     { FILL_TEXTURE, FILL_TEXTURE, FILL_TEXTURE }, { FILL_TEXTURE, FILL_TEXTURE, FILL_TEXTURE } };
    VqxContext *ctx = NULL;
    CHECK(!run(&ctx, "speed_chroma", "", &c, 0), "odd 4:2:0: %s", vqx_last_error(ctx));
    const double u = score(ctx, "speed_chroma_u", 0), v = score(ctx, "speed_chroma_v", 0);
    vqx_close(&ctx);

    VqxPicture ref, dis;
    make_picture(&ref, c.layout, c.bpc, c.w, c.h, 10, c.ref_fill);
    make_picture(&dis, c.layout, c.bpc, c.w, c.h, 30, c.dis_fill);
    CHECK(ref.w[1] == 256 && ref.h[1] == 166, "chroma plane %ux%u", ref.w[1], ref.h[1]);
    const float want_u = plane_speed(&ref, &dis, 1, ref.w[1], ref.h[1]);
    const float want_v = plane_speed(&ref, &dis, 2, ref.w[2], ref.h[2]);
    const float floor_u = plane_speed(&ref, &dis, 1, c.w / 2, c.h / 2);
    CHECK(u == want_u && v == want_v, "odd 4:2:0: u %.17g v %.17g, stages %.17g %.17g", u, v,
          (double)want_u, (double)want_v);
    CHECK(want_u > 0 && floor_u != want_u, "odd 4:2:0: u %g, %g without the last column and row",
          (double)want_u, (double)floor_u);
    vqx_picture_free(&ref);
    vqx_picture_free(&dis);
}

static void test_size_limits(void)
{
    struct {
        const char *feature, *options;
        enum VqxPixelLayout layout;
        unsigned w, h;
        bool accepted;
    } cases[] = {
        { "speed_chroma", "", VQX_PIX_420, 160, 160, true },
        { "speed_chroma", "", VQX_PIX_420, 159, 159, true },   /* chroma ceil: 80x80 */
        { "speed_chroma", "", VQX_PIX_420, 158, 400, false },  /* chroma 79 wide */
        { "speed_chroma", "", VQX_PIX_422, 157, 80, false },   /* chroma 79 wide */
        { "speed_chroma", "", VQX_PIX_420, 160, 90, false },   /* the 160x90 clip */
        { "speed_chroma", "", VQX_PIX_444, 80, 80, true },
        { "speed_chroma", "", VQX_PIX_444, 80, 79, false },
        { "speed_chroma", "speed_prescale=0.5", VQX_PIX_444, 160, 160, true },
        { "speed_chroma", "speed_prescale=0.5", VQX_PIX_444, 158, 160, false },
        { "speed_temporal", "", VQX_PIX_400, 80, 80, true },
        { "speed_temporal", "", VQX_PIX_400, 79, 80, false },
        { "speed_temporal", "speed_prescale=2", VQX_PIX_400, 40, 40, true },
        { "speed_temporal", "speed_prescale=2", VQX_PIX_400, 39, 40, false },
        { "speed_chroma", "", VQX_PIX_400, 320, 240, false },
        { "speed_temporal", "speed_kernelscale=0.9", VQX_PIX_400, 320, 240, false },
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const Clip c = { cases[i].layout, 8, cases[i].w, cases[i].h, 2,
                         { FILL_TEXTURE, FILL_TEXTURE, FILL_TEXTURE }, { FILL_TEXTURE, FILL_TEXTURE, FILL_TEXTURE } };
        VqxContext *ctx = NULL;
        char err[512];
        const int ret = run_quiet(&ctx, cases[i].feature, cases[i].options, &c, err, sizeof(err));
        if (cases[i].accepted) {
            CHECK(!ret, "%s %s %ux%u refused: %s", cases[i].feature, cases[i].options,
                  cases[i].w, cases[i].h, err);
        } else {
            CHECK(ret && strstr(err, cases[i].feature), "%s %s %ux%u: ret %d, message '%s'",
                  cases[i].feature, cases[i].options, cases[i].w, cases[i].h, ret, err);
            const char *why = strstr(cases[i].options, "kernelscale") ? "kernelscale"
                              : !strcmp(cases[i].feature, "speed_chroma") &&
                                cases[i].layout == VQX_PIX_400 ? "4:0:0" : "minimum";
            CHECK(strstr(err, why), "message '%s' does not say '%s'", err, why);
        }
        vqx_close(&ctx);
    }
}

/* speed_temporal on frames enlarged by the prescale (libvmaf overruns its
 * frame buffers here): frame 1 equals the stages run on the differences. */
static void test_temporal_prescale(void)
{
    static const char *const methods[] = { "nearest", "bilinear", "bicubic", "lanczos4" };
    const unsigned w = 190, h = 130;
    for (int m = 0; m < 4; m++) {
        for (int use_ref_diff = 0; use_ref_diff < 2; use_ref_diff++) {
            const Clip c = { VQX_PIX_420, 10, w, h, 3,
                             { FILL_TEXTURE, FILL_TEXTURE, FILL_TEXTURE }, { FILL_TEXTURE, FILL_TEXTURE, FILL_TEXTURE } };
            char opts[128];
            snprintf(opts, sizeof(opts), "speed_prescale=2.5:speed_prescale_method=%s%s",
                     methods[m], use_ref_diff ? ":speed_use_ref_diff=true" : "");
            VqxContext *ctx = NULL;
            CHECK(!run(&ctx, "speed_temporal", opts, &c, 2), "%s: %s", opts, vqx_last_error(ctx));
            char key[128];
            snprintf(key, sizeof(key), "speed_temporal_ps_2.5%s%s%s", m ? "_psm_" : "",
                     m ? methods[m] : "", use_ref_diff ? "_urd" : "");
            const double got0 = score(ctx, key, 0), got1 = score(ctx, key, 1);
            vqx_close(&ctx);
            CHECK(got0 == 0.0, "%s: frame 0 is %g", key, got0);

            SpeedParams prm = params_default();
            prm.prescale = 2.5;
            prm.scaler = (enum VqxResampleMethod)m;
            SpeedPlan plan;
            SpeedWork work;
            SpeedStats sr, sd;
            char err[256];
            if (vqx_speed_plan_init(&plan, w, h, &prm, err, sizeof(err)) ||
                vqx_speed_work_init(&work, &plan) || vqx_speed_stats_init(&sr, &plan) ||
                vqx_speed_stats_init(&sd, &plan)) {
                CHECK(0, "stages: %s", err);
                return;
            }
            VqxPicture r0, r1, d0, d1;
            make_picture(&r0, c.layout, c.bpc, w, h, 10, c.ref_fill);
            make_picture(&d0, c.layout, c.bpc, w, h, 30, c.dis_fill);
            make_picture(&r1, c.layout, c.bpc, w, h, 11, c.ref_fill);
            make_picture(&d1, c.layout, c.bpc, w, h, 31, c.dis_fill);
            float *a = malloc(sizeof(float) * w * h), *b = malloc(sizeof(float) * w * h);
            vqx_float_plane(&plan.picture, a, w, &r0, 0, -128.0f);
            vqx_float_plane(&plan.picture, b, w, &r1, 0, -128.0f);
            for (unsigned i = 0; i < w * h; i++)
                a[i] -= b[i];
            vqx_speed_analyse(&plan, &work, a, w, &sr);
            vqx_float_plane(&plan.picture, a, w, &d0, 0, -128.0f);
            if (!use_ref_diff)
                vqx_float_plane(&plan.picture, b, w, &d1, 0, -128.0f);
            for (unsigned i = 0; i < w * h; i++)
                a[i] -= b[i];
            vqx_speed_analyse(&plan, &work, a, w, &sd);
            const float want = vqx_speed_score(&plan, &sr, &sd);
            CHECK(got1 == want && want > 0, "%s: frame 1 %.17g, stages %.17g", key, got1, (double)want);
            free(a);
            free(b);
            vqx_picture_free(&r0);
            vqx_picture_free(&r1);
            vqx_picture_free(&d0);
            vqx_picture_free(&d1);
            vqx_speed_stats_free(&sr);
            vqx_speed_stats_free(&sd);
            vqx_speed_work_free(&work);
            vqx_speed_plan_free(&plan);
        }
    }
}

int main(void)
{
    test_decimate();
    test_prescale_size();
    test_covariance();
    test_linalg();
    test_score_modes();
    test_singular_planes();
    test_prescale_methods_and_modes();
    test_bit_depths();
    test_size_limits();
    test_odd_chroma();
    test_temporal_prescale();
    return check_report();
}
