/*
 * Luma code values to display luminance (cd/m^2), for visibility thresholds:
 * a luma range (the code values of black and of peak white) and an EOTF that
 * maps the normalised signal in [0, 1] to luminance.
 */
#ifndef VQX_FEATURE_LUMINANCE_H
#define VQX_FEATURE_LUMINANCE_H

typedef double (*VqxEotf)(double signal);

typedef struct VqxLumaRange {
    int black, white;
} VqxLumaRange;

/* Limited ("studio") range: [16, 235] scaled to the bit depth. */
VqxLumaRange vqx_luma_range_limited(int bitdepth);
/* Full range: [0, 2^bitdepth - 1]. */
VqxLumaRange vqx_luma_range_full(int bitdepth);

/* ITU-R BT.1886 reference display: 300 cd/m^2 white, 0.01 cd/m^2 black. */
double vqx_eotf_bt1886(double signal);
/* SMPTE ST 2084 (PQ), 10000 cd/m^2 peak. */
double vqx_eotf_pq(double signal);
/* "bt1886" or "pq"; NULL for anything else. */
VqxEotf vqx_eotf_from_name(const char *name);

/* Luminance of a code value, clipped to the range first. */
double vqx_luminance(int code, VqxLumaRange range, VqxEotf eotf);

#endif
