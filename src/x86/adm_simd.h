/*
 * Integer ADM's stages at one vector width, with the C's results bit for
 * bit (feature/adm_dsp.c is the definition): included by adm_avx2.c and
 * adm_avx512.c, which first define
 *   VEC, HALF           the integer vector and its half; LANES its 32-bit lanes
 *   VECD, VECF, HALFF   the double vector (LANES / 2 lanes), the float
 *                       vector and its half
 *   VI(op), VD(op)      the intrinsic _mm<bits>_op
 *   VZERO(), VAND(a, b), VOR(a, b), VXOR(a, b), VLOAD(p), VSTORE(p, v),
 *   SET1_64(x)          the si<bits> and 64-bit broadcast operations
 *   NAME(f)             f with the ISA's suffix
 *   MASK, DMASK         a per-lane condition of 32-bit and of double lanes:
 *                       mask_gt32(a, b), mask_nz(v), mask_and(m, n),
 *                       select32(m, a, b) (m ? a : b), dcmp_ge(a, b),
 *                       dmask_and(m, n), join_dmask(lo, hi)
 *   lo_half(v), hi_half(v), join(lo, hi), lo_half_ps(f), hi_half_ps(f)
 *   widen_lo(v), widen_hi(v)  the lanes of a half sign-extended to 64 bits
 *   narrow64(lo, hi)    the low 32 bits of the 64-bit lanes of lo, then hi
 *   blend_odd(e, o)     the even 32-bit lanes of e and the odd ones of o
 *   sra64(x, count), sra64v(x, counts), min64(a, b), max64(a, b)
 *   mul_u64_u32(s, m)   low 64 bits of s times the 32-bit m (zero-extended)
 *   cvt_i64_ps(x)       int64 to float, rounded to nearest as the C's cast
 *   gather32(table, idx), excess_bits(mag)  max(bit length of mag - 15, 0)
 *   any_wide(v)         whether a lane has a bit above bit 14
 *   sum64(v)            the lanes' sum modulo 2^64
 *   TailMask, tail_mask(n), load_masked(p, m)   loads of the first n < LANES
 *                       32-bit lanes, the others 0
 *   widen_u8(p, lo, hi) 4 LANES bytes zero-extended to 16-bit lanes, in order
 *
 * Integers keep the C's widths: where the C wraps, the vector lanes wrap
 * alike; 64-bit values (products of 32-bit ones) live in 64-bit lanes,
 * either a half's lanes sign-extended (widen_*, in order) or the even and
 * odd 32-bit lanes apart (mul_ep[iu]32 reads the low half of each 64-bit
 * lane). Doubles take the C's operations in its order, one output per lane.
 * Stages that write rows end with a chunk that overlaps the previous one and
 * rewrites its values unchanged (their outputs never overlap their inputs);
 * a row too narrow for one vector goes to the C. Sums end with masked
 * loads, whose zero lanes add 0.
 */
#ifndef VQX_X86_ADM_SIMD_H
#define VQX_X86_ADM_SIMD_H

#include <stdbool.h>

#include "x86/adm.h"

#define COLS16 (2 * LANES) /* 16-bit lanes */
#define COLS8 (4 * LANES)  /* bytes */

static inline int64_t round_half(unsigned shift)
{
    return shift ? (int64_t)1 << (shift - 1) : 0;
}

/* ---- picture rows ---- */

ADM_ROW_TO_INT(NAME(vqx_adm_row_to_int_8bpc))
{
    if (w < COLS8) {
        vqx_adm_row_to_int_8bpc(src, dst, w, bpc);
        return;
    }
    const uint8_t *p = src;
    const VEC half = VI(set1_epi16)((int16_t)(1 << (bpc - 1)));
    for (int x = 0;; x += COLS8) {
        if (x > w - COLS8) x = w - COLS8;
        VEC lo, hi;
        widen_u8(p + x, &lo, &hi);
        VSTORE(dst + x, VI(sub_epi16)(lo, half));
        VSTORE(dst + x + COLS16, VI(sub_epi16)(hi, half));
        if (x == w - COLS8) break;
    }
}

/* 16-bit lanes wrap as the C's cast to int16 does (bpc 16: x - 32768). */
ADM_ROW_TO_INT(NAME(vqx_adm_row_to_int_16bpc))
{
    if (w < COLS16) {
        vqx_adm_row_to_int_16bpc(src, dst, w, bpc);
        return;
    }
    const uint16_t *p = src;
    const VEC half = VI(set1_epi16)((int16_t)(1u << (bpc - 1)));
    for (int x = 0;; x += COLS16) {
        if (x > w - COLS16) x = w - COLS16;
        VSTORE(dst + x, VI(sub_epi16)(VLOAD(p + x), half));
        if (x == w - COLS16) break;
    }
}

/* ---- DWT ----
 * Level 0: pairs of 16-bit values times pairs of taps (madd), whose 32-bit
 * sums are the C's, the vertical results cut to 16 bits as the C's cast.
 * Levels 1 to 3: 32 x 32-bit products in 64-bit lanes; the low 32 bits of
 * the shifted sum are the C's (int32_t) cast of its arithmetic shift, for
 * shifts up to 32. */

/* Taps k and k + 1 as the 16-bit pair of a madd. */
ALWAYS_INLINE VEC tap_pair(const int32_t *t, int k)
{
    return VI(set1_epi32)((int32_t)((uint32_t)(uint16_t)t[k + 1] << 16 | (uint16_t)t[k]));
}

/* The low 16 bits of each 32-bit lane, sign-extended: packs then saturates
 * nothing. */
ALWAYS_INLINE VEC low16(VEC v)
{
    return VI(srai_epi32)(VI(slli_epi32)(v, 16), 16);
}

ALWAYS_INLINE VEC madd_pass(VEC x01, VEC x23, VEC t01, VEC t23, VEC round, __m128i sh)
{
    return VI(sra_epi32)(VI(add_epi32)(VI(add_epi32)(VI(madd_epi16)(x01, t01),
                                                     VI(madd_epi16)(x23, t23)), round), sh);
}

ADM_DWT_VERTICAL_16(NAME(vqx_adm_dwt_vertical_16))
{
    if (w < COLS16) {
        vqx_adm_dwt_vertical_16_c(src, w, add, shift, lo, hi);
        return;
    }
    const VEC l01 = tap_pair(vqx_adm_db2_lo, 0), l23 = tap_pair(vqx_adm_db2_lo, 2);
    const VEC g01 = tap_pair(vqx_adm_db2_hi, 0), g23 = tap_pair(vqx_adm_db2_hi, 2);
    const VEC round = VI(set1_epi32)(add);
    const __m128i sh = _mm_cvtsi32_si128((int)shift);
    for (int x = 0;; x += COLS16) {
        if (x > w - COLS16) x = w - COLS16;
        VEC s[4];
        for (int k = 0; k < 4; k++) s[k] = VLOAD(src[k] + x);
        const VEC u01l = VI(unpacklo_epi16)(s[0], s[1]), u01h = VI(unpackhi_epi16)(s[0], s[1]);
        const VEC u23l = VI(unpacklo_epi16)(s[2], s[3]), u23h = VI(unpackhi_epi16)(s[2], s[3]);
        /* packs undoes the unpacks' column order */
        VSTORE(lo + x, VI(packs_epi32)(low16(madd_pass(u01l, u23l, l01, l23, round, sh)),
                                       low16(madd_pass(u01h, u23h, l01, l23, round, sh))));
        VSTORE(hi + x, VI(packs_epi32)(low16(madd_pass(u01l, u23l, g01, g23, round, sh)),
                                       low16(madd_pass(u01h, u23h, g01, g23, round, sh))));
        if (x == w - COLS16) break;
    }
}

ADM_DWT_HORIZONTAL_16(NAME(vqx_adm_dwt_horizontal_16))
{
    const int n = (w + 1) / 2;
    if (n < LANES) {
        vqx_adm_dwt_horizontal_16_c(lo, hi, w, add, shift, a, h, v, d);
        return;
    }
    const VEC l01 = tap_pair(vqx_adm_db2_lo, 0), l23 = tap_pair(vqx_adm_db2_lo, 2);
    const VEC g01 = tap_pair(vqx_adm_db2_hi, 0), g23 = tap_pair(vqx_adm_db2_hi, 2);
    const VEC round = VI(set1_epi32)(add);
    const __m128i sh = _mm_cvtsi32_si128((int)shift);
    for (int j = 0;; j += LANES) {
        if (j > n - LANES) j = n - LANES;
        /* 32-bit lane i: entries 2(j + i) - 1 and 2(j + i), then the next two */
        const VEC p0 = VLOAD(lo + 2 * j - 1), p1 = VLOAD(lo + 2 * j + 1);
        const VEC q0 = VLOAD(hi + 2 * j - 1), q1 = VLOAD(hi + 2 * j + 1);
        VSTORE(a + j, madd_pass(p0, p1, l01, l23, round, sh));
        VSTORE(v + j, madd_pass(p0, p1, g01, g23, round, sh));
        VSTORE(h + j, madd_pass(q0, q1, l01, l23, round, sh));
        VSTORE(d + j, madd_pass(q0, q1, g01, g23, round, sh));
        if (j == n - LANES) break;
    }
}

/* Low 32 bits of (sum + add) >> shift in each 64-bit lane. */
ALWAYS_INLINE VEC shifted(VEC sum, VEC add, __m128i sh)
{
    return VI(srl_epi64)(VI(add_epi64)(sum, add), sh);
}

ADM_DWT_VERTICAL_32(NAME(vqx_adm_dwt_vertical_32))
{
    if (w < LANES) {
        vqx_adm_dwt_vertical_32_c(src, w, add, shift, lo, hi);
        return;
    }
    const VEC round = SET1_64(add);
    const __m128i sh = _mm_cvtsi32_si128((int)shift);
    for (int x = 0;; x += LANES) {
        if (x > w - LANES) x = w - LANES;
        VEC le = VZERO(), lodd = le, ge = le, godd = le;
        for (int k = 0; k < 4; k++) {
            const VEC s = VLOAD(src[k] + x), so = VI(srli_epi64)(s, 32);
            const VEC tl = SET1_64(vqx_adm_db2_lo[k]), tg = SET1_64(vqx_adm_db2_hi[k]);
            le = VI(add_epi64)(le, VI(mul_epi32)(s, tl));
            lodd = VI(add_epi64)(lodd, VI(mul_epi32)(so, tl));
            ge = VI(add_epi64)(ge, VI(mul_epi32)(s, tg));
            godd = VI(add_epi64)(godd, VI(mul_epi32)(so, tg));
        }
        VSTORE(lo + x, blend_odd(shifted(le, round, sh),
                                 VI(slli_epi64)(shifted(lodd, round, sh), 32)));
        VSTORE(hi + x, blend_odd(shifted(ge, round, sh),
                                 VI(slli_epi64)(shifted(godd, round, sh), 32)));
        if (x == w - LANES) break;
    }
}

/* Sums of outputs j .. j + LANES / 2 - 1 of row r (64-bit lanes) with taps t. */
ALWAYS_INLINE VEC horizontal_half(const int32_t *r, int j, const int32_t *t)
{
    /* 64-bit lane i: entries 2(j + i) - 1 (low) and 2(j + i) (high), then the next two */
    const VEC x0 = VLOAD(r + 2 * j - 1), x1 = VLOAD(r + 2 * j + 1);
    VEC s = VI(mul_epi32)(x0, SET1_64(t[0]));
    s = VI(add_epi64)(s, VI(mul_epi32)(VI(srli_epi64)(x0, 32), SET1_64(t[1])));
    s = VI(add_epi64)(s, VI(mul_epi32)(x1, SET1_64(t[2])));
    return VI(add_epi64)(s, VI(mul_epi32)(VI(srli_epi64)(x1, 32), SET1_64(t[3])));
}

ADM_DWT_HORIZONTAL_32(NAME(vqx_adm_dwt_horizontal_32))
{
    const int n = (w + 1) / 2;
    if (n < LANES) {
        vqx_adm_dwt_horizontal_32_c(lo, hi, w, add, shift, a, h, v, d);
        return;
    }
    const VEC round = SET1_64(add);
    const __m128i sh = _mm_cvtsi32_si128((int)shift);
    for (int j = 0;; j += LANES) {
        if (j > n - LANES) j = n - LANES;
#define PASS(r, t) narrow64(shifted(horizontal_half(r, j, t), round, sh), \
                            shifted(horizontal_half(r, j + LANES / 2, t), round, sh))
        VSTORE(a + j, PASS(lo, vqx_adm_db2_lo));
        VSTORE(v + j, PASS(lo, vqx_adm_db2_hi));
        VSTORE(h + j, PASS(hi, vqx_adm_db2_lo));
        VSTORE(d + j, PASS(hi, vqx_adm_db2_hi));
#undef PASS
        if (j == n - LANES) break;
    }
}

/* ---- decoupling ----
 * A chunk whose six coefficients are all within +-32767 (level 0's, as a
 * rule) takes 32-bit paths: the angle test's products and sums fit 32 bits
 * and convert to the floats of the C's 64-bit ones; the gain's product of
 * the reciprocal (< 2^31) and t (< 2^15) is split at bit 15 of the
 * reciprocal into two exact 32-bit products. Other chunks (levels 1 to 3)
 * take the C's 64-bit arithmetic in 64-bit lanes. The restored part
 * k o >> 15 is split at bit 15 of o the same way, in 32 bits for all. */

/* The angle test of LANES / 2 positions from the floats of their dot
 * product and squared norms, in double as the C (a division by 4096 is a
 * multiplication by 2^-12, exact on these integers). */
ALWAYS_INLINE DMASK angle_half(HALFF dot, HALFF o_sq, HALFF t_sq, VECD cos_sq)
{
    const VECD scale = VD(set1_pd)(1.0 / 4096), zero = VD(setzero_pd)();
    const VECD d = VD(mul_pd)(VD(cvtps_pd)(dot), scale);
    const VECD of = VD(mul_pd)(VD(cvtps_pd)(o_sq), scale);
    const VECD tf = VD(mul_pd)(VD(cvtps_pd)(t_sq), scale);
    return dmask_and(dcmp_ge(d, zero),
                     dcmp_ge(VD(mul_pd)(d, d), VD(mul_pd)(VD(mul_pd)(cos_sq, of), tf)));
}

ALWAYS_INLINE MASK angle_narrow(const VEC o[3], const VEC t[3], VECD cos_sq)
{
    const VEC dot = VI(add_epi32)(VI(mullo_epi32)(o[0], t[0]), VI(mullo_epi32)(o[1], t[1]));
    const VEC o_sq = VI(add_epi32)(VI(mullo_epi32)(o[0], o[0]), VI(mullo_epi32)(o[1], o[1]));
    const VEC t_sq = VI(add_epi32)(VI(mullo_epi32)(t[0], t[0]), VI(mullo_epi32)(t[1], t[1]));
    const VECF fd = VI(cvtepi32_ps)(dot), fo = VI(cvtepi32_ps)(o_sq), ft = VI(cvtepi32_ps)(t_sq);
    return join_dmask(angle_half(lo_half_ps(fd), lo_half_ps(fo), lo_half_ps(ft), cos_sq),
                      angle_half(hi_half_ps(fd), hi_half_ps(fo), hi_half_ps(ft), cos_sq));
}

/* a b + c d of the sign-extended lanes, modulo 2^64 */
ALWAYS_INLINE VEC dot64(VEC a, VEC b, VEC c, VEC d)
{
    return VI(add_epi64)(VI(mul_epi32)(a, b), VI(mul_epi32)(c, d));
}

ALWAYS_INLINE DMASK angle_wide_half(VEC oh, VEC ov, VEC th, VEC tv, VECD cos_sq)
{
    return angle_half(cvt_i64_ps(dot64(oh, th, ov, tv)), cvt_i64_ps(dot64(oh, oh, ov, ov)),
                      cvt_i64_ps(dot64(th, th, tv, tv)), cos_sq);
}

ALWAYS_INLINE MASK angle_wide(const VEC o[3], const VEC t[3], VECD cos_sq)
{
    return join_dmask(angle_wide_half(widen_lo(o[0]), widen_lo(o[1]), widen_lo(t[0]),
                                      widen_lo(t[1]), cos_sq),
                      angle_wide_half(widen_hi(o[0]), widen_hi(o[1]), widen_hi(t[0]),
                                      widen_hi(t[1]), cos_sq));
}

ALWAYS_INLINE VEC clamp_gain(VEC k)
{
    return VI(min_epi32)(VI(max_epi32)(k, VZERO()), VI(set1_epi32)(32768));
}

/* |o| and t within 32767: the index is |o| itself, and recip t =
 * 2^15 (recip >> 15) t + (recip & 32767) t. */
ALWAYS_INLINE VEC gain_narrow(const int32_t *recip, VEC o, VEC t)
{
    const VEC neg = VI(srai_epi32)(o, 31);
    const VEC t_signed = VI(sub_epi32)(VXOR(t, neg), neg);
    const VEC r = gather32(recip, VI(abs_epi32)(o));
    const VEC high = VI(mullo_epi32)(VI(srli_epi32)(r, 15), t_signed);
    const VEC low = VI(mullo_epi32)(VAND(r, VI(set1_epi32)(32767)), t_signed);
    const VEC rounded = VI(srai_epi32)(VI(add_epi32)(low, VI(set1_epi32)(16384)), 15);
    return clamp_gain(VI(add_epi32)(high, rounded));
}

/* The C's quotient (recip t, negated where o < 0), rounding term and shift
 * of half the lanes, sign-extended. */
ALWAYS_INLINE VEC gain_wide_half(VEC recip, VEC t, VEC neg, VEC round, VEC count)
{
    VEC q = VI(mul_epi32)(recip, t);
    q = VI(sub_epi64)(VXOR(q, neg), neg);
    const VEC k = sra64v(VI(add_epi64)(q, round), count);
    return min64(max64(k, VZERO()), SET1_64(32768));
}

ALWAYS_INLINE VEC gain_wide(const int32_t *recip, VEC o, VEC t)
{
    const VEC mag = VI(abs_epi32)(o); /* INT32_MIN: 2^31 as unsigned */
    const VEC shift = excess_bits(mag);
    const VEC half = VI(srli_epi32)(VI(sllv_epi32)(VI(set1_epi32)(1), shift), 1);
    const VEC idx = VI(srlv_epi32)(VI(add_epi32)(mag, half), shift);
    const VEC r = gather32(recip, idx);
    const VEC neg = VI(srai_epi32)(o, 31);
    /* 2^(14 + shift) as an int32: -2^31 at shift 17 */
    const VEC round = VI(sllv_epi32)(VI(set1_epi32)(1 << 14), shift);
    const VEC count = VI(add_epi32)(shift, VI(set1_epi32)(15));
    return narrow64(gain_wide_half(widen_lo(r), widen_lo(t), widen_lo(neg), widen_lo(round),
                                   widen_lo(count)),
                    gain_wide_half(widen_hi(r), widen_hi(t), widen_hi(neg), widen_hi(round),
                                   widen_hi(count)));
}

/* (int32_t)(r * gain) of half the lanes, the product clamped to the int32
 * range first: the C's min(e, t) (o > 0, e >= 0) and max(e, t) (o < 0,
 * e <= 0) with an int32 t are unchanged by it. */
ALWAYS_INLINE HALF enhancement_half(HALF r, VECD gain)
{
    const VECD e = VD(mul_pd)(VD(cvtepi32_pd)(r), gain);
    return VD(cvttpd_epi32)(VD(min_pd)(VD(max_pd)(e, VD(set1_pd)(-2147483648.0)),
                                       VD(set1_pd)(2147483647.0)));
}

ALWAYS_INLINE void restore(VEC o, VEC t, VEC k, MASK same_angle, VECD gain, int32_t *r_out,
                           int32_t *a_out)
{
    /* (k o + 2^14) >> 15 = k (o >> 15) + ((k (o & 32767) + 2^14) >> 15), each
     * term within 32 bits for k <= 2^15 */
    const VEC high = VI(mullo_epi32)(k, VI(srai_epi32)(o, 15));
    const VEC low = VI(mullo_epi32)(k, VAND(o, VI(set1_epi32)(32767)));
    const VEC rounded = VI(srai_epi32)(VI(add_epi32)(low, VI(set1_epi32)(16384)), 15);
    const VEC r = VI(add_epi32)(high, rounded);
    const VEC e = join(enhancement_half(lo_half(r), gain), enhancement_half(hi_half(r), gain));
    const MASK pos = mask_gt32(o, VZERO());
    const VEC enhanced = select32(pos, VI(min_epi32)(e, t), VI(max_epi32)(e, t));
    const MASK enhance = mask_and(same_angle, mask_and(mask_gt32(k, VZERO()), mask_nz(o)));
    const VEC out = select32(enhance, enhanced, r);
    VSTORE(r_out, out);
    VSTORE(a_out, VI(sub_epi32)(t, out));
}

ADM_DECOUPLE(NAME(vqx_adm_decouple))
{
    if (w < LANES) {
        vqx_adm_decouple_c(o, t, w, recip, cos_1deg_sq, gain_limit, r, a);
        return;
    }
    const VECD cos_sq = VD(set1_pd)(cos_1deg_sq), gain = VD(set1_pd)(gain_limit);
    for (int j = 0;; j += LANES) {
        if (j > w - LANES) j = w - LANES;
        VEC ov[3], tv[3], k[3], bits = VZERO();
        for (int b = 0; b < 3; b++) {
            ov[b] = VLOAD(o[b] + j), tv[b] = VLOAD(t[b] + j);
            bits = VOR(bits, VOR(VI(abs_epi32)(ov[b]), VI(abs_epi32)(tv[b])));
        }
        MASK same_angle;
        if (any_wide(bits)) {
            same_angle = angle_wide(ov, tv, cos_sq);
            for (int b = 0; b < 3; b++) k[b] = gain_wide(recip, ov[b], tv[b]);
        } else {
            same_angle = angle_narrow(ov, tv, cos_sq);
            for (int b = 0; b < 3; b++) k[b] = gain_narrow(recip, ov[b], tv[b]);
        }
        for (int b = 0; b < 3; b++)
            restore(ov[b], tv[b], k[b], same_angle, gain, r[b] + j, a[b] + j);
        if (j == w - LANES) break;
    }
}

/* ---- masking ---- */

/* wrap32((q x + 2^27) >> 28) with a 32-bit unsigned q: the signed product
 * with (int32_t)q, plus x 2^32 where q >= 2^31; even lanes shifted down,
 * odd lanes up into the high halves. */
ALWAYS_INLINE VEC weigh_q32(VEC x, VEC q, VEC q_high)
{
    const VEC round = SET1_64(1 << 27);
    VEC even = VI(mul_epi32)(x, q), odd = VI(mul_epi32)(VI(srli_epi64)(x, 32), q);
    even = VI(add_epi64)(even, VAND(VI(slli_epi64)(x, 32), q_high));
    odd = VI(add_epi64)(odd, VAND(VAND(x, SET1_64(-((int64_t)1 << 32))), q_high));
    return blend_odd(VI(srli_epi64)(VI(add_epi64)(even, round), 28),
                     VI(slli_epi64)(VI(add_epi64)(odd, round), 4));
}

ALWAYS_INLINE VEC q_high_mask(uint32_t q)
{
    return VI(set1_epi32)(q >> 31 ? -1 : 0);
}

/* Level 0's term of a weighted |value| m: (int16_t)((c m + 2048) >> 12). */
ALWAYS_INLINE VEC term16(VEC m, int32_t c)
{
    return low16(VI(srai_epi32)(VI(add_epi32)(VI(mullo_epi32)(m, VI(set1_epi32)(c)),
                                              VI(set1_epi32)(2048)), 12));
}

ADM_MASK_TERMS_16(NAME(vqx_adm_mask_terms_16))
{
    if (w < LANES) {
        vqx_adm_mask_terms_16_c(x, w, q, sum, centre);
        return;
    }
    static const unsigned shift[3] = { 15, 15, 17 };
    static const int32_t add[3] = { 16384, 16384, 65535 };
    for (int j = 0;; j += LANES) {
        if (j > w - LANES) j = w - LANES;
        VEC s = VZERO(), c = VZERO();
        for (int b = 0; b < 3; b++) {
            const VEC weighted = VI(add_epi32)(VI(mullo_epi32)(VLOAD(x[b] + j),
                                                               VI(set1_epi32)((int32_t)q[b])),
                                               VI(set1_epi32)(add[b]));
            const VEC m = VI(abs_epi32)(low16(VI(sra_epi32)(weighted,
                                                            _mm_cvtsi32_si128((int)shift[b]))));
            s = VI(add_epi32)(s, term16(m, VQX_ADM_ONE_BY_30_Q17));
            c = VI(add_epi32)(c, term16(m, VQX_ADM_ONE_BY_15_Q17));
        }
        VSTORE(sum + j, s);
        VSTORE(centre + j, c);
        if (j == w - LANES) break;
    }
}

/* Levels 1 to 3's term of m < 2^32: the high half of c m - 2^31. */
ALWAYS_INLINE VEC term32(VEC m, VEC c)
{
    const VEC bias = SET1_64(INT32_MIN);
    const VEC even = VI(add_epi64)(VI(mul_epu32)(m, c), bias);
    const VEC odd = VI(add_epi64)(VI(mul_epu32)(VI(srli_epi64)(m, 32), c), bias);
    return blend_odd(VI(srli_epi64)(even, 32), odd);
}

ADM_MASK_TERMS_32(NAME(vqx_adm_mask_terms_32))
{
    if (w < LANES) {
        vqx_adm_mask_terms_32_c(x, w, q, sum, centre);
        return;
    }
    const VEC c30 = VI(set1_epi32)(VQX_ADM_ONE_BY_30_Q32);
    const VEC c15 = VI(set1_epi32)(VQX_ADM_ONE_BY_15_Q32);
    for (int j = 0;; j += LANES) {
        if (j > w - LANES) j = w - LANES;
        VEC s = VZERO(), c = VZERO();
        for (int b = 0; b < 3; b++) {
            const VEC m = VI(abs_epi32)(weigh_q32(VLOAD(x[b] + j), VI(set1_epi32)((int32_t)q[b]),
                                                  q_high_mask(q[b])));
            s = VI(add_epi32)(s, term32(m, c30));
            c = VI(add_epi32)(c, term32(m, c15));
        }
        VSTORE(sum + j, s);
        VSTORE(centre + j, c);
        if (j == w - LANES) break;
    }
}

ADM_MASK_THRESHOLD(NAME(vqx_adm_mask_threshold))
{
    if (w < LANES) {
        vqx_adm_mask_threshold_c(sum, centre, w, thr);
        return;
    }
    for (int j = 0;; j += LANES) {
        if (j > w - LANES) j = w - LANES;
        VEC box = VZERO();
        for (int k = 0; k < 3; k++)
            box = VI(add_epi32)(box, VI(add_epi32)(VI(add_epi32)(VLOAD(sum[k] + j - 1),
                                                                 VLOAD(sum[k] + j)),
                                                   VLOAD(sum[k] + j + 1)));
        VSTORE(thr + j, VI(add_epi32)(VI(sub_epi32)(box, VLOAD(sum[1] + j)), VLOAD(centre + j)));
        if (j == w - LANES) break;
    }
}

typedef struct CubeShifts {
    __m128i thr, sq, cube;
    VEC sq_add, cube_add;
} CubeShifts;

ALWAYS_INLINE CubeShifts cube_shifts(unsigned thr_shift, unsigned sq_shift, unsigned cube_shift)
{
    return (CubeShifts){ _mm_cvtsi32_si128((int)thr_shift), _mm_cvtsi32_si128((int)sq_shift),
                         _mm_cvtsi32_si128((int)cube_shift), SET1_64(round_half(sq_shift)),
                         SET1_64(round_half(cube_shift)) };
}

/* The cube of e < 2^31 in the low halves of the 64-bit lanes: the square
 * shifted, cut to 32 bits and sign-extended by mul_epi32, times e. */
ALWAYS_INLINE VEC cube_lanes(VEC e, const CubeShifts *sh)
{
    const VEC sq = VI(srl_epi64)(VI(add_epi64)(VI(mul_epu32)(e, e), sh->sq_add), sh->sq);
    return sra64(VI(add_epi64)(VI(mul_epi32)(sq, e), sh->cube_add), sh->cube);
}

/* The masked cubes of LANES weighted values, summed in pairs. */
ALWAYS_INLINE VEC masked_cubes(VEC weighted, VEC thr, const CubeShifts *sh)
{
    const VEC m = VI(sub_epi32)(VI(abs_epi32)(weighted), VI(sll_epi32)(thr, sh->thr));
    const VEC e = VI(max_epi32)(m, VZERO());
    return VI(add_epi64)(cube_lanes(e, sh), cube_lanes(VI(srli_epi64)(e, 32), sh));
}

ADM_MASKED_CUBES_16(NAME(vqx_adm_masked_cubes_16))
{
    const CubeShifts sh = cube_shifts(thr_shift, sq_shift, cube_shift);
    const VEC qv = VI(set1_epi32)((int32_t)q);
    VEC acc = VZERO();
    int j = 0;
    for (; j + LANES <= w; j += LANES)
        acc = VI(add_epi64)(acc, masked_cubes(VI(mullo_epi32)(VLOAD(x + j), qv), VLOAD(thr + j),
                                              &sh));
    if (j < w) {
        const TailMask m = tail_mask((unsigned)(w - j));
        acc = VI(add_epi64)(acc, masked_cubes(VI(mullo_epi32)(load_masked(x + j, m), qv),
                                              load_masked(thr + j, m), &sh));
    }
    return (int64_t)sum64(acc);
}

ADM_MASKED_CUBES_32(NAME(vqx_adm_masked_cubes_32))
{
    const CubeShifts sh = cube_shifts(thr_shift, sq_shift, cube_shift);
    const VEC qv = VI(set1_epi32)((int32_t)q), q_high = q_high_mask(q);
    VEC acc = VZERO();
    int j = 0;
    for (; j + LANES <= w; j += LANES)
        acc = VI(add_epi64)(acc, masked_cubes(weigh_q32(VLOAD(x + j), qv, q_high),
                                              VLOAD(thr + j), &sh));
    if (j < w) {
        const TailMask m = tail_mask((unsigned)(w - j));
        acc = VI(add_epi64)(acc, masked_cubes(weigh_q32(load_masked(x + j, m), qv, q_high),
                                              load_masked(thr + j, m), &sh));
    }
    return (int64_t)sum64(acc);
}

/* ---- reference cubes ---- */

/* |x|^3 of the low 16 bits of |x|: the square in 32 bits, the cube in 64,
 * the even and odd lanes' summed. */
ALWAYS_INLINE VEC reference_cubes_16(VEC x)
{
    const VEC m = VAND(VI(abs_epi32)(x), VI(set1_epi32)(0xffff));
    const VEC sq = VI(mullo_epi32)(m, m);
    return VI(add_epi64)(VI(mul_epu32)(sq, m),
                         VI(mul_epu32)(VI(srli_epi64)(sq, 32), VI(srli_epi64)(m, 32)));
}

ADM_REFERENCE_CUBES_16(NAME(vqx_adm_reference_cubes_16))
{
    VEC acc = VZERO();
    int j = 0;
    for (; j + LANES <= w; j += LANES) acc = VI(add_epi64)(acc, reference_cubes_16(VLOAD(x + j)));
    if (j < w) {
        const TailMask m = tail_mask((unsigned)(w - j));
        acc = VI(add_epi64)(acc, reference_cubes_16(load_masked(x + j, m)));
    }
    return sum64(acc);
}

/* Levels 1 to 3 of m < 2^32 (zero-extended 64-bit lanes): the square
 * rounded to at most 33 bits, times m, rounded. */
ALWAYS_INLINE VEC reference_cube_lanes(VEC m, VEC sq_add, __m128i sq, VEC cube_add, __m128i cube)
{
    const VEC s = VI(srl_epi64)(VI(add_epi64)(VI(mul_epu32)(m, m), sq_add), sq);
    return VI(srl_epi64)(VI(add_epi64)(mul_u64_u32(s, m), cube_add), cube);
}

ALWAYS_INLINE VEC reference_cubes_32(VEC x, VEC sq_add, __m128i sq, VEC cube_add, __m128i cube)
{
    const VEC m = VI(abs_epi32)(x);
    const VEC even = VAND(m, SET1_64(0xffffffff)), odd = VI(srli_epi64)(m, 32);
    return VI(add_epi64)(reference_cube_lanes(even, sq_add, sq, cube_add, cube),
                         reference_cube_lanes(odd, sq_add, sq, cube_add, cube));
}

ADM_REFERENCE_CUBES_32(NAME(vqx_adm_reference_cubes_32))
{
    const VEC sq_add = SET1_64((int64_t)1 << sq_shift), cube_add = SET1_64(round_half(cube_shift));
    const __m128i sq = _mm_cvtsi32_si128((int)sq_shift), cube = _mm_cvtsi32_si128((int)cube_shift);
    VEC acc = VZERO();
    int j = 0;
    for (; j + LANES <= w; j += LANES)
        acc = VI(add_epi64)(acc, reference_cubes_32(VLOAD(x + j), sq_add, sq, cube_add, cube));
    if (j < w) {
        const TailMask m = tail_mask((unsigned)(w - j));
        acc = VI(add_epi64)(acc, reference_cubes_32(load_masked(x + j, m), sq_add, sq, cube_add,
                                                    cube));
    }
    return sum64(acc);
}

#endif
