/*
 * CAMBI, the Contrast Aware Multiscale Banding Index: libvmaf's banding
 * metric, computed on the luma of the distorted picture alone (and, with
 * full_ref, of the reference too). Per picture:
 *  1. the luma is resampled (nearest neighbour) to the encode resolution and
 *     to 10 bits; when the encode had fewer than 10 bits a 2x2 mean removes
 *     dithering;
 *  2. a spatial mask keeps the pixels whose 7x7 neighbourhood is mostly flat
 *     (samples equal to their right and lower neighbours);
 *  3. at five scales (each half the previous one, after a 3x3 mode filter)
 *     every masked pixel gets a contrast value from the histogram of the
 *     masked pixels of the window around it: over the luma steps 1..2^mlc
 *     that are visible (TVI) at its level, the largest weighted
 *     p0 * p1 / (p0 + p1), p0 counting its own level and p1 the level one
 *     step up or down;
 *  4. each scale pools the mean of its top-k contrast values; the scales are
 *     weighted 16:8:4:2:1 and normalised by the window's pixel count.
 * Nothing carries from one frame to the next.
 */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "feature/cambi.h"
#include "feature/extractor.h"
#include "feature/luminance.h"
#include "feature/top_mean.h"

/* Parameters of libvmaf's cambi.c (Netflix, BSD+Patent). */
static const int scale_weights[CAMBI_SCALES] = { 16, 8, 4, 2, 1 };
/* Suprathreshold contrast response: weight of a luma step of d + 1. */
const int vqx_cambi_step_weights[CAMBI_MAX_STEPS] = {
    1, 2, 3, 4, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 8,
    8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9,
};
#define MIN_SIDE 216           /* width or height must reach this */
#define WINDOW_REF_SIDES 375   /* (3840 + 2160) / 16: the window is given for 4K */
#define DEFAULT_TOPK 0.6
#define DEFAULT_EOTF "bt1886"

enum { KEY_CAMBI, KEY_SOURCE, KEY_FULL_REFERENCE };

const char *const vqx_cambi_keys[] = {
    "Cambi_feature_cambi_score", "cambi_source", "cambi_full_reference", NULL
};

static const char *const eotfs[] = { "bt1886", "pq", NULL };
/* libvmaf takes any value in 0..2160 and ignores all but these */
static const double speedup_heights[] = { 0, 1080, 1440, 2160 };

const VqxOption vqx_cambi_options[] = {
    { .name = "cambi_max_val", .alias = "cmxv",
      .help = "largest score; larger ones are clipped to it",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(CambiState, max_val), .def.d = 1000.0,
      .min = 0.0, .max = 1000.0, .flags = VQX_OPT_NAMES_KEY },
    { .name = "enc_width", .alias = "encw", .help = "encoding width (0: the input's)",
      .type = VQX_OPT_INT, .offset = offsetof(CambiState, enc_width), .def.i = 0,
      .min = 180, .max = 7680, .flags = VQX_OPT_NAMES_KEY },
    { .name = "enc_height", .alias = "ench", .help = "encoding height (0: the input's)",
      .type = VQX_OPT_INT, .offset = offsetof(CambiState, enc_height), .def.i = 0,
      .min = 150, .max = 7680, .flags = VQX_OPT_NAMES_KEY },
    { .name = "enc_bitdepth", .alias = "encbd", .help = "encoding bit depth (0: the input's)",
      .type = VQX_OPT_INT, .offset = offsetof(CambiState, enc_bitdepth), .def.i = 0,
      .min = 6, .max = 16, .flags = VQX_OPT_NAMES_KEY },
    { .name = "src_width", .alias = "srcw", .help = "source width, with full_ref (0: the input's)",
      .type = VQX_OPT_INT, .offset = offsetof(CambiState, src_width), .def.i = 0,
      .min = 320, .max = 7680, .flags = VQX_OPT_NAMES_KEY },
    { .name = "src_height", .alias = "srch", .help = "source height, with full_ref (0: the input's)",
      .type = VQX_OPT_INT, .offset = offsetof(CambiState, src_height), .def.i = 0,
      .min = 200, .max = 4320, .flags = VQX_OPT_NAMES_KEY },
    { .name = "window_size", .alias = "ws",
      .help = "contrast window side at 4K (65: about one degree); scaled to the resolution",
      .type = VQX_OPT_INT, .offset = offsetof(CambiState, window_size), .def.i = 65,
      .min = 15, .max = 127, .flags = VQX_OPT_NAMES_KEY },
    { .name = "topk", .help = "fraction of the pixels pooled at each scale (the largest)",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(CambiState, topk), .def.d = DEFAULT_TOPK,
      .min = 0.0001, .max = 1.0, .flags = VQX_OPT_NAMES_KEY },
    { .name = "cambi_topk", .alias = "ctpk", .help = "as topk; topk wins when both are set",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(CambiState, cambi_topk), .def.d = DEFAULT_TOPK,
      .min = 0.0001, .max = 1.0, .flags = VQX_OPT_NAMES_KEY },
    { .name = "tvi_threshold", .alias = "tvit",
      .help = "a luminance step dL is visible when dL > tvi_threshold * L",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(CambiState, tvi_threshold), .def.d = 0.019,
      .min = 0.0001, .max = 1.0, .flags = VQX_OPT_NAMES_KEY },
    { .name = "cambi_vis_lum_threshold", .alias = "vlt",
      .help = "luminance (cd/m^2) below which banding is taken as invisible",
      .type = VQX_OPT_DOUBLE, .offset = offsetof(CambiState, vis_lum_threshold), .def.d = 0.0,
      .min = 0.0, .max = 300.0, .flags = VQX_OPT_NAMES_KEY },
    { .name = "max_log_contrast", .alias = "mlc",
      .help = "largest luma step considered, log2 of 10-bit code values (2: 4 at 10 bits)",
      .type = VQX_OPT_INT, .offset = offsetof(CambiState, max_log_contrast), .def.i = 2,
      .min = 0, .max = 5, .flags = VQX_OPT_NAMES_KEY },
    { .name = "heatmaps_path", .help = "folder for per-scale contrast maps (16-bit gray)",
      .type = VQX_OPT_STRING, .offset = offsetof(CambiState, heatmaps_path), .def.s = NULL },
    { .name = "full_ref", .help = "also score the reference; adds cambi_source, cambi_full_reference",
      .type = VQX_OPT_BOOL, .offset = offsetof(CambiState, full_ref), .def.b = false },
    { .name = "eotf", .help = "EOTF of the visibility thresholds",
      .type = VQX_OPT_STRING, .offset = offsetof(CambiState, eotf), .def.s = DEFAULT_EOTF,
      .choices = eotfs, .flags = VQX_OPT_NAMES_KEY },
    { .name = "cambi_eotf", .alias = "ceot", .help = "as eotf; wins when both are set",
      .type = VQX_OPT_STRING, .offset = offsetof(CambiState, cambi_eotf), .def.s = DEFAULT_EOTF,
      .choices = eotfs, .flags = VQX_OPT_NAMES_KEY },
    { .name = "cambi_high_res_speedup", .alias = "hrs",
      .help = "from this resolution on (1080, 1440 or 2160; 0: never), score at half size",
      .type = VQX_OPT_INT, .offset = offsetof(CambiState, high_res_speedup), .def.i = 0,
      .values = speedup_heights, .n_values = sizeof(speedup_heights) / sizeof(speedup_heights[0]),
      .flags = VQX_OPT_NAMES_KEY },
    { 0 }
};

/* ---- set-up ---- */

/* Is a step of `step` code values above `code` visible? */
static bool step_visible(int code, int step, double threshold, VqxLumaRange range, VqxEotf eotf)
{
    const double l = vqx_luminance(code, range, eotf);
    return vqx_luminance(code + step, range, eotf) - l > threshold * l;
}

/* -1: the step is invisible at `code`; 1: still visible one code value up;
 * 0: `code` is the last level where it is visible. */
static int visibility_edge(int code, int step, double threshold, VqxLumaRange range, VqxEotf eotf)
{
    if (!step_visible(code, step, threshold, range, eotf)) return -1;
    return step_visible(code + 1, step, threshold, range, eotf) ? 1 : 0;
}

/* Largest 10-bit code value at which a step is visible, found by bisection
 * over the nominal range; 0 when it is visible nowhere, 1023 when above the
 * range. The probe sequence is libvmaf's, so a non-monotone threshold curve
 * gives the same answer. */
static int last_visible_code(int step, double threshold, VqxLumaRange range, VqxEotf eotf)
{
    int lo = range.black, hi = range.white - step - 1;
    int edge = visibility_edge(lo, step, threshold, range, eotf);
    if (edge <= 0) return edge < 0 ? 0 : lo;
    edge = visibility_edge(hi, step, threshold, range, eotf);
    if (edge >= 0) return edge > 0 ? 1023 : hi;
    for (;;) {
        const int mid = lo + (hi - lo) / 2;
        edge = visibility_edge(mid, step, threshold, range, eotf);
        if (!edge) return mid;
        if (edge < 0) hi = mid;
        else lo = mid;
    }
}

/* Darkest code value whose luminance reaches `threshold`; 0 when black does. */
static int darkest_visible_code(double threshold, VqxLumaRange range, VqxEotf eotf)
{
    int code = range.black;
    while (vqx_luminance(code, range, eotf) < threshold) code++;
    return code == range.black ? 0 : code;
}

/* The window option is for 4K; scale it by (w + h) / (3840 + 2160), halve
 * it with the speed-up, and make it odd. */
static unsigned scaled_window(int window, unsigned w, unsigned h, bool halve)
{
    unsigned side = (unsigned)window * (w + h) / WINDOW_REF_SIDES >> 4;
    if (halve) side = (side + 1) >> 1;
    return side | 1;
}

static unsigned flat_threshold(unsigned w, unsigned h)
{
    const uint32_t blocks = (w >> 6) * (h >> 6);
    int log2_blocks = 0;
    while (((uint32_t)1 << log2_blocks) < blocks) log2_blocks++;
    return (unsigned)(CAMBI_MASK_SIZE * CAMBI_MASK_SIZE + 3 * (log2_blocks - 11) - 1) >> 1;
}

/* Nearest-neighbour source index of each of `out` samples taken from `in`,
 * with libvmaf's single-precision stepping. Clamped: over long upscales the
 * float error could step past the last sample. */
void vqx_cambi_nearest_map(unsigned *map, unsigned in, unsigned out)
{
    const float ratio = (float)in / out;
    float pos = (float)(ratio / 2 - 0.5);
    for (unsigned i = 0; i < out; i++) {
        const unsigned at = (unsigned)(int)(pos + 0.5);
        map[i] = at < in ? at : in - 1;
        pos += ratio;
    }
}

static int make_dirs(const char *path)
{
    char buf[4096];
    const size_t len = strlen(path);
    if (!len || len >= sizeof(buf)) return -ENAMETOOLONG;
    memcpy(buf, path, len + 1);
    for (char *p = buf + 1; ; p++) {
        if (*p != '/' && *p) continue;
        const char c = *p;
        *p = 0;
        if (mkdir(buf, 0770) && errno != EEXIST) return -errno;
        *p = c;
        if (!c) break;
    }
    struct stat st;
    if (stat(path, &st)) return -errno;
    return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

static int open_heatmaps(CambiState *s, VqxSink *sink)
{
    const int err = make_dirs(s->heatmaps_path);
    if (err)
        return vqx_fail(sink, -EINVAL, "cambi: cannot create heatmaps_path %s: %s",
                        s->heatmaps_path, strerror(-err));
    for (unsigned scale = 0; scale < CAMBI_SCALES; scale++) {
        unsigned w, h;
        vqx_cambi_scale_size(s, &s->dis, scale, &w, &h);
        char path[4200];
        snprintf(path, sizeof(path), "%s/cambi_heatmap_scale_%u_%ux%u_16b.gray",
                 s->heatmaps_path, scale, w, h);
        s->heatmaps[scale] = fopen(path, "wb");
        if (!s->heatmaps[scale])
            return vqx_fail(sink, -EINVAL, "cambi: cannot write %s: %s", path, strerror(errno));
    }
    return 0;
}

static int init_geometry(CambiGeometry *g, const CambiState *s, const VqxFrameFormat *fmt,
                         unsigned w, unsigned h)
{
    g->w = w;
    g->h = h;
    g->window = scaled_window(s->window_size, w, h, s->halve_first);
    g->mask_threshold = flat_threshold(w, h);
    g->rows = malloc(h * sizeof(*g->rows));
    g->cols = malloc(w * sizeof(*g->cols));
    if (!g->rows || !g->cols) return -ENOMEM;
    vqx_cambi_nearest_map(g->rows, fmt->h, h);
    vqx_cambi_nearest_map(g->cols, fmt->w, w);
    return 0;
}

void vqx_cambi_scale_size(const CambiState *s, const CambiGeometry *g, unsigned scale,
                          unsigned *w, unsigned *h)
{
    const unsigned halvings = scale + s->halve_first;
    unsigned sw = g->w, sh = g->h;
    for (unsigned i = 0; i < halvings; i++) {
        sw = (sw + 1) >> 1;
        sh = (sh + 1) >> 1;
    }
    *w = sw;
    *h = sh;
}

int vqx_cambi_setup(CambiState *s, const VqxFrameFormat *fmt, VqxSink *sink)
{
    s->bpc = fmt->bpc;
    vqx_cambi_dsp_init(&s->dsp, fmt->bpc, fmt->cpu_flags);
    s->smooth = (s->enc_bitdepth ? (unsigned)s->enc_bitdepth : fmt->bpc) < 10;
    s->pool_topk = s->topk != DEFAULT_TOPK ? s->topk : s->cambi_topk;

    /* The encode is never upscaled back: larger settings mean the input's. */
    unsigned enc_w = s->enc_width, enc_h = s->enc_height;
    if (!enc_w || !enc_h || enc_w > fmt->w || enc_h > fmt->h) {
        enc_w = fmt->w;
        enc_h = fmt->h;
    }
    unsigned src_w = s->src_width, src_h = s->src_height;
    if (!src_w || !src_h) {
        src_w = fmt->w;
        src_h = fmt->h;
    }
    if (enc_w < MIN_SIDE && enc_h < MIN_SIDE)
        return vqx_fail(sink, -EINVAL, "cambi: %ux%u is too small: width or height must be at least %d",
                        enc_w, enc_h, MIN_SIDE);
    if (src_w < MIN_SIDE && src_h < MIN_SIDE)
        return vqx_fail(sink, -EINVAL, "cambi: source %ux%u is too small: width or height must be at least %d",
                        src_w, src_h, MIN_SIDE);
    if ((src_w > enc_w && src_h < enc_h) || (src_w < enc_w && src_h > enc_h))
        return vqx_fail(sink, -EINVAL, "cambi: source %ux%u and encode %ux%u: one must be at least "
                        "as large as the other in both directions", src_w, src_h, enc_w, enc_h);

    const uint64_t enc_pixels = (uint64_t)enc_w * enc_h;
    s->halve_first = (s->high_res_speedup == 1080 && enc_pixels >= 1920 * 1080) ||
                     (s->high_res_speedup == 1440 && enc_pixels >= 2560 * 1440) ||
                     (s->high_res_speedup == 2160 && enc_pixels >= 3840 * 2160);

    const VqxLumaRange range = vqx_luma_range_limited(10);
    const VqxEotf eotf = vqx_eotf_from_name(strcmp(s->cambi_eotf, DEFAULT_EOTF) ? s->cambi_eotf : s->eotf);
    s->n_steps = 1u << s->max_log_contrast;
    for (unsigned d = 0; d < s->n_steps; d++)
        s->tvi[d] = (uint16_t)(last_visible_code(d + 1, s->tvi_threshold, range, eotf) + s->n_steps);
    s->vlt_luma = (uint16_t)darkest_visible_code(s->vis_lum_threshold, range, eotf);

    /* A pixel only matters if some step could be both visible (code value
     * at most tvi) and above vlt_luma for a pixel it shares a window with;
     * counting only that band leaves every contrast value unchanged. */
    const int lo = (int)s->vlt_luma - 3 * (int)s->n_steps + 1;
    s->band_lo = lo > 0 ? (unsigned)lo : 0;
    unsigned hi = 0; /* tvi grows with the step: this is tvi[n_steps - 1] */
    for (unsigned d = 0; d < s->n_steps; d++) hi = s->tvi[d] > hi ? s->tvi[d] : hi;
    s->band_size = hi >= s->band_lo ? hi + 1 - s->band_lo : 0;

    s->reciprocal[0] = 0.0f;
    for (unsigned n = 1; n < CAMBI_RECIPROCALS; n++) {
        char digits[32];
        snprintf(digits, sizeof(digits), "%.9g", 1.0 / n);
        s->reciprocal[n] = strtof(digits, NULL);
    }

    int err = init_geometry(&s->dis, s, fmt, enc_w, enc_h);
    if (!err && s->full_ref) err = init_geometry(&s->src, s, fmt, src_w, src_h);
    if (err) return err;
    /* libvmaf checks the source window even without full_ref */
    const unsigned src_window = scaled_window(s->window_size, src_w, src_h, s->halve_first);
    const unsigned max_window = s->dis.window > src_window ? s->dis.window : src_window;
    if (max_window * max_window >= CAMBI_RECIPROCALS)
        return vqx_fail(sink, -EINVAL, "cambi: window_size %d gives a %u-pixel window at %ux%u, "
                        "above the largest supported (65)", s->window_size, max_window,
                        s->dis.window >= src_window ? enc_w : src_w,
                        s->dis.window >= src_window ? enc_h : src_h);
    return s->heatmaps_path ? open_heatmaps(s, sink) : 0;
}

static int init(void *priv, const VqxFrameFormat *fmt, VqxSink *sink)
{
    CambiState *s = priv;
    const int err = vqx_cambi_setup(s, fmt, sink);
    if (err) return err;
    const size_t max_w = s->full_ref && s->src.w > s->dis.w ? s->src.w : s->dis.w;
    const size_t max_h = s->full_ref && s->src.h > s->dis.h ? s->src.h : s->dis.h;
    const unsigned max_window = s->dis.window > s->src.window ? s->dis.window : s->src.window;
    s->image = malloc(max_w * max_h * sizeof(*s->image));
    s->mask = malloc(max_w * max_h * sizeof(*s->mask));
    s->contrast = malloc(max_w * max_h * sizeof(*s->contrast));
    const size_t max_pad = max_window / 2;
    s->hist = malloc((s->band_size ? s->band_size : 1) * (max_w + 2 * max_pad) * sizeof(*s->hist));
    s->mode_rows = malloc(3 * max_w * sizeof(*s->mode_rows));
    s->flat_rows = malloc((CAMBI_MASK_SIZE + 1) * max_w * sizeof(*s->flat_rows));
    s->flat_cols = malloc(max_w * sizeof(*s->flat_cols));
    if (s->heatmaps_path) s->heat = malloc(s->dis.w * s->dis.h * sizeof(*s->heat));
    if (!s->image || !s->mask || !s->contrast || !s->hist || !s->mode_rows || !s->flat_rows ||
        !s->flat_cols || (s->heatmaps_path && !s->heat))
        return -ENOMEM;
    return 0;
}

/* ---- per picture ---- */

/* 2x2 mean, in place; the last row and column average two samples. */
void vqx_cambi_smooth_2x2(uint16_t *img, unsigned w, unsigned h)
{
    for (unsigned y = 0; y + 1 < h; y++) {
        uint16_t *row = img + (size_t)y * w;
        const uint16_t *below = row + w;
        for (unsigned x = 0; x + 1 < w; x++)
            row[x] = (uint16_t)((row[x] + row[x + 1] + below[x] + below[x + 1]) >> 2);
        row[w - 1] = (uint16_t)((row[w - 1] + below[w - 1]) >> 1);
    }
    uint16_t *last = img + (size_t)(h - 1) * w;
    for (unsigned x = 0; x + 1 < w; x++)
        last[x] = (uint16_t)((last[x] + last[x + 1]) >> 1);
}

/* mask = more than `threshold` flat pixels in the 7x7 block around (clipped
 * to the picture): running column sums over a ring of flag rows, then a
 * running sum along the row. */
void vqx_cambi_spatial_mask(CambiState *s, unsigned w, unsigned h, unsigned threshold)
{
    const CambiDSPContext *dsp = &s->dsp;
    const unsigned r = CAMBI_MASK_SIZE / 2, ring = CAMBI_MASK_SIZE + 1;
    const uint16_t *img = s->image;
    uint8_t *cols = s->flat_cols;
    memset(cols, 0, w * sizeof(*cols));
    for (unsigned y = 0; y < r && y < h; y++) {
        uint8_t *f = s->flat_rows + (size_t)(y % ring) * w;
        dsp->flat_row(img + (size_t)y * w, y + 1 < h ? img + (size_t)(y + 1) * w : NULL, w, f);
        for (unsigned x = 0; x < w; x++) cols[x] += f[x];
    }
    for (unsigned y = 0; y < h; y++) {
        uint8_t *enter = NULL;
        if (y + r < h) {
            const unsigned i = y + r;
            enter = s->flat_rows + (size_t)(i % ring) * w;
            dsp->flat_row(img + (size_t)i * w, i + 1 < h ? img + (size_t)(i + 1) * w : NULL, w,
                          enter);
        }
        const uint8_t *leave = y > r ? s->flat_rows + (size_t)((y - r - 1) % ring) * w : NULL;
        dsp->mask_row(cols, enter, leave, w, threshold, s->mask + (size_t)y * w);
    }
}

/* Keep every other sample of image and mask, in place, rows made compact. */
void vqx_cambi_halve(CambiState *s, unsigned w, unsigned h)
{
    const unsigned hw = (w + 1) >> 1, hh = (h + 1) >> 1;
    for (unsigned y = 0; y < hh; y++) {
        const size_t from = (size_t)2 * y * w, to = (size_t)y * hw;
        s->dsp.halve_row(s->image + from, s->mask + from, hw, s->image + to, s->mask + to);
    }
}

/* 3-tap mode along rows, then down columns, in place. The first and last
 * columns skip the row pass and the first and last rows skip both. */
void vqx_cambi_mode_filter(CambiState *s, unsigned w, unsigned h)
{
    uint16_t *img = s->image, *rows = s->mode_rows;
    for (unsigned y = 0; y < h; y++) {
        uint16_t *filtered = rows + (size_t)(y % 3) * w;
        s->dsp.mode_row(img + (size_t)y * w, w, filtered);
        if (y < 2) continue;
        s->dsp.mode_columns(rows + (size_t)((y - 2) % 3) * w, rows + (size_t)((y - 1) % 3) * w,
                            filtered, w, img + (size_t)(y - 1) * w);
    }
}

/* Row `enter` joins the windows and row `leave` quits them (-1: none).
 * hist[v][pad + x] counts the masked pixels of value band_lo + v in the
 * window around column x, so a pixel of column x adds to hist[v][x..x+2pad]. */
static void slide_window(CambiState *s, unsigned w, unsigned pad, int enter, int leave)
{
    s->dsp.slide(s->hist, w + 2 * pad,
                 enter >= 0 ? s->image + (size_t)enter * w : NULL,
                 enter >= 0 ? s->mask + (size_t)enter * w : NULL,
                 leave >= 0 ? s->image + (size_t)leave * w : NULL,
                 leave >= 0 ? s->mask + (size_t)leave * w : NULL,
                 w, pad, s->band_lo, s->band_size);
}

/* Contrast value of every pixel of a w x h scale; 0 where unmasked. */
void vqx_cambi_contrast_values(CambiState *s, unsigned w, unsigned h, unsigned window)
{
    const unsigned pad = window >> 1;
    const size_t stride = w + 2 * pad;
    const CambiContrastParams p = {
        .n_steps = s->n_steps, .band_lo = s->band_lo, .band_size = s->band_size,
        .vlt = s->vlt_luma, .tvi = s->tvi, .weights = vqx_cambi_step_weights,
        .reciprocal = s->reciprocal,
    };
    memset(s->hist, 0, (size_t)s->band_size * stride * sizeof(*s->hist));
    for (unsigned y = 0; y < pad && y < h; y++)
        slide_window(s, w, pad, (int)y, -1);
    for (unsigned y = 0; y < h; y++) {
        slide_window(s, w, pad, y + pad < h ? (int)(y + pad) : -1, (int)y - (int)pad - 1);
        s->dsp.contrast_row(s->hist + pad, stride, s->image + (size_t)y * w,
                            s->mask + (size_t)y * w, w, &p, s->contrast + (size_t)y * w);
    }
}

double vqx_cambi_heat_gain(const CambiState *s)
{
    int max_weight = vqx_cambi_step_weights[0];
    for (unsigned d = 1; d < s->n_steps; d++)
        max_weight = vqx_cambi_step_weights[d] > max_weight ? vqx_cambi_step_weights[d] : max_weight;
    const int window = (int)s->dis.window;
    return (double)UINT16_MAX / (max_weight * window * window / 4);
}

int vqx_cambi_write_heatmap(const CambiState *s, unsigned scale, unsigned w, unsigned h,
                            unsigned frame, const uint16_t *heat, VqxSink *sink)
{
    FILE *f = s->heatmaps[scale];
    if (fseeko(f, (off_t)frame * h * w * sizeof(uint16_t), SEEK_SET))
        return vqx_fail(sink, -EIO, "cambi: cannot seek in heatmap %u: %s", scale, strerror(errno));
    if (fwrite(heat, sizeof(uint16_t), (size_t)w * h, f) != (size_t)w * h)
        return vqx_fail(sink, -EIO, "cambi: cannot write heatmap %u: %s", scale, strerror(errno));
    return 0;
}

double vqx_cambi_score(const CambiGeometry *g, const double mean[CAMBI_SCALES])
{
    double sum = 0.0;
    for (unsigned scale = 0; scale < CAMBI_SCALES; scale++)
        sum += mean[scale] * scale_weights[scale];
    return sum / (g->window * g->window);
}

int vqx_cambi_emit_distorted(const CambiState *s, unsigned frame, double dis_score,
                             VqxSink *sink)
{
    return vqx_emit(sink, KEY_CAMBI, frame, dis_score < s->max_val ? dis_score : s->max_val);
}

int vqx_cambi_emit_full_ref(const CambiState *s, unsigned frame, double dis_score,
                            double src_score, VqxSink *sink)
{
    const double excess = dis_score - src_score < 0 ? 0.0 : dis_score - src_score;
    const int err = vqx_emit(sink, KEY_SOURCE, frame, src_score < s->max_val ? src_score : s->max_val);
    return err ? err : vqx_emit(sink, KEY_FULL_REFERENCE, frame, excess < s->max_val ? excess : s->max_val);
}

/* Score of the picture now in s->image (g->w x g->h, 10-bit). */
static int score_image(CambiState *s, const CambiGeometry *g, bool heatmaps, unsigned frame,
                       VqxSink *sink, double *score)
{
    vqx_cambi_spatial_mask(s, g->w, g->h, g->mask_threshold);
    unsigned w = g->w, h = g->h;
    double mean[CAMBI_SCALES];
    for (unsigned scale = 0; scale < CAMBI_SCALES; scale++) {
        if (scale || s->halve_first) {
            vqx_cambi_halve(s, w, h);
            w = (w + 1) >> 1;
            h = (h + 1) >> 1;
        }
        vqx_cambi_mode_filter(s, w, h);
        vqx_cambi_contrast_values(s, w, h, g->window);
        if (heatmaps) {
            const double gain = vqx_cambi_heat_gain(s);
            for (size_t i = 0; i < (size_t)w * h; i++)
                s->heat[i] = vqx_cambi_heat(gain, s->contrast[i]);
            const int err = vqx_cambi_write_heatmap(s, scale, w, h, frame, s->heat, sink);
            if (err) return err;
        }
        mean[scale] = s->dsp.mean_of_top(s->contrast, (int)(w * h), s->pool_topk);
    }
    *score = vqx_cambi_score(g, mean);
    return 0;
}

static int score_picture(CambiState *s, const VqxPicture *pic, const CambiGeometry *g,
                         bool heatmaps, unsigned frame, VqxSink *sink, double *score)
{
    s->dsp.load(pic->data[0], pic->stride[0], s->bpc, g->rows, g->cols, g->w, g->h, s->image);
    if (s->smooth) s->dsp.smooth(s->image, g->w, g->h);
    return score_image(s, g, heatmaps, frame, sink, score);
}

static int extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                   unsigned frame, VqxSink *sink)
{
    CambiState *s = priv;
    double dis_score, src_score;
    int err = score_picture(s, dis, &s->dis, s->heatmaps_path, frame, sink, &dis_score);
    if (err) return err;
    err = vqx_cambi_emit_distorted(s, frame, dis_score, sink);
    if (err || !s->full_ref) return err;
    err = score_picture(s, ref, &s->src, false, frame, sink, &src_score);
    return err ? err : vqx_cambi_emit_full_ref(s, frame, dis_score, src_score, sink);
}

void vqx_cambi_close(void *priv)
{
    CambiState *s = priv;
    void *const buffers[] = { s->dis.rows, s->dis.cols, s->src.rows, s->src.cols, s->image,
                              s->mask, s->contrast, s->hist, s->mode_rows, s->flat_rows,
                              s->flat_cols, s->heat };
    for (unsigned i = 0; i < sizeof(buffers) / sizeof(buffers[0]); i++) free(buffers[i]);
    s->dis.rows = s->dis.cols = s->src.rows = s->src.cols = NULL;
    s->image = s->mode_rows = s->heat = s->hist = NULL;
    s->mask = s->flat_rows = s->flat_cols = NULL;
    s->contrast = NULL;
    for (unsigned i = 0; i < CAMBI_SCALES; i++) {
        if (s->heatmaps[i]) fclose(s->heatmaps[i]);
        s->heatmaps[i] = NULL;
    }
}

const VqxFeatureExtractor vqx_fex_cambi = {
    .name = "cambi",
    .backend = VQX_BACKEND_CPU,
    .flags = VQX_FEX_LUMA_ONLY,
    .keys = vqx_cambi_keys,
    .unsuffixed_keys = CAMBI_UNSUFFIXED_KEYS,
    .options = vqx_cambi_options,
    .state_size = sizeof(CambiState),
    .init = init,
    .extract = extract,
    .close = vqx_cambi_close,
};
