/*
 * Float PSNR's row sum at one vector width: included by float_psnr_avx2.c
 * and float_psnr_avx512.c after LANES (float_exact_sum.h) and
 * NAME(f), f with the ISA's suffix. Each square is the C's float; they
 * are added in double lanes, in an order the C's does not have, which
 * float_exact_sum.h shows gives the same double: the differences are
 * multiples of 2^e, so the squares of 2^2e, and the total stays below
 * 2^(53 + 2e) (at 8 bits, e = 0: in practice always; at 16, e = -8 and
 * 2^37: up to 1080p always, larger frames while the differences are not
 * all near the peak).
 */
#ifndef VQX_X86_FLOAT_PSNR_SIMD_H
#define VQX_X86_FLOAT_PSNR_SIMD_H

#include "x86/float_exact_sum.h"
#include "x86/float_psnr.h"

ALWAYS_INLINE void NAME(noise_step)(VECF ref, VECF dis, ExactGrain *g, VECD sum[2])
{
    const VECF diff = VF(sub)(ref, dis);
    grain_add(g, diff);
    const VECF sq = VF(mul)(diff, diff);
    sum[0] = VD(add)(sum[0], WIDEN_LO(sq));
    sum[1] = VD(add)(sum[1], WIDEN_HI(sq));
}

FLOAT_PSNR_ROW_NOISE(NAME(vqx_float_psnr_row_noise))
{
    ExactGrain g = { VZERO_I(), VZERO_I() };
    VECD sum[2] = { VD(setzero)(), VD(setzero)() };
    int x = 0;
    for (; x + LANES <= w; x += LANES)
        NAME(noise_step)(VF(loadu)(ref + x), VF(loadu)(dis + x), &g, sum);
    if (x < w) {
        const TailMask m = tail_mask((unsigned)(w - x));
        NAME(noise_step)(LOAD_TAIL(ref + x, m), LOAD_TAIL(dis + x, m), &g, sum);
    }
    int e;
    double total;
    if (grain_exp(&g, true, &e) &&
        exact_total(acc, sum_lanes(VD(add)(sum[0], sum[1])), 2 * e, -16, &total))
        return total;
    return vqx_float_psnr_row_noise_c(ref, dis, w, acc);
}

#endif
