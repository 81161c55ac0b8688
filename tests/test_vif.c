/*
 * VIF kernels against plain whole-plane implementations written from
 * libvmaf's description of the algorithm (every sample filtered, border
 * mirrored per tap, decimation after filtering, log2 table and fixed-point
 * shifts as in integer_vif.c; float order as in vif.c / vif_tools.c), on
 * random and extreme content, every bit depth, odd and minimum sizes, and
 * the size limits. The golden comparison with libvmaf itself is
 * tests/golden.py.
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu.h"
#include "feature/registry.h"
#include "feature/vif.h"
#include "options.h"
#include "vqx/vqx.h"

static unsigned n_pass, n_fail;

#define CHECK(cond) do { \
    if (cond) n_pass++; \
    else { n_fail++; fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

/* ---------------- content ---------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint32_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

enum Content { NOISE, SMOOTH, EXTREME, FLAT };

/* Luma samples of one frame (the chroma planes are left random). */
static void fill(VqxPicture *p, enum Content c, unsigned seed)
{
    const unsigned max = (1u << p->bpc) - 1;
    const unsigned flat = rnd() & max;
    for (unsigned pl = 0; pl < vqx_picture_planes(p); pl++) {
        for (unsigned y = 0; y < p->h[pl]; y++) {
            for (unsigned x = 0; x < p->w[pl]; x++) {
                unsigned v = rnd() & max;
                if (pl == 0) {
                    if (c == SMOOTH) {
                        const double s = 0.5 + 0.3 * sin(x / 6.0 + seed) * cos(y / 4.0) +
                                         (double)(rnd() % 64) / 64.0 * 0.1;
                        v = (unsigned)(s * max);
                    } else if (c == EXTREME) {
                        v = ((x + y + seed + (rnd() & 1)) & 1) ? max : 0;
                    } else if (c == FLAT) {
                        v = flat;
                    }
                }
                uint8_t *row = (uint8_t *)p->data[pl] + (ptrdiff_t)y * p->stride[pl];
                if (p->bpc == 8) row[x] = (uint8_t)v;
                else ((uint16_t *)row)[x] = (uint16_t)v;
            }
        }
    }
}

static unsigned sample(const VqxPicture *p, unsigned x, unsigned y)
{
    const uint8_t *row = (const uint8_t *)p->data[0] + (ptrdiff_t)y * p->stride[0];
    return p->bpc == 8 ? row[x] : ((const uint16_t *)row)[x];
}

static int mirror(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - i - 2 : i;
}

/* ---------------- integer VIF, plainly ---------------- */

static const uint16_t int_taps[4][17] = {
    { 489, 935, 1640, 2640, 3896, 5274, 6547, 7455, 7784, 7455, 6547, 5274, 3896, 2640, 1640, 935, 489 },
    { 1244, 3663, 7925, 12590, 14692, 12590, 7925, 3663, 1244 },
    { 3571, 16004, 26386, 16004, 3571 },
    { 10904, 43728, 10904 },
};
static const int int_width[4] = { 17, 9, 5, 3 };

static uint16_t log_table[65536];

static int32_t table_log2(uint64_t v)
{
    int k = 0;
    while ((v >> k) >= 65536) k++;
    return log_table[v >> k] + 2048 * k;
}

/* num/den of one scale of integer VIF over planes of uint32 samples. */
static void int_scale(const uint32_t *r, const uint32_t *d, int w, int h, int scale,
                      unsigned bpc, double egl, float *num, float *den)
{
    const uint16_t *f = int_taps[scale];
    const int fw = int_width[scale];
    const unsigned sh_mu = scale ? 16 : bpc;
    const unsigned sh_sq = scale ? 16 : 2 * (bpc - 8);
    const uint64_t rnd_sq = sh_sq ? (uint64_t)1 << (sh_sq - 1) : 0;
    const size_t n = (size_t)w * h;
    uint32_t *t[5];
    for (int a = 0; a < 5; a++) t[a] = malloc(n * sizeof(uint32_t));
    for (int i = 0; i < h; i++) {
        for (int j = 0; j < w; j++) {
            uint64_t m1 = 0, m2 = 0, xx = 0, yy = 0, xy = 0;
            for (int k = 0; k < fw; k++) {
                const int y = mirror(i - fw / 2 + k, h);
                const uint64_t a = r[y * w + j], b = d[y * w + j];
                m1 += f[k] * a;
                m2 += f[k] * b;
                xx += f[k] * a * a;
                yy += f[k] * b * b;
                xy += f[k] * a * b;
            }
            t[0][i * w + j] = (uint32_t)((m1 + (1u << (sh_mu - 1))) >> sh_mu);
            t[1][i * w + j] = (uint32_t)((m2 + (1u << (sh_mu - 1))) >> sh_mu);
            t[2][i * w + j] = (uint32_t)((xx + rnd_sq) >> sh_sq);
            t[3][i * w + j] = (uint32_t)((yy + rnd_sq) >> sh_sq);
            t[4][i * w + j] = (uint32_t)((xy + rnd_sq) >> sh_sq);
        }
    }
    int64_t num_log = 0, den_log = 0, num_lin = 0, den_lin = 0;
    for (int i = 0; i < h; i++) {
        for (int j = 0; j < w; j++) {
            uint64_t s[5] = { 0 };
            for (int k = 0; k < fw; k++) {
                const int x = mirror(j - fw / 2 + k, w);
                for (int a = 0; a < 5; a++) s[a] += (uint64_t)f[k] * t[a][i * w + x];
            }
            const uint64_t mu1 = (uint32_t)s[0], mu2 = (uint32_t)s[1];
            const uint32_t xx = (uint32_t)((s[2] + 32768) >> 16);
            const uint32_t yy = (uint32_t)((s[3] + 32768) >> 16);
            const uint32_t xy = (uint32_t)((s[4] + 32768) >> 16);
            const int32_t s1 = (int32_t)(xx - (uint32_t)((mu1 * mu1 + 2147483648u) >> 32));
            int32_t s2 = (int32_t)(yy - (uint32_t)((mu2 * mu2 + 2147483648u) >> 32));
            const int32_t s12 = (int32_t)(xy - (uint32_t)((mu1 * mu2 + 2147483648u) >> 32));
            if (s2 < 0) s2 = 0;
            if (s1 >= 131072) {
                den_log += table_log2((uint64_t)131072 + s1) - 2048 * 17;
                if (s12 > 0 && s2 > 0) {
                    double g = s12 / (s1 + 65536 * 1.0e-10);
                    int32_t sv = (int32_t)(s2 - g * s12);
                    if (sv < 0) sv = 0;
                    if (g > egl) g = egl;
                    const uint64_t base = (uint64_t)sv + 131072;
                    num_log += table_log2((uint64_t)(int64_t)(g * g * s1) + base) - table_log2(base);
                }
            } else {
                num_lin += s2;
                den_lin++;
            }
        }
    }
    *num = (float)(num_log / 2048.0 + (den_lin - (num_lin / 16384.0) / 65025.0));
    *den = (float)(den_log / 2048.0 + den_lin);
    for (int a = 0; a < 5; a++) free(t[a]);
}

/* Low-pass every sample with the filter of `scale`, then keep even ones. */
static void int_decimate(uint32_t **plane, int *w, int *h, int scale, unsigned shift)
{
    const uint16_t *f = int_taps[scale];
    const int fw = int_width[scale], W = *w, H = *h;
    uint32_t *v = malloc((size_t)W * H * sizeof(uint32_t));
    uint32_t *out = malloc((size_t)(W / 2) * (H / 2) * sizeof(uint32_t) + 4);
    for (int i = 0; i < H; i++)
        for (int j = 0; j < W; j++) {
            uint32_t s = 0;
            for (int k = 0; k < fw; k++) s += f[k] * (*plane)[mirror(i - fw / 2 + k, H) * W + j];
            v[i * W + j] = (uint16_t)((s + (1u << (shift - 1))) >> shift);
        }
    for (int i = 0; i < H; i++)
        for (int j = 0; j < W; j++) {
            uint32_t s = 0;
            for (int k = 0; k < fw; k++) s += f[k] * v[i * W + mirror(j - fw / 2 + k, W)];
            if (!(i & 1) && !(j & 1) && i / 2 < H / 2 && j / 2 < W / 2)
                out[(i / 2) * (W / 2) + j / 2] = (uint16_t)((s + 32768) >> 16);
        }
    free(v);
    free(*plane);
    *plane = out;
    *w = W / 2;
    *h = H / 2;
}

static void int_vif(const VqxPicture *ref, const VqxPicture *dis, double egl, double out[4])
{
    int w = (int)ref->w[0], h = (int)ref->h[0];
    uint32_t *r = malloc((size_t)w * h * sizeof(uint32_t));
    uint32_t *d = malloc((size_t)w * h * sizeof(uint32_t));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            r[y * w + x] = sample(ref, x, y);
            d[y * w + x] = sample(dis, x, y);
        }
    for (int sc = 0; sc < 4; sc++) {
        if (sc) {
            int w2 = w, h2 = h;
            int_decimate(&r, &w2, &h2, sc, sc == 1 ? ref->bpc : 16);
            int_decimate(&d, &w, &h, sc, sc == 1 ? ref->bpc : 16);
        }
        float num, den;
        int_scale(r, d, w, h, sc, ref->bpc, egl, &num, &den);
        out[sc] = num / den;
    }
    free(r);
    free(d);
}

/* ---------------- float VIF, plainly ---------------- */

static float poly_log2(float x)
{
    static const float c[9] = { -0.012671635276421, 0.064841182402670, -0.157048836463065,
                                0.257167726303123, -0.353800560300520, 0.480131410397451,
                                -0.721314327952201, 1.442694803896991, 0 };
    uint32_t u;
    memcpy(&u, &x, 4);
    const int e = (int)((u >> 23) & 0xFF) - 127;
    u = (u & 0x7FFFFF) | 0x3F800000;
    float m;
    memcpy(&m, &u, 4);
    float p = 0;
    for (int i = 0; i < 9; i++) p = p * (m - 1.0f) + c[i];
    return (float)e + p;
}

static void gauss(float *f, int n)
{
    const float sd = n / 5.0f;
    float sum = 0;
    for (int i = 0; i < n; i++) {
        const float x = (float)(i - (n - 1) / 2);
        f[i] = (float)exp(-0.5 * x / sd * x / sd) /
               (float)(1 / (sd * sqrt(2 * 3.14159265358979323846)));
        sum += f[i];
    }
    for (int i = 0; i < n; i++) f[i] /= sum;
}

/* dst = separable filter of src (and of src^2 or src1*src2 via mode). */
static void ffilter(const float *f, int fw, const float *a, const float *b, int mode,
                    float *dst, int w, int h)
{
    float *tmp = malloc((size_t)w * sizeof(float));
    for (int i = 0; i < h; i++) {
        for (int j = 0; j < w; j++) {
            float acc = 0;
            for (int k = 0; k < fw; k++) {
                const int y = mirror(i - fw / 2 + k, h);
                const float x = a[y * w + j];
                acc += f[k] * (mode == 0 ? x : mode == 1 ? x * x : x * b[y * w + j]);
            }
            tmp[j] = acc;
        }
        for (int j = 0; j < w; j++) {
            float acc = 0;
            for (int k = 0; k < fw; k++) acc += f[k] * tmp[mirror(j - fw / 2 + k, w)];
            dst[i * w + j] = acc;
        }
    }
    free(tmp);
}

static void float_vif(const VqxPicture *ref, const VqxPicture *dis, double out[4])
{
    int w = (int)ref->w[0], h = (int)ref->h[0];
    const size_t n = (size_t)w * h;
    float *r = malloc(n * 4), *d = malloc(n * 4), *b[5];
    for (int a = 0; a < 5; a++) b[a] = malloc(n * 4);
    const float scale = 1.0f / (float)(1 << (ref->bpc - 8));
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            r[y * w + x] = (float)sample(ref, x, y) * scale - 128;
            d[y * w + x] = (float)sample(dis, x, y) * scale - 128;
        }
    for (int sc = 0; sc < 4; sc++) {
        float f[17];
        const int fw = (16 >> sc) + 1;
        gauss(f, fw);
        if (sc) {
            ffilter(f, fw, r, NULL, 0, b[0], w, h);
            ffilter(f, fw, d, NULL, 0, b[1], w, h);
            for (int y = 0; y < h / 2; y++)
                for (int x = 0; x < w / 2; x++) {
                    r[y * (w / 2) + x] = b[0][2 * y * w + 2 * x];
                    d[y * (w / 2) + x] = b[1][2 * y * w + 2 * x];
                }
            w /= 2;
            h /= 2;
        }
        ffilter(f, fw, r, NULL, 0, b[0], w, h);
        ffilter(f, fw, d, NULL, 0, b[1], w, h);
        ffilter(f, fw, r, NULL, 1, b[2], w, h);
        ffilter(f, fw, d, NULL, 1, b[3], w, h);
        ffilter(f, fw, r, d, 2, b[4], w, h);
        float num = 0, den = 0;
        for (int i = 0; i < h; i++) {
            float rn = 0, rd = 0;
            for (int j = 0; j < w; j++) {
                const size_t o = (size_t)i * w + j;
                const float eps = 1e-10f, m1 = b[0][o], m2 = b[1][o];
                float s1 = b[2][o] - m1 * m1, s2 = b[3][o] - m2 * m2;
                const float s12 = b[4][o] - m1 * m2;
                s1 = s1 > 0 ? s1 : 0;
                s2 = s2 > 0 ? s2 : 0;
                float g = s12 / (s1 + eps), sv = s2 - g * s12;
                if (s1 < eps) { g = 0; sv = s2; s1 = 0; }
                if (s2 < eps) { g = 0; sv = 0; }
                if (g < 0) { sv = s2; g = 0; }
                if (sv < eps) sv = eps;
                if (g > 100.0f) g = 100.0f;
                float nv = poly_log2((float)(1.0f + (g * g * s1) / (sv + 2.0)));
                float dv = poly_log2((float)(1.0f + s1 / 2.0));
                if (s12 < 0) nv = 0;
                if (s1 < 2.0) { nv = 1.0f - s2 * (float)(4.0f / (255.0 * 255.0)); dv = 1.0f; }
                rn += nv;
                rd += dv;
            }
            num += rn;
            den += rd;
        }
        out[sc] = (double)num / den;
    }
    free(r);
    free(d);
    for (int a = 0; a < 5; a++) free(b[a]);
}

/* ---------------- through the library ---------------- */

/* Scores of one frame pair through vqx; returns the flush result. */
static int run_vqx(const VqxPicture *ref, const VqxPicture *dis, const char *feature,
                   const char *opts, const char *key_fmt, double out[4], char *err, size_t len)
{
    VqxContext *ctx;
    if (vqx_open(&ctx, NULL)) return -ENOMEM;
    int ret = vqx_use_feature(ctx, feature, opts);
    VqxPicture r, d;
    vqx_picture_alloc(&r, ref->layout, ref->bpc, ref->w[0], ref->h[0]);
    vqx_picture_alloc(&d, ref->layout, ref->bpc, ref->w[0], ref->h[0]);
    for (unsigned p = 0; p < vqx_picture_planes(ref); p++) {
        const size_t row = ref->w[p] * (ref->bpc > 8 ? 2u : 1u);
        for (unsigned y = 0; y < ref->h[p]; y++) {
            memcpy((uint8_t *)r.data[p] + y * r.stride[p], (uint8_t *)ref->data[p] + y * ref->stride[p], row);
            memcpy((uint8_t *)d.data[p] + y * d.stride[p], (uint8_t *)dis->data[p] + y * dis->stride[p], row);
        }
    }
    if (!ret) ret = vqx_send_pictures(ctx, &r, &d);
    if (!ret) ret = vqx_flush(ctx);
    vqx_picture_free(&r);
    vqx_picture_free(&d);
    if (err) snprintf(err, len, "%s", vqx_last_error(ctx));
    for (unsigned sc = 0; !ret && sc < 4; sc++) {
        char key[64];
        snprintf(key, sizeof(key), key_fmt, sc);
        ret = vqx_score_at(ctx, key, 0, &out[sc]);
    }
    vqx_close(&ctx);
    return ret;
}

static bool same(double a, double b)
{
    return a == b || (isnan(a) && isnan(b));
}

static void check_pair(unsigned bpc, unsigned w, unsigned h, enum VqxPixelLayout layout,
                       enum Content cr, enum Content cd, bool identical, unsigned seed)
{
    VqxPicture ref, dis;
    vqx_picture_alloc(&ref, layout, bpc, w, h);
    vqx_picture_alloc(&dis, layout, bpc, w, h);
    fill(&ref, cr, seed);
    fill(&dis, cd, seed + 1);
    if (identical)
        for (unsigned y = 0; y < h; y++)
            memcpy((uint8_t *)dis.data[0] + y * dis.stride[0], (uint8_t *)ref.data[0] + y * ref.stride[0],
                   w * (bpc > 8 ? 2u : 1u));

    double want[4], got[4];
    bool ok = run_vqx(&ref, &dis, "vif", NULL, "integer_vif_scale%u", got, NULL, 0) == 0;
    int_vif(&ref, &dis, 100.0, want);
    for (unsigned sc = 0; sc < 4; sc++) ok = ok && same(got[sc], want[sc]);
    if (identical)
        for (unsigned sc = 0; sc < 4; sc++) ok = ok && fabs(got[sc] - 1.0) < 1e-2;
    bool ok_egl = run_vqx(&ref, &dis, "vif", "vif_enhn_gain_limit=1.0", "integer_vif_scale%u_egl_1",
                          got, NULL, 0) == 0;
    int_vif(&ref, &dis, 1.0, want);
    for (unsigned sc = 0; sc < 4; sc++) ok_egl = ok_egl && same(got[sc], want[sc]);

    bool ok_float = run_vqx(&ref, &dis, "float_vif", NULL, "vif_scale%u", got, NULL, 0) == 0;
    float_vif(&ref, &dis, want);
    for (unsigned sc = 0; sc < 4; sc++) ok_float = ok_float && same(got[sc], want[sc]);

    if (!ok || !ok_egl || !ok_float)
        fprintf(stderr, "  %u-bit %ux%u content %d/%d%s: integer %s, egl %s, float %s\n", bpc, w, h,
                cr, cd, identical ? " identical" : "", ok ? "ok" : "DIFFERS", ok_egl ? "ok" : "DIFFERS",
                ok_float ? "ok" : "DIFFERS");
    CHECK(ok);
    CHECK(ok_egl);
    CHECK(ok_float);
    vqx_picture_free(&ref);
    vqx_picture_free(&dis);
}

static void test_against_plain(void)
{
    static const unsigned sizes[][2] = { { 16, 16 }, { 17, 19 }, { 35, 22 }, { 64, 48 }, { 91, 57 } };
    unsigned seed = 1;
    for (unsigned bpc = 8; bpc <= 16; bpc++) {
        for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            const enum VqxPixelLayout layout = s & 1 ? VQX_PIX_400 : VQX_PIX_420;
            check_pair(bpc, sizes[s][0], sizes[s][1], layout, NOISE, NOISE, false, seed++);
            check_pair(bpc, sizes[s][0], sizes[s][1], layout, SMOOTH, SMOOTH, false, seed++);
            check_pair(bpc, sizes[s][0], sizes[s][1], layout, EXTREME, EXTREME, false, seed++);
            check_pair(bpc, sizes[s][0], sizes[s][1], layout, FLAT, NOISE, false, seed++);
            check_pair(bpc, sizes[s][0], sizes[s][1], layout, SMOOTH, SMOOTH, true, seed++);
        }
    }
}

/* Below 16x16 the coarsest scale has fewer than two samples per side. */
static void test_sizes(void)
{
    static const unsigned bad[][2] = { { 15, 16 }, { 16, 15 }, { 8, 8 }, { 1, 1 } };
    for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        VqxPicture p;
        vqx_picture_alloc(&p, VQX_PIX_400, 8, bad[i][0], bad[i][1]);
        fill(&p, NOISE, i);
        double out[4];
        char err[256];
        CHECK(run_vqx(&p, &p, "vif", NULL, "integer_vif_scale%u", out, err, sizeof(err)) == -EINVAL);
        CHECK(strstr(err, "too small") != NULL);
        CHECK(run_vqx(&p, &p, "float_vif", NULL, "vif_scale%u", out, err, sizeof(err)) == -EINVAL);
        CHECK(strstr(err, "too small") != NULL);
        vqx_picture_free(&p);
    }
    /* A larger kernel needs a larger frame (at 24x24 scale 3 is 3x3, its
     * 7-tap filter with vif_kernelscale 2 needs 4x4); an unsupported kernel
     * scale is refused. */
    VqxPicture p;
    vqx_picture_alloc(&p, VQX_PIX_400, 8, 24, 24);
    fill(&p, NOISE, 7);
    double out[4];
    char err[512];
    CHECK(run_vqx(&p, &p, "float_vif", "vif_kernelscale=2.0", "vif_scale%u_ks_2", out, err,
                  sizeof(err)) == -EINVAL);
    CHECK(run_vqx(&p, &p, "float_vif", "vif_kernelscale=1.2", "vif_scale%u_ks_1.2", out, err,
                  sizeof(err)) == -EINVAL);
    CHECK(strstr(err, "vif_kernelscale") != NULL);
    CHECK(run_vqx(&p, &p, "float_vif", "vif_kernelscale=0.5", "vif_scale%u_ks_0.5", out, err,
                  sizeof(err)) == 0);
    CHECK(run_vqx(&p, &p, "vif", NULL, "integer_vif_scale%u", out, err, sizeof(err)) == 0);
    vqx_picture_free(&p);
}

/* ---------------- SIMD against the scalar C ---------------- */

static const char *const vif_debug_keys[] = {
    "integer_vif_scale0", "integer_vif_scale1", "integer_vif_scale2", "integer_vif_scale3",
    "integer_vif", "integer_vif_num", "integer_vif_den",
    "integer_vif_num_scale0", "integer_vif_den_scale0", "integer_vif_num_scale1",
    "integer_vif_den_scale1", "integer_vif_num_scale2", "integer_vif_den_scale2",
    "integer_vif_num_scale3", "integer_vif_den_scale3",
};
#define N_DEBUG_KEYS (sizeof(vif_debug_keys) / sizeof(vif_debug_keys[0]))
#define SIMD_FRAMES 3

/* Every debug value of SIMD_FRAMES frames through the public API with
 * VqxSettings.cpumask `mask`. */
static int run_cpumask(VqxPicture *ref, VqxPicture *dis, unsigned mask,
                       double out[SIMD_FRAMES][N_DEBUG_KEYS])
{
    VqxSettings set;
    vqx_default_settings(&set);
    set.cpumask = mask;
    VqxContext *ctx;
    if (vqx_open(&ctx, &set)) return -ENOMEM;
    int ret = vqx_use_feature(ctx, "vif", "debug=true");
    for (unsigned f = 0; f < SIMD_FRAMES && !ret; f++) {
        VqxPicture r = ref[f], d = dis[f];
        r.buf = d.buf = NULL; /* borrowed: the caller keeps them */
        r.pool = d.pool = NULL;
        ret = vqx_send_pictures(ctx, &r, &d);
    }
    if (!ret) ret = vqx_flush(ctx);
    for (unsigned f = 0; f < SIMD_FRAMES && !ret; f++)
        for (unsigned k = 0; k < N_DEBUG_KEYS && !ret; k++)
            ret = vqx_score_at(ctx, vif_debug_keys[k], f, &out[f][k]);
    vqx_close(&ctx);
    return ret;
}

/* The extractor's own numerators and denominators with the C table and
 * with the best this CPU has: needs no context (fmt.cpu_flags). */
static bool compute_same(const VqxPicture *ref, const VqxPicture *dis, unsigned simd)
{
    const VqxFeatureExtractor *fex = vqx_registry_find("vif", VQX_BACKEND_CPU);
    float num[2][VIF_SCALES], den[2][VIF_SCALES];
    for (int i = 0; i < 2; i++) {
        VifState *s = calloc(1, sizeof(*s));
        char kv[1] = "", err[256];
        const VqxFrameFormat fmt = { .layout = ref->layout, .bpc = ref->bpc, .w = ref->w[0],
                                     .h = ref->h[0], .cpu_flags = i ? simd : 0 };
        if (!s || vqx_options_apply(fex, s, kv, err, sizeof(err)) || fex->init(s, &fmt, NULL)) {
            free(s);
            return false;
        }
        vqx_vif_compute(s, ref, dis, num[i], den[i]);
        fex->close(s);
        free(s);
    }
    return !memcmp(num[0], num[1], sizeof(num[0])) && !memcmp(den[0], den[1], sizeof(den[0]));
}

/* Random, smooth and extreme frames at every depth, sizes that leave
 * every vector width a remainder at every scale: cpumask 63 (the C) and 0
 * (every ISA this CPU has) give the same bits. */
static void test_simd(void)
{
    static const unsigned sizes[][2] = { { 16, 16 }, { 67, 45 }, { 333, 97 } };
    const unsigned simd = vqx_cpu_flags(0);
    if (!simd) printf("simd: this build or CPU has no SIMD: C against itself\n");
    for (unsigned bpc = 8; bpc <= 16; bpc++) {
        for (unsigned s = 0; s < sizeof(sizes) / sizeof(sizes[0]); s++) {
            VqxPicture ref[SIMD_FRAMES], dis[SIMD_FRAMES];
            for (unsigned f = 0; f < SIMD_FRAMES; f++) {
                vqx_picture_alloc(&ref[f], VQX_PIX_400, bpc, sizes[s][0], sizes[s][1]);
                vqx_picture_alloc(&dis[f], VQX_PIX_400, bpc, sizes[s][0], sizes[s][1]);
                const enum Content c = f == 0 ? NOISE : f == 1 ? SMOOTH : EXTREME;
                fill(&ref[f], c, bpc + f);
                fill(&dis[f], f == 1 ? NOISE : c, bpc + f + 1);
            }
            static double c[SIMD_FRAMES][N_DEBUG_KEYS], v[SIMD_FRAMES][N_DEBUG_KEYS];
            const bool ran = run_cpumask(ref, dis, 63, c) == 0 && run_cpumask(ref, dis, 0, v) == 0;
            const bool same_bits = ran && !memcmp(c, v, sizeof(c));
            if (!same_bits)
                fprintf(stderr, "  simd: %u-bit %ux%u: cpumask 0 and 63 %s\n", bpc, sizes[s][0],
                        sizes[s][1], ran ? "differ" : "failed");
            CHECK(same_bits);
            bool same_compute = true;
            for (unsigned f = 0; f < SIMD_FRAMES; f++)
                same_compute = same_compute && compute_same(&ref[f], &dis[f], simd);
            if (!same_compute)
                fprintf(stderr, "  simd: %u-bit %ux%u: extractor C and SIMD differ\n", bpc,
                        sizes[s][0], sizes[s][1]);
            CHECK(same_compute);
            for (unsigned f = 0; f < SIMD_FRAMES; f++) {
                vqx_picture_free(&ref[f]);
                vqx_picture_free(&dis[f]);
            }
        }
    }
}

int main(void)
{
    for (unsigned i = 32767; i < 65536; i++)
        log_table[i] = (uint16_t)round(log2f((float)i) * 2048.0f);
    test_against_plain();
    test_sizes();
    test_simd();
    printf("%u passed, %u failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
