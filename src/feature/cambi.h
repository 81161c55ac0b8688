/*
 * CAMBI's state, set-up and stage functions, shared by the CPU extractor
 * (cambi.c, cambi_tmpl.c), its CUDA twin (cuda/cambi_twin.c) and the kernel
 * checks. The per-pixel statements that both the CPU and the device run are
 * the VQX_HOSTDEV inlines at the end (compiled by nvcc too).
 */
#ifndef VQX_FEATURE_CAMBI_H
#define VQX_FEATURE_CAMBI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "feature/cambi_sizes.h"
#include "hostdev.h"

#ifndef __CUDACC__
#include <stdio.h>

#include "bitdepth.h"
#include "feature/cambi_dsp.h"
#include "feature/extractor.h"

typedef struct CambiGeometry {
    unsigned w, h;           /* resolution scored */
    unsigned window;         /* odd side of the contrast window */
    unsigned mask_threshold; /* flat pixels needed in a 7x7 block */
    unsigned *rows, *cols;   /* input sample of each output row / column */
} CambiGeometry;

typedef struct CambiState {
    /* options */
    double max_val;
    int enc_width, enc_height, enc_bitdepth;
    int src_width, src_height;
    int window_size;
    double topk, cambi_topk;
    double tvi_threshold;
    double vis_lum_threshold;
    int max_log_contrast;
    const char *heatmaps_path;
    bool full_ref;
    const char *eotf, *cambi_eotf;
    int high_res_speedup;

    /* fixed by vqx_cambi_setup */
    unsigned bpc;
    bool smooth;             /* encode below 10 bits: 2x2 anti-dithering mean */
    bool halve_first;        /* high-resolution speed-up: scale 0 is halved */
    double pool_topk;
    CambiGeometry dis, src;
    unsigned n_steps;
    /* Step d + 1 is visible up to code value tvi[d] - n_steps. */
    uint16_t tvi[CAMBI_MAX_STEPS];
    uint16_t vlt_luma;       /* darkest visible code value, 0: no limit */
    /* Only code values in [band_lo, band_lo + band_size) can contribute. */
    unsigned band_lo, band_size;
    float reciprocal[CAMBI_RECIPROCALS];
    FILE *heatmaps[CAMBI_SCALES];

    CambiDSPContext dsp;     /* for the picture's bit depth and CPU flags */

    /* CPU buffers (init), compact rows of the current scale's width */
    uint16_t *image;
    uint8_t *mask;
    float *contrast;
    /* band_size rows: one count per column, and `pad` spare columns either
     * side so that every pixel updates a whole window's width */
    uint16_t *hist;
    uint16_t *mode_rows;     /* 3 rows */
    uint8_t *flat_rows;      /* ring of CAMBI_MASK_SIZE + 1 rows */
    uint8_t *flat_cols;      /* flat pixels of the 7 rows around, per column */
    uint16_t *heat;          /* a scale's heatmap */
} CambiState;

extern const char *const vqx_cambi_keys[];
/* cambi_source and cambi_full_reference keep their plain names. */
#define CAMBI_UNSUFFIXED_KEYS (1u << 1 | 1u << 2)
extern const VqxOption vqx_cambi_options[];
/* Weight of a luma step of d + 1 (libvmaf's contrast response). */
extern const int vqx_cambi_step_weights[CAMBI_MAX_STEPS];

/* Checks the options against the format and fixes every constant, the
 * geometries (with their row/column maps) and the heatmap files; no pixel
 * buffer. Failures as the CPU extractor's init. */
int vqx_cambi_setup(CambiState *s, const VqxFrameFormat *fmt, VqxSink *sink);
/* Frees what setup and init made, leaving the options (set-up can run again). */
void vqx_cambi_close(void *state);

/* The size of scale `scale` of geometry g. */
void vqx_cambi_scale_size(const CambiState *s, const CambiGeometry *g, unsigned scale,
                          unsigned *w, unsigned *h);

/* A picture's score from the pooled means of its scales. */
double vqx_cambi_score(const CambiGeometry *g, const double mean[CAMBI_SCALES]);
/* Emits the distorted picture's score; with full_ref (src_score) also the
 * source's and the excess. */
int vqx_cambi_emit_distorted(const CambiState *s, unsigned frame, double dis_score,
                             VqxSink *sink);
int vqx_cambi_emit_full_ref(const CambiState *s, unsigned frame, double dis_score,
                            double src_score, VqxSink *sink);
/* Heatmaps: the gain of vqx_cambi_heat, and the writing of scale `scale`'s
 * w x h map of frame `frame`. */
double vqx_cambi_heat_gain(const CambiState *s);
int vqx_cambi_write_heatmap(const CambiState *s, unsigned scale, unsigned w, unsigned h,
                            unsigned frame, const uint16_t *heat, VqxSink *sink);

/* Stages of one picture, on the state's buffers (for the kernel checks):
 * smooth and mask read s->image (w x h); halve makes image and mask
 * (w+1)/2 x (h+1)/2; the mode filter works on s->image; the contrast
 * values go to s->contrast. */
/* Nearest-neighbour source index of each of `out` samples taken from `in`
 * (the set-up's rows and columns; the checkasm module's too). */
void vqx_cambi_nearest_map(unsigned *map, unsigned in, unsigned out);
void vqx_cambi_smooth_2x2(uint16_t *img, unsigned w, unsigned h);
void vqx_cambi_spatial_mask(CambiState *s, unsigned w, unsigned h, unsigned threshold);
void vqx_cambi_halve(CambiState *s, unsigned w, unsigned h);
void vqx_cambi_mode_filter(CambiState *s, unsigned w, unsigned h);
void vqx_cambi_contrast_values(CambiState *s, unsigned w, unsigned h, unsigned window);

/* Nearest-neighbour resampling of a `bpc`-bit plane to 10 bits: output
 * sample (y, x) is input sample (rows[y], cols[x]), shifted left (bpc < 10)
 * or rounded right (bpc > 10). `out` has out_w samples per row. */
BF_DECL(void, vqx_cambi_load_10bit, const void *data, ptrdiff_t stride, unsigned bpc,
        const unsigned *rows, const unsigned *cols, unsigned out_w, unsigned out_h,
        uint16_t *out);
#endif /* !__CUDACC__ */

/* ---- per-sample statements of both the CPU and the device ---- */

/* A `bpc`-bit sample at 10 bits: shifted up, or rounded down. */
static inline VQX_HOSTDEV uint16_t vqx_cambi_to_10bit(unsigned v, unsigned bpc)
{
    const unsigned up = bpc < 10 ? 10 - bpc : 0;
    const unsigned down = bpc > 10 ? bpc - 10 : 0;
    const unsigned half = down ? 1u << (down - 1) : 0;
    return (uint16_t)(((v << up) + half) >> down);
}

/* The value at least two of three share (then also their median), else the
 * smallest. Branch-free: the choice is data-dependent. */
static inline VQX_HOSTDEV uint16_t vqx_cambi_mode3(uint16_t a, uint16_t b, uint16_t c)
{
    const uint16_t lo = a < b ? a : b, hi = a < b ? b : a;
    const uint16_t min = lo < c ? lo : c;
    const uint16_t median = hi < c ? hi : lo > c ? lo : c;
    return a != b && a != c && b != c ? min : median;
}

/* Does step d + 1 count for a pixel of code value `value`? (tvi is offset
 * by n_steps, so the level is too.) */
static inline VQX_HOSTDEV bool vqx_cambi_step_counts(unsigned value, unsigned n_steps,
                                                     unsigned d, unsigned tvi, unsigned vlt)
{
    const unsigned level = value + n_steps;
    return !(level > tvi || level + d + 1 <= vlt);
}

/* The weighted p0 * p1 / (p0 + p1) of a step, through the reciprocal table. */
static inline VQX_HOSTDEV float vqx_cambi_step_contrast(int weight, unsigned p0, unsigned p1,
                                                        const float *reciprocal)
{
    return (float)(weight * (int)(p0 * p1)) * reciprocal[p0 + p1];
}

/* A heatmap sample. libvmaf converts straight to uint16_t; a value past
 * 65535 (possible by a fraction with max_log_contrast 0) then wraps on
 * x86, which converts through 32 bits: the int step makes that explicit,
 * and makes the device (whose conversion would saturate) agree. */
static inline VQX_HOSTDEV uint16_t vqx_cambi_heat(double gain, float contrast)
{
    return (uint16_t)(int)(gain * contrast);
}

#endif
