/*
 * The pictures of the CAMBI kernel checks (cuda_cambi_kernels.c,
 * vulkan_kernels.c): random full-range, flat, banded gradients, banded
 * gradients with noise, at any depth; and the CPU extractor's state that
 * both checks compare each stage with.
 */
#ifndef VQX_TESTS_CAMBI_CONTENT_H
#define VQX_TESTS_CAMBI_CONTENT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "picture.h"
#include "xorshift.h"
#include "feature/cambi.h"
#include "feature/registry.h"
#include "options.h"

/* The widest contrast window the checks run (the 4K one), beside each
 * option set's own. */
#define CAMBI_BIG_WINDOW 65

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

/* The CPU extractor's state for pic's luma under opts, its histogram wide
 * enough for CAMBI_BIG_WINDOW; NULL, with a failed check, when the CPU
 * refuses the set-up. */
static CambiState *cambi_cpu_state(const VqxPicture *pic, const char *opts, const char *where)
{
    const VqxFeatureExtractor *fex = vqx_registry_find("cambi", VQX_BACKEND_CPU);
    CambiState *s = calloc(1, fex->state_size);
    char kv[160], err[256];
    snprintf(kv, sizeof(kv), "%s", opts);
    const VqxFrameFormat fmt = { .layout = VQX_PIX_400, .bpc = pic->bpc, .w = pic->w[0],
                                 .h = pic->h[0] };
    if (!s || vqx_options_apply(fex, s, kv, err, sizeof(err)) || fex->init(s, &fmt, NULL)) {
        CHECK(0, "%s cambi %s: cpu set-up", where, opts);
        free(s);
        return NULL;
    }
    free(s->hist);
    s->hist = malloc((s->band_size ? s->band_size : 1) * (s->dis.w + CAMBI_BIG_WINDOW) * 2);
    return s;
}

static void cambi_cpu_free(CambiState *s)
{
    vqx_registry_find("cambi", VQX_BACKEND_CPU)->close(s);
    free(s);
}

/* pic's luma into s->image at 10 bits as the CPU loads it, smoothed when
 * `smooth`. */
static void cambi_cpu_load(CambiState *s, const VqxPicture *pic, bool smooth)
{
    const CambiGeometry *g = &s->dis;
    (pic->bpc == 8 ? vqx_cambi_load_10bit_8bpc : vqx_cambi_load_10bit_16bpc)(
        pic->data[0], pic->stride[0], pic->bpc, g->rows, g->cols, g->w, g->h, s->image);
    if (smooth) vqx_cambi_smooth_2x2(s->image, g->w, g->h);
}

#endif
