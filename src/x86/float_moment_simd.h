/*
 * Float moment's row sums at one vector width: included by
 * float_moment_avx2.c and float_moment_avx512.c after LANES
 * (float_exact_sum.h) and NAME(f), f with the ISA's suffix. Each square
 * is the C's float; values and squares are added in double lanes, in an
 * order the C's does not have, which float_exact_sum.h shows gives the
 * same doubles: the samples are >= 0 and multiples of 2^e, so the squares
 * of 2^2e, and the totals stay below 2^(53 + e) and 2^(53 + 2e) (at 8
 * bits, e = 0: in practice always; at 16, e = -8 and 2^37 for the squares:
 * up to 1080p always, larger frames while the samples are not all near
 * the peak).
 */
#ifndef VQX_X86_FLOAT_MOMENT_SIMD_H
#define VQX_X86_FLOAT_MOMENT_SIMD_H

#include "x86/float_exact_sum.h"
#include "x86/float_moment.h"

/* The sums in their order, the low and high halves of each. */
ALWAYS_INLINE void NAME(moment_step)(VECF ref, VECF dis, ExactGrain *g,
                                     VECD part[FLOAT_MOMENT_SUMS][2])
{
    grain_add(g, ref);
    grain_add(g, dis);
    const VECF v[FLOAT_MOMENT_SUMS] = { ref, dis, VF(mul)(ref, ref), VF(mul)(dis, dis) };
    for (int k = 0; k < FLOAT_MOMENT_SUMS; k++) {
        part[k][0] = VD(add)(part[k][0], WIDEN_LO(v[k]));
        part[k][1] = VD(add)(part[k][1], WIDEN_HI(v[k]));
    }
}

FLOAT_MOMENT_ROW_SUMS(NAME(vqx_float_moment_row_sums))
{
    ExactGrain g = { VZERO_I(), VZERO_I() };
    VECD part[FLOAT_MOMENT_SUMS][2];
    for (int k = 0; k < FLOAT_MOMENT_SUMS; k++) part[k][0] = part[k][1] = VD(setzero)();
    int x = 0;
    for (; x + LANES <= w; x += LANES)
        NAME(moment_step)(VF(loadu)(ref + x), VF(loadu)(dis + x), &g, part);
    if (x < w) {
        const TailMask m = tail_mask((unsigned)(w - x));
        NAME(moment_step)(LOAD_TAIL(ref + x, m), LOAD_TAIL(dis + x, m), &g, part);
    }
    int e;
    double total[FLOAT_MOMENT_SUMS];
    bool exact = grain_exp(&g, false, &e);
    for (int k = 0; k < FLOAT_MOMENT_SUMS && exact; k++) {
        const bool square = k >= FLOAT_MOMENT_REF2;
        exact = exact_total(sum[k], sum_lanes(VD(add)(part[k][0], part[k][1])),
                            square ? 2 * e : e, square ? -16 : -8, &total[k]);
    }
    if (!exact) return vqx_float_moment_row_sums_c(ref, dis, w, sum);
    for (int k = 0; k < FLOAT_MOMENT_SUMS; k++) sum[k] = total[k];
}

#endif
