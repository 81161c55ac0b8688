/*
 * checkasm module of PSNR's DSP table (src/feature/psnr_dsp.h): a row's sum
 * of squared differences at 8 to 16 bits, widths 1..70, some large ones and
 * 65536 (the widest row, where 8-bit sums leave 32 bits), rows offset by
 * 1..63 bytes (even for 16-bit samples); content random, 0 against the
 * peak, alternating, random extremes and equal rows.
 */
#include <stdio.h>
#include <stdlib.h>

#include "checkasm.h"
#include "feature/psnr_dsp.h"

enum Content { RANDOM, ZERO_PEAK, ALTERNATE, EXTREMES, EQUAL, N_CONTENT };
static const char *const content_name[N_CONTENT] = { "random", "0 - peak", "alternating",
                                                     "random extremes", "equal" };

static unsigned value(enum Content c, unsigned peak, unsigned which, unsigned x)
{
    switch (c) {
    case ZERO_PEAK: return which ? peak : 0;
    case ALTERNATE: return (x + which) & 1 ? peak : 0;
    case EXTREMES: return checkasm_rand() & 1 ? peak : 0;
    case EQUAL: return (x * 2654435761u >> 7) & peak;
    default: return checkasm_rand() & peak;
    }
}

static void *row_make(CheckasmBuf *b, unsigned w, unsigned bpc, enum Content c, unsigned which)
{
    const unsigned bytes = bpc == 8 ? 1 : 2, peak = (1u << bpc) - 1;
    *b = checkasm_buf_alloc((size_t)w * bytes, (1 + checkasm_rand() % 63) & ~(bytes - 1));
    for (unsigned x = 0; x < w; x++) {
        const unsigned v = value(c, peak, which, x);
        if (bytes == 1) b->p[x] = (uint8_t)v;
        else ((uint16_t *)b->p)[x] = (uint16_t)v;
    }
    return b->p;
}

static bool check_one(PsnrRowSseFn ref, PsnrRowSseFn new, const char *func, const char *isa,
                      unsigned bpc, unsigned w, enum Content c)
{
    CheckasmBuf ba, bb;
    const void *a = row_make(&ba, w, bpc, c, 0);
    const void *b = c == EQUAL ? a : row_make(&bb, w, bpc, c, 1);
    const uint64_t sr = ref(a, b, w), sn = new(a, b, w);
    if (sr != sn)
        checkasm_fail(func, isa, "width %u, %s: c %llu, simd %llu", w, content_name[c],
                      (unsigned long long)sr, (unsigned long long)sn);
    free(ba.mem);
    if (c != EQUAL) free(bb.mem);
    return sr == sn;
}

static double bench_one(PsnrRowSseFn f, unsigned bpc)
{
    CheckasmBuf ba, bb;
    const void *a = row_make(&ba, 1920, bpc, RANDOM, 0), *b = row_make(&bb, 1920, bpc, RANDOM, 1);
    double t[CHECKASM_BENCH_RUNS];
    volatile uint64_t sink = 0;
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        for (unsigned y = 0; y < 32; y++) sink += f(a, b, 1920);
        t[run] = (checkasm_now_ns() - t0) / 32;
    }
    (void)sink;
    free(ba.mem);
    free(bb.mem);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

#define N_WIDTHS CHECKASM_N_WIDTHS(1)

void checkasm_check_psnr(const CheckasmLevel *level)
{
    for (unsigned bi = 0; bi < CHECKASM_N_BPC; bi++) {
        const unsigned bpc = checkasm_bpc[bi];
        PsnrDSPContext c, below, n;
        vqx_psnr_dsp_init(&c, bpc, 0);
        vqx_psnr_dsp_init(&below, bpc, level->below);
        vqx_psnr_dsp_init(&n, bpc, level->flags);
        if (n.row_sse == below.row_sse) continue;
        char func[48];
        snprintf(func, sizeof(func), "psnr row_sse %u-bit", bpc);
        bool ok = true;
        for (unsigned wi = 0; wi <= N_WIDTHS && ok; wi++)
            for (int ct = 0; ct < N_CONTENT && ok; ct++)
                ok = check_one(c.row_sse, n.row_sse, func, level->isa, bpc,
                               wi < N_WIDTHS ? checkasm_width(wi, 1) : 65536, (enum Content)ct);
        checkasm_checked(func, level->isa, ok);
        if (ok && checkasm_benching()) {
            char what[32];
            snprintf(what, sizeof(what), "%u-bit, 1920 columns", bpc);
            checkasm_report_bench("psnr row_sse", level->isa, what, bench_one(c.row_sse, bpc),
                                  bench_one(n.row_sse, bpc));
        }
    }
}
