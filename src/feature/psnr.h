#ifndef VQX_FEATURE_PSNR_H
#define VQX_FEATURE_PSNR_H

#include <stddef.h>
#include <stdint.h>

#include "bitdepth.h"

BF_DECL(uint64_t, vqx_plane_sse, const void *ref, ptrdiff_t ref_stride,
        const void *dis, ptrdiff_t dis_stride, unsigned w, unsigned h);

#endif
