/*
 * SSIMULACRA 2's stages at one vector width: included by ssimulacra2_avx2.c
 * and ssimulacra2_avx512.c, which first define
 *   VECF, VECD, VECI, LANES   the float, double and int32 vectors, and
 *                        the float lanes
 *   VF(op), VD(op), VI(op)   the intrinsics _mm<bits>_op_ps, _op_pd, _op
 *   CASTI(v), CASTF(v)   float vector to int32 vector and back
 *   LT(a, b), SELECT(m, t, f)   float compare and blend
 *   GT_D(a, b), SELECT_D(m, t, f)   the same for doubles
 *   WIDEN_LO(v), WIDEN_HI(v), NARROW(lo, hi)   floats to doubles and back
 *   ZERO_WHERE_ZERO(bits, v)    v, with 0 in the lanes where bits is 0
 *   GATHER(base, idx)    base[idx[i]] in lane i; LOAD_I(p) loads int32s
 *   DEINTERLEAVE(a, b, even, odd)   the even and the odd lanes of a then b
 *   STRIP_VECS           vectors of a 64-byte line (the vertical blur's strip)
 *   NAME(f)              f with the ISA's suffix
 * Each output is the C's (feature/ssimulacra2_pixel.h and
 * ssimulacra2_dsp.c): the same float operations in the same order, its
 * fmaf() as one fused multiply-add. Vectors run across the samples of a
 * row (XYB, products, 2x2 means, the error maps' terms, which are then added one by
 * one in the C's order), the columns (vertical blur) or the rows
 * (horizontal blur, whose recurrence runs along the row). A plane narrower (or, for the
 * horizontal blur, lower) than LANES goes to the C; otherwise the last step
 * overlaps the one before and writes its outputs again, unchanged.
 */
#ifndef VQX_X86_SSIMULACRA2_SIMD_H
#define VQX_X86_SSIMULACRA2_SIMD_H

#include <math.h>

#include "feature/ssimulacra2_pixel.h"
#include "x86/ssimulacra2.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* The end of a row: the last step overlaps the one before. */
#define LAST_STEP(x, w) ((x) > (w) - LANES ? (w) - LANES : (x))

/* ssimu2_cbrt_add for a vector of x >= 0. */
ALWAYS_INLINE VECF NAME(cbrt_add)(VECF x, VECF add)
{
    const VECI bits = CASTI(x);
    const VECI guess = VI(sub_epi32)(VI(set1_epi32)(0x54800000),
                                     VI(mullo_epi32)(VI(srai_epi32)(bits, 23),
                                                     VI(set1_epi32)(0x002AAAAA)));
    VECF r = CASTF(ZERO_WHERE_ZERO(bits, guess));
    const VECF x_3 = VF(mul)(VF(set1)(1.0f / 3), x), four_3 = VF(set1)(4.0f / 3);
    for (int i = 0; i < 3; i++) {
        const VECF r2 = VF(mul)(r, r);
        r = VF(fnmadd)(x_3, VF(mul)(r2, r2), VF(mul)(four_3, r));
    }
    VECF r2 = VF(mul)(r, r);
    r = VF(fmadd)(VF(set1)(1.0f / 3), VF(fnmadd)(x, VF(mul)(r2, r2), r), r);
    r2 = VF(mul)(r, r);
    return VF(fmadd)(r2, x, add);
}

ALWAYS_INLINE VECF NAME(opsin)(VECF r, VECF g, VECF b, float m0, float m1, float m2)
{
    const VECF bias = VF(set1)(SSIMU2_OPSIN_BIAS), zero = VF(setzero)();
    const VECF m = VF(fmadd)(VF(set1)(m0), r,
                             VF(fmadd)(VF(set1)(m1), g, VF(fmadd)(VF(set1)(m2), b, bias)));
    return SELECT(LT(m, zero), zero, m);
}

SSIMU2_XYB_ROW(NAME(vqx_ssimu2_xyb_row))
{
    if (n < LANES) return vqx_ssimu2_xyb_row_c(r, g, b, x, y, bo, n);
    const VECF neg_bias_cbrt = VF(set1)(-cbrtf(SSIMU2_OPSIN_BIAS)), half = VF(set1)(0.5f);
    for (int i = 0;; i += LANES) {
        i = LAST_STEP(i, n);
        const VECF vr = VF(loadu)(r + i), vg = VF(loadu)(g + i), vb = VF(loadu)(b + i);
        const VECF c0 = NAME(cbrt_add)(NAME(opsin)(vr, vg, vb, SSIMU2_M00, SSIMU2_M01, SSIMU2_M02),
                                       neg_bias_cbrt);
        const VECF c1 = NAME(cbrt_add)(NAME(opsin)(vr, vg, vb, SSIMU2_M10, SSIMU2_M11, SSIMU2_M12),
                                       neg_bias_cbrt);
        const VECF c2 = NAME(cbrt_add)(NAME(opsin)(vr, vg, vb, SSIMU2_M20, SSIMU2_M21, SSIMU2_M22),
                                       neg_bias_cbrt);
        const VECF vx = VF(mul)(half, VF(sub)(c0, c1)), vy = VF(mul)(half, VF(add)(c0, c1));
        VF(storeu)(x + i, VF(add)(VF(mul)(vx, VF(set1)(14.0f)), VF(set1)(0.42f)));
        VF(storeu)(y + i, VF(add)(vy, VF(set1)(0.01f)));
        VF(storeu)(bo + i, VF(add)(VF(sub)(c2, vy), VF(set1)(0.55f)));
        if (i == n - LANES) break;
    }
}

SSIMU2_MULTIPLY_ROW(NAME(vqx_ssimu2_multiply_row))
{
    if (n < LANES) return vqx_ssimu2_multiply_row_c(a, b, out, n);
    for (int i = 0;; i += LANES) {
        i = LAST_STEP(i, n);
        VF(storeu)(out + i, VF(mul)(VF(loadu)(a + i), VF(loadu)(b + i)));
        if (i == n - LANES) break;
    }
}

/* The 2x2 means of LANES outputs from 2 LANES columns of two rows. Done in
 * place, each step reads its inputs before it writes, and later steps read
 * only columns and rows it does not write. */
ALWAYS_INLINE void NAME(mean4)(const float *row0, const float *row1, float *dst)
{
    VECF e0, o0, e1, o1;
    DEINTERLEAVE(VF(loadu)(row0), VF(loadu)(row0 + LANES), e0, o0);
    DEINTERLEAVE(VF(loadu)(row1), VF(loadu)(row1 + LANES), e1, o1);
    const VECF sum = VF(add)(VF(add)(VF(add)(e0, o0), e1), o1);
    VF(storeu)(dst, VF(mul)(sum, VF(set1)(0.25f)));
}

SSIMU2_DOWNSAMPLE(NAME(vqx_ssimu2_downsample))
{
    const int ow = (w + 1) / 2, oh = (h + 1) / 2, pairs = w / 2;
    for (int oy = 0; oy < oh; oy++) {
        const float *row0 = in + 2 * oy * stride;
        const float *row1 = 2 * oy + 1 < h ? row0 + stride : row0;
        float *dst = out + oy * stride;
        int ox = 0;
        for (; ox + LANES <= pairs; ox += LANES)
            NAME(mean4)(row0 + 2 * ox, row1 + 2 * ox, dst + ox);
        for (; ox < ow; ox++) {
            const int x0 = 2 * ox, x1 = x0 + 1 < w ? x0 + 1 : x0;
            float sum = row0[x0];
            sum += row0[x1];
            sum += row1[x0];
            sum += row1[x1];
            dst[ox] = sum * 0.25f;
        }
    }
}

/* ---- horizontal blur: LANES rows at once, lane i on row i ---- */

typedef struct NAME(RowStrip) {
    const float *in;
    VECI idx;               /* lane i: i * stride */
    int w;
    float tile[LANES][LANES] __attribute__((aligned(64))); /* [position][row] */
    float *out;
    ptrdiff_t stride;
    int tile_start, tile_n; /* first position in the tile, positions held */
} NAME(RowStrip);

ALWAYS_INLINE VECF NAME(column)(const NAME(RowStrip) *s, int x)
{
    return x >= 0 && x < s->w ? GATHER(s->in + x, s->idx) : VF(setzero)();
}

static void NAME(flush_tile)(NAME(RowStrip) *s)
{
    for (int row = 0; row < LANES; row++) {
        float *dst = s->out + row * s->stride + s->tile_start;
        for (int j = 0; j < s->tile_n; j++) dst[j] = s->tile[j][row];
    }
    s->tile_start += s->tile_n;
    s->tile_n = 0;
}

ALWAYS_INLINE void NAME(put)(NAME(RowStrip) *s, VECF v)
{
    VF(store)(s->tile[s->tile_n], v);
    if (++s->tile_n == LANES) NAME(flush_tile)(s);
}

/* blur_step of the C on LANES rows. */
ALWAYS_INLINE VECF NAME(blur_step)(const Ssimu2Gauss *g, VECF sum, VECF prev[3], VECF prev2[3])
{
    VECF o[3];
    for (int k = 0; k < 3; k++) {
        o[k] = VF(mul)(sum, VF(set1)(g->mul_in[k][0]));
        o[k] = VF(fmadd)(VF(set1)(g->mul_prev2[k][0]), prev2[k], o[k]);
        prev2[k] = prev[k];
        o[k] = VF(fmadd)(VF(set1)(g->mul_prev[k][0]), prev[k], o[k]);
        prev[k] = o[k];
    }
    return VF(add)(o[0], VF(add)(o[1], o[2]));
}

static void NAME(blur_rows)(const Ssimu2Gauss *g, NAME(RowStrip) *s)
{
    const int radius = g->radius, w = s->w;
    VECF prev[3], prev2[3];
    for (int k = 0; k < 3; k++) prev[k] = prev2[k] = VF(setzero)();
    s->tile_start = 0;
    s->tile_n = 0;
    int n = -radius + 1;
    const int head_end = (radius + 1 + 3) / 4 * 4;
    for (; n < (head_end < w ? head_end : w); n++) {
        const VECF sum = VF(add)(NAME(column)(s, n - radius - 1), NAME(column)(s, n + radius - 1));
        const VECF v = NAME(blur_step)(g, sum, prev, prev2);
        if (n >= 0) NAME(put)(s, v);
    }
    for (; n < w - radius + 1 - 3; n += 4) {
        VECF sum[4], o[3][4];
        for (int j = 0; j < 4; j++)
            sum[j] = VF(add)(GATHER(s->in + n + j - radius - 1, s->idx),
                             GATHER(s->in + n + j + radius - 1, s->idx));
        for (int k = 0; k < 3; k++) {
            for (int j = 0; j < 4; j++) {
                VECF v = VF(mul)(sum[0], VF(set1)(g->mul_in[k][j]));
                for (int t = 1; t <= j; t++)
                    v = VF(fmadd)(VF(set1)(g->mul_in[k][j - t]), sum[t], v);
                v = VF(fmadd)(VF(set1)(g->mul_prev2[k][j]), prev2[k], v);
                o[k][j] = VF(fmadd)(VF(set1)(g->mul_prev[k][j]), prev[k], v);
            }
            prev2[k] = o[k][2];
            prev[k] = o[k][3];
        }
        for (int j = 0; j < 4; j++) NAME(put)(s, VF(add)(o[0][j], VF(add)(o[1][j], o[2][j])));
    }
    for (; n < w; n++) {
        const VECF sum = VF(add)(NAME(column)(s, n - radius - 1), NAME(column)(s, n + radius - 1));
        NAME(put)(s, NAME(blur_step)(g, sum, prev, prev2));
    }
    if (s->tile_n) NAME(flush_tile)(s);
}

SSIMU2_BLUR_H(NAME(vqx_ssimu2_blur_h))
{
    if (h < LANES) return vqx_ssimu2_blur_h_c(g, in, out, stride, w, h);
    NAME(RowStrip) s;
    int lane_offsets[LANES];
    for (int i = 0; i < LANES; i++) lane_offsets[i] = (int)(i * stride);
    s.idx = LOAD_I(lane_offsets);
    s.w = w;
    s.stride = stride;
    for (int y = 0;; y += LANES) {
        y = LAST_STEP(y, h);
        s.in = in + y * stride;
        s.out = out + y * stride;
        NAME(blur_rows)(g, &s);
        if (y == h - LANES) break;
    }
}

/* ---- error maps: each sample's terms in vectors, added in the C's order ---- */

ALWAYS_INLINE VECD NAME(positive)(VECD d)
{
    return SELECT_D(GT_D(d, VD(setzero)()), d, VD(setzero)());
}

ALWAYS_INLINE VECD NAME(quartic)(VECD d)
{
    d = VD(mul)(d, d);
    return VD(mul)(d, d);
}

/* The C's float steps up to num_m * num_s / denom_s. */
ALWAYS_INLINE VECF NAME(ssim_ratio)(VECF mu1, VECF mu2, VECF s11, VECF s22, VECF s12)
{
    const VECF c2 = VF(set1)(SSIMU2_C2), diff = VF(sub)(mu1, mu2), sq = VF(mul)(diff, diff);
    const VECD one = VD(set1)(1.0);
    const VECF num_m = NARROW(VD(sub)(one, WIDEN_LO(sq)), VD(sub)(one, WIDEN_HI(sq)));
    const VECF num_s = VF(add)(VF(mul)(VF(set1)(2.0f), VF(sub)(s12, VF(mul)(mu1, mu2))), c2);
    const VECF denom_s = VF(add)(VF(add)(VF(sub)(s11, VF(mul)(mu1, mu1)),
                                         VF(sub)(s22, VF(mul)(mu2, mu2))), c2);
    return VF(div)(VF(mul)(num_m, num_s), denom_s);
}

SSIMU2_SSIM_SUMS(NAME(vqx_ssimu2_ssim_sums))
{
    double d[LANES] __attribute__((aligned(64))), d4[LANES] __attribute__((aligned(64)));
    const VECD one = VD(set1)(1.0);
    for (int y = 0; y < h; y++) {
        const ptrdiff_t o = y * stride;
        int x = 0;
        for (; x + LANES <= w; x += LANES) {
            const VECF q = NAME(ssim_ratio)(VF(loadu)(mu1 + o + x), VF(loadu)(mu2 + o + x),
                                            VF(loadu)(s11 + o + x), VF(loadu)(s22 + o + x),
                                            VF(loadu)(s12 + o + x));
            const VECD lo = NAME(positive)(VD(sub)(one, WIDEN_LO(q)));
            const VECD hi = NAME(positive)(VD(sub)(one, WIDEN_HI(q)));
            VD(store)(d, lo);
            VD(store)(d + LANES / 2, hi);
            VD(store)(d4, NAME(quartic)(lo));
            VD(store)(d4 + LANES / 2, NAME(quartic)(hi));
            for (int i = 0; i < LANES; i++) {
                sums[0] += d[i];
                sums[1] += d4[i];
            }
        }
        for (; x < w; x++) {
            const double e = ssimu2_ssim_error(mu1[o + x], mu2[o + x], s11[o + x], s22[o + x],
                                               s12[o + x]);
            sums[0] += e;
            sums[1] += ssimu2_quartic(e);
        }
    }
}

ALWAYS_INLINE VECF NAME(abs)(VECF v)
{
    return VF(andnot)(VF(set1)(-0.0f), v);
}

ALWAYS_INLINE VECD NAME(edge_half)(VECD a2, VECD a1)
{
    const VECD one = VD(set1)(1.0);
    return VD(sub)(VD(div)(VD(add)(one, a2), VD(add)(one, a1)), one);
}

SSIMU2_EDGE_SUMS(NAME(vqx_ssimu2_edge_sums))
{
    double art[2][LANES] __attribute__((aligned(64))), lost[2][LANES] __attribute__((aligned(64)));
    for (int y = 0; y < h; y++) {
        const ptrdiff_t o = y * stride;
        int x = 0;
        for (; x + LANES <= w; x += LANES) {
            const VECF a2 = NAME(abs)(VF(sub)(VF(loadu)(img2 + o + x), VF(loadu)(mu2 + o + x)));
            const VECF a1 = NAME(abs)(VF(sub)(VF(loadu)(img1 + o + x), VF(loadu)(mu1 + o + x)));
            const VECD d[2] = { NAME(edge_half)(WIDEN_LO(a2), WIDEN_LO(a1)),
                                NAME(edge_half)(WIDEN_HI(a2), WIDEN_HI(a1)) };
            for (int k = 0; k < 2; k++) {
                const VECD artifact = NAME(positive)(d[k]);
                const VECD detail_lost = NAME(positive)(VD(sub)(VD(setzero)(), d[k]));
                VD(store)(art[0] + k * LANES / 2, artifact);
                VD(store)(art[1] + k * LANES / 2, NAME(quartic)(artifact));
                VD(store)(lost[0] + k * LANES / 2, detail_lost);
                VD(store)(lost[1] + k * LANES / 2, NAME(quartic)(detail_lost));
            }
            for (int i = 0; i < LANES; i++) {
                sums[0] += art[0][i];
                sums[1] += art[1][i];
                sums[2] += lost[0][i];
                sums[3] += lost[1][i];
            }
        }
        for (; x < w; x++)
            ssimu2_edge_add(ssimu2_edge_diff(img1[o + x], mu1[o + x], img2[o + x], mu2[o + x]),
                            sums);
    }
}

/* ---- vertical blur: columns in strips of STRIP_VECS vectors ---- */

ALWAYS_INLINE void NAME(blur_columns)(const Ssimu2Gauss *g, const float *in, float *out,
                                      ptrdiff_t stride, int h, int nv)
{
    const int radius = g->radius;
    VECF n2[3], d1[3], y1[3][STRIP_VECS], y2[3][STRIP_VECS];
    for (int k = 0; k < 3; k++) {
        n2[k] = VF(set1)(g->n2[k]);
        d1[k] = VF(set1)(g->d1[k]);
        for (int v = 0; v < nv; v++) y1[k][v] = y2[k][v] = VF(setzero)();
    }
    for (int n = -radius + 1; n < h; n++) {
        const int top = n - radius - 1, bottom = n + radius - 1;
        for (int v = 0; v < nv; v++) {
            const VECF below = bottom < h ? VF(loadu)(in + bottom * stride + v * LANES)
                                          : VF(setzero)();
            const VECF sum = top >= 0 ? VF(add)(VF(loadu)(in + top * stride + v * LANES), below)
                                      : below;
            VECF r[3];
            for (int k = 0; k < 3; k++) {
                r[k] = VF(fmadd)(n2[k], sum, VF(fnmsub)(d1[k], y1[k][v], y2[k][v]));
                y2[k][v] = y1[k][v];
                y1[k][v] = r[k];
            }
            if (n >= 0)
                VF(storeu)(out + n * stride + v * LANES, VF(add)(r[0], VF(add)(r[1], r[2])));
        }
    }
}

SSIMU2_BLUR_V(NAME(vqx_ssimu2_blur_v))
{
    if (w < LANES) return vqx_ssimu2_blur_v_c(g, in, out, stride, w, h);
    int x = 0;
    for (; x + STRIP_VECS * LANES <= w; x += STRIP_VECS * LANES)
        NAME(blur_columns)(g, in + x, out + x, stride, h, STRIP_VECS);
    for (; x < w; x += LANES) {
        x = LAST_STEP(x, w);
        NAME(blur_columns)(g, in + x, out + x, stride, h, 1);
    }
}

#endif
