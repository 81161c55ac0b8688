/*
 * Contrast sensitivity weights of the ADM wavelet bands, as libvmaf computes
 * them: Watson's DWT noise visibility model, Barten's CSF (HDR-VDP-2 form),
 * the tabulated Barten/Watson blends of the v1.0.16 models, and the DLM
 * paper's native CSF. Every function keeps libvmaf's float/double steps, so
 * that the weights are the same floats.
 *
 * `scale` is the DWT level, 0 (finest) to 3; `diagonal` selects the weight of
 * the diagonal band instead of the horizontal/vertical ones.
 */
#ifndef VQX_FEATURE_ADM_CSF_H
#define VQX_FEATURE_ADM_CSF_H

#include <stdbool.h>

/* Display resolution in pixels per degree: view_dist * height * pi / 180. */
float vqx_adm_pixels_per_degree(double view_dist, int display_height);

/* 1 / Q, Q the Watson et al. 1997 quantization step of the luma band. */
float vqx_adm_watson_weight(int scale, bool diagonal, double view_dist, int display_height);

/* Barten's CSF at the band's nominal frequency, times `gain`. */
float vqx_adm_barten_weight(int scale, double view_dist, int display_height,
                            double luminance, double gain);

/* Whether the tabulated blends have this viewing distance and display
 * height; vqx_adm_blend_tables lists those they have, for messages. */
bool vqx_adm_blend_has_table(double view_dist, int display_height);
extern const char vqx_adm_blend_tables[];

/* Tabulated blend; `mae` picks the v1.0.17+ tables. NaN where
 * vqx_adm_blend_has_table is false. */
float vqx_adm_blend_weight(int scale, bool diagonal, double view_dist, int display_height,
                           bool mae);

/* The native CSF of the DLM paper (Li et al. 2011). */
float vqx_adm_native_weight(int scale, bool diagonal, double view_dist, int display_height);

#endif
