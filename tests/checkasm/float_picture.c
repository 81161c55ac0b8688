/*
 * checkasm module of the float conversion's DSP table
 * (src/feature/float_picture.h): samples of 8 to 16 bits at random, 0, the
 * peak, alternating and random extremes, offsets 0 and -128, widths 1..70
 * and some large ones, 1 to 3 rows, source rows a random number of bytes
 * apart and offset from a 64-byte boundary, destination rows with canary
 * floats between them. Floats are compared bit for bit, canaries included.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checkasm.h"
#include "feature/float_picture.h"

enum Content { RANDOM, ZERO, PEAK, ALTERNATE, EXTREMES, N_CONTENT };
static const char *const content_name[N_CONTENT] = { "random", "zero", "peak", "alternating",
                                                     "random extremes" };

static unsigned sample(enum Content c, unsigned bpc, unsigned x)
{
    const unsigned max = (1u << bpc) - 1;
    switch (c) {
    case ZERO: return 0;
    case PEAK: return max;
    case ALTERNATE: return x & 1 ? max : 0;
    case EXTREMES: return checkasm_rand() & 1 ? max : 0;
    default: return checkasm_rand() & max;
    }
}

/* Canary floats after each destination row. */
#define GAP 9

static bool check_one(FloatConvertFn ref, FloatConvertFn new, const char *isa, unsigned bpc,
                      unsigned w, unsigned h, enum Content c, float offset)
{
    const unsigned size = bpc > 8 ? 2 : 1;
    /* any stride and alignment of whole samples (pictures hold aligned uint16_t) */
    const ptrdiff_t src_stride = (ptrdiff_t)(size * (w + checkasm_rand() % 20));
    CheckasmBuf bs = checkasm_buf_alloc((size_t)src_stride * h, size * (checkasm_rand() % 32));
    for (unsigned y = 0; y < h; y++)
        for (unsigned x = 0; x < w; x++) {
            const unsigned v = sample(c, bpc, x + y);
            uint8_t *row = bs.p + (ptrdiff_t)y * src_stride;
            if (size == 2) memcpy(row + 2 * x, &(uint16_t){ (uint16_t)v }, 2);
            else row[x] = (uint8_t)v;
        }
    const ptrdiff_t dst_stride = (ptrdiff_t)w + GAP;
    CheckasmBuf ba, bb;
    float *a = checkasm_row_alloc(&ba, (size_t)dst_stride * h, sizeof(float), GAP);
    float *b = checkasm_row_alloc(&bb, (size_t)dst_stride * h, sizeof(float), GAP);
    const float inv_scale = 1.0f / (float)(1u << (bpc - 8));
    ref(a, dst_stride, bs.p, src_stride, w, h, inv_scale, offset);
    new(b, dst_stride, bs.p, src_stride, w, h, inv_scale, offset);
    char where[112];
    snprintf(where, sizeof(where), "%u-bit, %u rows of %u (stride %td bytes), offset %g, %s",
             bpc, h, w, src_stride, (double)offset, content_name[c]);
    const bool ok = checkasm_compare("convert", isa, "floats (bits)", CHECKASM_U32, a, b,
                                     (long)dst_stride * h, GAP, where);
    free(bs.mem);
    free(ba.mem);
    free(bb.mem);
    return ok;
}

/* ---- bench: median ns per 1920-sample row ---- */

static double bench_one(FloatConvertFn f, unsigned bpc)
{
    enum { W = 1920, H = 16 };
    const unsigned size = bpc > 8 ? 2 : 1;
    CheckasmBuf bs = checkasm_buf_alloc((size_t)W * H * size, 0);
    for (unsigned i = 0; i < W * H * size; i++) bs.p[i] = (uint8_t)checkasm_rand();
    if (size == 2)
        for (unsigned i = 0; i < W * H; i++) ((uint16_t *)bs.p)[i] &= (1u << bpc) - 1;
    CheckasmBuf bd = checkasm_buf_alloc(sizeof(float) * W * H, 0);
    double t[CHECKASM_BENCH_RUNS];
    for (unsigned run = 0; run < CHECKASM_BENCH_RUNS; run++) {
        const double t0 = checkasm_now_ns();
        f((float *)bd.p, W, bs.p, W * size, W, H, 1.0f / (float)(1u << (bpc - 8)), -128.0f);
        t[run] = (checkasm_now_ns() - t0) / H;
    }
    free(bs.mem);
    free(bd.mem);
    return checkasm_median(t, CHECKASM_BENCH_RUNS);
}

#define N_WIDTHS CHECKASM_N_WIDTHS(1)

void checkasm_check_float_picture(const CheckasmLevel *level)
{
    const char *isa = level->isa;
    FloatPictureDSPContext c, below, n;
    vqx_float_picture_dsp_init(&c, 0);
    vqx_float_picture_dsp_init(&below, level->below);
    vqx_float_picture_dsp_init(&n, level->flags);
    static const char *const names[2] = { "float_picture convert 8bpc",
                                          "float_picture convert 16bpc" };
    static const float offsets[2] = { 0.0f, -128.0f };
    for (unsigned e = 0; e < 2; e++) {
        if (n.convert[e] == below.convert[e]) continue;
        bool ok = true;
        for (unsigned bi = 0; bi < CHECKASM_N_BPC && ok; bi++) {
            const unsigned bpc = checkasm_bpc[bi];
            if ((bpc > 8) != e) continue;
            for (unsigned wi = 0; wi < N_WIDTHS && ok; wi++)
                for (unsigned h = 1; h <= 3 && ok; h++)
                    for (int ct = 0; ct < N_CONTENT && ok; ct++)
                        for (unsigned o = 0; o < 2 && ok; o++)
                            ok = check_one(c.convert[e], n.convert[e], isa, bpc,
                                           checkasm_width(wi, 1), h, (enum Content)ct, offsets[o]);
        }
        checkasm_checked(names[e], isa, ok);
        if (ok && checkasm_benching())
            checkasm_report_bench(names[e], isa, e ? "1920 columns, 10 bits" : "1920 columns",
                                  bench_one(c.convert[e], e ? 10 : 8),
                                  bench_one(n.convert[e], e ? 10 : 8));
    }
}
