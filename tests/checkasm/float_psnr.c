/*
 * checkasm module of float PSNR's DSP table (src/feature/float_psnr_dsp.h):
 * a row's squared differences added to a running double, at 8 to 16 bits,
 * widths 0..70 and some large ones, rows offset by a random number of
 * floats from a 64-byte boundary, content and running sums of
 * float_samples.h. Doubles are compared bit for bit.
 */
#include <stdio.h>
#include <stdlib.h>

#include "checkasm.h"
#include "feature/float_psnr_dsp.h"
#include "float_samples.h"

static bool check_one(FloatPsnrRowNoiseFn ref, FloatPsnrRowNoiseFn new, const char *isa,
                      unsigned bpc, unsigned w, enum Content c, unsigned s)
{
    CheckasmBuf ba, bb;
    float *a = checkasm_row_alloc(&ba, w, sizeof(float), 0);
    float *b = checkasm_row_alloc(&bb, w, sizeof(float), 0);
    for (unsigned x = 0; x < w; x++) {
        a[x] = value(c, bpc, 0, x);
        b[x] = c == EQUAL ? a[x] : value(c, bpc, 1, x);
    }
    const double acc = start(s), sr = ref(a, b, (int)w, acc), sn = new(a, b, (int)w, acc);
    char where[96];
    snprintf(where, sizeof(where), "%u-bit, width %u, %s, from %.17g", bpc, w, content_name[c],
             acc);
    const bool ok = checkasm_compare("row_noise", isa, "sum (bits)", CHECKASM_U64, &sr, &sn, 1, 0,
                                     where);
    free(ba.mem);
    free(bb.mem);
    return ok;
}

/* ---- bench: median ns per 1920-column row of 8-bit samples ---- */

static double bench_one(FloatPsnrRowNoiseFn f)
{
    enum { W = 1920, H = 16 };
    CheckasmBuf ba, bb;
    bench_rows(&ba, &bb, W * H);
    const float *a = (const float *)ba.p, *b = (const float *)bb.p;
    double t[CHECKASM_BENCH_RUNS];
    volatile double sink = 0;
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        double acc = 0;
        for (unsigned y = 0; y < H; y++) acc = f(a + y * W, b + y * W, W, acc);
        t[run] = (checkasm_now_ns() - t0) / H;
        sink = acc;
    }
    (void)sink;
    free(ba.mem);
    free(bb.mem);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

#define N_WIDTHS CHECKASM_N_WIDTHS(0)

void checkasm_check_float_psnr(const CheckasmLevel *level)
{
    const char *isa = level->isa;
    FloatPsnrDSPContext c, below, n;
    vqx_float_psnr_dsp_init(&c, 0);
    vqx_float_psnr_dsp_init(&below, level->below);
    vqx_float_psnr_dsp_init(&n, level->flags);
    if (n.row_noise == below.row_noise) return;
    bool ok = true;
    for (unsigned bi = 0; bi < CHECKASM_N_BPC && ok; bi++)
        for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
            for (int ct = 0; ct < N_CONTENT && ok; ct++)
                for (unsigned s = 0; s < N_STARTS && ok; s++)
                    ok = check_one(c.row_noise, n.row_noise, isa, checkasm_bpc[bi],
                                   checkasm_width(wi, 0), (enum Content)ct, s);
    checkasm_checked("float_psnr row_noise", isa, ok);
    if (ok && checkasm_benching())
        checkasm_report_bench("float_psnr row_noise", isa, "1920 columns", bench_one(c.row_noise),
                              bench_one(n.row_noise));
}
