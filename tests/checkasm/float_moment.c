/*
 * checkasm module of float moment's DSP table (src/feature/float_moment_dsp.h):
 * a row's sums added to four running doubles, at 8 to 16 bits, widths 0..70
 * and some large ones, rows offset by a random number of floats from a
 * 64-byte boundary, content and running sums of float_samples.h (each sum
 * its own). Doubles are compared bit for bit.
 */
#include <stdio.h>
#include <stdlib.h>

#include "checkasm.h"
#include "feature/float_moment_dsp.h"
#include "float_samples.h"

static bool check_one(FloatMomentRowSumsFn ref, FloatMomentRowSumsFn new, const char *isa,
                      unsigned bpc, unsigned w, enum Content c, unsigned draw)
{
    CheckasmBuf ba, bb;
    float *a = checkasm_row_alloc(&ba, w, sizeof(float), 0);
    float *b = checkasm_row_alloc(&bb, w, sizeof(float), 0);
    for (unsigned x = 0; x < w; x++) {
        a[x] = value(c, bpc, 0, x);
        b[x] = c == EQUAL ? a[x] : value(c, bpc, 1, x);
    }
    double sr[FLOAT_MOMENT_SUMS], sn[FLOAT_MOMENT_SUMS];
    for (int k = 0; k < FLOAT_MOMENT_SUMS; k++)
        sr[k] = sn[k] = start(draw < N_STARTS ? draw : checkasm_rand() % N_STARTS);
    char where[160];
    snprintf(where, sizeof(where), "%u-bit, width %u, %s, from %.17g %.17g %.17g %.17g", bpc, w,
             content_name[c], sr[0], sr[1], sr[2], sr[3]);
    ref(a, b, (int)w, sr);
    new(a, b, (int)w, sn);
    const bool ok = checkasm_compare("row_sums", isa, "sums (bits)", CHECKASM_U64, sr, sn,
                                     FLOAT_MOMENT_SUMS, 0, where);
    free(ba.mem);
    free(bb.mem);
    return ok;
}

/* ---- bench: median ns per 1920-column row of 8-bit samples ---- */

static double bench_one(FloatMomentRowSumsFn f)
{
    enum { W = 1920, H = 16 };
    CheckasmBuf ba, bb;
    bench_rows(&ba, &bb, W * H);
    const float *a = (const float *)ba.p, *b = (const float *)bb.p;
    double t[CHECKASM_BENCH_RUNS];
    volatile double sink = 0;
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        double sum[FLOAT_MOMENT_SUMS] = { 0 };
        for (unsigned y = 0; y < H; y++) f(a + y * W, b + y * W, W, sum);
        t[run] = (checkasm_now_ns() - t0) / H;
        sink = sum[FLOAT_MOMENT_DIS2];
    }
    (void)sink;
    free(ba.mem);
    free(bb.mem);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

#define N_WIDTHS CHECKASM_N_WIDTHS(0)
/* the running sums of a row: each start for all four, then mixed ones */
#define N_DRAWS (N_STARTS + 4)

void checkasm_check_float_moment(const CheckasmLevel *level)
{
    const char *isa = level->isa;
    FloatMomentDSPContext c, below, n;
    vqx_float_moment_dsp_init(&c, 0);
    vqx_float_moment_dsp_init(&below, level->below);
    vqx_float_moment_dsp_init(&n, level->flags);
    if (n.row_sums == below.row_sums) return;
    bool ok = true;
    for (unsigned bi = 0; bi < CHECKASM_N_BPC && ok; bi++)
        for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
            for (int ct = 0; ct < N_CONTENT && ok; ct++)
                for (unsigned draw = 0; draw < N_DRAWS && ok; draw++)
                    ok = check_one(c.row_sums, n.row_sums, isa, checkasm_bpc[bi],
                                   checkasm_width(wi, 0), (enum Content)ct, draw);
    checkasm_checked("float_moment row_sums", isa, ok);
    if (ok && checkasm_benching())
        checkasm_report_bench("float_moment row_sums", isa, "1920 columns", bench_one(c.row_sums),
                              bench_one(n.row_sums));
}
