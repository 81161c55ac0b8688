/*
 * checkasm module of CAMBI's DSP table (src/feature/cambi_dsp.h): every
 * entry against its C on the same input, compared exactly (floats and
 * doubles by their bits), with canaries around every output. The load at
 * 8 to 16 bits with identity, downscaling and upscaling column maps and
 * random strides and offsets; the 10-bit stages on random samples, 0, the
 * peak (1023 and 1024, the largest the load makes), alternating, random
 * extremes, runs of a few levels (flat areas, as the mask keeps them) and
 * noisy runs; widths 1..70 and some large ones; the histograms with
 * several windows, bands and masks; the pooling on zeros, sparse,
 * contrast-like, dense, huge and tiny values.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "feature/cambi.h"
#include "feature/top_mean.h"

#define MARGIN 40 /* canary elements either side of an output */

enum Content { RANDOM, ZERO, PEAK, ALTERNATE, EXTREMES, RUNS, NOISY_RUNS, N_CONTENT };
static const char *const content_name[N_CONTENT] = { "random", "0", "peak", "alternating",
                                                     "extremes", "runs", "noisy runs" };

/* A row of w samples of at most `peak`, for the runs around `level`. */
static void fill(uint16_t *row, unsigned w, enum Content c, unsigned peak, unsigned level)
{
    unsigned v = level, left = 0;
    for (unsigned x = 0; x < w; x++) {
        switch (c) {
        case ZERO: row[x] = 0; break;
        case PEAK: row[x] = (uint16_t)peak; break;
        case ALTERNATE: row[x] = (uint16_t)(x & 1 ? peak : 0); break;
        case EXTREMES: row[x] = (uint16_t)(checkasm_rand() & 1 ? peak : 0); break;
        case RUNS:
        case NOISY_RUNS:
            if (!left) {
                left = 1 + checkasm_rand() % 80;
                v = level + checkasm_rand() % 6;
            }
            left--;
            row[x] = (uint16_t)(c == NOISY_RUNS && checkasm_rand() % 7 == 0 ? v + 1 : v);
            if (row[x] > peak) row[x] = (uint16_t)peak;
            break;
        default: row[x] = (uint16_t)(checkasm_rand() % (peak + 1)); break;
        }
    }
}

static bool compare_bytes(const char *func, const char *isa, const char *array,
                          const uint8_t *ref, const uint8_t *new, long w, long margin,
                          const char *where)
{
    for (long i = -margin; i < w + margin; i++) {
        if (ref[i] == new[i]) continue;
        checkasm_fail(func, isa, "%s, %s[%ld]: c %u, simd %u%s", where, array, i, ref[i], new[i],
                      i < 0 || i >= w ? " (outside the row)" : "");
        return false;
    }
    return true;
}

/* Two copies of a buffer of n elements of `size` bytes with canaries. */
typedef struct Pair {
    CheckasmBuf b[2];
    void *p[2];
} Pair;

static Pair pair_alloc(size_t n, unsigned size)
{
    Pair s;
    for (int i = 0; i < 2; i++) s.p[i] = checkasm_row_alloc(&s.b[i], n, size, MARGIN);
    return s;
}

static void pair_free(Pair *s)
{
    free(s->b[0].mem);
    free(s->b[1].mem);
}

static unsigned random_width(unsigned i)
{
    return checkasm_width(i, 1);
}

#define N_WIDTHS CHECKASM_N_WIDTHS(1)

/* ---- load ---- */

static bool check_load_one(CambiLoadFn ref, CambiLoadFn new, const char *isa, unsigned bpc,
                           unsigned w, unsigned in_w, enum Content c)
{
    const unsigned h = 1 + checkasm_rand() % 4, in_h = h + checkasm_rand() % 3;
    const unsigned bytes = bpc == 8 ? 1 : 2, peak = (1u << bpc) - 1;
    const ptrdiff_t stride = (ptrdiff_t)(in_w + checkasm_rand() % 40) * bytes;
    CheckasmBuf pb = checkasm_buf_alloc((size_t)stride * in_h, (1 + checkasm_rand() % 63) & ~(bytes - 1));
    uint16_t *row = checkasm_malloc(in_w * sizeof(*row));
    for (unsigned y = 0; y < in_h; y++) {
        fill(row, in_w, c, peak, checkasm_rand() % (peak + 1));
        for (unsigned x = 0; x < in_w; x++) {
            if (bytes == 1) pb.p[y * stride + x] = (uint8_t)row[x];
            else ((uint16_t *)(void *)(pb.p + y * stride))[x] = row[x];
        }
    }
    unsigned *rows = checkasm_malloc(h * sizeof(*rows)), *cols = checkasm_malloc(w * sizeof(*cols));
    vqx_cambi_nearest_map(rows, in_h, h);
    vqx_cambi_nearest_map(cols, in_w, w);
    Pair o = pair_alloc((size_t)w * h, 2);
    ref(pb.p, stride, bpc, rows, cols, w, h, o.p[0]);
    new(pb.p, stride, bpc, rows, cols, w, h, o.p[1]);
    char func[32], where[128];
    snprintf(func, sizeof(func), "load %u-bit", bpc);
    snprintf(where, sizeof(where), "%ux%u from %ux%u, stride %td, %s", w, h, in_w, in_h, stride,
             content_name[c]);
    const bool ok = checkasm_compare(func, isa, "out", CHECKASM_U16, o.p[0], o.p[1],
                                     (long)w * h, MARGIN, where);
    pair_free(&o);
    free(rows);
    free(cols);
    free(row);
    free(pb.mem);
    return ok;
}

static bool check_load(CambiLoadFn ref, CambiLoadFn new, const char *isa, unsigned bpc)
{
    bool ok = true;
    for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++) {
        const unsigned w = random_width(wi);
        const unsigned in_ws[3] = { w, w + w / 2 + 1, (w + 1) / 2 }; /* same, down, up */
        for (int m = 0; m < 3 && ok; m++)
            for (int c = 0; c < N_CONTENT && ok; c++)
                if (c != RUNS && c != NOISY_RUNS)
                    ok = check_load_one(ref, new, isa, bpc, w, in_ws[m], (enum Content)c);
    }
    return ok;
}

/* ---- 10-bit stages ---- */

static const unsigned peaks[2] = { 1023, 1024 };

static bool check_smooth(CambiSmoothFn ref, CambiSmoothFn new, const char *isa)
{
    bool ok = true;
    for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++) {
        for (int c = 0; c < N_CONTENT && ok; c++) {
            const unsigned w = random_width(wi), h = 1 + checkasm_rand() % 4;
            const unsigned peak = peaks[checkasm_rand() & 1];
            Pair o = pair_alloc((size_t)w * h, 2);
            for (unsigned y = 0; y < h; y++) fill((uint16_t *)o.p[0] + y * w, w, (enum Content)c, peak, 500);
            memcpy(o.p[1], o.p[0], (size_t)w * h * 2);
            ref(o.p[0], w, h);
            new(o.p[1], w, h);
            char where[96];
            snprintf(where, sizeof(where), "%ux%u, %s, peak %u", w, h, content_name[c], peak);
            ok = checkasm_compare("smooth", isa, "img", CHECKASM_U16, o.p[0], o.p[1],
                                  (long)w * h, MARGIN, where);
            pair_free(&o);
        }
    }
    return ok;
}

static bool check_flat_row(CambiFlatRowFn ref, CambiFlatRowFn new, const char *isa)
{
    bool ok = true;
    for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++) {
        for (int c = 0; c < N_CONTENT && ok; c++) {
            for (int below = 0; below < 2 && ok; below++) {
                const unsigned w = random_width(wi);
                uint16_t *img = checkasm_malloc(2 * w * sizeof(*img));
                fill(img, 2 * w, (enum Content)c, peaks[0], 200);
                Pair o = pair_alloc(w, 1);
                ref(img, below ? img + w : NULL, w, o.p[0]);
                new(img, below ? img + w : NULL, w, o.p[1]);
                char where[96];
                snprintf(where, sizeof(where), "width %u, %s, %s", w, content_name[c],
                         below ? "row below" : "last row");
                ok = compare_bytes("flat_row", isa, "out", o.p[0], o.p[1], w, MARGIN, where);
                pair_free(&o);
                free(img);
            }
        }
    }
    return ok;
}

static bool check_mask_row(CambiMaskRowFn ref, CambiMaskRowFn new, const char *isa)
{
    static const unsigned thresholds[] = { 0, 7, 12, 18, 27, 48, 49, 60 };
    bool ok = true;
    for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++) {
        for (unsigned ti = 0; ti < sizeof(thresholds) / sizeof(thresholds[0]) && ok; ti++) {
            for (int rows = 0; rows < 4 && ok; rows++) {
                const unsigned w = random_width(wi);
                uint8_t *enter = checkasm_malloc(w), *leave = checkasm_malloc(w);
                Pair cols = pair_alloc(w, 1), mask = pair_alloc(w, 1);
                /* column sums of 7 flags: at most 7 before and after */
                const unsigned kind = checkasm_rand() % 3;
                for (unsigned x = 0; x < w; x++) {
                    unsigned sum = kind == 0 ? checkasm_rand() % 8 : kind == 1 ? 7 : 0;
                    ((uint8_t *)cols.p[0])[x] = ((uint8_t *)cols.p[1])[x] = (uint8_t)sum;
                    enter[x] = (uint8_t)(checkasm_rand() & 1);
                    leave[x] = (uint8_t)(checkasm_rand() & 1);
                    if (rows & 1 && sum + enter[x] > 7) enter[x] = 0;
                    if (rows & 1) sum += enter[x];
                    if (leave[x] > sum) leave[x] = 0;
                }
                const unsigned t = thresholds[ti];
                ref(cols.p[0], rows & 1 ? enter : NULL, rows & 2 ? leave : NULL, w, t, mask.p[0]);
                new(cols.p[1], rows & 1 ? enter : NULL, rows & 2 ? leave : NULL, w, t, mask.p[1]);
                char where[96];
                snprintf(where, sizeof(where), "width %u, threshold %u, rows %d", w, t, rows);
                ok = compare_bytes("mask_row", isa, "cols", cols.p[0], cols.p[1], w, MARGIN, where) &&
                     compare_bytes("mask_row", isa, "mask", mask.p[0], mask.p[1], w, MARGIN, where);
                pair_free(&cols);
                pair_free(&mask);
                free(enter);
                free(leave);
            }
        }
    }
    return ok;
}

static bool check_halve_row(CambiHalveRowFn ref, CambiHalveRowFn new, const char *isa)
{
    bool ok = true;
    for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++) {
        for (int in_place = 0; in_place < 2 && ok; in_place++) {
            const unsigned hw = random_width(wi), w = 2 * hw - (checkasm_rand() & 1);
            Pair img = pair_alloc(w, 2), mask = pair_alloc(w, 1);
            fill(img.p[0], w, RANDOM, peaks[1], 0);
            memcpy(img.p[1], img.p[0], w * 2);
            for (unsigned x = 0; x < w; x++)
                ((uint8_t *)mask.p[0])[x] = ((uint8_t *)mask.p[1])[x] = (uint8_t)(checkasm_rand() & 1);
            Pair io = pair_alloc(hw, 2), mo = pair_alloc(hw, 1);
            for (int i = 0; i < 2; i++) {
                (i ? new : ref)(img.p[i], mask.p[i], hw, in_place ? img.p[i] : io.p[i],
                                in_place ? mask.p[i] : mo.p[i]);
            }
            char where[96];
            snprintf(where, sizeof(where), "%u from %u, %s", hw, w, in_place ? "in place" : "apart");
            if (in_place)
                ok = checkasm_compare("halve_row", isa, "img", CHECKASM_U16, img.p[0], img.p[1], w,
                                      MARGIN, where) &&
                     compare_bytes("halve_row", isa, "mask", mask.p[0], mask.p[1], w, MARGIN, where);
            else
                ok = checkasm_compare("halve_row", isa, "img", CHECKASM_U16, io.p[0], io.p[1], hw,
                                      MARGIN, where) &&
                     compare_bytes("halve_row", isa, "mask", mo.p[0], mo.p[1], hw, MARGIN, where);
            pair_free(&img);
            pair_free(&mask);
            pair_free(&io);
            pair_free(&mo);
        }
    }
    return ok;
}

/* Rows of 3 levels make ties of every kind. */
static void fill_mode(uint16_t *row, unsigned w, int c)
{
    if (c == N_CONTENT) {
        for (unsigned x = 0; x < w; x++) row[x] = (uint16_t)(1020 + checkasm_rand() % 3);
    } else {
        fill(row, w, (enum Content)c, peaks[1], 300);
    }
}

static bool check_mode(const CambiDSPContext *c, const CambiDSPContext *n, const char *isa,
                       bool row_pass)
{
    const char *func = row_pass ? "mode_row" : "mode_columns";
    bool ok = true;
    for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++) {
        for (int ct = 0; ct <= N_CONTENT && ok; ct++) {
            const unsigned w = random_width(wi);
            uint16_t *in = checkasm_malloc(3 * w * sizeof(*in));
            for (int i = 0; i < 3; i++) fill_mode(in + i * w, w, ct);
            Pair o = pair_alloc(w, 2);
            if (row_pass) {
                c->mode_row(in, w, o.p[0]);
                n->mode_row(in, w, o.p[1]);
            } else {
                c->mode_columns(in, in + w, in + 2 * w, w, o.p[0]);
                n->mode_columns(in, in + w, in + 2 * w, w, o.p[1]);
            }
            char where[96];
            snprintf(where, sizeof(where), "width %u, %s", w,
                     ct == N_CONTENT ? "3 levels" : content_name[ct]);
            ok = checkasm_compare(func, isa, "out", CHECKASM_U16, o.p[0], o.p[1], w, MARGIN, where);
            pair_free(&o);
            free(in);
        }
    }
    return ok;
}

/* ---- histograms and contrast values ---- */

static const unsigned pads[] = { 0, 1, 2, 5, 16, 32 };
#define N_PADS (sizeof(pads) / sizeof(pads[0]))

/* Masks: random, all, none, runs. */
static void fill_mask(uint8_t *m, unsigned w, unsigned kind)
{
    unsigned left = 0, v = 0;
    for (unsigned x = 0; x < w; x++) {
        if (kind == 3 && !left) {
            left = 1 + checkasm_rand() % 100;
            v = checkasm_rand() % 4 != 0;
        }
        if (left) left--;
        m[x] = (uint8_t)(kind == 0 ? checkasm_rand() & 1 : kind == 1 ? 1 : kind == 2 ? 0 : v);
    }
}

static bool check_slide_one(CambiSlideFn ref, CambiSlideFn new, const char *isa, unsigned w,
                            unsigned pad, enum Content c, unsigned rows)
{
    const unsigned band_lo = checkasm_rand() % 3 ? checkasm_rand() % 200 : 0;
    const unsigned band_size = checkasm_rand() % 8 ? 1 + checkasm_rand() % 24 : 1 + checkasm_rand() % 300;
    const size_t stride = w + 2 * pad, n = band_size * stride;
    Pair hist = pair_alloc(n, 2);
    for (size_t i = 0; i < n; i++)
        ((uint16_t *)hist.p[0])[i] = ((uint16_t *)hist.p[1])[i] = (uint16_t)checkasm_rand();
    uint16_t *img = checkasm_malloc(2 * w * sizeof(*img));
    uint8_t *mask = checkasm_malloc(2 * w);
    const unsigned level = band_lo + checkasm_rand() % (band_size + 8);
    fill(img, w, c, peaks[1], level);
    if (checkasm_rand() & 1) memcpy(img + w, img, w * sizeof(*img)); /* the same row leaves */
    else fill(img + w, w, c, peaks[1], level);
    fill_mask(mask, w, checkasm_rand() % 4);
    fill_mask(mask + w, w, checkasm_rand() % 4);
    const uint16_t *in_img = rows & 1 ? img : NULL, *out_img = rows & 2 ? img + w : NULL;
    const uint8_t *in_mask = rows & 1 ? mask : NULL, *out_mask = rows & 2 ? mask + w : NULL;
    ref(hist.p[0], stride, in_img, in_mask, out_img, out_mask, w, pad, band_lo, band_size);
    new(hist.p[1], stride, in_img, in_mask, out_img, out_mask, w, pad, band_lo, band_size);
    char where[160];
    snprintf(where, sizeof(where), "width %u, pad %u, band %u+%u, %s, rows %u", w, pad, band_lo,
             band_size, content_name[c], rows);
    const bool ok = checkasm_compare("slide", isa, "hist", CHECKASM_U16, hist.p[0], hist.p[1],
                                     (long)n, MARGIN, where);
    pair_free(&hist);
    free(img);
    free(mask);
    return ok;
}

/* Thresholds as the set-up makes them: rising with the step. */
static void contrast_params(CambiContrastParams *p, uint16_t *tvi, unsigned n)
{
    p->n_steps = n;
    const unsigned vlt_choice = checkasm_rand() % 3;
    p->vlt = vlt_choice == 0 ? 0 : vlt_choice == 1 ? 20 + checkasm_rand() % 100 : 400;
    unsigned t = 30 + checkasm_rand() % 100;
    for (unsigned d = 0; d < n; d++) {
        t += checkasm_rand() % 10;
        tvi[d] = (uint16_t)(t + n);
    }
    const int lo = (int)p->vlt - 3 * (int)n + 1;
    p->band_lo = lo > 0 ? (unsigned)lo : 0;
    p->band_size = tvi[n - 1] >= p->band_lo ? tvi[n - 1] + 1u - p->band_lo : 0;
    p->tvi = tvi;
    p->weights = vqx_cambi_step_weights;
}

static float reciprocal[CAMBI_RECIPROCALS];

static bool check_contrast_one(CambiContrastRowFn ref, CambiContrastRowFn new, const char *isa,
                               unsigned w, unsigned pad, enum Content c, unsigned n_steps)
{
    CambiContrastParams p;
    uint16_t tvi[CAMBI_MAX_STEPS];
    contrast_params(&p, tvi, n_steps);
    p.reciprocal = reciprocal;
    const size_t stride = w + 2 * pad, n = p.band_size * stride;
    /* exactly the histogram, so that a read past it is caught under ASan */
    uint16_t *hist = checkasm_malloc((n ? n : 1) * sizeof(*hist));
    const unsigned kind = checkasm_rand() % 4;
    for (size_t i = 0; i < n; i++) {
        /* p0 + p1 stays within the table */
        const unsigned most = (CAMBI_RECIPROCALS - 1) / 2;
        hist[i] = (uint16_t)(kind == 0 ? checkasm_rand() % (most + 1) : kind == 1 ? most :
                             kind == 2 ? checkasm_rand() % 3 : (checkasm_rand() & 1) * most);
    }
    uint16_t *img = checkasm_malloc(w * sizeof(*img));
    uint8_t *mask = checkasm_malloc(w);
    fill(img, w, c, peaks[1], p.band_lo + checkasm_rand() % (p.band_size + 4));
    fill_mask(mask, w, checkasm_rand() % 4);
    Pair o = pair_alloc(w, 4);
    ref(hist + pad, stride, img, mask, w, &p, o.p[0]);
    new(hist + pad, stride, img, mask, w, &p, o.p[1]);
    char where[160];
    snprintf(where, sizeof(where), "width %u, pad %u, %u steps, band %u+%u, vlt %u, %s", w, pad,
             n_steps, p.band_lo, p.band_size, p.vlt, content_name[c]);
    const bool ok = checkasm_compare("contrast_row", isa, "out (float bits)", CHECKASM_U32,
                                     o.p[0], o.p[1], w, MARGIN, where);
    pair_free(&o);
    free(hist);
    free(img);
    free(mask);
    return ok;
}

/* ---- pooling ---- */

enum Pool { POOL_ZERO, POOL_SPARSE, POOL_CONTRAST, POOL_DENSE, POOL_HUGE, POOL_TINY, N_POOL };
static const char *const pool_name[N_POOL] = { "zeros", "sparse", "contrast-like", "dense",
                                               "huge", "tiny" };

static float pool_value(enum Pool c)
{
    const unsigned r = checkasm_rand();
    switch (c) {
    case POOL_ZERO: return 0.0f;
    case POOL_SPARSE:
        return r % 5 ? 0.0f : vqx_cambi_step_contrast(1 + (int)(r >> 8) % 9, 1 + (r >> 12) % 2000,
                                                      1 + (r >> 20) % 2000, reciprocal);
    case POOL_CONTRAST:
        return r % 3 ? 0.0f : vqx_cambi_step_contrast(1 + (int)(r >> 8) % 9, 1 + (r >> 12) % 2000,
                                                      1 + (r >> 20) % 2000, reciprocal);
    case POOL_DENSE: return (float)(r % 100000) / 7.0f;
    case POOL_HUGE: return r % 2 ? 0.0f : (float)r * 1e20f;
    default: return r % 2 ? 0.0f : (float)(r % 1000) * 1e-42f;
    }
}

static bool check_pool_one(CambiMeanOfTopFn ref, CambiMeanOfTopFn new, const char *isa, int n,
                           enum Pool c, double fraction)
{
    float *a = checkasm_malloc((size_t)n * sizeof(*a)), *b = checkasm_malloc((size_t)n * sizeof(*b));
    for (int i = 0; i < n; i++) a[i] = b[i] = pool_value(c);
    const double x = ref(a, n, fraction), y = new(b, n, fraction);
    bool ok = !memcmp(&x, &y, sizeof(x));
    if (!ok)
        checkasm_fail("mean_of_top", isa, "%d values, %s, top %g: c %.17g, simd %.17g", n,
                      pool_name[c], fraction, x, y);
    free(a);
    free(b);
    return ok;
}

/* ---- bench ---- */

#define BENCH_W 1920
#define BENCH_H 1080

typedef struct BenchData {
    uint8_t *plane8;
    uint16_t *img, *img2, *hist, *rows3;
    uint8_t *mask, *flags;
    float *contrast, *pool;
    unsigned *rows, *cols;
    CambiContrastParams p;
    uint16_t tvi[CAMBI_MAX_STEPS];
} BenchData;

static double bench_median(double *t)
{
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

/* ns per call of entry `what` of table d (rows of 1920, planes of 1080p) */
static double bench_entry(const CambiDSPContext *d, BenchData *b, int what)
{
    double t[CHECKASM_BENCH_RUNS];
    const unsigned pad = 16;
    const size_t stride = BENCH_W + 2 * pad;
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        unsigned calls = 1;
        switch (what) {
        case 0: d->load(b->plane8, BENCH_W, 8, b->rows, b->cols, BENCH_W, BENCH_H, b->img); break;
        case 1: d->smooth(b->img2, BENCH_W, 64); break;
        case 2: calls = 64; for (unsigned y = 0; y < calls; y++) d->flat_row(b->img + y * BENCH_W, b->img + (y + 1) * BENCH_W, BENCH_W, b->flags); break;
        case 3: calls = 64; for (unsigned y = 0; y < calls; y++) d->mask_row(b->flags + BENCH_W, b->flags, b->flags, BENCH_W, 18, b->mask); break;
        case 4: calls = 64; for (unsigned y = 0; y < calls; y++) d->halve_row(b->img + 2 * y * BENCH_W, b->mask, BENCH_W / 2, b->img2, b->flags); break;
        case 5: calls = 64; for (unsigned y = 0; y < calls; y++) d->mode_row(b->img + y * BENCH_W, BENCH_W, b->rows3); break;
        case 6: calls = 64; for (unsigned y = 0; y < calls; y++) d->mode_columns(b->img, b->img + BENCH_W, b->img + 2 * BENCH_W, BENCH_W, b->rows3); break;
        case 7: calls = 64; for (unsigned y = 0; y < calls; y++) d->slide(b->hist, stride, b->img + (y + 33) * BENCH_W, b->mask, b->img + y * BENCH_W, b->mask, BENCH_W, pad, b->p.band_lo, b->p.band_size); break;
        case 8: calls = 64; for (unsigned y = 0; y < calls; y++) d->contrast_row(b->hist + pad, stride, b->img + y * BENCH_W, b->mask, BENCH_W, &b->p, b->contrast); break;
        default:
            memcpy(b->contrast, b->pool, (size_t)BENCH_W * BENCH_H * sizeof(float));
            {
                volatile double sink = d->mean_of_top(b->contrast, BENCH_W * BENCH_H, 0.6);
                (void)sink;
            }
            break;
        }
        t[run] = (checkasm_now_ns() - t0) / calls;
    }
    return bench_median(t);
}

static void bench_all(const CambiDSPContext *c, const CambiDSPContext *n, const char *isa)
{
    static const char *const names[10] = { "load 8-bit", "smooth", "flat_row", "mask_row",
                                           "halve_row", "mode_row", "mode_columns", "slide",
                                           "contrast_row", "mean_of_top" };
    static const char *const what[10] = { "1080p plane", "1920x64", "1920 columns", "1920 columns",
                                          "960 columns", "1920 columns", "1920 columns",
                                          "1920, noisy runs", "1920, noisy runs", "1080p, 3% not 0" };
    BenchData b;
    const size_t np = (size_t)BENCH_W * BENCH_H;
    b.plane8 = checkasm_malloc(np);
    b.img = checkasm_malloc(np * 2);
    b.img2 = checkasm_malloc(np * 2);
    b.rows3 = checkasm_malloc(BENCH_W * 2);
    b.mask = checkasm_malloc(np);
    b.flags = checkasm_malloc(2 * BENCH_W);
    b.contrast = checkasm_malloc(np * sizeof(float));
    b.pool = checkasm_malloc(np * sizeof(float));
    b.rows = checkasm_malloc(BENCH_H * sizeof(unsigned));
    b.cols = checkasm_malloc(BENCH_W * sizeof(unsigned));
    contrast_params(&b.p, b.tvi, 4);
    b.p.reciprocal = reciprocal;
    b.hist = checkasm_malloc((size_t)b.p.band_size * (BENCH_W + 32) * 2);
    for (size_t i = 0; i < (size_t)b.p.band_size * (BENCH_W + 32); i++) b.hist[i] = (uint16_t)(checkasm_rand() % 600);
    for (size_t i = 0; i < np; i++) b.plane8[i] = (uint8_t)checkasm_rand();
    for (unsigned y = 0; y < BENCH_H; y++) fill(b.img + (size_t)y * BENCH_W, BENCH_W, NOISY_RUNS, 1023, b.p.band_lo + 50);
    memcpy(b.img2, b.img, np * 2);
    fill_mask(b.mask, BENCH_W, 1);
    fill_mask(b.flags, 2 * BENCH_W, 0);
    /* as a 1080p picture's scale 0: a few per cent not 0, of small counts */
    for (size_t i = 0; i < np; i++) {
        const unsigned r = checkasm_rand();
        b.pool[i] = r % 32 ? 0.0f : vqx_cambi_step_contrast(1 + (int)(r >> 8) % 4, 1 + (r >> 12) % 200,
                                                            1 + (r >> 20) % 200, reciprocal);
    }
    vqx_cambi_nearest_map(b.rows, BENCH_H, BENCH_H);
    vqx_cambi_nearest_map(b.cols, BENCH_W, BENCH_W);
    /* the slide last: it leaves counts that the contrast values cannot take */
    static const int order[10] = { 0, 1, 2, 3, 4, 5, 6, 8, 9, 7 };
    for (int i = 0; i < 10; i++) {
        const int e = order[i];
        const double tc = bench_entry(c, &b, e);
        checkasm_report_bench(names[e], isa, what[e], tc, bench_entry(n, &b, e));
    }
    free(b.plane8); free(b.img); free(b.img2); free(b.rows3); free(b.mask); free(b.flags);
    free(b.contrast); free(b.pool); free(b.rows); free(b.cols); free(b.hist);
}

void checkasm_check_cambi(const CheckasmLevel *level)
{
    const char *isa = level->isa;
    for (unsigned i = 1; i < CAMBI_RECIPROCALS; i++) reciprocal[i] = 1.0f / (float)i;
    for (unsigned bi = 0; bi < CHECKASM_N_BPC; bi++) {
        const unsigned bpc = checkasm_bpc[bi];
        CambiDSPContext c, below, n;
        vqx_cambi_dsp_init(&c, bpc, 0);
        vqx_cambi_dsp_init(&below, bpc, level->below);
        vqx_cambi_dsp_init(&n, bpc, level->flags);
        if (n.load != below.load) {
            char func[32];
            snprintf(func, sizeof(func), "load %u-bit", bpc);
            checkasm_checked(func, isa, check_load(c.load, n.load, isa, bpc));
        }
        if (bpc != 8) continue;
        /* the other stages work on 10-bit samples, whatever the input */
        bool ok;
        if (n.smooth != below.smooth) checkasm_checked("smooth", isa, check_smooth(c.smooth, n.smooth, isa));
        if (n.flat_row != below.flat_row) checkasm_checked("flat_row", isa, check_flat_row(c.flat_row, n.flat_row, isa));
        if (n.mask_row != below.mask_row) checkasm_checked("mask_row", isa, check_mask_row(c.mask_row, n.mask_row, isa));
        if (n.halve_row != below.halve_row) checkasm_checked("halve_row", isa, check_halve_row(c.halve_row, n.halve_row, isa));
        if (n.mode_row != below.mode_row) checkasm_checked("mode_row", isa, check_mode(&c, &n, isa, true));
        if (n.mode_columns != below.mode_columns) checkasm_checked("mode_columns", isa, check_mode(&c, &n, isa, false));
        if (n.slide != below.slide) {
            ok = true;
            for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
                for (unsigned pi = 0; pi < N_PADS && ok; pi++)
                    for (int ct = 0; ct < N_CONTENT && ok; ct++)
                        for (unsigned rows = 0; rows < 4 && ok &&
                                                (random_width(wi) < 200 || ct % 3 == 0); rows++)
                            ok = check_slide_one(c.slide, n.slide, isa, random_width(wi), pads[pi],
                                                 (enum Content)ct, rows);
            checkasm_checked("slide", isa, ok);
        }
        if (n.contrast_row != below.contrast_row) {
            static const unsigned steps[] = { 1, 2, 4, 8, 32 };
            ok = true;
            for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
                for (unsigned pi = 0; pi < N_PADS && ok; pi++)
                    for (int ct = 0; ct < N_CONTENT && ok; ct++)
                        /* large rows: fewer contents, for the time */
                        for (unsigned si = 0; si < sizeof(steps) / sizeof(steps[0]) && ok &&
                                              (random_width(wi) < 200 || ct % 3 == 0); si++)
                            ok = check_contrast_one(c.contrast_row, n.contrast_row, isa,
                                                    random_width(wi), pads[pi], (enum Content)ct,
                                                    steps[si]);
            checkasm_checked("contrast_row", isa, ok);
        }
        if (n.mean_of_top != below.mean_of_top) {
            static const double fractions[] = { 0.6, 1.0, 0.0001, 0.25 };
            static const int big[] = { 1000, 4096, 65537, 518401 };
            ok = true;
            for (unsigned i = 0; i < N_WIDTHS + 4 && ok; i++)
                for (int pc = 0; pc < N_POOL && ok; pc++)
                    for (unsigned f = 0; f < 4 && ok; f++)
                        ok = check_pool_one(c.mean_of_top, n.mean_of_top, isa,
                                            i < N_WIDTHS ? (int)random_width(i) : big[i - N_WIDTHS],
                                            (enum Pool)pc, fractions[f]);
            checkasm_checked("mean_of_top", isa, ok);
        }
        if (checkasm_benching()) bench_all(&c, &n, isa);
    }
}
