/*
 * The SVG plot of a run (VQX_OUTPUT_SVG): one panel per key, the per-frame
 * curve, a dashed line at the pooled mean, and the worst frames marked and
 * labelled with their numbers. Written with no library: the CLI's --plot
 * and Python's Result.plot are this function.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "context.h"
#include "plot.h"

enum {
    WIDTH = 960,
    LEFT = 90,            /* room for the value labels */
    RIGHT = 30,
    PLOT_W = WIDTH - LEFT - RIGHT,
    TITLE_H = 40,
    PANEL_H = 170,        /* one panel: its caption, the plot, the frame axis */
    PLOT_TOP = 28,
    PLOT_H = 110,
    WORST = 3,            /* frames marked per panel */
};

/* Keys that measure distortion or activity rather than quality: their worst
 * frames are the highest. */
static bool higher_is_worse(const char *key)
{
    return !strncmp(key, "mse_", 4) || strstr(key, "motion") || !strncmp(key, "cambi", 5) ||
           !strncmp(key, "speed_", 6) || strstr(key, "moment") || strstr(key, "aim");
}

/* A finite value of a frame the outputs list (subsampled frames only). */
static bool value_at(const VqxContext *ctx, const char *key, unsigned frame, double *v)
{
    const unsigned subsample = vqx_ctx_subsample(ctx);
    return (subsample <= 1 || frame % subsample == 0) && !vqx_score_at(ctx, key, frame, v) &&
           isfinite(*v);
}

static double x_of(unsigned frame, unsigned n)
{
    return LEFT + (n > 1 ? (double)frame * PLOT_W / (n - 1) : PLOT_W / 2.0);
}

static double y_of(double v, double lo, double hi, double top)
{
    return top + PLOT_TOP + (hi - v) * PLOT_H / (hi - lo);
}

/* The curve: a polyline through every finite value (a gap where there is
 * none), or, with more frames than two per column, each column's range. */
static void write_curve(FILE *f, const VqxContext *ctx, const char *key, unsigned n, double lo,
                        double hi, double top)
{
    fprintf(f, "<path fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"1.2\" d=\"");
    if (n > 2 * PLOT_W) {
        for (unsigned c = 0; c < PLOT_W; c++) {
            const unsigned first = (unsigned)((unsigned long long)c * n / PLOT_W);
            const unsigned end = (unsigned)((unsigned long long)(c + 1) * n / PLOT_W);
            double cmin = INFINITY, cmax = -INFINITY, v;
            for (unsigned i = first; i < end; i++) {
                if (!value_at(ctx, key, i, &v)) continue;
                cmin = fmin(cmin, v);
                cmax = fmax(cmax, v);
            }
            if (cmin > cmax) continue;
            const double x = LEFT + c + 0.5;
            fprintf(f, "M%.1f %.2fL%.1f %.2f", x, y_of(cmax, lo, hi, top), x,
                    y_of(cmin, lo, hi, top) + 0.5);
        }
    } else {
        bool drawing = false;
        for (unsigned i = 0; i < n; i++) {
            double v;
            if (!value_at(ctx, key, i, &v)) {
                drawing = false;
                continue;
            }
            fprintf(f, "%c%.2f %.2f", drawing ? 'L' : 'M', x_of(i, n), y_of(v, lo, hi, top));
            drawing = true;
        }
    }
    fprintf(f, "\"/>\n");
    if (n <= 2 * PLOT_W) {
        /* single frames between gaps would not show as a line */
        for (unsigned i = 0; i < n; i++) {
            double v, w;
            const bool before = i > 0 && value_at(ctx, key, i - 1, &w);
            const bool after = i + 1 < n && value_at(ctx, key, i + 1, &w);
            if (value_at(ctx, key, i, &v) && !before && !after)
                fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"1.8\" fill=\"#1f5fa8\"/>\n",
                        x_of(i, n), y_of(v, lo, hi, top));
        }
    }
}

/* The WORST most extreme frames, worst first (ties: the earlier frame). */
static unsigned worst_frames(const VqxContext *ctx, const char *key, unsigned n, bool high,
                             unsigned frames[WORST])
{
    unsigned count = 0;
    double values[WORST];
    for (unsigned i = 0; i < n; i++) {
        double v;
        if (!value_at(ctx, key, i, &v)) continue;
        unsigned at = count;
        while (at > 0 && (high ? v > values[at - 1] : v < values[at - 1])) at--;
        if (at >= WORST) continue;
        const unsigned last = count < WORST ? count : WORST - 1;
        for (unsigned k = last; k > at; k--) {
            values[k] = values[k - 1];
            frames[k] = frames[k - 1];
        }
        values[at] = v;
        frames[at] = i;
        if (count < WORST) count++;
    }
    return count;
}

static void write_panel(FILE *f, const VqxContext *ctx, const char *key, unsigned n, double lo,
                        double hi, double top)
{
    double mean = NAN;
    const bool has_mean = !vqx_score_pooled(ctx, key, VQX_POOL_MEAN, 0, n - 1, &mean) &&
                          isfinite(mean);
    if (lo == hi) {
        const double pad = lo ? fabs(lo) * 0.05 : 0.5;
        lo -= pad;
        hi += pad;
    }
    const bool high = higher_is_worse(key);
    unsigned worst[WORST];
    const unsigned n_worst = worst_frames(ctx, key, n, high, worst);

    fprintf(f, "<g>\n<text x=\"%d\" y=\"%.0f\" font-size=\"15\" font-weight=\"bold\">%s</text>\n",
            LEFT, top + 18, key);
    if (has_mean)
        fprintf(f, "<text x=\"%d\" y=\"%.0f\" font-size=\"12\" text-anchor=\"end\">mean %.6g"
                "</text>\n", WIDTH - RIGHT, top + 18, mean);
    fprintf(f, "<rect x=\"%d\" y=\"%.0f\" width=\"%d\" height=\"%d\" fill=\"#fafafa\" "
            "stroke=\"#999\"/>\n", LEFT, top + PLOT_TOP, PLOT_W, PLOT_H);
    fprintf(f, "<text x=\"%d\" y=\"%.0f\" font-size=\"11\" text-anchor=\"end\">%.6g</text>\n",
            LEFT - 6, top + PLOT_TOP + 9, hi);
    fprintf(f, "<text x=\"%d\" y=\"%.0f\" font-size=\"11\" text-anchor=\"end\">%.6g</text>\n",
            LEFT - 6, top + PLOT_TOP + PLOT_H, lo);
    fprintf(f, "<text x=\"%d\" y=\"%.0f\" font-size=\"11\">0</text>\n", LEFT,
            top + PLOT_TOP + PLOT_H + 14);
    fprintf(f, "<text x=\"%d\" y=\"%.0f\" font-size=\"11\" text-anchor=\"end\">frame %u</text>\n",
            WIDTH - RIGHT, top + PLOT_TOP + PLOT_H + 14, n - 1);
    if (has_mean)
        fprintf(f, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%d\" y2=\"%.2f\" stroke=\"#c0392b\" "
                "stroke-dasharray=\"6 4\"/>\n", LEFT, y_of(mean, lo, hi, top), LEFT + PLOT_W,
                y_of(mean, lo, hi, top));
    write_curve(f, ctx, key, n, lo, hi, top);
    for (unsigned k = 0; k < n_worst; k++) {
        double v;
        value_at(ctx, key, worst[k], &v);
        const double x = x_of(worst[k], n), y = y_of(v, lo, hi, top);
        fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4\" fill=\"none\" stroke=\"#d35400\" "
                "stroke-width=\"1.5\"/>\n", x, y);
        /* labels go inside the plot, above a low point and below a high one */
        fprintf(f, "<text x=\"%.2f\" y=\"%.2f\" font-size=\"11\" fill=\"#d35400\" "
                "text-anchor=\"middle\">%u</text>\n", x, y + (y > top + PLOT_TOP + 20 ? -8 : 16),
                worst[k]);
    }
    fprintf(f, "<text x=\"%d\" y=\"%.0f\" font-size=\"11\" fill=\"#d35400\">%s frames marked"
            "</text>\n</g>\n", LEFT + 40, top + PLOT_TOP + PLOT_H + 14,
            high ? "highest" : "lowest");
}

void vqx_write_svg(const VqxContext *ctx, FILE *f)
{
    const unsigned n = vqx_frame_count(ctx);
    /* the keys with at least one finite value, and their ranges */
    unsigned n_panels = 0;
    for (unsigned k = 0; k < vqx_key_count(ctx); k++) {
        double v;
        for (unsigned i = 0; i < n; i++)
            if (value_at(ctx, vqx_key_name(ctx, k), i, &v)) {
                n_panels++;
                break;
            }
    }
    const unsigned height = TITLE_H + n_panels * PANEL_H;
    fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%u\" "
            "viewBox=\"0 0 %d %u\" font-family=\"sans-serif\">\n"
            "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n"
            "<text x=\"%d\" y=\"26\" font-size=\"18\">vqx %s: %u frames</text>\n",
            WIDTH, height, WIDTH, height, LEFT, vqx_version(), n);
    unsigned panel = 0;
    for (unsigned k = 0; k < vqx_key_count(ctx); k++) {
        const char *key = vqx_key_name(ctx, k);
        double lo = INFINITY, hi = -INFINITY, v;
        for (unsigned i = 0; i < n; i++) {
            if (!value_at(ctx, key, i, &v)) continue;
            lo = fmin(lo, v);
            hi = fmax(hi, v);
        }
        if (lo > hi) continue;
        write_panel(f, ctx, key, n, lo, hi, TITLE_H + (double)panel++ * PANEL_H);
    }
    fprintf(f, "</svg>\n");
}
