/*
 * checkasm module of integer VIF's DSP table (src/feature/vif_dsp.h): each
 * entry at 8 to 16 bits, widths 1..70 and some large ones, the filters of
 * every scale the entry serves, random strides and buffers offset by 1..63
 * bytes (even offsets for 16-bit samples, multiples of 4 for 32-bit
 * columns, as C's alignment requires), content random, 0, the peak,
 * alternating 0/peak and random extremes; row_stats also on pairs made for
 * its terms (textures, gains around and past the limit, either sign,
 * variances at the noise floor), with gain limits 100, 1 and a random one.
 * Outputs are compared with their margins, which both sides start equal: a
 * write outside the row differs; row_stats' sums are compared after every
 * row (the first row that differs is reported).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "feature/vif.h"
#if VQX_ARCH_X86
#include "x86/vif.h"
#endif

enum Content { RANDOM, ZERO, PEAK, ALTERNATE, EXTREMES, N_CONTENT };
/* row_stats' pairs, past the contents above: a texture and its noisy copy;
 * low-contrast references and their copies scaled by gains from -300 to
 * 300; references that vary by a step or two (variances at the noise
 * floor) */
enum PairContent { TEXTURE = N_CONTENT, GAIN, FLOOR, N_PAIR_CONTENT };
static const char *const content_name[N_PAIR_CONTENT] = { "random", "zero", "peak",
                                                          "alternating", "extremes", "texture",
                                                          "gain", "noise floor" };

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

static unsigned clamp_sample(double v, unsigned peak)
{
    return v < 0 ? 0 : v > peak ? peak : (unsigned)v;
}

/* A reference and distorted sample of content c at (x, y); k: a gain. */
static void sample_pair(int c, unsigned peak, unsigned x, unsigned y, double k, unsigned *r,
                        unsigned *d)
{
    const double mid = peak / 2.0, unit = (peak + 1) / 256.0;
    switch (c) {
    case TEXTURE: {
        const double t = mid + 0.4 * peak * sin(x * 0.37 + y * 0.11) * cos(y * 0.23 - x * 0.05);
        *r = clamp_sample(t + unit * (checkasm_rand() % 9) - 4 * unit, peak);
        *d = clamp_sample(*r + unit * (checkasm_rand() % 17) - 8 * unit, peak);
        return;
    }
    case GAIN: {
        const double a = (double)(checkasm_rand() % 5) - 2;
        *r = clamp_sample(mid + a * unit, peak);
        *d = clamp_sample(mid + k * a * unit + (checkasm_rand() % 3) - 1.0, peak);
        return;
    }
    case FLOOR:
        *r = clamp_sample(mid + (checkasm_rand() % 3) * unit, peak);
        *d = clamp_sample(mid + (checkasm_rand() % 2) * unit * (x & 1), peak);
        return;
    default:
        *r = value((enum Content)c, peak, x, y);
        *d = value((enum Content)c, peak, x + 1, y);
    }
}

static Planes planes_make(unsigned w, unsigned h, unsigned bytes, unsigned bits, int c)
{
    Planes s;
    const unsigned peak = (1u << bits) - 1;
    static const double gains[] = { 0, 0.5, 1, 2, 30, 99, 101, 300, -1, -300 };
    const double k = gains[checkasm_rand() % (sizeof(gains) / sizeof(gains[0]))];
    const ptrdiff_t stride = (ptrdiff_t)(w + checkasm_rand() % 40) * bytes;
    const unsigned align = bytes == 1 ? 1 : 2;
    s.ref = checkasm_buf_alloc((size_t)stride * h, (1 + checkasm_rand() % 63) & ~(align - 1));
    s.dis = checkasm_buf_alloc((size_t)stride * h, (1 + checkasm_rand() % 63) & ~(align - 1));
    memset(s.ref.p, 0xa5, (size_t)stride * h);
    memset(s.dis.p, 0x5a, (size_t)stride * h);
    for (unsigned y = 0; y < h; y++) {
        for (unsigned x = 0; x < w; x++) {
            unsigned r, d;
            sample_pair(c, peak, x, y, k, &r, &d);
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

/* Which entry a check is about: [1] runs 16-bit means of any value. */
typedef struct StageCase {
    unsigned index;         /* 0: scale 0 entry, 1: scales 1..3 entry */
    unsigned bpc;
} StageCase;

static bool sums_equal(const VifSums *a, const VifSums *b)
{
    return a->num_log == b->num_log && a->den_log == b->den_log &&
           a->num_non_log == b->num_non_log && a->den_non_log == b->den_non_log;
}

/* The table of vif.c (libvmaf's log_generate()), other entries poisoned. */
static uint16_t log2_table[65536];

static void log2_table_init(void)
{
    for (unsigned i = 0; i < 65536; i++)
        log2_table[i] = i < 32767 ? (uint16_t)checkasm_rand()
                                  : vif_log2_entry(i);
}

/* Scratch holds garbage, which the entries must not depend on. */
static CheckasmBuf scratch_make(unsigned w)
{
    CheckasmBuf b = checkasm_buf_alloc(VIF_ROW_SCRATCH(w), 0);
    for (size_t i = 0; i < VIF_ROW_SCRATCH(w); i++) b.p[i] = (uint8_t)checkasm_rand();
    return b;
}

static double rand_unit(void)
{
    return checkasm_rand() / 4294967296.0;
}

static bool check_row_stats_one(VifRowStatsFn ref, VifRowStatsFn new, const char *func,
                                const char *isa, StageCase sc, unsigned w, int c)
{
    const unsigned bytes = sc.index == 0 && sc.bpc == 8 ? 1 : 2;
    const unsigned bits = sc.index == 0 ? sc.bpc : 16;
    const double limits[] = { 100.0, 1.0, 1.0 + 99.0 * rand_unit() };
    bool ok = true;
    for (unsigned scale = sc.index; scale < (sc.index ? VIF_SCALES : 1) && ok; scale++) {
        const VifFilter *f = &vqx_vif_filters[scale];
        if (w <= f->width / 2) continue; /* the mirror needs w > half (vif.c's minimum) */
        const VifShifts sh = vqx_vif_shifts(scale, sc.bpc);
        const unsigned h = f->width / 2 + 1 + checkasm_rand() % 8;
        const double limit = limits[checkasm_rand() % 3];
        Planes pl = planes_make(w, h, bytes, bits, c);
        Cols a, b;
        cols_make(&a, w);
        cols_make(&b, w);
        CheckasmBuf sa = scratch_make(w), sb = scratch_make(w);
        VifSums ra = { (int32_t)checkasm_rand(), (int32_t)checkasm_rand(),
                       (int32_t)checkasm_rand(), (int32_t)checkasm_rand() };
        VifSums rb = ra;
        for (unsigned row = 0; row < h && ok; row++) {
            ref(&pl.p, row, f, &sh, &a.c, sa.p, log2_table, limit, &ra);
            new(&pl.p, row, f, &sh, &b.c, sb.p, log2_table, limit, &rb);
            if (sums_equal(&ra, &rb)) continue;
            checkasm_fail(func, isa,
                          "%u-bit, scale %u, %ux%u, stride %td, %s, gain limit %.17g: sums "
                          "differ from row %u on; c num_log %lld den_log %lld num_non_log "
                          "%lld den_non_log %lld, simd %lld %lld %lld %lld",
                          sc.bpc, scale, w, h, pl.p.ref_stride, content_name[c], limit, row,
                          (long long)ra.num_log, (long long)ra.den_log,
                          (long long)ra.num_non_log, (long long)ra.den_non_log,
                          (long long)rb.num_log, (long long)rb.den_log,
                          (long long)rb.num_non_log, (long long)rb.den_non_log);
            ok = false;
        }
        free(sa.mem);
        free(sb.mem);
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

/* ---- bench: median ns per call over rows of a 1080p frame ---- */

typedef struct BenchCase {
    int kind; /* 0 row_stats, 1 means, 3 decimate */
    unsigned index, bpc, scale;
} BenchCase;

static double bench_one(const VifDSPContext *d, BenchCase bc)
{
    const unsigned w = 1920, h = 32;
    const unsigned bytes = bc.index == 0 && bc.bpc == 8 ? 1 : 2;
    /* textures: nearly every pixel through the gain and both logs */
    Planes pl = planes_make(w, h, bytes, bc.index ? 16 : bc.bpc, bc.kind ? RANDOM : TEXTURE);
    Cols cols;
    cols_make(&cols, w);
    cols_fill(&cols, RANDOM, false);
    uint16_t *o[2] = { checkasm_malloc(w * 2), checkasm_malloc(w * 2) };
    const VifFilter *f = &vqx_vif_filters[bc.scale];
    const VifShifts sh = vqx_vif_shifts(bc.scale, bc.bpc);
    const unsigned shift = bc.index == 0 ? bc.bpc : 16;
    CheckasmBuf scratch = scratch_make(w);
    VifSums sums = { 0 };
    double t[CHECKASM_BENCH_RUNS];
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        for (unsigned i = 0; i < h; i++) {
            switch (bc.kind) {
            case 0: d->row_stats[bc.index](&pl.p, i, f, &sh, &cols.c, scratch.p, log2_table,
                                           100.0, &sums); break;
            case 1: d->columns_means[bc.index](&pl.p, i, f, shift, 1u << (shift - 1), cols.c.mu1,
                                               cols.c.mu2); break;
            default: d->decimate(cols.c.mu1, cols.c.mu2, w / 2, f, o[0], o[1]); break;
            }
        }
        t[run] = (checkasm_now_ns() - t0) / h;
    }
    free(o[0]);
    free(o[1]);
    free(scratch.mem);
    cols_free(&cols);
    planes_free(&pl);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

static void bench_vif(const VifDSPContext *c, const VifDSPContext *n, const char *func,
                      const char *isa, BenchCase bc)
{
    char what[64];
    if (bc.index) snprintf(what, sizeof(what), "scale %u", bc.scale);
    else snprintf(what, sizeof(what), "%u-bit scale %u", bc.bpc, bc.scale);
    const double tc = bench_one(c, bc), tn = bench_one(n, bc);
    checkasm_report_bench(func, isa, what, tc, tn);
}

void checkasm_check_vif(const CheckasmLevel *level)
{
    const char *isa = level->isa;
#if VQX_ARCH_X86
    /* every table entry from log2_poly; where not, the poly entries go unused */
    if ((level->flags & VQX_CPU_AVX512) && !(level->below & VQX_CPU_AVX512)) {
        const bool exact = vqx_vif_log2_poly_exact_avx512();
        if (!exact)
            checkasm_fail("log2_poly", isa, "differs from round(log2f(i) * 2048) for some i "
                          "in [2^15, 2^16); row_stats keeps the gather");
        checkasm_checked("log2_poly", isa, exact);
    }
#endif
    for (unsigned bi = 0; bi < CHECKASM_N_BPC; bi++) {
        const unsigned bpc = checkasm_bpc[bi];
        VifDSPContext c, below, n;
        log2_table_init();
        vqx_vif_dsp_init(&c, bpc, 0);
        vqx_vif_dsp_init(&below, bpc, level->below);
        vqx_vif_dsp_init(&n, bpc, level->flags);
        /* [1] and the column stages do not depend on bpc: checked at 8 bits */
        for (unsigned idx = 0; idx < 2; idx++) {
            if (idx == 1 && bpc != 8) continue;
            const StageCase sc = { idx, bpc };
            char func[64];
            if (n.row_stats[idx] != below.row_stats[idx]) {
                snprintf(func, sizeof(func), idx ? "row_stats[1]" : "row_stats[0] %u-bit", bpc);
                bool ok = true;
                for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
                    for (int ct = 0; ct < N_PAIR_CONTENT && ok; ct++)
                        ok = check_row_stats_one(c.row_stats[idx], n.row_stats[idx], func, isa,
                                                 sc, checkasm_width(wi, 1), ct);
                checkasm_checked(func, isa, ok);
                if (ok && checkasm_benching())
                    bench_vif(&c, &n, func, isa, (BenchCase){ 0, idx, bpc, idx });
            }
#if VQX_ARCH_X86
            /* the table's gather forms, kept for a libm where log2_poly misses */
            const bool avx512 = (level->flags & VQX_CPU_AVX512) &&
                                !(level->below & VQX_CPU_AVX512);
            const bool icl = (level->flags & VQX_CPU_AVX512) &&
                             (level->flags & VQX_CPU_AVX512ICL) &&
                             !(level->below & VQX_CPU_AVX512ICL);
            if (avx512 || icl) {
                const bool bytes = idx == 0 && bpc == 8;
                const VifRowStatsFn gather =
                    icl ? (bytes ? vqx_vif_row_stats_8bpc_avx512icl
                                 : vqx_vif_row_stats_16bpc_avx512icl)
                        : (bytes ? vqx_vif_row_stats_8bpc_avx512 : vqx_vif_row_stats_16bpc_avx512);
                snprintf(func, sizeof(func), idx ? "row_stats[1] gather"
                                                 : "row_stats[0] %u-bit gather", bpc);
                bool ok = true;
                for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
                    for (int ct = 0; ct < N_PAIR_CONTENT && ok; ct++)
                        ok = check_row_stats_one(c.row_stats[idx], gather, func, isa, sc,
                                                 checkasm_width(wi, 1), ct);
                checkasm_checked(func, isa, ok);
            }
#endif
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
#undef CHECK_ENTRY
        /* the SIMD decimation works in chunks of 1024 outputs: a last chunk
         * narrower than a vector step, and several chunks */
        if (n.decimate != below.decimate) {
            static const unsigned chunk_widths[] = { 1025, 1031, 2048, 2053 };
            bool ok = true;
            for (unsigned wi = 0; wi < 4 && ok; wi++)
                for (int ct = 0; ct < N_CONTENT && ok; ct++)
                    ok = check_decimate_one(c.decimate, n.decimate, "decimate chunks", isa,
                                            chunk_widths[wi], (enum Content)ct);
            checkasm_checked("decimate chunks", isa, ok);
        }
    }
}
