/*
 * checkasm module of SpEED's DSP table (src/feature/speed_dsp.h):
 *   decimate_columns  the decimation's vertical pass with 3, 9 (kernel scale
 *                     1), 17 and 37 taps on the columns such a filter reads
 *                     at every 16th column, widths 16..70 (at least the
 *                     filter's length) and some large ones; the entries
 *                     outside the columns are compared too, but for the gaps
 *                     between them, which the entry may write
 *   covariance_sums   the 325 pair sums over 1..70 and some large widths of
 *                     positions by 1 to 3 rows
 *   matrix_product    25 x 25 by 25 x cols, cols 1..70 and some large ones
 *   difference        1 to 3 rows of widths 1..70 and some large ones
 * Rows a random number of floats apart and offset from a 64-byte boundary,
 * content of float_samples.h (every depth), means of the same range.
 * Doubles and floats are compared bit for bit, margins and the gaps
 * between the difference's rows included.
 */
#include <stdio.h>
#include <stdlib.h>

#include "checkasm.h"
#include "feature/speed_dsp.h"
#include "float_samples.h"

/* The columns a mirrored filter of n_taps reads at 0, 16, 32... of w, as
 * speed.c's plan finds them; returns their count. */
static unsigned needed_spans(unsigned w, int n_taps, SpeedSpan *spans)
{
    unsigned char needed[2048] = { 0 };
    for (unsigned j = 0; j < w / 16; j++)
        for (int t = 0; t < n_taps; t++) {
            int i = (int)(j * 16) - n_taps / 2 + t;
            i = i < 0 ? -i : i >= (int)w ? 2 * (int)w - i - 2 : i;
            needed[i] = 1;
        }
    unsigned n = 0;
    for (unsigned x = 0; x < w; x++) {
        if (!needed[x]) continue;
        if (x == 0 || !needed[x - 1]) spans[n++] = (SpeedSpan){ x, 0 };
        spans[n - 1].count++;
    }
    return n;
}

static bool check_columns_one(SpeedDecimateColumnsFn ref, SpeedDecimateColumnsFn new,
                              const char *isa, unsigned bpc, unsigned w, int n_taps,
                              enum Content c)
{
    enum { MARGIN = 8 };
    SpeedSpan spans[2048];
    const unsigned n_spans = needed_spans(w, n_taps, spans);
    CheckasmBuf in[37], ba, bb;
    const float *rows[37];
    float taps[37];
    for (int t = 0; t < n_taps; t++) {
        float *r = checkasm_row_alloc(&in[t], w, sizeof(float), 0);
        for (unsigned x = 0; x < w; x++) r[x] = value(c, bpc, t & 1, x + (unsigned)t);
        rows[t] = r;
        taps[t] = (float)(checkasm_rand() >> 8) * 0x1p-26f;
    }
    float *a = checkasm_row_alloc(&ba, w, sizeof(float), MARGIN);
    float *b = checkasm_row_alloc(&bb, w, sizeof(float), MARGIN);
    ref(rows, taps, n_taps, spans, n_spans, a);
    new(rows, taps, n_taps, spans, n_spans, b);
    for (unsigned s = 0; s + 1 < n_spans; s++)
        for (unsigned x = spans[s].first + spans[s].count; x < spans[s + 1].first; x++)
            a[x] = b[x] = 0;
    char where[96];
    snprintf(where, sizeof(where), "%u-bit, width %u, %d taps, %u spans, %s", bpc, w, n_taps,
             n_spans, content_name[c]);
    const bool ok = checkasm_compare("decimate_columns", isa, "row (bits)", CHECKASM_U32, a, b, w,
                                     MARGIN, where);
    for (int t = 0; t < n_taps; t++) free(in[t].mem);
    free(ba.mem);
    free(bb.mem);
    return ok;
}

static bool check_sums_one(SpeedCovarianceSumsFn ref, SpeedCovarianceSumsFn new, const char *isa,
                           unsigned bpc, unsigned cov_w, unsigned cov_h, enum Content c)
{
    /* the windows reach 4 columns and rows past the positions */
    const unsigned w = cov_w + 4, h = cov_h + 4;
    const ptrdiff_t stride = (ptrdiff_t)w + (ptrdiff_t)(checkasm_rand() % 24);
    CheckasmBuf bd = checkasm_buf_alloc(sizeof(float) * (size_t)stride * h,
                                        (checkasm_rand() % 16) * 4);
    float *dec = (float *)bd.p;
    for (size_t i = 0; i < (size_t)stride * h; i++) dec[i] = value(c, bpc, 0, (unsigned)i);
    float mean[SPEED_DSP_DIM];
    for (int o = 0; o < SPEED_DSP_DIM; o++) mean[o] = value(c, bpc, 1, (unsigned)o) * 0.5f;
    double a[SPEED_PAIRS], b[SPEED_PAIRS];
    ref(dec, stride, cov_w, cov_h, mean, a);
    new(dec, stride, cov_w, cov_h, mean, b);
    char where[96];
    snprintf(where, sizeof(where), "%u-bit, %u x %u positions, stride %td, %s", bpc, cov_w, cov_h,
             stride, content_name[c]);
    const bool ok = checkasm_compare("covariance_sums", isa, "sums (bits)", CHECKASM_U64, a, b,
                                     SPEED_PAIRS, 0, where);
    free(bd.mem);
    return ok;
}

static bool check_product_one(SpeedMatrixProductFn ref, SpeedMatrixProductFn new,
                              const char *isa, unsigned bpc, unsigned cols, enum Content c)
{
    enum { MARGIN = 8 };
    const size_t nb = (size_t)SPEED_DSP_DIM * cols;
    CheckasmBuf ba, bb, ra, rb;
    float *a = checkasm_row_alloc(&ba, SPEED_DSP_DIM * SPEED_DSP_DIM, sizeof(float), 0);
    float *b = checkasm_row_alloc(&bb, nb, sizeof(float), 0);
    /* a: a reflector's or Q's range ([-1, 1]) in the first rows, samples in the others */
    for (int i = 0; i < SPEED_DSP_DIM * SPEED_DSP_DIM; i++)
        a[i] = i < 10 * SPEED_DSP_DIM ? (float)(int32_t)checkasm_rand() * 0x1p-31f
                                      : value(c, bpc, 0, (unsigned)i);
    for (size_t i = 0; i < nb; i++) b[i] = value(c, bpc, 1, (unsigned)i);
    float *oa = checkasm_row_alloc(&ra, nb, sizeof(float), MARGIN);
    float *ob = checkasm_row_alloc(&rb, nb, sizeof(float), MARGIN);
    ref(a, b, cols, oa);
    new(a, b, cols, ob);
    char where[96];
    snprintf(where, sizeof(where), "%u-bit, 25 x %u, %s", bpc, cols, content_name[c]);
    const bool ok = checkasm_compare("matrix_product", isa, "floats (bits)", CHECKASM_U32, oa, ob,
                                     (long)nb, MARGIN, where);
    free(ba.mem);
    free(bb.mem);
    free(ra.mem);
    free(rb.mem);
    return ok;
}

static bool check_difference_one(SpeedDifferenceFn ref, SpeedDifferenceFn new, const char *isa,
                                 unsigned bpc, unsigned w, unsigned h, enum Content c)
{
    const ptrdiff_t stride = (ptrdiff_t)w + (ptrdiff_t)(checkasm_rand() % 24);
    const size_t n = (size_t)stride * h;
    CheckasmBuf pa = checkasm_buf_alloc(sizeof(float) * n, (checkasm_rand() % 16) * 4);
    CheckasmBuf pb = checkasm_buf_alloc(sizeof(float) * n, (checkasm_rand() % 16) * 4);
    CheckasmBuf ra, rb;
    float *a = (float *)pa.p, *b = (float *)pb.p;
    for (size_t i = 0; i < n; i++) {
        a[i] = value(c, bpc, 0, (unsigned)i);
        b[i] = c == EQUAL ? a[i] : value(c, bpc, 1, (unsigned)i);
    }
    float *oa = checkasm_row_alloc(&ra, n, sizeof(float), 8);
    float *ob = checkasm_row_alloc(&rb, n, sizeof(float), 8);
    ref(oa, a, b, stride, w, h);
    new(ob, a, b, stride, w, h);
    char where[96];
    snprintf(where, sizeof(where), "%u-bit, %u rows of %u, stride %td, %s", bpc, h, w, stride,
             content_name[c]);
    const bool ok = checkasm_compare("difference", isa, "floats (bits)", CHECKASM_U32, oa, ob,
                                     (long)n, 8, where);
    free(pa.mem);
    free(pb.mem);
    free(ra.mem);
    free(rb.mem);
    return ok;
}

/* ---- bench: a decimated row of a 1080p luma plane (9 taps), a 1080p luma
 * plane's covariance sums (116 x 61 positions) and
 * a 25 x 25 product (the QR's), median ns per call; the difference, median
 * ns per 1920-column row ---- */

static double bench_one(const SpeedDSPContext *d, int entry)
{
    enum { W = 1920, H = 66, CW = 116, CH = 61 };
    CheckasmBuf ba, bb;
    bench_rows(&ba, &bb, W * H);
    const float *a = (const float *)ba.p, *b = (const float *)bb.p;
    CheckasmBuf bo = checkasm_buf_alloc(sizeof(float) * W * H, 0);
    float mean[SPEED_DSP_DIM];
    for (int o = 0; o < SPEED_DSP_DIM; o++) mean[o] = a[o];
    double sums[SPEED_PAIRS];
    double t[CHECKASM_BENCH_RUNS];
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        if (entry == 3) {
            const float *rows[9];
            float taps[9];
            for (int k = 0; k < 9; k++) {
                rows[k] = a + k * W;
                taps[k] = 0.1f;
            }
            SpeedSpan spans[W / 16];
            const unsigned n = needed_spans(W, 9, spans);
            const double t1 = checkasm_now_ns();
            d->decimate_columns(rows, taps, 9, spans, n, (float *)bo.p);
            t[run] = checkasm_now_ns() - t1;
        } else if (entry == 2) {
            d->difference((float *)bo.p, a, b, W, W, H);
            t[run] = (checkasm_now_ns() - t0) / H;
        } else if (entry == 1) {
            d->matrix_product(a, b, SPEED_DSP_DIM, (float *)bo.p);
            t[run] = checkasm_now_ns() - t0;
        } else {
            d->covariance_sums(a, CW + 4, CW, CH, mean, sums);
            t[run] = checkasm_now_ns() - t0;
        }
    }
    free(ba.mem);
    free(bb.mem);
    free(bo.mem);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

#define N_WIDTHS CHECKASM_N_WIDTHS(1)

void checkasm_check_speed(const CheckasmLevel *level)
{
    const char *isa = level->isa;
    SpeedDSPContext c, below, n;
    vqx_speed_dsp_init(&c, 0);
    vqx_speed_dsp_init(&below, level->below);
    vqx_speed_dsp_init(&n, level->flags);
    static const char *const names[4] = { "speed covariance_sums", "speed matrix_product",
                                          "speed difference", "speed decimate_columns" };
    static const char *const bench_what[4] = { "116 x 61 positions", "25 x 25", "1920 columns",
                                               "1920 columns" };
    const bool changed[4] = { n.covariance_sums != below.covariance_sums,
                              n.matrix_product != below.matrix_product,
                              n.difference != below.difference,
                              n.decimate_columns != below.decimate_columns };
    static const int column_taps[4] = { 3, 9, 17, 37 };
    for (int e = 0; e < 4; e++) {
        if (!changed[e]) continue;
        bool ok = true;
        for (unsigned bi = 0; bi < CHECKASM_N_BPC && ok; bi++)
            for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
                for (unsigned h = 1; h <= 3 && ok; h++)
                    for (int ct = 0; ct < N_CONTENT && ok; ct++) {
                        const unsigned bpc = checkasm_bpc[bi], w = checkasm_width(wi, 1);
                        if (e == 0)
                            ok = check_sums_one(c.covariance_sums, n.covariance_sums, isa, bpc,
                                                w, h, (enum Content)ct);
                        else if (e == 3)
                            for (int k = 0; k < 4 && ok && h == 1; k++)
                                /* the mirror reflects once: planes outsize filters */
                                ok = w >= 16 && w >= (unsigned)column_taps[k] && w < 2048
                                         ? check_columns_one(c.decimate_columns,
                                                             n.decimate_columns, isa, bpc, w,
                                                             column_taps[k], (enum Content)ct)
                                         : true;
                        else if (e == 1)
                            ok = h > 1 || check_product_one(c.matrix_product, n.matrix_product,
                                                            isa, bpc, w, (enum Content)ct);
                        else
                            ok = check_difference_one(c.difference, n.difference, isa, bpc, w,
                                                      h, (enum Content)ct);
                    }
        checkasm_checked(names[e], isa, ok);
        if (ok && checkasm_benching())
            checkasm_report_bench(names[e], isa, bench_what[e], bench_one(&c, e),
                                  bench_one(&n, e));
    }
}
