/*
 * What the integer ADM (adm.c) and the float ADM (float_adm.c) share: the
 * scored region of a band (the filter taps' edge rule is hostdev.h's
 * vqx_mirror_hybrid), the smallest frame and the scores' keys.
 */
#ifndef VQX_FEATURE_ADM_H
#define VQX_FEATURE_ADM_H

#include <stdbool.h>
#include <stdint.h>

#include "hostdev.h"

/* Four dyadic DWT levels. */
#define ADM_SCALES 4

/* The keys of both extractors, in their tables' order. */
enum {
    ADM_KEY_ADM2, ADM_KEY_AIM, ADM_KEY_ADM3, ADM_KEY_SCALE0,
    ADM_KEY_ADM = ADM_KEY_SCALE0 + ADM_SCALES, ADM_KEY_NUM, ADM_KEY_DEN, ADM_KEY_NUM_SCALE0,
};

/* Band orientations, in libvmaf's theta order. */
enum { ADM_H, ADM_V, ADM_D, ADM_ORIENTATIONS };

/* Rows and columns scored: the band without 10% of each side, rounded as
 * libvmaf rounds it (ADM_BORDER_FACTOR 0.1). The 3x3 masking window reads one
 * more row and column on each side where the band has them. */
typedef struct AdmRegion {
    int top, bottom, left, right;
} AdmRegion;

static inline AdmRegion vqx_adm_region(int w, int h)
{
    const int left = w * 0.1 - 0.5;
    const int top = h * 0.1 - 0.5;
    return (AdmRegion){ .top = top, .bottom = h - top, .left = left, .right = w - left };
}

static inline AdmRegion vqx_adm_region_grown(AdmRegion r, int w, int h)
{
    return (AdmRegion){
        .top = r.top > 0 ? r.top - 1 : 0,
        .bottom = r.bottom < h ? r.bottom + 1 : h,
        .left = r.left > 0 ? r.left - 1 : 0,
        .right = r.right < w ? r.right + 1 : w,
    };
}

/* Smallest frame side: every level's input must give the 4-tap DWT three
 * output rows (integer ADM), or give the coarsest band two rows (float ADM);
 * libvmaf reads outside its buffers below these. */
#define ADM_MIN_SIDE 33
#define FLOAT_ADM_MIN_SIDE 17

/* A frame's scores, in both extractors' key layout: adm2, aim, adm3 (not
 * below min_val), the per-scale ratios and, with debug, the sums. */
typedef struct VqxSink VqxSink;
int vqx_adm_emit_scores(VqxSink *sink, unsigned frame, bool debug, double min_val,
                        double score, double aim, double adm3, double num, double den,
                        const double scale_num[ADM_SCALES], const double scale_den[ADM_SCALES]);

#endif
