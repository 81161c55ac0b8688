#ifndef VQX_FEATURE_PSNR_H
#define VQX_FEATURE_PSNR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bitdepth.h"
#include "feature/extractor.h"
#include "feature/psnr_dsp.h"

typedef struct PsnrState {
    bool enable_chroma;
    bool enable_mse;
    bool enable_apsnr;
    bool reduced_hbd_peak;
    double min_sse;

    unsigned n_planes;
    unsigned bpc;
    uint32_t peak;
    double psnr_max[3];
    uint64_t total_sse[3];
    uint64_t total_pixels[3];
    PsnrDSPContext dsp;
} PsnrState;

/* Shared by the CPU extractor and its device twins. */
extern const char *const vqx_psnr_keys[];
extern const VqxOption vqx_psnr_options[];
int vqx_psnr_init(void *state, const VqxFrameFormat *fmt, VqxSink *sink);
/* Scores plane p of a frame from its sum of squared errors over n samples. */
int vqx_psnr_emit_plane(PsnrState *s, unsigned p, uint64_t sse, uint64_t n, unsigned frame,
                        VqxSink *sink);
void vqx_psnr_merge(void *into, const void *from);
int vqx_psnr_flush(void *state, VqxSink *sink);

/* Squared differences of one row (the table's C entries; the CUDA kernel
 * checks compare with them). */
BF_DECL(uint64_t, vqx_row_sse, const void *ref, const void *dis, unsigned w);
BF_DECL(uint64_t, vqx_plane_sse, const void *ref, ptrdiff_t ref_stride,
        const void *dis, ptrdiff_t dis_stride, unsigned w, unsigned h);

#endif
