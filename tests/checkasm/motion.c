/*
 * checkasm module of integer motion's DSP table (src/feature/motion_dsp.h):
 * the column pass at 8 to 16 bits, widths 3..70 and some large ones, every
 * row of planes 3 to 10 rows high, random strides and buffers offset by
 * 1..63 bytes (even for 16-bit samples); content random, 0 against the
 * peak and the peak against 0, alternating, random extremes and (16-bit
 * storage) any 16-bit value. The row pass on values of the column pass's
 * range (|v| <= 2^16), its extremes and wider ones. Outputs are compared
 * with their margins, which both sides start equal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "feature/motion.h"

enum Content { RANDOM, ZERO_PEAK, PEAK_ZERO, ALTERNATE, EXTREMES, WIDE, N_CONTENT };
static const char *const content_name[N_CONTENT] = { "random", "0 - peak", "peak - 0",
                                                     "alternating", "extremes", "any 16-bit" };

/* Sample (x, y) of the previous (which 0) or current picture. */
static unsigned value(enum Content c, unsigned peak, unsigned which, unsigned x, unsigned y)
{
    switch (c) {
    case ZERO_PEAK: return which ? peak : 0;
    case PEAK_ZERO: return which ? 0 : peak;
    case ALTERNATE: return (x + y + which) & 1 ? peak : 0;
    case EXTREMES: return checkasm_rand() & 1 ? peak : 0;
    case WIDE: return checkasm_rand() & (peak > 255 ? 0xffff : peak);
    default: return checkasm_rand() & peak;
    }
}

#define N_WIDTHS CHECKASM_N_WIDTHS(3)

/* Canary words on either side of a row of mid. */
#define MARGIN (VQX_MOTION_RADIUS + 14)

typedef struct Planes {
    CheckasmBuf b[2];
    ptrdiff_t stride;
} Planes;

static Planes planes_make(unsigned w, unsigned h, unsigned bpc, enum Content c)
{
    Planes s;
    const unsigned bytes = bpc == 8 ? 1 : 2, peak = (1u << bpc) - 1;
    s.stride = (ptrdiff_t)(w + checkasm_rand() % 40) * bytes;
    for (unsigned i = 0; i < 2; i++) {
        s.b[i] = checkasm_buf_alloc((size_t)s.stride * h,
                                    (1 + checkasm_rand() % 63) & ~(bytes - 1));
        memset(s.b[i].p, 0xa5, (size_t)s.stride * h);
        for (unsigned y = 0; y < h; y++) {
            for (unsigned x = 0; x < w; x++) {
                const unsigned v = value(c, peak, i, x, y);
                if (bytes == 1) s.b[i].p[y * s.stride + x] = (uint8_t)v;
                else ((uint16_t *)(s.b[i].p + y * s.stride))[x] = (uint16_t)v;
            }
        }
    }
    return s;
}

static int32_t *row_alloc(CheckasmBuf *b, unsigned w)
{
    return checkasm_row_alloc(b, w, 4, MARGIN);
}

static bool compare_row(const char *func, const char *isa, const int32_t *ref,
                        const int32_t *new, unsigned w, const char *where)
{
    return checkasm_compare(func, isa, "mid", CHECKASM_I32, ref, new, w, MARGIN, where);
}

static bool check_blur_one(MotionBlurColumnsFn ref, MotionBlurColumnsFn new, const char *func,
                           const char *isa, unsigned bpc, unsigned w, enum Content c)
{
    const unsigned h = 3 + checkasm_rand() % 8;
    Planes pl = planes_make(w, h, bpc, c);
    CheckasmBuf ba, bb;
    int32_t *a = row_alloc(&ba, w), *b = row_alloc(&bb, w);
    bool ok = true;
    for (unsigned y = 0; y < h && ok; y++) {
        const int32_t ra = ref(pl.b[0].p, pl.stride, pl.b[1].p, pl.stride, y, w, h, bpc, a);
        const int32_t rb = new(pl.b[0].p, pl.stride, pl.b[1].p, pl.stride, y, w, h, bpc, b);
        char where[128];
        snprintf(where, sizeof(where), "%u-bit, %ux%u, stride %td, %s, row %u", bpc, w, h,
                 pl.stride, content_name[c], y);
        ok = compare_row(func, isa, a, b, w, where);
        if (ok && ra != rb) {
            checkasm_fail(func, isa, "%s: returns c %d, simd %d", where, ra, rb);
            ok = false;
        }
    }
    free(ba.mem);
    free(bb.mem);
    free(pl.b[0].mem);
    free(pl.b[1].mem);
    return ok;
}

/* The column pass's range: |value| <= 65535. */
enum RowContent { ROW_RANDOM, ROW_ZERO, ROW_MAX, ROW_MIN, ROW_ALTERNATE, ROW_ODD, N_ROW };
static const char *const row_name[N_ROW] = { "random", "zero", "65535", "-65535",
                                             "alternating +-65535", "random odd" };

static int32_t row_value(enum RowContent c, unsigned x)
{
    switch (c) {
    case ROW_ZERO: return 0;
    case ROW_MAX: return 65535;
    case ROW_MIN: return -65535;
    case ROW_ALTERNATE: return x & 1 ? 65535 : -65535;
    case ROW_ODD: return (int32_t)(checkasm_rand() % 65536) * 2 - 65535;
    default: return (int32_t)(checkasm_rand() % 131071) - 65535;
    }
}

static bool check_row_sad_one(MotionRowSadFn ref, MotionRowSadFn new, const char *isa,
                              unsigned w, enum RowContent c)
{
    CheckasmBuf ba, bb;
    int32_t *a = row_alloc(&ba, w), *b = row_alloc(&bb, w);
    for (unsigned x = 0; x < w; x++) a[x] = b[x] = row_value(c, x);
    const uint32_t ra = ref(a, w), rb = new(b, w);
    char where[96];
    snprintf(where, sizeof(where), "width %u, %s", w, row_name[c]);
    bool ok = compare_row("row_sad", isa, a, b, w, where);
    if (ok && ra != rb) {
        checkasm_fail("row_sad", isa, "%s: returns c %u, simd %u", where, ra, rb);
        ok = false;
    }
    free(ba.mem);
    free(bb.mem);
    return ok;
}

/* ---- bench: median ns per 1920-column row ---- */

static double bench_one(const MotionDSPContext *d, unsigned bpc, bool row_pass)
{
    const unsigned w = 1920, h = 32;
    Planes pl = planes_make(w, h, bpc, RANDOM);
    CheckasmBuf bm;
    int32_t *mid = row_alloc(&bm, w);
    double t[CHECKASM_BENCH_RUNS];
    volatile uint32_t sink = 0;
    d->blur_columns(pl.b[0].p, pl.stride, pl.b[1].p, pl.stride, 0, w, h, bpc, mid);
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        for (unsigned y = 0; y < h; y++) {
            if (row_pass) sink += d->row_sad(mid, w);
            else sink += (uint32_t)d->blur_columns(pl.b[0].p, pl.stride, pl.b[1].p, pl.stride,
                                                   y, w, h, bpc, mid);
        }
        t[run] = (checkasm_now_ns() - t0) / h;
    }
    (void)sink;
    free(bm.mem);
    free(pl.b[0].mem);
    free(pl.b[1].mem);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

void checkasm_check_motion(const CheckasmLevel *level)
{
    const char *isa = level->isa;
    for (unsigned bi = 0; bi < CHECKASM_N_BPC; bi++) {
        const unsigned bpc = checkasm_bpc[bi];
        MotionDSPContext c, below, n;
        vqx_motion_dsp_init(&c, bpc, 0);
        vqx_motion_dsp_init(&below, bpc, level->below);
        vqx_motion_dsp_init(&n, bpc, level->flags);
        char func[64];
        if (n.blur_columns != below.blur_columns) {
            snprintf(func, sizeof(func), "blur_columns %u-bit", bpc);
            bool ok = true;
            for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
                for (int ct = 0; ct < N_CONTENT && ok; ct++)
                    ok = check_blur_one(c.blur_columns, n.blur_columns, func, isa, bpc,
                                        checkasm_width(wi, 3), (enum Content)ct);
            checkasm_checked(func, isa, ok);
            if (ok && checkasm_benching()) {
                snprintf(func, sizeof(func), "blur_columns");
                char what[32];
                snprintf(what, sizeof(what), "%u-bit", bpc);
                checkasm_report_bench(func, isa, what, bench_one(&c, bpc, false),
                                      bench_one(&n, bpc, false));
            }
        }
        /* the row pass does not depend on bpc */
        if (bpc == 8 && n.row_sad != below.row_sad) {
            bool ok = true;
            for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
                for (int ct = 0; ct < N_ROW && ok; ct++)
                    ok = check_row_sad_one(c.row_sad, n.row_sad, isa, checkasm_width(wi, 3),
                                           (enum RowContent)ct);
            checkasm_checked("row_sad", isa, ok);
            if (ok && checkasm_benching())
                checkasm_report_bench("row_sad", isa, "1920 columns", bench_one(&c, 8, true),
                                      bench_one(&n, 8, true));
        }
    }
}
