/*
 * Float VIF's stages at one vector width: included by float_vif_avx2.c and
 * float_vif_avx512.c, which first define
 *   VECF, VECD, LANES   the float and double vectors, and the float lanes
 *   VF(op), VD(op)      the intrinsics _mm<bits>_op_ps and _op_pd
 *   VI(op)              the integer intrinsic _mm<bits>_op
 *   VECI, CASTI(v), CASTF(v)   the integer vector and the casts to and from it
 *   MASK, LT(a, b), EQ(a, b), SELECT(m, t, f)   float compares and blends
 *   WIDEN_LO(v), WIDEN_HI(v), NARROW(lo, hi)    floats to doubles and back
 *   NAME(f)             f with the ISA's suffix
 * Every output is the C's expression with the same float and double
 * operations in the same order (no fused multiply-add); branches become
 * blends of both sides, each computed as the C computes it. A row narrower
 * than LANES goes to the C; a wider one ends with a step that overlaps the
 * one before and writes its outputs again, unchanged.
 */
#ifndef VQX_X86_FLOAT_VIF_SIMD_H
#define VQX_X86_FLOAT_VIF_SIMD_H

#include <math.h>

#include "x86/float_vif.h"

/* The end of a row: the last step overlaps the one before. */
#define LAST_STEP(x, w) ((x) > (w) - LANES ? (w) - LANES : (x))

FLOAT_VIF_FILTER_COLUMNS(NAME(vqx_float_vif_filter_columns))
{
    if (w < LANES) return vqx_float_vif_filter_columns_c(f, width, rows, w, out);
    for (int x = 0;; x += LANES) {
        x = LAST_STEP(x, w);
        VECF sum = VF(add)(VF(setzero)(), VF(mul)(VF(set1)(f[0]), VF(loadu)(rows[0] + x)));
        for (int k = 1; k < width; k++)
            sum = VF(add)(sum, VF(mul)(VF(set1)(f[k]), VF(loadu)(rows[k] + x)));
        VF(storeu)(out + x, sum);
        if (x == w - LANES) break;
    }
}

FLOAT_VIF_MOMENT_COLUMNS(NAME(vqx_float_vif_moment_columns))
{
    if (w < LANES)
        return vqx_float_vif_moment_columns_c(f, width, ref, dis, w, mu1, mu2, xx, yy, xy);
    for (int x = 0;; x += LANES) {
        x = LAST_STEP(x, w);
        VECF m1 = VF(setzero)(), m2 = m1, rr = m1, dd = m1, rd = m1;
        for (int k = 0; k < width; k++) {
            const VECF c = VF(set1)(f[k]), r = VF(loadu)(ref[k] + x), d = VF(loadu)(dis[k] + x);
            m1 = VF(add)(m1, VF(mul)(c, r));
            m2 = VF(add)(m2, VF(mul)(c, d));
            rr = VF(add)(rr, VF(mul)(c, VF(mul)(r, r)));
            dd = VF(add)(dd, VF(mul)(c, VF(mul)(d, d)));
            rd = VF(add)(rd, VF(mul)(c, VF(mul)(r, d)));
        }
        VF(storeu)(mu1 + x, m1);
        VF(storeu)(mu2 + x, m2);
        VF(storeu)(xx + x, rr);
        VF(storeu)(yy + x, dd);
        VF(storeu)(xy + x, rd);
        if (x == w - LANES) break;
    }
}

FLOAT_VIF_FILTER_ROW(NAME(vqx_float_vif_filter_row))
{
    if (w < LANES) return vqx_float_vif_filter_row_c(f, width, in, w, out);
    const int half = width / 2;
    for (int x = 0;; x += LANES) {
        x = LAST_STEP(x, w);
        const float *in_x = in + x - half;
        VECF sum = VF(setzero)();
        for (int k = 0; k < width; k++)
            sum = VF(add)(sum, VF(mul)(VF(set1)(f[k]), VF(loadu)(in_x + k)));
        VF(storeu)(out + x, sum);
        if (x == w - LANES) break;
    }
}

/* The C's log2_fast: the exponent and mantissa by the same bit operations,
 * the polynomial by the same Horner steps; -inf at 0, NaN below. */
static inline VECF NAME(log2_fast)(VECF x)
{
    const VECI bits = CASTI(x);
    const VECI exponent = VI(sub_epi32)(VI(srli_epi32)(VAND_I(bits, VI(set1_epi32)(0x7F800000)), 23),
                                        VI(set1_epi32)(127));
    const VECF mantissa = CASTF(VOR_I(VAND_I(bits, VI(set1_epi32)(0x007FFFFF)),
                                      VI(set1_epi32)(0x3F800000)));
    const VECF m = VF(sub)(mantissa, VF(set1)(1.0f));
    VECF p = VF(setzero)();
    for (unsigned i = 0; i < FLOAT_VIF_LOG2_TERMS; i++)
        p = VF(add)(VF(mul)(p, m), VF(set1)(vqx_float_vif_log2_poly[i]));
    VECF r = VF(add)(VI(cvtepi32_ps)(exponent), p);
    r = SELECT(LT(x, VF(setzero)()), VF(set1)(NAN), r);
    return SELECT(EQ(x, VF(setzero)()), VF(set1)(-INFINITY), r);
}

/* (float)(1.0f + (double)p / q): the C's sum of a float and a double. */
static inline VECF NAME(one_plus_ratio)(VECF p, VECD q_lo, VECD q_hi)
{
    const VECD one = VD(set1)(1.0);
    return NARROW(VD(add)(one, VD(div)(WIDEN_LO(p), q_lo)), VD(add)(one, VD(div)(WIDEN_HI(p), q_hi)));
}

FLOAT_VIF_PIXEL_STATS(NAME(vqx_float_vif_pixel_stats))
{
    if (w < LANES) return vqx_float_vif_pixel_stats_c(st, mu1, mu2, xx, yy, xy, w, num, den);
    /* (double)s < sigma_nsq, for a float s, is s < the smallest float not
     * below sigma_nsq */
    float floor_f = (float)st->sigma_nsq;
    if ((double)floor_f < st->sigma_nsq) floor_f = nextafterf(floor_f, INFINITY);
    const VECF zero = VF(setzero)(), eps = VF(set1)(FLOAT_VIF_EPS), one = VF(set1)(1.0f);
    const VECF floor = VF(set1)(floor_f), gain_limit = VF(set1)(st->gain_limit);
    const VECF max_inv = VF(set1)(st->sigma_max_inv);
    const VECD nsq = VD(set1)(st->sigma_nsq);
    for (int x = 0;; x += LANES) {
        x = LAST_STEP(x, w);
        const VECF m1 = VF(loadu)(mu1 + x), m2 = VF(loadu)(mu2 + x);
        VECF s1 = VF(max)(VF(sub)(VF(loadu)(xx + x), VF(mul)(m1, m1)), zero);
        const VECF s2 = VF(max)(VF(sub)(VF(loadu)(yy + x), VF(mul)(m2, m2)), zero);
        const VECF s12 = VF(sub)(VF(loadu)(xy + x), VF(mul)(m1, m2));
        const MASK flat = LT(s1, eps);
        const VECF g_sloped = VF(div)(s12, VF(add)(s1, eps));
        VECF g = SELECT(flat, zero, g_sloped);
        VECF sv = SELECT(flat, s2, VF(sub)(s2, VF(mul)(g_sloped, s12)));
        s1 = SELECT(flat, zero, s1);
        const MASK below_floor = LT(s1, floor);
        const MASK flat2 = LT(s2, eps);
        g = SELECT(flat2, zero, g);
        sv = SELECT(flat2, zero, sv);
        const MASK negative = LT(g, zero);
        sv = SELECT(negative, s2, sv);
        g = SELECT(negative, zero, g);
        sv = VF(max)(sv, eps);
        g = VF(min)(g, gain_limit);
        const VECF num_arg = NAME(one_plus_ratio)(VF(mul)(VF(mul)(g, g), s1),
                                                  VD(add)(WIDEN_LO(sv), nsq),
                                                  VD(add)(WIDEN_HI(sv), nsq));
        const VECF den_arg = NAME(one_plus_ratio)(s1, nsq, nsq);
        const VECF n = SELECT(LT(s12, zero), zero, NAME(log2_fast)(num_arg));
        const VECF d = NAME(log2_fast)(den_arg);
        VF(storeu)(num + x, SELECT(below_floor, VF(sub)(one, VF(mul)(s2, max_inv)), n));
        VF(storeu)(den + x, SELECT(below_floor, one, d));
        if (x == w - LANES) break;
    }
}

#endif
