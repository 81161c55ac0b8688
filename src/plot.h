/* The SVG plot of a run's per-frame scores (vqx_write_output, VQX_OUTPUT_SVG). */
#ifndef VQX_PLOT_H
#define VQX_PLOT_H

#include <stdio.h>

#include "vqx/vqx.h"

/* Errors show in ferror(f). */
void vqx_write_svg(const VqxContext *ctx, FILE *f);

#endif
