/*
 * The pictures of the CAMBI kernel checks (cuda_cambi_kernels.c,
 * vulkan_kernels.c): random full-range, flat, banded gradients, banded
 * gradients with noise, at any depth.
 */
#ifndef VQX_TESTS_CAMBI_CONTENT_H
#define VQX_TESTS_CAMBI_CONTENT_H

#include <stdint.h>

#include "picture.h"
#include "xorshift.h"

enum CambiContent { CAMBI_RANDOM, CAMBI_FLAT, CAMBI_BANDS, CAMBI_NOISY_BANDS,
                    CAMBI_CONTENTS };
static const char *const cambi_content_name[CAMBI_CONTENTS] = { "random", "flat", "bands",
                                                                 "noisy bands" };

/* A 10-bit slow ramp in the visible dark-to-mid range: wide flat bands. */
static unsigned band_value(unsigned x, unsigned y)
{
    return 64 + (3 * x + y) / 23 % 160;
}

static unsigned sample_at(enum CambiContent c, unsigned x, unsigned y, unsigned bpc)
{
    const unsigned max = (1u << bpc) - 1;
    unsigned v10;
    switch (c) {
    case CAMBI_RANDOM: return rnd() % (max + 1);
    case CAMBI_FLAT: v10 = 300; break;
    case CAMBI_BANDS: v10 = band_value(x, y); break;
    default:
        v10 = band_value(x, y);
        if (rnd() % 11 == 0) v10 += rnd() % 5;
        break;
    }
    return bpc >= 10 ? v10 << (bpc - 10) | (c == CAMBI_NOISY_BANDS ? rnd() % (1u << (bpc - 10)) : 0)
                     : v10 >> (10 - bpc);
}

static void cambi_fill(VqxPicture *p, enum CambiContent c)
{
    for (unsigned y = 0; y < p->h[0]; y++) {
        uint8_t *row = (uint8_t *)p->data[0] + y * p->stride[0];
        for (unsigned x = 0; x < p->w[0]; x++) {
            const unsigned v = sample_at(c, x, y, p->bpc);
            if (p->bpc == 8) row[x] = (uint8_t)v;
            else ((uint16_t *)row)[x] = (uint16_t)v;
        }
    }
}

#endif
