/*
 * IEEE 754 binary64 arithmetic in 64-bit integers, rounded to nearest,
 * ties to even, for shaders on devices without fp64: a double is carried
 * as its bits (uint64_t), and each operation gives the bits the CPU's
 * double operation gives. One source for the shaders (GLSL, through
 * GL_EXT_shader_explicit_arithmetic_types_int64) and for the C test that
 * checks it against the CPU's doubles (tests/test_soft_double.c).
 *
 * Finite operands: zeros, normals and subnormals; a result that overflows
 * is an infinity, as on the CPU. Infinite and NaN operands are not handled:
 * the expressions this serves (VIF's gain, ADM's angle test) never make
 * them.
 */
#ifndef VQX_VULKAN_SOFT_DOUBLE_H
#define VQX_VULKAN_SOFT_DOUBLE_H

#ifdef VULKAN
#define SD_FN
#define SD_U64(x) uint64_t(x)
#define SD_I64(x) int64_t(x)
#define SD_INT(x) int(x)
#define SD_UINT(x) uint(x)
#define SD_BOOL bool
#define sd_uint uint
#define SD_CLZ64(x) sd_clz64_glsl(x)
uint sd_clz64_glsl(uint64_t x)
{
    const uint hi = uint(x >> 32), lo = uint(x);
    return hi != 0u ? 31u - uint(findMSB(hi)) : lo != 0u ? 63u - uint(findMSB(lo)) : 64u;
}
#else
#include <stdbool.h>
#include <stdint.h>
#define SD_FN static inline
#define SD_U64(x) ((uint64_t)(x))
#define SD_I64(x) ((int64_t)(x))
#define SD_INT(x) ((int)(x))
#define SD_UINT(x) ((unsigned)(x))
#define SD_BOOL bool
typedef unsigned sd_uint;
#define SD_CLZ64(x) ((x) ? SD_UINT(__builtin_clzll(x)) : 64u)
#endif

#define SD_SIGN_BIT 0x8000000000000000UL
#define SD_FRAC_MASK 0x000fffffffffffffUL
#define SD_HIDDEN 0x0010000000000000UL
#define SD_INF 0x7ff0000000000000UL

SD_FN uint64_t sd_sign(uint64_t a) { return a & SD_SIGN_BIT; }
SD_FN int sd_exp(uint64_t a) { return SD_INT((a >> 52) & 0x7ffUL); }
SD_FN SD_BOOL sd_is_zero(uint64_t a) { return (a & ~SD_SIGN_BIT) == 0UL; }

/* The significand with its hidden bit, and the exponent of its lowest bit:
 * a = sig * 2^e. */
SD_FN uint64_t sd_sig(uint64_t a)
{
    return sd_exp(a) == 0 ? (a & SD_FRAC_MASK) : ((a & SD_FRAC_MASK) | SD_HIDDEN);
}
SD_FN int sd_lsb_exp(uint64_t a)
{
    const int e = sd_exp(a);
    return (e == 0 ? 1 : e) - 1075;
}

/* |v| * 2^e with sticky: v holds the value's bits, its lowest bit ORed
 * with everything shifted out before; rounds to a double of sign s. v may
 * have any number of bits. */
SD_FN uint64_t sd_round_pack(uint64_t s, uint64_t v, int e, SD_BOOL sticky)
{
    if (v == 0UL) return s; /* an exact zero */
    /* normalise so that the top bit is bit 63 */
    const sd_uint lz = SD_CLZ64(v);
    v <<= lz;
    e -= SD_INT(lz);
    /* the value is v * 2^e with v in [2^63, 2^64): its unbiased exponent is e + 63 */
    int biased = e + 63 + 1023;
    /* keep 53 bits: shift right by 11, or more for a subnormal result */
    int shift = 11;
    if (biased <= 0) {
        shift = 11 + 1 - biased;
        biased = 0;
    }
    uint64_t kept, rest;
    SD_BOOL at_half, below; /* "half" is a reserved word of GLSL */
    if (shift >= 64) {
        kept = 0UL;
        at_half = shift == 64 && (v >> 63) != 0UL;
        below = shift == 64 ? ((v << 1) != 0UL || sticky) : (v != 0UL || sticky);
    } else {
        kept = v >> SD_UINT(shift);
        rest = v << SD_UINT(64 - shift);
        at_half = (rest >> 63) != 0UL;
        below = (rest << 1) != 0UL || sticky;
    }
    if (at_half && (below || (kept & 1UL) != 0UL)) kept += 1UL;
    if (biased == 0) {
        /* subnormal, or rounded up into the smallest normal: the hidden
         * bit then lands on the exponent field's 1 */
        return s | kept;
    }
    if (kept >= (SD_HIDDEN << 1)) { /* rounded up to 2^53 */
        kept >>= 1;
        biased += 1;
    }
    if (biased >= 0x7ff) return s | SD_INF; /* overflow rounds to infinity */
    return s | (SD_U64(biased) << 52) | (kept & SD_FRAC_MASK);
}

SD_FN uint64_t sd_neg(uint64_t a) { return a ^ SD_SIGN_BIT; }

SD_FN uint64_t sd_add(uint64_t a, uint64_t b)
{
    if (sd_is_zero(a) && sd_is_zero(b)) return a & b; /* -0 only for -0 + -0 */
    if (sd_is_zero(a)) return b;
    if (sd_is_zero(b)) return a;
    uint64_t ma = sd_sig(a), mb = sd_sig(b);
    int ea = sd_lsb_exp(a), eb = sd_lsb_exp(b);
    uint64_t sa = sd_sign(a), sb = sd_sign(b);
    /* a gets the larger magnitude */
    if (ea < eb || (ea == eb && ma < mb)) {
        uint64_t t = ma; ma = mb; mb = t;
        int te = ea; ea = eb; eb = te;
        t = sa; sa = sb; sb = t;
    }
    /* three guard bits below, the sticky folded in */
    ma <<= 3;
    mb <<= 3;
    const int d = ea - eb;
    SD_BOOL sticky = false;
    if (d > 0) {
        if (d >= 60) {
            sticky = mb != 0UL;
            mb = 0UL;
        } else {
            sticky = (mb & ((1UL << SD_UINT(d)) - 1UL)) != 0UL;
            mb >>= SD_UINT(d);
        }
    }
    uint64_t m;
    if (sa == sb) {
        m = ma + mb;
    } else {
        m = ma - mb;
        if (sticky) m -= 1UL; /* the shifted-out part is subtracted: borrow it */
        if (m == 0UL && !sticky) return 0UL; /* exact cancellation: +0 */
    }
    if (sticky) m |= 1UL;
    return sd_round_pack(sa, m, ea - 3, false);
}

SD_FN uint64_t sd_sub(uint64_t a, uint64_t b) { return sd_add(a, sd_neg(b)); }

/* The 128-bit product of two 64-bit integers. */
SD_FN uint64_t sd_mul_hi(uint64_t a, uint64_t b)
{
    const uint64_t a0 = a & 0xffffffffUL, a1 = a >> 32, b0 = b & 0xffffffffUL, b1 = b >> 32;
    const uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffUL) + (p10 & 0xffffffffUL);
    return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

SD_FN uint64_t sd_mul(uint64_t a, uint64_t b)
{
    const uint64_t s = sd_sign(a) ^ sd_sign(b);
    if (sd_is_zero(a) || sd_is_zero(b)) return s;
    /* significands at the top of 64 bits: their product's high half keeps
     * at least 63 bits, the low half goes to the sticky */
    uint64_t ma = sd_sig(a), mb = sd_sig(b);
    int e = sd_lsb_exp(a) + sd_lsb_exp(b);
    const sd_uint la = SD_CLZ64(ma), lb = SD_CLZ64(mb);
    ma <<= la;
    mb <<= lb;
    e -= SD_INT(la + lb);
    const uint64_t hi = sd_mul_hi(ma, mb), lo = ma * mb;
    return sd_round_pack(s, hi, e + 64, lo != 0UL);
}

SD_FN uint64_t sd_div(uint64_t a, uint64_t b)
{
    const uint64_t s = sd_sign(a) ^ sd_sign(b);
    if (sd_is_zero(a)) return s;
    uint64_t ma = sd_sig(a), mb = sd_sig(b);
    int e = sd_lsb_exp(a) - sd_lsb_exp(b);
    /* both significands with their top bit at bit 62 */
    const sd_uint la = SD_CLZ64(ma) - 1u, lb = SD_CLZ64(mb) - 1u;
    ma <<= la;
    mb <<= lb;
    e -= SD_INT(la) - SD_INT(lb);
    /* 62 quotient bits by restoring division: q = floor(ma 2^61 / mb) */
    uint64_t q = 0UL, r = ma;
    for (int i = 0; i < 62; i++) {
        q <<= 1;
        if (r >= mb) {
            r -= mb;
            q |= 1UL;
        }
        r <<= 1;
    }
    return sd_round_pack(s, q, e - 61, r != 0UL);
}

SD_FN uint64_t sd_from_i64(int64_t x)
{
    if (x == 0L) return 0UL;
    const uint64_t s = x < 0L ? SD_SIGN_BIT : 0UL;
    const uint64_t m = x < 0L ? SD_U64(-x) : SD_U64(x); /* -2^63 wraps to 2^63: right */
    return sd_round_pack(s, m, 0, false);
}

/* A float's value, exactly. */
SD_FN uint64_t sd_from_float_bits(sd_uint f)
{
    const uint64_t s = SD_U64(f >> 31) << 63;
    const int e = SD_INT((f >> 23) & 0xffu);
    const uint64_t m = SD_U64(f & 0x7fffffu);
    if (e == 0) return m == 0UL ? s : sd_round_pack(s, m, -149, false);
    return s | (SD_U64(e - 127 + 1023) << 52) | (m << 29);
}

/* The float nearest an integer (ties to even), as its bits: the C's
 * (float)x, which ADM's angle test takes before widening to double. */
SD_FN sd_uint sd_float_bits_of_i64(int64_t x)
{
    if (x == 0L) return 0u;
    const sd_uint s = x < 0L ? 0x80000000u : 0u;
    uint64_t m = x < 0L ? 0UL - SD_U64(x) : SD_U64(x);
    const sd_uint lz = SD_CLZ64(m);
    m <<= lz; /* top bit at bit 63: 24 bits kept, 40 rounded off */
    uint64_t kept = m >> 40;
    const uint64_t rest = m << 24;
    if ((rest >> 63) != 0UL && ((rest << 1) != 0UL || (kept & 1UL) != 0UL)) kept += 1UL;
    sd_uint e = 63u - lz + 127u; /* biased exponent of the top bit */
    if ((kept >> 24) != 0UL) { /* rounded up to 2^24 */
        kept >>= 1;
        e += 1u;
    }
    return s | (e << 23) | (SD_UINT(kept) & 0x7fffffu);
}

/* The float nearest a finite double (ties to even), as its bits: the C's
 * (float)d. A float quotient or square root taken through a double
 * rounded so is the correctly rounded float one (53 >= 2 * 24 + 2). */
SD_FN sd_uint sd_float_bits_of(uint64_t a)
{
    const sd_uint s = SD_UINT(a >> 63) << 31;
    if (sd_is_zero(a)) return s;
    uint64_t m = sd_sig(a);
    const sd_uint lz = SD_CLZ64(m);
    m <<= lz; /* the value is m * 2^e, m's top bit at bit 63 */
    const int e = sd_lsb_exp(a) - SD_INT(lz);
    int biased = e + 63 + 127;
    /* keep 24 bits, fewer for a subnormal result */
    int shift = 40;
    if (biased <= 0) {
        shift = 40 + 1 - biased;
        biased = 0;
    }
    if (shift >= 64) { /* below half the smallest subnormal, or at most half of it */
        const SD_BOOL up = shift == 64 && (m << 1) != 0UL;
        return s | (up ? 1u : 0u);
    }
    uint64_t kept = m >> SD_UINT(shift);
    const uint64_t rest = m << SD_UINT(64 - shift);
    if ((rest >> 63) != 0UL && ((rest << 1) != 0UL || (kept & 1UL) != 0UL)) kept += 1UL;
    if (biased == 0) return s | SD_UINT(kept); /* a subnormal, or the smallest normal */
    if ((kept >> 24) != 0UL) { /* rounded up to 2^24 */
        kept >>= 1;
        biased += 1;
    }
    if (biased >= 0xff) return s | 0x7f800000u;
    return s | (SD_UINT(biased) << 23) | (SD_UINT(kept) & 0x7fffffu);
}

/* The square root of a >= 0, correctly rounded: a = m 2^e with e even, the
 * radicand m 2^(2k) (123 or 124 bits in two words) gives a 62-bit integer
 * root bit by bit, the remainder its sticky. */
SD_FN uint64_t sd_sqrt(uint64_t a)
{
    if (sd_is_zero(a)) return a;
    uint64_t m = sd_sig(a);
    int e = sd_lsb_exp(a);
    if ((e & 1) != 0) {
        m <<= 1;
        e -= 1;
    }
    const int k = (123 - (63 - SD_INT(SD_CLZ64(m)))) / 2;
    const int sh = 2 * k;
    const uint64_t hi = sh >= 64 ? m << SD_UINT(sh - 64) : sh == 0 ? 0UL : m >> SD_UINT(64 - sh);
    const uint64_t lo = sh >= 64 ? 0UL : m << SD_UINT(sh);
    uint64_t root = 0UL, rem = 0UL;
    for (int i = 61; i >= 0; i--) {
        const uint64_t pair = 2 * i >= 64 ? (hi >> SD_UINT(2 * i - 64)) & 3UL
                                          : (lo >> SD_UINT(2 * i)) & 3UL;
        rem = (rem << 2) | pair;
        const uint64_t trial = (root << 2) | 1UL;
        root <<= 1;
        if (rem >= trial) {
            rem -= trial;
            root |= 1UL;
        }
    }
    return sd_round_pack(0UL, root, (e - sh) / 2, rem != 0UL);
}

/* The integer part, toward zero, of a double below 2^63 in magnitude. */
SD_FN int64_t sd_to_i64(uint64_t a)
{
    const int e = sd_lsb_exp(a);
    const uint64_t m = sd_sig(a);
    uint64_t v;
    if (e >= 0) v = m << SD_UINT(e);
    else if (e <= -64) v = 0UL;
    else v = m >> SD_UINT(-e);
    return sd_sign(a) != 0UL ? -SD_I64(v) : SD_I64(v);
}

/* a < b, a <= b (finite operands; -0 equals +0). */
SD_FN SD_BOOL sd_lt(uint64_t a, uint64_t b)
{
    if (sd_is_zero(a) && sd_is_zero(b)) return false;
    const SD_BOOL na = sd_sign(a) != 0UL, nb = sd_sign(b) != 0UL;
    if (na != nb) return na;
    return na ? a > b : a < b;
}
SD_FN SD_BOOL sd_le(uint64_t a, uint64_t b) { return !sd_lt(b, a); }

#endif
