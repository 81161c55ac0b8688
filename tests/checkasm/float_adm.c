/*
 * checkasm module of float ADM's DSP table (src/feature/float_adm_dsp.h),
 * on rows of widths 1..70 and some large ones, each row offset by a random
 * number of floats from a 64-byte boundary. The decoupling, with gain
 * limits 100 (the default), 1 and 1.5 and a reciprocal table of random
 * entries (any table serves, as both sides read the same one). Content: the
 * bands of samples of 8 to 16 bits (steps of 2^(8 - bpc), scaled as the
 * levels of the DWT scale them), distorted bands close to the reference in
 * angle (which the gain limit acts on), enhanced ones, a zero reference,
 * the extremes, and denominators the vector estimate does not cover (zero,
 * subnormal, infinite, NaN, huge). The cube sums: the same bands, with
 * thresholds of zero, of the masking's size, above the band and random
 * extremes, and weights of the CSF's size. Floats are compared bit for bit,
 * margins included.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "feature/float_adm_dsp.h"

enum Content { SAMPLES, CLOSE, ENHANCED, ZERO_REF, EXTREMES, SPECIAL, N_CONTENT };
static const char *const content_name[N_CONTENT] = { "samples", "close angle", "enhanced",
                                                     "zero reference", "extremes",
                                                     "special denominators" };
static const double gains[] = { 100.0, 1.0, 1.5 };
#define N_GAINS (sizeof(gains) / sizeof(gains[0]))

#define MARGIN 16
#define PI 3.14159265358979323846

static float sample(unsigned bpc, float scale)
{
    const float step = 1.0f / (float)(1u << (bpc - 8));
    return ((float)(checkasm_rand() & ((1u << bpc) - 1)) * step - 128.0f) * scale;
}

static float special(void)
{
    static const float values[] = { 0.0f, -0.0f, -1e-30f, 1e-40f, -1e-40f, INFINITY,
                                    -INFINITY, NAN, 3e38f, -1e38f, 0x1p126f, 1.0f };
    return values[checkasm_rand() % (sizeof(values) / sizeof(values[0]))];
}

/* one reference and distorted value of band b */
static void fill(enum Content c, unsigned bpc, float scale, float *o, float *t)
{
    const float peak = (128.0f - 1.0f / (float)(1u << (bpc - 8))) * scale;
    switch (c) {
    case CLOSE:
        *o = sample(bpc, scale);
        *t = *o * (0.5f + (float)(checkasm_rand() % 1024) / 1024.0f) +
             sample(bpc, scale) / 4096.0f;
        break;
    case ENHANCED:
        *o = sample(bpc, scale);
        *t = *o * 1.5f;
        break;
    case ZERO_REF:
        *o = 0.0f;
        *t = sample(bpc, scale);
        break;
    case EXTREMES:
        *o = checkasm_rand() & 1 ? peak : -128.0f * scale;
        *t = checkasm_rand() & 1 ? peak : -128.0f * scale;
        break;
    case SPECIAL:
        *o = checkasm_rand() & 1 ? special() : sample(bpc, scale);
        *t = checkasm_rand() & 3 ? sample(bpc, scale) : special();
        break;
    default:
        *o = sample(bpc, scale);
        *t = sample(bpc, scale);
    }
}

static float *row_alloc(CheckasmBuf *b, unsigned w)
{
    return checkasm_row_alloc(b, w, sizeof(float), MARGIN);
}

static bool check_one(FloatAdmDecoupleRowFn ref_fn, FloatAdmDecoupleRowFn new_fn,
                      const char *isa, const FloatAdmDecoupleParams *p, unsigned bpc,
                      unsigned w, enum Content c)
{
    static const float scales[] = { 1.0f, 2.0f, 16.0f, 0.25f };
    const float scale = scales[checkasm_rand() % 4];
    CheckasmBuf bi[6], bo[12];
    float *in[6], *out[12];
    for (int k = 0; k < 6; k++) in[k] = row_alloc(&bi[k], w);
    for (int k = 0; k < 12; k++) out[k] = row_alloc(&bo[k], w);
    for (unsigned x = 0; x < w; x++)
        for (int b = 0; b < 3; b++) fill(c, bpc, scale, &in[b][x], &in[3 + b][x]);
    const float *const o[3] = { in[0], in[1], in[2] }, *const t[3] = { in[3], in[4], in[5] };
    ref_fn(o, t, (int)w, p, out, out + 3);
    new_fn(o, t, (int)w, p, out + 6, out + 9);
    char where[128];
    snprintf(where, sizeof(where), "%u-bit, width %u, gain limit %g, %s", bpc, w,
             p->gain_limit, content_name[c]);
    static const char *const arrays[6] = { "restored h (bits)", "restored v (bits)",
                                           "restored d (bits)", "additive h (bits)",
                                           "additive v (bits)", "additive d (bits)" };
    bool ok = true;
    for (int k = 0; k < 6 && ok; k++)
        ok = checkasm_compare("decouple_row", isa, arrays[k], CHECKASM_U32, out[k], out[6 + k],
                              w, MARGIN, where);
    for (int k = 0; k < 6; k++) free(bi[k].mem);
    for (int k = 0; k < 12; k++) free(bo[k].mem);
    return ok;
}

/* Thresholds stay finite: an infinite one against an infinite band makes
 * the default NaN, and which of two NaNs a sum keeps is the compiler's
 * choice of operand order, not the C's. */
static float threshold(enum Content c, float x)
{
    if (!isfinite(x)) return 0.0f;
    switch (c) {
    case ZERO_REF: return 0.0f;
    case ENHANCED: return fabsf(x) * 2.0f;
    case EXTREMES: return checkasm_rand() & 1 ? 0.0f : 1e30f;
    case SPECIAL: return checkasm_rand() & 3 ? fabsf(x) * 0.1f : 3e38f;
    default: return fabsf(x) * (float)(checkasm_rand() % 512) / 1024.0f;
    }
}

static bool check_sums_one(FloatAdmCubeSumsFn ref_fn, FloatAdmCubeSumsFn new_fn,
                           const char *isa, unsigned bpc, unsigned w, enum Content c)
{
    static const float weights[][3] = { { 1.0f, 1.0f, 1.0f },
                                        { 0.0261f, 0.0261f, 0.0147f },
                                        { 0.7f, 0.7f, 0.33f } };
    const float *weight = weights[checkasm_rand() % 3];
    const float scale = c == EXTREMES ? 16.0f : 2.0f;
    CheckasmBuf bx[3], bt;
    float *x[3], *thr = row_alloc(&bt, w);
    for (int b = 0; b < 3; b++) x[b] = row_alloc(&bx[b], w);
    for (unsigned j = 0; j < w; j++) {
        for (int b = 0; b < 3; b++) {
            float o;
            fill(c, bpc, scale, &o, &x[b][j]);
        }
        thr[j] = threshold(c, x[0][j] * weight[0]);
    }
    const float *const rows[3] = { x[0], x[1], x[2] };
    float sa[3], sb[3];
    memset(sa, 0xcd, sizeof(sa));
    memset(sb, 0xcd, sizeof(sb));
    ref_fn(rows, weight, thr, (int)w, sa);
    new_fn(rows, weight, thr, (int)w, sb);
    char where[96];
    snprintf(where, sizeof(where), "%u-bit, width %u, %s", bpc, w, content_name[c]);
    const bool ok = checkasm_compare("cube_sums", isa, "sums (bits)", CHECKASM_U32, sa, sb, 3,
                                     0, where);
    for (int b = 0; b < 3; b++) free(bx[b].mem);
    free(bt.mem);
    return ok;
}

/* ---- bench: median ns per 1920-column row ---- */

static double bench_one(const FloatAdmDSPContext *d, const FloatAdmDecoupleParams *p,
                        int stage)
{
    enum { W = 1920, H = 16 };
    static const float weight[3] = { 0.7f, 0.7f, 0.33f };
    CheckasmBuf b[12];
    float *a[12];
    for (int k = 0; k < 12; k++) {
        b[k] = checkasm_buf_alloc(sizeof(float) * W * H, 0);
        a[k] = (float *)b[k].p;
    }
    for (unsigned i = 0; i < W * H; i++) {
        for (int k = 0; k < 3; k++) fill(CLOSE, 8, 2.0f, &a[k][i], &a[3 + k][i]);
        a[6][i] = threshold(SAMPLES, a[0][i]);
    }
    double t[CHECKASM_BENCH_RUNS];
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        for (unsigned y = 0; y < H; y++) {
            const unsigned o = y * W;
            const float *const ref[3] = { a[0] + o, a[1] + o, a[2] + o };
            const float *const dis[3] = { a[3] + o, a[4] + o, a[5] + o };
            float *const res[3] = { a[6] + o, a[7] + o, a[8] + o };
            float *const add[3] = { a[9] + o, a[10] + o, a[11] + o };
            if (stage) d->cube_sums(ref, weight, a[6] + o, W, a[9] + o);
            else d->decouple_row(ref, dis, W, p, res, add);
        }
        t[run] = (checkasm_now_ns() - t0) / H;
    }
    for (int k = 0; k < 12; k++) free(b[k].mem);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

#define N_WIDTHS CHECKASM_N_WIDTHS(1)

void checkasm_check_float_adm(const CheckasmLevel *level)
{
    const char *isa = level->isa;
    FloatAdmDSPContext c, below, n;
    vqx_float_adm_dsp_init(&c, 0);
    vqx_float_adm_dsp_init(&below, level->below);
    vqx_float_adm_dsp_init(&n, level->flags);
    static const char *const names[] = { "float_adm decouple_row", "float_adm cube_sums" };
    const bool changed[2] = { n.decouple_row != below.decouple_row,
                              n.cube_sums != below.cube_sums };

    uint32_t recip[FLOAT_ADM_RECIP_ENTRIES];
    for (int i = 0; i < FLOAT_ADM_RECIP_ENTRIES; i++) recip[i] = (checkasm_rand() & 0xfff) << 11;
    FloatAdmDecoupleParams p = { .recip = recip, .eps = (float)1e-30,
                                 .cos_1deg_sq = (float)(cos(PI / 180.0) * cos(PI / 180.0)) };
    for (int stage = 0; stage < 2; stage++) {
        if (!changed[stage]) continue;
        bool ok = true;
        for (unsigned g = 0; g < (stage ? 1 : N_GAINS) && ok; g++) {
            p.gain_limit = gains[g];
            for (unsigned bi = 0; bi < CHECKASM_N_BPC && ok; bi++) {
                const unsigned bpc = checkasm_bpc[bi];
                for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++) {
                    const unsigned w = checkasm_width(wi, 1);
                    for (int ct = 0; ct < N_CONTENT && ok; ct++)
                        ok = stage ? check_sums_one(c.cube_sums, n.cube_sums, isa, bpc, w,
                                                    (enum Content)ct)
                                   : check_one(c.decouple_row, n.decouple_row, isa, &p, bpc, w,
                                               (enum Content)ct);
                }
            }
        }
        checkasm_checked(names[stage], isa, ok);
        p.gain_limit = gains[0];
        if (ok && checkasm_benching())
            checkasm_report_bench(names[stage], isa, "1920 columns", bench_one(&c, &p, stage),
                                  bench_one(&n, &p, stage));
    }
}
