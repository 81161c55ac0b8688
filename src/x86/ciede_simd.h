/*
 * ciede's CIEDE2000 difference at one vector width, lanes = pixels: each
 * lane runs vqx_ciede_delta_e00 (feature/ciede_dsp.c) step for step, every
 * float and double operation the C's own, in the C's order (GCC vector
 * types; -ffp-contract=off keeps each one rounded). The C's libm calls are
 * evaluated here in double to an error far below a float's rounding step,
 * and each such value is used only where it ends in a rounding to float
 * that the error cannot change (powf, which that cannot cover, is called
 * lane by lane): a lane where some rounding is in doubt, or
 * an input is outside what these evaluations cover, is recomputed by the C.
 * docs/ciede.md ("Proofs") has the error bounds. Included by ciede_avx2.c
 * and ciede_avx512.c, which first define
 *   LANES          doubles per vector
 *   NAME(f)        f with the ISA's suffix
 *   SQRT_PD(x)     the correctly rounded square root of each double lane
 */
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "feature/ciede_dsp.h"

typedef double vd __attribute__((vector_size(LANES * 8)));
typedef int64_t vl __attribute__((vector_size(LANES * 8)));
typedef float vf __attribute__((vector_size(LANES * 4)));
typedef int32_t vi __attribute__((vector_size(LANES * 4)));

#define PI 3.14159265358979323846
#define D(x) __builtin_convertvector((x), vd)
#define F(x) __builtin_convertvector((x), vf)
#define AS_VL(m) __builtin_convertvector((m), vl)

/* 1.5 * 2^52: x + ROUNDER - ROUNDER is x rounded to an integer for
 * |x| < 2^51, which the low bits of x + ROUNDER hold. */
#define ROUNDER 0x1.8p52

static inline vd sqrt_pd(vd x)
{
    return (vd)SQRT_PD(x);
}

static inline vd splat(double c)
{
    return (vd){ 0 } + c;
}

static inline vd select_pd(vl m, vd a, vd b)
{
    return (vd)((m & (vl)a) | (~m & (vl)b));
}

static inline vf select_ps(vi m, vf a, vf b)
{
    return (vf)((m & (vi)a) | (~m & (vi)b));
}

static inline vd abs_pd(vd x)
{
    return (vd)((vl)x & INT64_MAX);
}

/* libvmaf's pow(x, 2) of floats: the exact double product. */
static inline vd square(vf x)
{
    const vd d = D(x);
    return d * d;
}

/* x^7 for x a float, three roundings: relative error below 3.01 2^-53. */
static inline vd pow7(vf x)
{
    const vd x1 = D(x), x2 = x1 * x1, x3 = x2 * x1, x4 = x2 * x2;
    return x4 * x3;
}

/* Whether every double within |v| 2^-40 of v rounds to the float v does
 * (then so does the C's value, which differs from v by less); false for
 * |v| below 2^-900, where the bounds relative to v are not argued. */
static inline vl certain_relative(vd v)
{
    const vd m = v * 0x1p-40;
    return AS_VL(F(v - m) == F(v + m)) & (abs_pd(v) >= 0x1p-900);
}

/* The same for values within 2^-36 of v. */
static inline vl certain_absolute(vd v)
{
    return AS_VL(F(v - 0x1p-36) == F(v + 0x1p-36));
}

/* sin x for |x| <= 1.6 by its Taylor series to x^21 (remainder below
 * 2^-58 |x|); relative error below 2^-49. */
static inline vd sin_taylor(vd x)
{
    const vd w = x * x;
    vd p = splat(1 / 51090942171709440000.0);
    p = p * -w + 1 / 121645100408832000.0;
    p = p * -w + 1 / 355687428096000.0;
    p = p * -w + 1 / 1307674368000.0;
    p = p * -w + 1 / 6227020800.0;
    p = p * -w + 1 / 39916800.0;
    p = p * -w + 1 / 362880.0;
    p = p * -w + 1 / 5040.0;
    p = p * -w + 1 / 120.0;
    p = p * -w + 1 / 6.0;
    return x - x * (w * p);
}

/* cos x for |x| <= 0.8 by its Taylor series to x^16 (remainder below
 * 2^-56); absolute error below 2^-50. */
static inline vd cos_taylor(vd x)
{
    const vd w = x * x;
    vd p = splat(1 / 20922789888000.0);
    p = p * -w + 1 / 87178291200.0;
    p = p * -w + 1 / 479001600.0;
    p = p * -w + 1 / 3628800.0;
    p = p * -w + 1 / 40320.0;
    p = p * -w + 1 / 720.0;
    p = p * -w + 1 / 24.0;
    p = p * -w + 1 / 2.0;
    return 1 - w * p;
}

/* cos x for |x| < 64: x less k pi/2 (k the nearest integer to x 2/pi),
 * then cos or sin of the rest by the quadrant; absolute error below 2^-44
 * (the rest's error, below 2^-45, dominates). */
static inline vd cos_pd(vd x)
{
    const vd shifted = x * (2 / PI) + ROUNDER;
    const vd k = shifted - ROUNDER;
    const vl quadrant = (vl)shifted & 3;
    const vd r = x - k * (PI / 2);
    const vd c = cos_taylor(r), s = sin_taylor(r);
    /* quadrants 0..3: cos r, -sin r, -cos r, sin r */
    const vd v = select_pd((quadrant & 1) != 0, s, c);
    const vl negate = ((quadrant + 1) & 2) != 0;
    return (vd)((vl)v ^ (negate & INT64_MIN));
}

/* e^x for -700 <= x <= 0: x = k ln 2 + r with |r| <= ln 2 / 2 (fdlibm's
 * two-part ln 2, whose first part times k is exact), e^r by its Taylor
 * series to r^13 (remainder below 2^-57), times 2^k; relative error below
 * 2^-49. */
static inline vd exp_pd(vd x)
{
    const double ln2_hi = 6.93147180369123816490e-01, ln2_lo = 1.90821492927058770002e-10;
    const vd shifted = x * (1 / 0.69314718055994530942) + ROUNDER;
    const vd k = shifted - ROUNDER;
    const vd r = (x - k * ln2_hi) - k * ln2_lo;
    vd p = splat(1 / 6227020800.0);
    p = p * r + 1 / 479001600.0;
    p = p * r + 1 / 39916800.0;
    p = p * r + 1 / 3628800.0;
    p = p * r + 1 / 362880.0;
    p = p * r + 1 / 40320.0;
    p = p * r + 1 / 5040.0;
    p = p * r + 1 / 720.0;
    p = p * r + 1 / 120.0;
    p = p * r + 1 / 24.0;
    p = p * r + 1 / 6.0;
    p = p * r + 1 / 2.0;
    p = p * r + 1;
    p = p * r + 1;
    /* 2^k from k + 1023 in the exponent field (k + 1023 in [13, 1023]) */
    const vd scale = (vd)((vl)(k + (ROUNDER + 1023)) << 52);
    return p * scale;
}

/* atan z for 0 <= z <= 1: two halvings, atan z = 2 atan(z / (1 +
 * sqrt(1 + z^2))), bring z to at most tan(pi / 16) < 0.2, then its Taylor
 * series to z^27 (remainder below 2^-66 z); relative error below 2^-48. */
static inline vd atan_unit(vd z)
{
    z = z / (1 + sqrt_pd(1 + z * z));
    z = z / (1 + sqrt_pd(1 + z * z));
    const vd w = z * z;
    vd p = splat(1 / 27.0);
    p = p * -w + 1 / 25.0;
    p = p * -w + 1 / 23.0;
    p = p * -w + 1 / 21.0;
    p = p * -w + 1 / 19.0;
    p = p * -w + 1 / 17.0;
    p = p * -w + 1 / 15.0;
    p = p * -w + 1 / 13.0;
    p = p * -w + 1 / 11.0;
    p = p * -w + 1 / 9.0;
    p = p * -w + 1 / 7.0;
    p = p * -w + 1 / 5.0;
    p = p * -w + 1 / 3.0;
    return 4 * (z - z * (w * p));
}

/* atan2(y, x) for finite nonzero x and y, in (-pi, pi]; relative error
 * below 2^-46. */
static inline vd atan2_pd(vd y, vd x)
{
    const vd ax = abs_pd(x), ay = abs_pd(y);
    const vl steep = ay > ax;
    const vd z = select_pd(steep, ax, ay) / select_pd(steep, ay, ax);
    vd a = atan_unit(z);
    a = select_pd(steep, PI / 2 - a, a);
    a = select_pd(x < 0, PI - a, a);
    return (vd)((vl)a | ((vl)y & INT64_MIN));
}

/* hue_angle of ciede_dsp.c for a and b nonzero, with whether its rounding
 * is certain. */
static inline vf hue_angle(vf b, vf a, vl *ok)
{
    const vd hd = atan2_pd(D(b), D(a));
    *ok &= certain_relative(hd);
    const vf h = F(hd);
    return select_ps(h < 0.0f, F(D(h) + 2. * PI), h);
}

static void delta_e_lanes(const CiedeLab *p, const CiedeLab *q, float *de)
{
    vf pl, pa, pb, ql, qa, qb;
    for (int i = 0; i < LANES; i++) {
        pl[i] = p[i].l, pa[i] = p[i].a, pb[i] = p[i].b;
        ql[i] = q[i].l, qa[i] = q[i].a, qb[i] = q[i].b;
    }
    /* neutral colours (a or b 0) take the C's special cases */
    vl ok = AS_VL((pa != 0.0f) & (pb != 0.0f) & (qa != 0.0f) & (qb != 0.0f));

    const vf dl = ql - pl;
    const vf l_mean = (pl + ql) / 2.0f;
    const vf c1 = F(sqrt_pd(square(pa) + square(pb)));
    const vf c2 = F(sqrt_pd(square(qa) + square(qb)));
    const vf c_mean = (c1 + c2) / 2.0f;
    const vd c_mean7 = pow7(c_mean);
    const vd a_stretch = 1 - sqrt_pd(c_mean7 / (c_mean7 + 6103515625.0));
    const vd a1d = D(pa) + D(pa / 2.0f) * a_stretch;
    const vd a2d = D(qa) + D(qa / 2.0f) * a_stretch;
    ok &= certain_relative(a1d) & certain_relative(a2d);
    const vf a1 = F(a1d), a2 = F(a2d);
    const vf cp1 = F(sqrt_pd(square(a1) + square(pb)));
    const vf cp2 = F(sqrt_pd(square(a2) + square(qb)));
    const vf cp_mean = (cp1 + cp2) / 2.0f;
    const vf dc = cp2 - cp1;
    const vd l50 = square(l_mean - 50.0f);
    const vf sl = F(1. + 0.015 * l50 / sqrt_pd(20 + l50));
    const vf sc = F(1. + 0.045 * D(cp_mean));
    const vf h1 = hue_angle(pb, a1, &ok);
    const vf h2 = hue_angle(qb, a2, &ok);

    /* hue_difference */
    const vf d = h2 - h1;
    const vd apart = abs_pd(D(h1 - h2));
    const vf wrapped = select_ps(h2 <= h1, F(D(d) + 2. * PI), F(D(d) - 2. * PI));
    vf dh = select_ps(__builtin_convertvector(apart <= PI, vi), d, wrapped);
    dh = select_ps((c1 == 0.0f) | (c2 == 0.0f), (vf){ 0 }, dh);

    const vd half_dh = D(dh) / 2.0;
    ok &= abs_pd(half_dh) <= 1.6;
    const vd dh_big_d = 2.0 * sqrt_pd(D(cp1 * cp2)) * sin_taylor(half_dh);
    /* sin(+-0) is +-0 in both */
    ok &= certain_relative(dh_big_d) | AS_VL(dh == 0.0f);
    const vf dh_big = F(dh_big_d);

    /* mean_hue */
    const vf h_sum = h1 + h2;
    const vf h_mean = select_ps(__builtin_convertvector(apart > PI, vi),
                                F((D(h_sum) + 2.0 * PI) / 2.0), F(D(h_sum) / 2.0));

    /* hue_weighting */
    const vd hm = D(h_mean);
    ok &= abs_pd(4.0 * hm) < 64;
    const vd t_d = 1.0 - 0.17 * cos_pd(hm - PI / 6.0) + 0.24 * cos_pd(2.0 * hm) +
                   0.32 * cos_pd(3.0 * hm + PI / 30.0) - 0.20 * cos_pd(4.0 * hm - 7.0 * PI / 20.0);
    ok &= certain_absolute(t_d);
    const vf sh = F(1.0 + 0.015 * D(cp_mean) * D(F(t_d)));

    /* rotation */
    const vf degrees = F(hm * (180.0 / PI));
    const vf t = F((D(degrees) - 275.0) * (1.0 / 25.0));
    /* glibc's powf is not always the float nearest x^7 (docs/ciede.md):
     * called lane by lane */
    vf c7;
    for (int i = 0; i < LANES; i++) c7[i] = powf(cp_mean[i], 7);
    const vf ratio = c7 / (c7 + 6103515625.0f);
    const vd minus_t2 = D(-(t * t));
    ok &= minus_t2 >= -700;
    const vd deg60_d = 60.0 * exp_pd(minus_t2);
    ok &= certain_relative(deg60_d);
    const vf radians = F(D(F(deg60_d)) * (PI / 180.0));
    const vd rt_d = -2.0 * sqrt_pd(D(ratio)) * sin_taylor(D(radians));
    /* 0 only from an exact 0 (ratio or radians), the same in both */
    ok &= certain_relative(rt_d) | (rt_d == 0);
    const vf rt = F(rt_d);

    const vf lightness = dl / (0.65f * sl);
    const vf chroma = dc / (1.0f * sc);
    const vf hue = dh_big / (4.0f * sh);
    const vf e = F(sqrt_pd(square(lightness) + square(chroma) + square(hue) + D(rt * chroma * hue)));
    for (int i = 0; i < LANES; i++) de[i] = ok[i] ? e[i] : vqx_ciede_delta_e00(p[i], q[i]);
}

CIEDE_DELTA_E(NAME(vqx_ciede_delta_e))
{
    size_t i = 0;
    for (; i + LANES <= n; i += LANES) delta_e_lanes(p + i, q + i, de + i);
    for (; i < n; i++) de[i] = vqx_ciede_delta_e00(p[i], q[i]);
}
