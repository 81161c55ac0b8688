/*
 * Float ADM's decoupling and cube sums at one vector width: included by float_adm_avx2.c
 * and float_adm_avx512.c, which first define
 *   VECF, LANES, VF(op)   the float vector, its lanes, _mm<bits>_op_ps
 *   VECD, VD(op)          the double vector of LANES / 2 lanes, _mm<bits>_op_pd
 *   PS_LO_PD, PS_HI_PD    a float vector's low and high half as doubles
 *   PD_JOIN_PS(lo, hi)    two double vectors rounded back to one of floats
 *   VECI, VI(op), IAND, IOR, CAST_I, CAST_F, GATHER   32-bit integer lanes
 *   MASK, CMP, MAND, MOR, BLEND(m, a, b) (m ? b : a), MBITS (one bit a lane)
 *   NAME(f)               f with the ISA's suffix
 * Each lane is one output with the C's float and double operations in the
 * C's order (no fused multiply-add); the C's selections are MIN/MAX, whose
 * x86 semantics (a < b ? a : b) are the C's conditionals, NaN included. The
 * reciprocal estimate is the C's for x of normal exponent below 253; a step
 * with any other denominator gives those lanes to the C again. A row
 * narrower than LANES goes to the C; a wider one ends with a step that
 * overlaps the one before and writes its outputs again, unchanged.
 */
#ifndef VQX_X86_FLOAT_ADM_SIMD_H
#define VQX_X86_FLOAT_ADM_SIMD_H

#include <math.h>

#include "x86/float_adm.h"

/* (float)(r * gain OP tb ? r * gain : tb) in double, OP by MIN (<) or MAX (>) */
#define GAIN_CLIP(r, tb, gain, MINMAX)                                               \
    PD_JOIN_PS(VD(MINMAX)(VD(mul)(PS_LO_PD(r), gain), PS_LO_PD(tb)),                  \
               VD(MINMAX)(VD(mul)(PS_HI_PD(r), gain), PS_HI_PD(tb)))

FLOAT_ADM_DECOUPLE_ROW(NAME(vqx_float_adm_decouple_row))
{
    if (n < LANES) return vqx_float_adm_decouple_row_c(ref, dis, n, p, restored, additive);
    const VECF zero = VF(setzero)(), one = VF(set1)(1.0f), eps = VF(set1)(p->eps);
    const VECF cos_sq = VF(set1)(p->cos_1deg_sq), sign = VF(set1)(-0.0f);
    const VECF lowest = VF(set1)(0x1p-126f), highest = VF(set1)(0x1p126f);
    const VECD gain = VD(set1)(p->gain_limit);
    const VECI sign_bit = VI(set1)((int)0x80000000u), exp_bits = VI(set1)(0x7f800000);
    const VECI index_bits = VI(set1)(0xfff), bias = VI(set1)(253 << 23);
    for (int x = 0;; x += LANES) {
        if (x > n - LANES) x = n - LANES;
        const VECF oh = VF(loadu)(ref[0] + x), ov = VF(loadu)(ref[1] + x);
        const VECF th = VF(loadu)(dis[0] + x), tv = VF(loadu)(dis[1] + x);
        const VECF dot = VF(add)(VF(mul)(oh, th), VF(mul)(ov, tv));
        const VECF o_sq = VF(add)(VF(mul)(oh, oh), VF(mul)(ov, ov));
        const VECF t_sq = VF(add)(VF(mul)(th, th), VF(mul)(tv, tv));
        const MASK same = MAND(CMP(dot, zero, _CMP_GE_OQ),
                               CMP(VF(mul)(dot, dot), VF(mul)(VF(mul)(cos_sq, o_sq), t_sq),
                                   _CMP_GE_OQ));
        unsigned special = 0;
        for (int b = 0; b < 3; b++) {
            const VECF ob = VF(loadu)(ref[b] + x), tb = VF(loadu)(dis[b] + x);
            const VECF d = VF(add)(ob, eps), ad = VF(andnot)(sign, d);
            special |= MBITS(MOR(CMP(ad, lowest, _CMP_NGE_UQ), CMP(ad, highest, _CMP_NLT_UQ)));
            /* sign | (253 - exponent) << 23 | table[top 12 mantissa bits] */
            const VECI u = CAST_I(d);
            const VECI e_bits = IOR(IOR(IAND(u, sign_bit), VI(sub)(bias, IAND(u, exp_bits))),
                                    GATHER(p->recip, IAND(VI(srli)(u, 11), index_bits)));
            const VECF e = CAST_F(e_bits);
            VECF k = VF(mul)(tb, VF(add)(e, VF(mul)(e, VF(sub)(one, VF(mul)(d, e)))));
            k = VF(min)(one, VF(max)(zero, k));
            VECF r = VF(mul)(k, ob);
            r = BLEND(MAND(same, CMP(r, zero, _CMP_GT_OQ)), r, GAIN_CLIP(r, tb, gain, min));
            r = BLEND(MAND(same, CMP(r, zero, _CMP_LT_OQ)), r, GAIN_CLIP(r, tb, gain, max));
            VF(storeu)(restored[b] + x, r);
            VF(storeu)(additive[b] + x, VF(sub)(tb, r));
        }
        for (int i = 0; special; i++, special >>= 1) {
            if (!(special & 1)) continue;
            const int o = x + i;
            const float *const ro[3] = { ref[0] + o, ref[1] + o, ref[2] + o };
            const float *const dd[3] = { dis[0] + o, dis[1] + o, dis[2] + o };
            float *const rs[3] = { restored[0] + o, restored[1] + o, restored[2] + o };
            float *const ad[3] = { additive[0] + o, additive[1] + o, additive[2] + o };
            vqx_float_adm_decouple_row_c(ro, dd, 1, p, rs, ad);
        }
        if (x == n - LANES) break;
    }
}

/* max(|x * w| - t, 0) as the C's v < 0 ? 0 : v */
static inline VECF NAME(masked)(const float *x, VECF w, VECF t)
{
    const VECF a = VF(andnot)(VF(set1)(-0.0f), VF(mul)(VF(loadu)(x), w));
    return VF(max)(VF(setzero)(), VF(sub)(a, t));
}

/* The sums are chains of additions in x order, which a vector cannot split:
 * the cubes of LANES columns come from vectors, and the three bands' chains
 * then run side by side in scalar code, each in its order; the columns
 * after the last multiple of LANES go on in scalar code too. */
FLOAT_ADM_CUBE_SUMS(NAME(vqx_float_adm_cube_sums))
{
    const VECF w[3] = { VF(set1)(weight[0]), VF(set1)(weight[1]), VF(set1)(weight[2]) };
    float acc[3] = { 0, 0, 0 };
    int j = 0;
    for (; j + LANES <= n; j += LANES) {
        const VECF t = VF(loadu)(thr + j);
        float c[3][LANES];
        for (int b = 0; b < 3; b++) {
            const VECF v = NAME(masked)(x[b] + j, w[b], t);
            VF(storeu)(c[b], VF(mul)(VF(mul)(v, v), v));
        }
        for (int i = 0; i < LANES; i++) {
            acc[0] += c[0][i];
            acc[1] += c[1][i];
            acc[2] += c[2][i];
        }
    }
    for (int b = 0; b < 3; b++) {
        for (int k = j; k < n; k++) {
            float v = fabsf(x[b][k] * weight[b]) - thr[k];
            v = v < 0.0f ? 0.0f : v;
            acc[b] += v * v * v;
        }
        sum[b] = acc[b];
    }
}

#endif
