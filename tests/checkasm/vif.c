/*
 * checkasm module of integer VIF's DSP table (src/feature/vif_dsp.h): each
 * entry at 8 to 16 bits, widths 1..70 and some large ones, the filters of
 * every scale the entry serves, random strides and buffers offset by 1..63
 * bytes (even offsets for 16-bit samples, multiples of 4 for 32-bit
 * columns, as C's alignment requires), content random, 0, the peak,
 * alternating 0/peak and random extremes (row_terms also runs of chosen
 * sigmas). Outputs are compared with their margins, which both sides start
 * equal: a write outside the row differs; row_terms' sums are compared and
 * a difference is traced to its first pixel.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "feature/vif.h"

enum Content { RANDOM, ZERO, PEAK, ALTERNATE, EXTREMES, N_CONTENT };
static const char *const content_name[N_CONTENT] = { "random", "zero", "peak", "alternating",
                                                     "extremes" };

static unsigned value(enum Content c, unsigned peak, unsigned x, unsigned y)
{
    switch (c) {
    case ZERO: return 0;
    case PEAK: return peak;
    case ALTERNATE: return (x + y) & 1 ? peak : 0;
    case EXTREMES: return checkasm_rand() & 1 ? peak : 0;
    default: return checkasm_rand() & peak;
    }
}

#define N_WIDTHS CHECKASM_N_WIDTHS(1)

/* ---- the vertical passes ---- */

/* A plane pair of w x h samples with random strides and offsets. */
typedef struct Planes {
    VifPlane p;
    CheckasmBuf ref, dis;
} Planes;

static Planes planes_make(unsigned w, unsigned h, unsigned bytes, unsigned bits, enum Content c)
{
    Planes s;
    const unsigned peak = (1u << bits) - 1;
    const ptrdiff_t stride = (ptrdiff_t)(w + checkasm_rand() % 40) * bytes;
    const unsigned align = bytes == 1 ? 1 : 2;
    s.ref = checkasm_buf_alloc((size_t)stride * h, (1 + checkasm_rand() % 63) & ~(align - 1));
    s.dis = checkasm_buf_alloc((size_t)stride * h, (1 + checkasm_rand() % 63) & ~(align - 1));
    memset(s.ref.p, 0xa5, (size_t)stride * h);
    memset(s.dis.p, 0x5a, (size_t)stride * h);
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            const unsigned r = value(c, peak, x, y), d = value(c, peak, x + 1, y);
            if (bytes == 1) {
                s.ref.p[y * stride + x] = (uint8_t)r;
                s.dis.p[y * stride + x] = (uint8_t)d;
            } else {
                ((uint16_t *)(s.ref.p + y * stride))[x] = (uint16_t)r;
                ((uint16_t *)(s.dis.p + y * stride))[x] = (uint16_t)d;
            }
        }
    }
    s.p = (VifPlane){ s.ref.p, s.dis.p, stride, stride, w, h };
    return s;
}

static void planes_free(Planes *s)
{
    free(s->ref.mem);
    free(s->dis.mem);
}

/* Column arrays with VIF_MAX_HALF + 8 canary words on either side. */
#define MARGIN (VIF_MAX_HALF + 8)

typedef struct Cols {
    CheckasmBuf b[5];
    CheckasmBuf scratch[3];
    VifColumns c;
    unsigned w;
} Cols;

static void cols_make(Cols *s, unsigned w)
{
    s->w = w;
    uint32_t **arr[5] = { &s->c.mu1, &s->c.mu2, &s->c.ref_sq, &s->c.dis_sq, &s->c.ref_dis };
    for (int i = 0; i < 5; i++) *arr[i] = checkasm_row_alloc(&s->b[i], w, 4, MARGIN);
    for (int i = 0; i < 3; i++) {
        s->scratch[i] = checkasm_buf_alloc(w * 8, 0);
        s->c.scratch[i] = s->scratch[i].p;
    }
}

static void cols_free(Cols *s)
{
    for (int i = 0; i < 5; i++) free(s->b[i].mem);
    for (int i = 0; i < 3; i++) free(s->scratch[i].mem);
}

static bool compare32(const char *func, const char *isa, const char *array, const uint32_t *ref,
                      const uint32_t *new, unsigned w, const char *where)
{
    return checkasm_compare(func, isa, array, CHECKASM_U32, ref, new, w, MARGIN, where);
}

/* The fields mu1, mu2, ref_sq, dis_sq and ref_dis of a VifColumns or VifRow:
 * the means 32-bit, the second moments of type `moments`. */
static bool compare_fields(const char *func, const char *isa, const void *const ref[5],
                           const void *const new[5], CheckasmType moments, unsigned w,
                           const char *where)
{
    static const char *const names[5] = { "mu1", "mu2", "ref_sq", "dis_sq", "ref_dis" };
    for (int i = 0; i < 5; i++)
        if (!checkasm_compare(func, isa, names[i], i < 2 ? CHECKASM_U32 : moments, ref[i], new[i],
                              w, MARGIN, where))
            return false;
    return true;
}

/* Which entry a check is about: [1] runs 16-bit means of any value. */
typedef struct StageCase {
    unsigned index;         /* 0: scale 0 entry, 1: scales 1..3 entry */
    unsigned bpc;
} StageCase;

static bool check_stats_one(VifColumnsStatsFn ref, VifColumnsStatsFn new, const char *func,
                            const char *isa, StageCase sc, unsigned w, enum Content c)
{
    const unsigned bytes = sc.index == 0 && sc.bpc == 8 ? 1 : 2;
    const unsigned bits = sc.index == 0 ? sc.bpc : 16;
    bool ok = true;
    for (unsigned scale = sc.index; scale < (sc.index ? VIF_SCALES : 1); scale++) {
        const VifFilter *f = &vqx_vif_filters[scale];
        const VifShifts sh = vqx_vif_shifts(scale, sc.bpc);
        const unsigned h = f->width / 2 + 1 + checkasm_rand() % 8;
        Planes pl = planes_make(w, h, bytes, bits, c);
        Cols a, b;
        cols_make(&a, w);
        cols_make(&b, w);
        for (unsigned row = 0; row < h && ok; row++) {
            ref(&pl.p, row, f, &sh, &a.c);
            new(&pl.p, row, f, &sh, &b.c);
            char where[160];
            snprintf(where, sizeof(where),
                     "%u-bit, scale %u, %ux%u, stride %td, %s, row %u", sc.bpc, scale, w, h,
                     pl.p.ref_stride, content_name[c], row);
            ok = compare_fields(func, isa, (const void *const[5]){ a.c.mu1, a.c.mu2, a.c.ref_sq,
                                                                   a.c.dis_sq, a.c.ref_dis },
                                (const void *const[5]){ b.c.mu1, b.c.mu2, b.c.ref_sq, b.c.dis_sq,
                                                        b.c.ref_dis },
                                CHECKASM_U32, w, where);
        }
        cols_free(&a);
        cols_free(&b);
        planes_free(&pl);
    }
    return ok;
}

static bool check_means_one(VifColumnsMeansFn ref, VifColumnsMeansFn new, const char *func,
                            const char *isa, StageCase sc, unsigned w, enum Content c)
{
    const unsigned bytes = sc.index == 0 && sc.bpc == 8 ? 1 : 2;
    const unsigned bits = sc.index == 0 ? sc.bpc : 16;
    const unsigned shift = sc.index == 0 ? sc.bpc : 16;
    bool ok = true;
    /* the filter of the scale being made: 1 from the picture, 2 and 3 after */
    for (unsigned scale = sc.index + 1; scale < (sc.index ? VIF_SCALES : 2); scale++) {
        const VifFilter *f = &vqx_vif_filters[scale];
        const unsigned h = f->width / 2 + 1 + checkasm_rand() % 8;
        Planes pl = planes_make(w, h, bytes, bits, c);
        Cols a, b;
        cols_make(&a, w);
        cols_make(&b, w);
        for (unsigned row = 0; row < h && ok; row++) {
            ref(&pl.p, row, f, shift, 1u << (shift - 1), a.c.mu1, a.c.mu2);
            new(&pl.p, row, f, shift, 1u << (shift - 1), b.c.mu1, b.c.mu2);
            char where[160];
            snprintf(where, sizeof(where), "%u-bit, filter of scale %u, %ux%u, stride %td, %s, row %u",
                     sc.bpc, scale, w, h, pl.p.ref_stride, content_name[c], row);
            ok = compare32(func, isa, "ref", a.c.mu1, b.c.mu1, w, where) &&
                 compare32(func, isa, "dis", a.c.mu2, b.c.mu2, w, where);
        }
        cols_free(&a);
        cols_free(&b);
        planes_free(&pl);
    }
    return ok;
}

/* ---- the decimation ---- */

/* Columns of w entries and their margins (the mirror's values are not
 * the kernels' business: random here too). */
static void cols_fill(Cols *s, enum Content c, bool means_only)
{
    uint32_t *arr[5] = { s->c.mu1, s->c.mu2, s->c.ref_sq, s->c.dis_sq, s->c.ref_dis };
    for (int i = 0; i < (means_only ? 2 : 5); i++) {
        /* means are 16-bit; second moments any 32-bit value */
        const unsigned peak = i < 2 ? 0xffff : 0xffffffffu;
        for (long x = -VIF_MAX_HALF; x < (long)s->w + VIF_MAX_HALF + 1; x++) {
            uint32_t v = value(c, peak, (unsigned)(x + VIF_MAX_HALF), (unsigned)i);
            if (c == RANDOM && peak > 0xffff) v = checkasm_rand() ^ checkasm_rand() << 16;
            arr[i][x] = v;
        }
    }
}

static bool compare16(const char *func, const char *isa, const char *array, const uint16_t *ref,
                      const uint16_t *new, unsigned w, const char *where)
{
    return checkasm_compare(func, isa, array, CHECKASM_U16, ref, new, w, MARGIN, where);
}

static bool check_decimate_one(VifDecimateFn ref, VifDecimateFn new, const char *func,
                               const char *isa, unsigned dst_w, enum Content c)
{
    bool ok = true;
    for (unsigned scale = 1; scale < VIF_SCALES && ok; scale++) {
        const VifFilter *f = &vqx_vif_filters[scale];
        const unsigned src_w = 2 * dst_w + (checkasm_rand() & 1);
        Cols in;
        cols_make(&in, src_w);
        cols_fill(&in, c, true);
        CheckasmBuf out[4];
        uint16_t *o[4];
        for (int i = 0; i < 4; i++) o[i] = checkasm_row_alloc(&out[i], dst_w, 2, MARGIN);
        ref(in.c.mu1, in.c.mu2, dst_w, f, o[0], o[1]);
        new(in.c.mu1, in.c.mu2, dst_w, f, o[2], o[3]);
        char where[128];
        snprintf(where, sizeof(where), "filter of scale %u, %u to %u columns, %s", scale, src_w,
                 dst_w, content_name[c]);
        ok = compare16(func, isa, "ref", o[0], o[2], dst_w, where) &&
             compare16(func, isa, "dis", o[1], o[3], dst_w, where);
        for (int i = 0; i < 4; i++) free(out[i].mem);
        cols_free(&in);
    }
    return ok;
}

/* ---- the horizontal pass and the information terms ---- */

/* Columns for row_terms: those of cols_fill (raw words: sigmas of any
 * value, wrapping sums), and "statistics" and "high gain": runs of 17 to
 * 48 equal columns, inside which the horizontal pass gives the means times
 * 65536 and the moments as they are, so that the sigmas are the run's:
 * below, at and above the noise floor, negative, zero, up to the largest
 * the C takes (INT32_MAX - VIF_SIGMA_NSQ), covariances of either sign, some
 * past Cauchy-Schwarz (the residual negative or out of int32 range), or g
 * around the gain limit; between runs they mix. */
enum RowContent { ROW_STATS = N_CONTENT, ROW_GAIN, N_ROW_CONTENT };

static const char *row_content_name(int c)
{
    return c < N_CONTENT ? content_name[c] : c == ROW_STATS ? "statistics" : "high gain";
}

/* A sigma of one of the classes above. */
static int32_t pick_sigma(void)
{
    static const int32_t special[] = { 0, 1, -1, VIF_SIGMA_NSQ - 1, VIF_SIGMA_NSQ,
                                       VIF_SIGMA_NSQ + 1, INT32_MAX, INT32_MIN,
                                       INT32_MAX - VIF_SIGMA_NSQ, INT32_MAX - VIF_SIGMA_NSQ + 1 };
    const uint32_t r = checkasm_rand();
    switch (r % 8) {
    case 0: return special[(r >> 3) % (sizeof(special) / sizeof(special[0]))];
    case 1: return -(int32_t)(checkasm_rand() % (1u << 20));
    case 2: return (int32_t)(checkasm_rand() % VIF_SIGMA_NSQ);
    default: return (int32_t)(checkasm_rand() >> 1 >> (checkasm_rand() % 31));
    }
}

static double rand_unit(void)
{
    return checkasm_rand() / 4294967296.0;
}

static void runs_fill(Cols *s, bool gain, double gain_limit)
{
    uint32_t *arr[5] = { s->c.mu1, s->c.mu2, s->c.ref_sq, s->c.dis_sq, s->c.ref_dis };
    const long end = (long)s->w + VIF_MAX_HALF + 1;
    for (long x = -VIF_MAX_HALF; x < end;) {
        const uint32_t m1 = checkasm_rand() & 0xffff, m2 = checkasm_rand() & 0xffff;
        int32_t s1 = pick_sigma(), s2 = pick_sigma(), s12 = pick_sigma();
        if (gain) {
            /* g = s12 / s1 from 0.5 to 2 times the limit; s2 from 0 to 2 g s12 */
            s1 = VIF_SIGMA_NSQ + (int32_t)(checkasm_rand() % (1u << (checkasm_rand() % 24)));
            const double g = gain_limit * (0.5 + 1.5 * rand_unit());
            const double v12 = g * s1, v2 = 2 * g * v12 * rand_unit();
            s12 = v12 < INT32_MAX ? (int32_t)v12 : INT32_MAX;
            s2 = v2 < INT32_MAX ? (int32_t)v2 : INT32_MAX;
        } else if (checkasm_rand() & 1 && s1 > 0 && s2 > 0) {
            /* a covariance near the Cauchy-Schwarz bound, or just past it */
            const double v = (0.9 + 0.2 * rand_unit()) * sqrt((double)s1 * s2);
            s12 = v < INT32_MAX ? (int32_t)v : INT32_MAX;
        }
        const uint32_t v[5] = { m1, m2, m1 * m1 + (uint32_t)s1, m2 * m2 + (uint32_t)s2,
                                m1 * m2 + (uint32_t)s12 };
        for (long len = 17 + checkasm_rand() % 32; len-- && x < end; x++)
            for (int i = 0; i < 5; i++) arr[i][x] = v[i];
    }
}

typedef struct Row {
    CheckasmBuf b[5];
    VifRow r;
} Row;

static void row_make(Row *s, unsigned w)
{
    void *p[5];
    for (int i = 0; i < 5; i++) p[i] = checkasm_row_alloc(&s->b[i], w, i < 2 ? 4 : 8, MARGIN);
    s->r = (VifRow){ p[0], p[1], p[2], p[3], p[4] };
}

static void row_free(Row *s)
{
    for (int i = 0; i < 5; i++) free(s->b[i].mem);
}

static uint32_t mean_sq(uint32_t a, uint32_t b)
{
    return (uint32_t)(((uint64_t)a * b + 2147483648u) >> 32);
}

/* The C's sigmas of pixel j; their sums with the noise floor must fit an
 * int32 (the C adds them as ints: past that it overflows, which no picture
 * reaches: a variance of samples below 2^16 is below 2^30). */
static bool in_domain(const VifRow *r, unsigned j)
{
    const int32_t sigma1 = (int32_t)((uint32_t)((r->ref_sq[j] + 32768) >> 16) - mean_sq(r->mu1[j], r->mu1[j]));
    const int32_t sigma2 = (int32_t)((uint32_t)((r->dis_sq[j] + 32768) >> 16) - mean_sq(r->mu2[j], r->mu2[j]));
    return sigma1 <= INT32_MAX - VIF_SIGMA_NSQ && sigma2 <= INT32_MAX - VIF_SIGMA_NSQ;
}

/* Zeroes the columns around the pixels out of the C's domain, until none is
 * (each round zeroes a column that was not: it ends). */
static void to_domain(Cols *s, const VifFilter *f, Row *tmp)
{
    uint32_t *arr[5] = { s->c.mu1, s->c.mu2, s->c.ref_sq, s->c.dis_sq, s->c.ref_dis };
    const int half = (int)(f->width / 2);
    for (bool clean = false; !clean;) {
        vqx_vif_horizontal_c(&s->c, s->w, f, &tmp->r);
        clean = true;
        for (unsigned j = 0; j < s->w; j++) {
            if (in_domain(&tmp->r, j)) continue;
            clean = false;
            for (int x = (int)j - half; x <= (int)j + half; x++)
                for (int i = 0; i < 5; i++) arr[i][x] = 0;
        }
    }
}

/* The table of vif.c (libvmaf's log_generate()), other entries poisoned. */
static uint16_t log2_table[65536];

static void log2_table_init(void)
{
    for (unsigned i = 0; i < 65536; i++)
        log2_table[i] = i < 32767 ? (uint16_t)checkasm_rand()
                                  : (uint16_t)round(log2f((float)i) * 2048.0f);
}

static bool sums_equal(const VifSums *a, const VifSums *b)
{
    return a->num_log == b->num_log && a->den_log == b->den_log &&
           a->num_non_log == b->num_non_log && a->den_non_log == b->den_non_log;
}

/* Scratch past the row holds garbage, which the entries must ignore. */
static CheckasmBuf scratch_make(unsigned w)
{
    CheckasmBuf b = checkasm_buf_alloc(VIF_ROW_SCRATCH(w), 0);
    for (size_t i = 0; i < VIF_ROW_SCRATCH(w); i++) b.p[i] = (uint8_t)checkasm_rand();
    return b;
}

static bool check_row_terms_one(VifRowTermsFn ref, VifRowTermsFn new, const char *func,
                                const char *isa, unsigned w, int c)
{
    Cols in;
    cols_make(&in, w);
    Row tmp;
    row_make(&tmp, w);
    CheckasmBuf scratch = scratch_make(w);
    const double limits[] = { 100.0, 1.0, 1.0 + 99.0 * rand_unit() };
    bool ok = true;
    for (unsigned scale = 0; scale < VIF_SCALES && ok; scale++) {
        const VifFilter *f = &vqx_vif_filters[scale];
        for (unsigned li = 0; li < 3 && ok; li++) {
            if (c < N_CONTENT) cols_fill(&in, (enum Content)c, false);
            else runs_fill(&in, c == ROW_GAIN, limits[li]);
            to_domain(&in, f, &tmp);
            const VifSums start = { (int32_t)checkasm_rand(), (int32_t)checkasm_rand(),
                                    (int32_t)checkasm_rand(), (int32_t)checkasm_rand() };
            VifSums a = start, b = start;
            ref(&in.c, w, f, scratch.p, log2_table, limits[li], &a);
            new(&in.c, w, f, scratch.p, log2_table, limits[li], &b);
            if (sums_equal(&a, &b)) continue;
            /* the first pixel that makes a difference: the shortest prefix */
            unsigned first = w;
            for (unsigned n = 1; n < w && first == w; n++) {
                VifSums pa = start, pb = start;
                ref(&in.c, n, f, scratch.p, log2_table, limits[li], &pa);
                new(&in.c, n, f, scratch.p, log2_table, limits[li], &pb);
                if (!sums_equal(&pa, &pb)) first = n;
            }
            checkasm_fail(func, isa,
                          "filter of scale %u, width %u, %s, gain limit %.17g: sums differ "
                          "from pixel %u on; c num_log %lld den_log %lld num_non_log %lld "
                          "den_non_log %lld, simd %lld %lld %lld %lld",
                          scale, w, row_content_name(c), limits[li], first - 1,
                          (long long)a.num_log, (long long)a.den_log, (long long)a.num_non_log,
                          (long long)a.den_non_log, (long long)b.num_log, (long long)b.den_log,
                          (long long)b.num_non_log, (long long)b.den_non_log);
            ok = false;
        }
    }
    free(scratch.mem);
    row_free(&tmp);
    cols_free(&in);
    return ok;
}

/* ---- bench: median ns per call over rows of a 1080p frame ---- */

typedef struct BenchCase {
    int kind; /* 0 stats, 1 means, 2 row_terms, 3 decimate */
    unsigned index, bpc, scale;
} BenchCase;

static double bench_one(const VifDSPContext *d, BenchCase bc)
{
    const unsigned w = 1920, h = 32;
    const unsigned bytes = bc.index == 0 && bc.bpc == 8 ? 1 : 2;
    Planes pl = planes_make(w, h, bytes, bc.index ? 16 : bc.bpc, RANDOM);
    Cols cols;
    cols_make(&cols, w);
    cols_fill(&cols, RANDOM, false);
    Row row;
    row_make(&row, w);
    uint16_t *o[2] = { checkasm_malloc(w * 2), checkasm_malloc(w * 2) };
    const VifFilter *f = &vqx_vif_filters[bc.scale];
    const VifShifts sh = vqx_vif_shifts(bc.scale, bc.bpc);
    const unsigned shift = bc.index == 0 ? bc.bpc : 16;
    CheckasmBuf scratch = scratch_make(w);
    if (bc.kind == 2) {
        /* nearly every pixel through the gain and both logs, as on textured content */
        runs_fill(&cols, true, 100.0);
        to_domain(&cols, f, &row);
    }
    VifSums sums = { 0 };
    double t[CHECKASM_BENCH_RUNS];
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        for (unsigned i = 0; i < h; i++) {
            switch (bc.kind) {
            case 0: d->columns_stats[bc.index](&pl.p, i, f, &sh, &cols.c); break;
            case 1: d->columns_means[bc.index](&pl.p, i, f, shift, 1u << (shift - 1), cols.c.mu1,
                                               cols.c.mu2); break;
            case 2: d->row_terms(&cols.c, w, f, scratch.p, log2_table, 100.0, &sums); break;
            default: d->decimate(cols.c.mu1, cols.c.mu2, w / 2, f, o[0], o[1]); break;
            }
        }
        t[run] = (checkasm_now_ns() - t0) / h;
    }
    free(o[0]);
    free(o[1]);
    free(scratch.mem);
    row_free(&row);
    cols_free(&cols);
    planes_free(&pl);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

static void bench_vif(const VifDSPContext *c, const VifDSPContext *n, const char *func,
                      const char *isa, BenchCase bc)
{
    char what[64];
    if (bc.kind == 2) snprintf(what, sizeof(what), "high gain, scale %u", bc.scale);
    else if (bc.index) snprintf(what, sizeof(what), "scale %u", bc.scale);
    else snprintf(what, sizeof(what), "%u-bit scale %u", bc.bpc, bc.scale);
    const double tc = bench_one(c, bc), tn = bench_one(n, bc);
    checkasm_report_bench(func, isa, what, tc, tn);
}

void checkasm_check_vif(const CheckasmLevel *level)
{
    const char *isa = level->isa;
    for (unsigned bi = 0; bi < CHECKASM_N_BPC; bi++) {
        const unsigned bpc = checkasm_bpc[bi];
        VifDSPContext c, below, n;
        vqx_vif_dsp_init(&c, bpc, 0);
        vqx_vif_dsp_init(&below, bpc, level->below);
        vqx_vif_dsp_init(&n, bpc, level->flags);
        /* [1] and the column stages do not depend on bpc: checked at 8 bits */
        for (unsigned idx = 0; idx < 2; idx++) {
            if (idx == 1 && bpc != 8) continue;
            const StageCase sc = { idx, bpc };
            char func[64];
            if (n.columns_stats[idx] != below.columns_stats[idx]) {
                snprintf(func, sizeof(func), idx ? "columns_stats[1]" : "columns_stats[0] %u-bit",
                         bpc);
                bool ok = true;
                for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
                    for (int ct = 0; ct < N_CONTENT && ok; ct++)
                        ok = check_stats_one(c.columns_stats[idx], n.columns_stats[idx], func,
                                             isa, sc, checkasm_width(wi, 1), (enum Content)ct);
                checkasm_checked(func, isa, ok);
                if (ok && checkasm_benching())
                    bench_vif(&c, &n, func, isa, (BenchCase){ 0, idx, bpc, idx });
            }
            if (n.columns_means[idx] != below.columns_means[idx]) {
                snprintf(func, sizeof(func), idx ? "columns_means[1]" : "columns_means[0] %u-bit",
                         bpc);
                bool ok = true;
                for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
                    for (int ct = 0; ct < N_CONTENT && ok; ct++)
                        ok = check_means_one(c.columns_means[idx], n.columns_means[idx], func,
                                             isa, sc, checkasm_width(wi, 1), (enum Content)ct);
                checkasm_checked(func, isa, ok);
                if (ok && checkasm_benching())
                    bench_vif(&c, &n, func, isa, (BenchCase){ 1, idx, bpc, idx + 1 });
            }
        }
        if (bpc != 8) continue;
        /* the 8-bit-only entries: each against C over every width and content */
#define CHECK_ENTRY(entry, check_one, n_content, content_type, bench_case)                   \
        if (n.entry != below.entry) {                                                        \
            bool ok = true;                                                                  \
            for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)                                 \
                for (int ct = 0; ct < (n_content) && ok; ct++)                               \
                    ok = check_one(c.entry, n.entry, #entry, isa, checkasm_width(wi, 1),     \
                                   (content_type)ct);                                        \
            checkasm_checked(#entry, isa, ok);                                               \
            if (ok && checkasm_benching()) bench_vif(&c, &n, #entry, isa, bench_case);       \
        }
        CHECK_ENTRY(decimate, check_decimate_one, N_CONTENT, enum Content,
                    ((BenchCase){ 3, 0, 8, 1 }))
        log2_table_init();
        CHECK_ENTRY(row_terms, check_row_terms_one, N_ROW_CONTENT, int,
                    ((BenchCase){ 2, 0, 8, 0 }))
        if (n.row_terms != below.row_terms && checkasm_benching())
            bench_vif(&c, &n, "row_terms", isa, (BenchCase){ 2, 0, 8, 1 });
#undef CHECK_ENTRY
    }
}
