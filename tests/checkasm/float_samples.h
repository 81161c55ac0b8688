/*
 * Rows for the checkasm modules of float_psnr and float_moment: the floats
 * they read (samples divided by 2^(bpc - 8)) at random, 0 against the
 * peak, the peak alone, alternating, random extremes, equal rows; and, for
 * the SIMD entries' checks of their input, samples offset by -128 and
 * arbitrary floats. Running sums to add a row to: 0, a sum of earlier
 * rows, sums just below the totals a double holds exactly at 16 and at 8
 * bits (one within a sample of it), one no sum of samples can be, huge
 * and negative ones, -0.
 */
#ifndef VQX_CHECKASM_FLOAT_SAMPLES_H
#define VQX_CHECKASM_FLOAT_SAMPLES_H

#include <stdint.h>

#include "checkasm.h"

enum Content { RANDOM, ZERO_PEAK, PEAK, ALTERNATE, EXTREMES, EQUAL, OFFSET, ARBITRARY, N_CONTENT };
static const char *const content_name[N_CONTENT] = {
    "random", "0 - peak", "peak", "alternating", "random extremes", "equal", "offset -128",
    "arbitrary floats"
};

static inline float value(enum Content c, unsigned bpc, unsigned which, unsigned x)
{
    const unsigned max = (1u << bpc) - 1;
    const float step = 1.0f / (float)(1u << (bpc - 8));
    switch (c) {
    case ZERO_PEAK: return which ? (float)max * step : 0.0f;
    case PEAK: return (float)max * step;
    case ALTERNATE: return (x + which) & 1 ? (float)max * step : 0.0f;
    case EXTREMES: return checkasm_rand() & 1 ? (float)max * step : 0.0f;
    case OFFSET: return (float)(checkasm_rand() & max) * step - 128.0f;
    case ARBITRARY: return (float)(int32_t)checkasm_rand() / 65536.0f / 3.0f;
    default: return (float)(checkasm_rand() & max) * step;
    }
}

static inline double start(unsigned i)
{
    switch (i) {
    case 0: return 0;
    case 1: return (double)(checkasm_rand() & 0xfffffff) / 65536.0;
    case 2: return 0x1p37 - 1024.0; /* 2^(53 - 16) */
    case 3: return 0x1p53 - 0x1p20;
    case 4: return 0x1p53 - 64.0; /* where negative terms would first cross */
    case 5: return 0.1;
    case 6: return 1e300;
    case 7: return -0.0;
    default: return -1.0;
    }
}
#define N_STARTS 9

/* The bench's input: two rows of n random 8-bit samples' floats, in a and b
 * (free their .mem). */
static inline void bench_rows(CheckasmBuf *a, CheckasmBuf *b, unsigned n)
{
    *a = checkasm_buf_alloc(sizeof(float) * n, 0);
    *b = checkasm_buf_alloc(sizeof(float) * n, 0);
    for (unsigned i = 0; i < n; i++) {
        ((float *)a->p)[i] = value(RANDOM, 8, 0, i);
        ((float *)b->p)[i] = value(RANDOM, 8, 1, i);
    }
}

#endif
