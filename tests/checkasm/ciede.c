/*
 * checkasm module of ciede's DSP table (src/feature/ciede_dsp.h): delta_e
 * on runs of 1..70 and some long (odd included) CIELAB pairs, from YUV
 * samples at every depth converted as ciede converts them: random, near
 * (the distorted within a few steps), black, white and the extremes of U
 * and V, neutral greys (a or b 0: the C's special cases), equal pairs; and
 * Lab values made up: hues half a turn apart (the wrap of the hue
 * difference and mean), a or b +0 and -0, tiny, subnormal, huge, infinite
 * and NaN. Differences compared bit for bit with canaries on either side.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "checkasm.h"
#include "feature/ciede_dsp.h"

#define MARGIN 16

enum Content { RANDOM, NEAR, EXTREMES, GREY, EQUAL, OPPOSITE, SPECIAL, N_CONTENT };
static const char *const content_name[N_CONTENT] = {
    "random", "near", "black, white, chroma extremes", "neutral greys", "equal",
    "hues half a turn apart", "zeros, tiny, huge, inf, NaN",
};

static unsigned clamp_add(unsigned v, int d, unsigned peak)
{
    const int s = (int)v + d;
    return s < 0 ? 0 : s > (int)peak ? peak : (unsigned)s;
}

static unsigned extreme(unsigned peak)
{
    static const unsigned frac[] = { 0, 16, 128, 235, 240, 255 };
    const unsigned r = checkasm_rand() % 7;
    return r == 6 ? peak : (unsigned)((uint64_t)frac[r] * (peak + 1) / 256);
}

static float special_float(void)
{
    static const float v[] = { 0.f, -0.f, 1e-30f, -1e-30f, 1e-40f, -3e-45f, 1e20f, -1e20f,
                               3e38f, INFINITY, -INFINITY, NAN, 1.f, -1.f, 100.f, -100.f };
    return checkasm_rand() & 1 ? v[checkasm_rand() % 16]
                               : (float)((int)(checkasm_rand() % 40001) - 20000) / 100.f;
}

/* A pair from YUV samples of `bpc` bits, or made up. */
static void pair(enum Content c, const CiedeYuvScale *s, unsigned bpc, CiedeLab *p, CiedeLab *q)
{
    const unsigned peak = (1u << bpc) - 1, mid = 1u << (bpc - 1);
    unsigned y1 = checkasm_rand() & peak, u1 = checkasm_rand() & peak, v1 = checkasm_rand() & peak;
    unsigned y2 = checkasm_rand() & peak, u2 = checkasm_rand() & peak, v2 = checkasm_rand() & peak;
    switch (c) {
    case NEAR: {
        const int step = 1 << (bpc - 8);
        y2 = clamp_add(y1, ((int)(checkasm_rand() % 7) - 3) * step, peak);
        u2 = clamp_add(u1, ((int)(checkasm_rand() % 5) - 2) * step, peak);
        v2 = clamp_add(v1, ((int)(checkasm_rand() % 5) - 2) * step, peak);
        break;
    }
    case EXTREMES:
        y1 = extreme(peak), u1 = extreme(peak), v1 = extreme(peak);
        y2 = extreme(peak), u2 = extreme(peak), v2 = extreme(peak);
        break;
    case GREY:
        u1 = v1 = mid;
        if (checkasm_rand() & 1) u2 = v2 = mid;
        break;
    case EQUAL: y2 = y1, u2 = u1, v2 = v1; break;
    case OPPOSITE: {
        /* chroma r at hue h and h + pi (plus a little), any lightness */
        const double h = (checkasm_rand() % 100000) * (6.283185307179586 / 100000);
        const double d = ((int)(checkasm_rand() % 2001) - 1000) * 1e-6;
        const double r1 = 1 + checkasm_rand() % 120, r2 = 1 + checkasm_rand() % 120;
        *p = (CiedeLab){ (float)(checkasm_rand() % 100), (float)(r1 * cos(h)), (float)(r1 * sin(h)) };
        *q = (CiedeLab){ (float)(checkasm_rand() % 100), (float)(r2 * cos(h + 3.141592653589793 + d)),
                         (float)(r2 * sin(h + 3.141592653589793 + d)) };
        return;
    }
    case SPECIAL:
        *p = (CiedeLab){ special_float(), special_float(), special_float() };
        *q = (CiedeLab){ special_float(), special_float(), special_float() };
        return;
    default: break;
    }
    *p = vqx_ciede_to_lab(s, y1, u1, v1);
    *q = vqx_ciede_to_lab(s, y2, u2, v2);
}

static bool check_one(CiedeDeltaEFn ref, CiedeDeltaEFn new, const char *isa, unsigned bpc,
                      size_t n, enum Content c)
{
    const CiedeYuvScale s = vqx_ciede_yuv_scale(bpc);
    CiedeLab *p = checkasm_malloc(sizeof(CiedeLab) * n), *q = checkasm_malloc(sizeof(CiedeLab) * n);
    for (size_t i = 0; i < n; i++) pair(c, &s, bpc, &p[i], &q[i]);
    CheckasmBuf ba, bb;
    float *a = checkasm_row_alloc(&ba, n, 4, MARGIN), *b = checkasm_row_alloc(&bb, n, 4, MARGIN);
    ref(p, q, a, n);
    new(p, q, b, n);
    char where[96];
    snprintf(where, sizeof(where), "%u-bit, %zu pairs, %s", bpc, n, content_name[c]);
    const bool ok = checkasm_compare("delta_e", isa, "de", CHECKASM_U32, a, b, (long)n, MARGIN, where);
    free(ba.mem);
    free(bb.mem);
    free(p);
    free(q);
    return ok;
}

/* ---- bench: a row of 1080p, random colours ---- */

#define BENCH_PAIRS 1920

static double bench(CiedeDeltaEFn fn)
{
    const CiedeYuvScale s = vqx_ciede_yuv_scale(8);
    CiedeLab *p = checkasm_malloc(sizeof(CiedeLab) * BENCH_PAIRS);
    CiedeLab *q = checkasm_malloc(sizeof(CiedeLab) * BENCH_PAIRS);
    float *de = checkasm_malloc(sizeof(float) * BENCH_PAIRS);
    for (size_t i = 0; i < BENCH_PAIRS; i++) pair(NEAR, &s, 8, &p[i], &q[i]);
    double t[CHECKASM_BENCH_RUNS];
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        fn(p, q, de, BENCH_PAIRS);
        t[run] = checkasm_now_ns() - t0;
    }
    free(p);
    free(q);
    free(de);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

void checkasm_check_ciede(const CheckasmLevel *level)
{
    const char *isa = level->isa;
    CiedeDSPContext c, below, n;
    vqx_ciede_dsp_init(&c, 0);
    vqx_ciede_dsp_init(&below, level->below);
    vqx_ciede_dsp_init(&n, level->flags);
    if (n.delta_e == below.delta_e) return;
    bool ok = true;
    for (unsigned bi = 0; bi < CHECKASM_N_BPC && ok; bi++)
        for (unsigned i = 0; i < CHECKASM_N_WIDTHS(1) && ok; i++)
            for (int ct = 0; ct < N_CONTENT && ok; ct++)
                ok = check_one(c.delta_e, n.delta_e, isa, checkasm_bpc[bi], checkasm_width(i, 1),
                               (enum Content)ct);
    /* many random colours at 8 bits, where nearly every lane takes the SIMD */
    for (unsigned k = 0; k < 64 && ok; k++)
        ok = check_one(c.delta_e, n.delta_e, isa, 8, 4096 + k, k & 1 ? NEAR : RANDOM);
    checkasm_checked("delta_e", isa, ok);
    if (ok && checkasm_benching())
        checkasm_report_bench("delta_e", isa, "1920 pairs, near colours", bench(c.delta_e),
                              bench(n.delta_e));
}
