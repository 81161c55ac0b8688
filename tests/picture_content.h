/*
 * Picture contents of the CUDA kernel checks (tests/cuda_kernels.c,
 * tests/cuda_ssim_kernels.c): random samples, extremes, a smooth ramp with
 * noise in the distorted picture, equal pictures and flat blocks, drawn
 * from xorshift.h's rnd().
 */
#ifndef VQX_TESTS_PICTURE_CONTENT_H
#define VQX_TESTS_PICTURE_CONTENT_H

#include <stdint.h>
#include <string.h>

#include "picture.h"
#include "xorshift.h"

enum Content { RANDOM, EXTREMES, SMOOTH_NOISY, EQUAL, FLAT_BLOCKS, N_CONTENTS };
static const char *const content_name[N_CONTENTS] = { "random", "extremes", "smooth+noise",
                                                      "equal", "flat blocks" };

/* Sample (x, y) of the reference (dis 0) or distorted (1) picture; EQUAL's
 * pictures are fill()'s business. */
static inline unsigned sample_at(enum Content c, unsigned x, unsigned y, unsigned max, int dis)
{
    switch (c) {
    case EXTREMES: {
        /* blocks of 0 and of the maximum, a checkerboard of both, and
         * single extreme samples on random content */
        const unsigned block = ((x / 7) + (y / 5) * 3 + (unsigned)dis) % 4;
        if (block == 0) return 0;
        if (block == 1) return max;
        if (block == 2) return (x + y + (unsigned)dis) & 1 ? max : 0;
        return rnd() % 3 == 0 ? (rnd() & 1 ? max : 0) : rnd() % (max + 1);
    }
    case SMOOTH_NOISY: {
        const unsigned base = (unsigned)((x * 5 + y * 3 + ((x * y) >> 4)) % 256) * max / 255;
        const unsigned noise = rnd() % (max / 16 + 2);
        const unsigned v = dis ? base + noise : base;
        return v > max ? max : v;
    }
    case FLAT_BLOCKS: {
        /* 24x24 blocks of one value, the same in both pictures but for
         * every fifth block, which the distorted picture lightens */
        const unsigned b = (x / 24) * 7919u + (y / 24) * 104729u;
        const unsigned v = (b * 2654435761u >> 8) % (max + 1);
        return dis && b % 5 == 0 ? (v + max / 8 > max ? max : v + max / 8) : v;
    }
    default:
        return rnd() % (max + 1);
    }
}

/* Planes [first, last] of ref and dis of one content; EQUAL: dis is a copy
 * of a random ref. */
static inline void fill_planes(VqxPicture *ref, VqxPicture *dis, enum Content c, int first,
                               int last)
{
    const unsigned max = (1u << ref->bpc) - 1;
    for (int which = 0; which < 2; which++) {
        VqxPicture *p = which ? dis : ref;
        for (int pl = first; pl <= last; pl++) {
            const size_t row_bytes = p->w[pl] * (p->bpc == 8 ? 1 : 2);
            for (unsigned y = 0; y < p->h[pl]; y++) {
                uint8_t *row = (uint8_t *)p->data[pl] + y * p->stride[pl];
                if (c == EQUAL && which) {
                    memcpy(row, (const uint8_t *)ref->data[pl] + y * ref->stride[pl], row_bytes);
                    continue;
                }
                for (unsigned x = 0; x < p->w[pl]; x++) {
                    const unsigned v = sample_at(c == EQUAL ? RANDOM : c, x, y, max, which);
                    if (p->bpc == 8) row[x] = (uint8_t)v;
                    else ((uint16_t *)row)[x] = (uint16_t)v;
                }
            }
        }
    }
}

static inline void fill(VqxPicture *ref, VqxPicture *dis, enum Content c)
{
    fill_planes(ref, dis, c, 0, 0);
}

/* The chroma planes, as fill() makes the luma. */
static inline void fill_chroma(VqxPicture *ref, VqxPicture *dis, enum Content c)
{
    fill_planes(ref, dis, c, 1, 2);
}

#endif
