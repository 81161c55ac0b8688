/*
 * vulkan/soft_double.h, the binary64 arithmetic of the Vulkan shaders in
 * 64-bit integers, against the CPU's doubles: every result's bits equal,
 * on random operands of every magnitude, on close and cancelling ones, on
 * integers and halves (ties), subnormals, zeros of both signs, and on the
 * operand kinds of VIF's gain (integers of 32 bits, the eps constant); and
 * the conversion of 64-bit integers to float (ADM's angle test).
 */
#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "vulkan/soft_double.h"
#include "xorshift.h"

static uint64_t bits(double x)
{
    uint64_t b;
    memcpy(&b, &x, sizeof(b));
    return b;
}

static double value(uint64_t b)
{
    double x;
    memcpy(&x, &b, sizeof(x));
    return x;
}

static uint64_t rnd64(void)
{
    return (uint64_t)rnd() << 32 | rnd();
}

/* A finite double: random bits, or a random significand at exponents
 * near each other, integers, halves and subnormals. */
static double operand(int kind)
{
    switch (kind) {
    case 0: { /* any finite */
        uint64_t b;
        do b = rnd64(); while (((b >> 52) & 0x7ff) == 0x7ff);
        return value(b);
    }
    case 1: return ldexp((double)(rnd64() >> 11), (int)(rnd() % 40) - 60); /* moderate */
    case 2: return (double)(int32_t)rnd();                                 /* 32-bit integers */
    case 3: return (double)(int32_t)rnd() + 0.5;                           /* halves */
    case 4: return value(rnd64() & 0x800fffffffffffffull);                 /* subnormal */
    case 5: return (rnd() & 1 ? -1 : 1) * ldexp(1.0, (int)(rnd() % 200) - 100); /* powers of 2 */
    default: return (double)(int64_t)rnd64();                              /* 64-bit integers */
    }
}

static unsigned bad;

static void expect(const char *what, double a, double b, uint64_t got, double want)
{
    if (got == bits(want)) return;
    if (bad++ < 10)
        printf("FAIL %s(%a, %a): %a (0x%016" PRIx64 "), CPU %a\n", what, a, b, value(got), got,
               want);
}

static void check_float_of_i64(int64_t k)
{
    const float want = (float)k;
    uint32_t wb;
    memcpy(&wb, &want, sizeof(wb));
    const uint32_t got = sd_float_bits_of_i64(k);
    if (got != wb && bad++ < 10)
        printf("FAIL float_of_i64(%" PRId64 "): 0x%08x, CPU 0x%08x\n", k, got, wb);
}

static void check_float_of(double a)
{
    const float want = (float)a;
    uint32_t wb;
    memcpy(&wb, &want, sizeof(wb));
    const uint32_t got = sd_float_bits_of(bits(a));
    if (isfinite(want) && got != wb && bad++ < 10)
        printf("FAIL float_of(%a): 0x%08x, CPU 0x%08x\n", a, got, wb);
}

static void check_pair(double a, double b)
{
    expect("add", a, b, sd_add(bits(a), bits(b)), a + b);
    expect("sub", a, b, sd_sub(bits(a), bits(b)), a - b);
    /* products and quotients that stay finite */
    const double p = a * b;
    if (isfinite(p)) expect("mul", a, b, sd_mul(bits(a), bits(b)), p);
    if (b != 0) {
        const double q = a / b;
        if (isfinite(q)) expect("div", a, b, sd_div(bits(a), bits(b)), q);
    }
    if (sd_lt(bits(a), bits(b)) != (a < b) && bad++ < 10) printf("FAIL lt(%a, %a)\n", a, b);
    if (sd_le(bits(a), bits(b)) != (a <= b) && bad++ < 10) printf("FAIL le(%a, %a)\n", a, b);
}

int main(void)
{
    rng = 12345;
    const unsigned n = 2000000;
    for (unsigned i = 0; i < n; i++) {
        const int ka = (int)(rnd() % 7), kb = (int)(rnd() % 7);
        double a = operand(ka), b = operand(kb);
        if (rnd() % 8 == 0) b = nextafter(a, rnd() & 1 ? INFINITY : -INFINITY); /* cancelling */
        if (rnd() % 16 == 0) b = -a;
        check_pair(a, b);
        const int64_t k = (int64_t)rnd64() >> (rnd() % 64);
        expect("from_i64", (double)k, 0, sd_from_i64(k), (double)k);
        check_float_of_i64(k);
        check_float_of_i64((int64_t)(0 - (uint64_t)k));
        const float f = (float)operand(ka);
        uint32_t fb;
        memcpy(&fb, &f, sizeof(fb));
        if (isfinite(f)) expect("from_float", f, 0, sd_from_float_bits(fb), (double)f);
        check_float_of(a);
        check_float_of(a * 0x1p-100);
        check_float_of(ldexp(a, -1100));
        if (a >= 0) expect("sqrt", a, 0, sd_sqrt(bits(a)), sqrt(a));
        if (isfinite(f) && f >= 0)
            expect("sqrt float", f, 0, sd_sqrt(sd_from_float_bits(fb)), sqrt((double)f));
        if (fabs(a) < 9.2e18 && sd_to_i64(bits(a)) != (int64_t)a && bad++ < 10)
            printf("FAIL to_i64(%a)\n", a);
    }
    static const double special[] = { 0.0, -0.0, 1.0, -1.0, DBL_MIN, -DBL_MIN, DBL_TRUE_MIN,
                                      DBL_MAX / 4, 6.5536e-06, 131072.0, 0.5, 3.0 };
    const unsigned ns = sizeof(special) / sizeof(special[0]);
    for (unsigned i = 0; i < ns; i++)
        for (unsigned j = 0; j < ns; j++) check_pair(special[i], special[j]);
    /* ties and carries of the conversion to float */
    for (int e = 0; e < 63; e++)
        for (int64_t d = -3; d <= 3; d++) {
            check_float_of_i64(((int64_t)1 << e) + d);
            check_float_of_i64((((int64_t)1 << e) | ((int64_t)1 << (e > 24 ? e - 24 : 0))) + d);
        }
    for (unsigned i = 0; i < ns; i++) {
        check_float_of(special[i]);
        if (special[i] >= 0) expect("sqrt", special[i], 0, sd_sqrt(bits(special[i])), sqrt(special[i]));
    }
    check_float_of_i64(INT64_MIN);
    check_float_of_i64(INT64_MAX);
    /* VIF's gain: g = sigma12 / (sigma1_sq + eps), g * sigma12, g * g * sigma1_sq */
    for (unsigned i = 0; i < n / 4; i++) {
        const int32_t s1 = (int32_t)(rnd() >> 1) | 131072, s12 = (int32_t)rnd() >> (rnd() % 31);
        const double eps = 65536 * 1.0e-10;
        const double den = s1 + eps, g = s12 / den;
        expect("vif den", s1, eps, sd_add(sd_from_i64(s1), bits(eps)), den);
        expect("vif g", s12, den, sd_div(sd_from_i64(s12), bits(den)), g);
        expect("vif g*s12", g, s12, sd_mul(bits(g), sd_from_i64(s12)), g * s12);
        expect("vif g*g*s1", g * g, s1, sd_mul(sd_mul(bits(g), bits(g)), sd_from_i64(s1)),
               g * g * s1);
    }
    CHECK(!bad, "%u results differ from the CPU's doubles", bad);
    return check_report();
}
