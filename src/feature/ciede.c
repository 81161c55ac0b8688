/*
 * ciede: mean CIEDE2000 colour difference of the two pictures, each pixel
 * taken from BT.709 limited-range YUV to CIELAB (D65), written as
 * 45 - 20 log10(mean dE00), equal to libvmaf's ciede where libvmaf reads
 * the right samples (see docs/ciede.md: 4:2:2 and odd sizes).
 */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "bitdepth.h"
#include "feature/ciede_dsp.h"
#include "feature/extractor.h"

/* Converting a colour to CIELAB costs six pow calls and neighbouring
 * pixels often share a colour, so conversions are kept: at 8 bits in a
 * table of every (Y, U, V), filled as colours appear (calloc'd, so only
 * the pages of colours seen are ever touched); deeper, in a direct-mapped
 * cache of (Y, U, V) -> Lab, where an empty slot holds a key no sample
 * triple makes. */
#define TABLE_BITS 24
#define CACHE_BITS 16
#define NO_KEY UINT64_MAX
typedef struct LabCacheEntry {
    uint64_t key;
    CiedeLab lab;
} LabCacheEntry;

typedef struct CiedeState {
    unsigned ss_x, ss_y;      /* chroma subsampling shifts */
    bool wide;                /* 16-bit samples */
    CiedeYuvScale scale;
    CiedeLab *table;          /* 8 bits: 1 << TABLE_BITS entries, */
    uint64_t *known;          /* each valid where its bit is set */
    LabCacheEntry *cache;     /* deeper: 1 << CACHE_BITS entries */
    uint64_t *ref_key, *dis_key; /* a row's differing pixels (colour_key), */
    CiedeLab *ref_lab, *dis_lab; /* their colours, */
    float *de;                /* and their differences */
    CiedeDSPContext dsp;
} CiedeState;

static const char *const keys[] = { "ciede2000", NULL };

static int init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    (void)sink;
    CiedeState *s = priv;
    s->ss_x = fmt->layout == VQX_PIX_420 || fmt->layout == VQX_PIX_422;
    s->ss_y = fmt->layout == VQX_PIX_420;
    s->wide = fmt->bpc > 8;
    s->scale = vqx_ciede_yuv_scale(fmt->bpc);
    vqx_ciede_dsp_init(&s->dsp, fmt->cpu_flags);
    s->ref_key = malloc(sizeof(uint64_t) * fmt->w);
    s->dis_key = malloc(sizeof(uint64_t) * fmt->w);
    s->ref_lab = malloc(sizeof(CiedeLab) * fmt->w);
    s->dis_lab = malloc(sizeof(CiedeLab) * fmt->w);
    s->de = malloc(sizeof(float) * fmt->w);
    if (!s->ref_key || !s->dis_key || !s->ref_lab || !s->dis_lab || !s->de) return -ENOMEM;
    if (fmt->bpc == 8) {
        s->table = calloc((size_t)1 << TABLE_BITS, sizeof(CiedeLab));
        s->known = calloc((size_t)1 << (TABLE_BITS - 6), sizeof(uint64_t));
        if (!s->table || !s->known) return -ENOMEM;
    } else {
        s->cache = malloc(sizeof(LabCacheEntry) << CACHE_BITS);
        if (!s->cache) return -ENOMEM;
        for (unsigned i = 0; i < 1u << CACHE_BITS; i++) s->cache[i].key = NO_KEY;
    }
    return 0;
}

static inline uint64_t colour_key(unsigned y, unsigned u, unsigned v)
{
    return (uint64_t)y << 32 | (uint64_t)u << 16 | v;
}

/* The 8-bit table's entry of a key: luma lowest, as neighbours mostly
 * share their chroma and differ in luma, so that their entries share pages
 * and often cache lines. */
static inline uint32_t table_index(uint64_t key)
{
    return (uint32_t)(key & 0xff) << 16 | (uint32_t)(key >> 16 & 0xff) << 8 | (uint32_t)(key >> 32);
}

static CiedeLab lab_of(CiedeState *s, uint64_t key)
{
    const unsigned y = (unsigned)(key >> 32), u = (unsigned)(key >> 16 & 0xffff), v = (unsigned)(key & 0xffff);
    if (s->table) {
        const uint32_t i = table_index(key);
        if (!(s->known[i >> 6] >> (i & 63) & 1)) {
            s->known[i >> 6] |= (uint64_t)1 << (i & 63);
            s->table[i] = vqx_ciede_to_lab(&s->scale, y, u, v);
        }
        return s->table[i];
    }
    LabCacheEntry *e = &s->cache[(key * 0x9E3779B97F4A7C15u) >> (64 - CACHE_BITS)];
    if (e->key != key) {
        e->key = key;
        e->lab = vqx_ciede_to_lab(&s->scale, y, u, v);
    }
    return e->lab;
}

static inline unsigned sample(const void *row, unsigned x, bool wide)
{
    return wide ? ((const uint16_t *)row)[x] : ((const uint8_t *)row)[x];
}

/* Each luma sample with the chroma sample that covers it: (x >> ss_x,
 * y >> ss_y) in planes of ceil(w / 2) and ceil(h / 2) when subsampled. */
static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    CiedeState *s = priv;
    const unsigned w = ref->w[0], h = ref->h[0];
    const bool wide = s->wide;
    double sum = 0.;
    for (unsigned y = 0; y < h; y++) {
        const unsigned cy = y >> s->ss_y;
        const void *ry = PIXEL_ROW(uint8_t, ref->data[0], ref->stride[0], y);
        const void *ru = PIXEL_ROW(uint8_t, ref->data[1], ref->stride[1], cy);
        const void *rv = PIXEL_ROW(uint8_t, ref->data[2], ref->stride[2], cy);
        const void *dy = PIXEL_ROW(uint8_t, dis->data[0], dis->stride[0], y);
        const void *du = PIXEL_ROW(uint8_t, dis->data[1], dis->stride[1], cy);
        const void *dv = PIXEL_ROW(uint8_t, dis->data[2], dis->stride[2], cy);
        size_t n = 0;
        for (unsigned x = 0; x < w; x++) {
            const unsigned cx = x >> s->ss_x;
            const uint64_t k1 = colour_key(sample(ry, x, wide), sample(ru, cx, wide), sample(rv, cx, wide));
            const uint64_t k2 = colour_key(sample(dy, x, wide), sample(du, cx, wide), sample(dv, cx, wide));
            /* Equal colours differ by exactly +0: nothing to add. */
            if (k1 == k2) continue;
            s->ref_key[n] = k1;
            s->dis_key[n++] = k2;
            /* the table's misses overlap when their loads start a row ahead */
            if (s->table) {
                __builtin_prefetch(&s->table[table_index(k1)]);
                __builtin_prefetch(&s->table[table_index(k2)]);
            }
        }
        for (size_t k = 0; k < n; k++) {
            s->ref_lab[k] = lab_of(s, s->ref_key[k]);
            s->dis_lab[k] = lab_of(s, s->dis_key[k]);
        }
        s->dsp.delta_e(s->ref_lab, s->dis_lab, s->de, n);
        /* in pixel order, as libvmaf sums */
        for (size_t k = 0; k < n; k++) sum += s->de[k];
    }
    const double score = 45. - 20. * log10(sum / (w * h));
    return vqx_emit(sink, 0, frame, score);
}

static void close_ciede(void *priv)
{
    CiedeState *s = priv;
    free(s->table);
    free(s->known);
    free(s->cache);
    free(s->ref_key);
    free(s->dis_key);
    free(s->ref_lab);
    free(s->dis_lab);
    free(s->de);
}

const VqxFeatureExtractor vqx_fex_ciede = {
    .name = "ciede",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_NEEDS_CHROMA,
    .keys = keys,
    .state_size = sizeof(CiedeState),
    .init = init,
    .extract = extract,
    .close = close_ciede,
};
