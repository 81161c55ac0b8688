/*
 * checkasm module of the resampler's DSP table (src/feature/resample.h):
 * an output row of every method, from the axis tables vqx_resampler_init
 * builds, for output widths 1..70 and some large ones, each from sources
 * of 0.4 to 2.6 times its width, at least 6 (shrinking, enlarging,
 * float_motion's halving, odd sizes), and the source rows of three output rows (a border,
 * the middle, the last); source rows offset by a random number of floats
 * from a 64-byte boundary, content of float_samples.h (every depth).
 * Floats are compared bit for bit, margins included.
 */
#include <stdio.h>
#include <stdlib.h>

#include "checkasm.h"
#include "feature/resample.h"
#include "float_samples.h"

#define MARGIN 8

static const char *const method_name[4] = { "nearest", "bilinear", "bicubic", "lanczos4" };
/* source width = output width * ratio, rounded, at least 1 */
static const double ratios[] = { 0.4, 0.6, 1.0 / 0.6, 2.0, 2.6 };
#define N_RATIOS (sizeof(ratios) / sizeof(ratios[0]))

static bool check_one(ResampleRowFn ref, ResampleRowFn new, const char *isa, unsigned m,
                      unsigned bpc, unsigned dst_w, double ratio, enum Content c)
{
    /* lanczos4's mirrored window stays within 6 samples and more (the
     * features' planes are larger) */
    unsigned src_w = (unsigned)(dst_w * ratio + 0.5);
    if (src_w < 6) src_w = 6;
    const unsigned src_h = 11;
    unsigned dst_h = (unsigned)(src_h / ratio + 0.5);
    if (!dst_h) dst_h = 1;
    VqxResampler r;
    if (vqx_resampler_init(&r, (enum VqxResampleMethod)m, src_w, src_h, dst_w, dst_h, 0)) {
        checkasm_fail(method_name[m], isa, "out of memory");
        return false;
    }
    CheckasmBuf bs[11], ba, bb;
    const float *src[11];
    for (unsigned y = 0; y < src_h; y++) {
        float *row = checkasm_row_alloc(&bs[y], src_w, sizeof(float), 0);
        for (unsigned x = 0; x < src_w; x++) row[x] = value(c, bpc, y & 1, x + y);
        src[y] = row;
    }
    float *a = checkasm_row_alloc(&ba, dst_w, sizeof(float), MARGIN);
    float *b = checkasm_row_alloc(&bb, dst_w, sizeof(float), MARGIN);
    bool ok = true;
    const unsigned ys[3] = { 0, dst_h / 2, dst_h - 1 };
    for (unsigned i = 0; i < 3 && ok; i++) {
        const float *rows[VQX_RESAMPLE_MAX_TAPS];
        for (unsigned t = 0; t < r.taps; t++) rows[t] = src[r.rows.index[ys[i] * r.taps + t]];
        const float *wy = r.rows.weight + ys[i] * r.taps;
        ref(rows, wy, &r.cols, dst_w, a);
        new(rows, wy, &r.cols, dst_w, b);
        char where[128];
        snprintf(where, sizeof(where), "%s, %u-bit, %u -> %u columns, output row %u of %u, %s",
                 method_name[m], bpc, src_w, dst_w, ys[i], dst_h, content_name[c]);
        ok = checkasm_compare(method_name[m], isa, "floats (bits)", CHECKASM_U32, a, b, dst_w,
                              MARGIN, where);
    }
    for (unsigned y = 0; y < src_h; y++) free(bs[y].mem);
    free(ba.mem);
    free(bb.mem);
    vqx_resampler_free(&r);
    return ok;
}

/* ---- bench: median ns per 1920-column output row from 3200 columns ---- */

static double bench_one(ResampleRowFn f, unsigned m)
{
    enum { SW = 3200, W = 1920, H = 16 };
    VqxResampler r;
    if (vqx_resampler_init(&r, (enum VqxResampleMethod)m, SW, 2 * H, W, H, 0)) return 0;
    CheckasmBuf bs = checkasm_buf_alloc(sizeof(float) * SW * 2 * H, 0), bo;
    float *src = (float *)bs.p, *out = checkasm_row_alloc(&bo, W, sizeof(float), 0);
    for (unsigned i = 0; i < SW * 2 * H; i++) src[i] = value(OFFSET, 8, 0, i);
    double t[CHECKASM_BENCH_RUNS];
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        for (unsigned y = 0; y < H; y++) {
            const float *rows[VQX_RESAMPLE_MAX_TAPS];
            for (unsigned k = 0; k < r.taps; k++) rows[k] = src + r.rows.index[y * r.taps + k] * SW;
            f(rows, r.rows.weight + y * r.taps, &r.cols, W, out);
        }
        t[run] = (checkasm_now_ns() - t0) / H;
    }
    free(bs.mem);
    free(bo.mem);
    vqx_resampler_free(&r);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

#define N_WIDTHS CHECKASM_N_WIDTHS(1)

void checkasm_check_resample(const CheckasmLevel *level)
{
    const char *isa = level->isa;
    ResampleDSPContext c, below, n;
    vqx_resample_dsp_init(&c, 0);
    vqx_resample_dsp_init(&below, level->below);
    vqx_resample_dsp_init(&n, level->flags);
    static const char *const names[4] = { "resample row nearest", "resample row bilinear",
                                          "resample row bicubic", "resample row lanczos4" };
    for (unsigned m = 0; m < 4; m++) {
        if (n.row[m] == below.row[m]) continue;
        bool ok = true;
        for (unsigned bi = 0; bi < CHECKASM_N_BPC && ok; bi++)
            for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
                for (unsigned ri = 0; ri < N_RATIOS && ok; ri++)
                    for (int ct = 0; ct < N_CONTENT && ok; ct++)
                        ok = check_one(c.row[m], n.row[m], isa, m, checkasm_bpc[bi],
                                       checkasm_width(wi, 1), ratios[ri], (enum Content)ct);
        checkasm_checked(names[m], isa, ok);
        if (ok && checkasm_benching())
            checkasm_report_bench(names[m], isa, "3200 -> 1920", bench_one(c.row[m], m),
                                  bench_one(n.row[m], m));
    }
}
