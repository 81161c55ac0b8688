/*
 * PSNR's row sums at one vector width: included by psnr_avx2.c and
 * psnr_avx512.c, which first define
 *   VEC, LANES          the integer vector and its 32-bit lanes
 *   VI(op)              the intrinsic _mm<bits>_op; VZERO(), VSTORE(p, v)
 *   LOAD8(p), LOAD16(p) 2 LANES bytes as 16-bit lanes; LANES words as 32-bit lanes
 *   NAME(f)             f with the ISA's suffix
 * The samples after the last whole vector go to the C, whose sum is the
 * same integer: the total is exact, in any order.
 */
#ifndef VQX_X86_PSNR_SIMD_H
#define VQX_X86_PSNR_SIMD_H

#include "feature/psnr.h"
#include "x86/psnr.h"

/* The 64-bit lanes' sum. */
static inline uint64_t NAME(sum_epi64)(VEC v)
{
    uint64_t lane[LANES / 2], sum = 0;
    VSTORE(lane, v);
    for (unsigned i = 0; i < LANES / 2; i++) sum += lane[i];
    return sum;
}

/* 8 bits: a difference fits 16 bits, and pmaddwd adds two squares (at most
 * 2 * 255^2) into a 32-bit lane; 16384 such steps stay below 2^31 before
 * the lanes go into 64-bit sums. */
#define STEPS_32 16384u

PSNR_ROW_SSE(NAME(vqx_psnr_row_sse_8bpc))
{
    const uint8_t *r = ref, *d = dis;
    const VEC zero = VZERO();
    VEC sum = zero;
    unsigned x = 0;
    while (x + 2 * LANES <= w) {
        VEC part = zero;
        for (unsigned n = 0; n < STEPS_32 && x + 2 * LANES <= w; n++, x += 2 * LANES) {
            const VEC e = VI(sub_epi16)(LOAD8(r + x), LOAD8(d + x));
            part = VI(add_epi32)(part, VI(madd_epi16)(e, e));
        }
        sum = VI(add_epi64)(sum, VI(add_epi64)(VI(unpacklo_epi32)(part, zero),
                                               VI(unpackhi_epi32)(part, zero)));
    }
    return NAME(sum_epi64)(sum) + vqx_row_sse_8bpc(r + x, d + x, w - x);
}

/* More bits: a difference's square (below 2^32) in an unsigned 32-bit
 * lane, added into 64-bit sums. */
PSNR_ROW_SSE(NAME(vqx_psnr_row_sse_16bpc))
{
    const uint16_t *r = ref, *d = dis;
    const VEC zero = VZERO();
    VEC sum = zero;
    unsigned x = 0;
    for (; x + LANES <= w; x += LANES) {
        const VEC e = VI(sub_epi32)(LOAD16(r + x), LOAD16(d + x));
        const VEC sq = VI(mullo_epi32)(e, e);
        sum = VI(add_epi64)(sum, VI(add_epi64)(VI(unpacklo_epi32)(sq, zero),
                                               VI(unpackhi_epi32)(sq, zero)));
    }
    return NAME(sum_epi64)(sum) + vqx_row_sse_16bpc(r + x, d + x, w - x);
}

#endif
