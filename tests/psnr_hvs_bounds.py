#!/usr/bin/env python3
"""Bounds of every integer in psnr_hvs's 2-D DCT, for all inputs.

src/feature/psnr_hvs_fdct8.h is Daala's lifting DCT, which psnr_hvs_block.h runs
in 32-bit arithmetic up to 12 bits and in 64-bit arithmetic above, and
stores the coefficients in 32 bits at every depth. This proves those widths suffice: each value of the
network (columns, then the columns of the result, as the C code) is carried
as an affine form c0 + sum(c_i x_i) + e over the 64 samples, with the
rounding of each step (at most 1/2) added to the error radius e; the largest
|value| over the box 0 <= x_i <= 2^bpc - 1 is then exact up to e. Checked:
  - up to 12 bits, every value and every product a * num + round inside a
    lifting step is below 2^31 (so int32 gives libvmaf's integers);
  - at 16 bits, the products are below 2^63 and every value below 2^31 (so
    coefficients and their differences fit int32, and squares are exact in
    double, below 2^53).
Prints 'N passed, N failed' like the C unit tests.
"""
from fractions import Fraction
import sys

N = 64  # samples of a block


class Affine:
    def __init__(self, coef, const=Fraction(0), err=Fraction(0)):
        self.coef, self.const, self.err = coef, const, err

    def __add__(self, o):
        return Affine([a + b for a, b in zip(self.coef, o.coef)], self.const + o.const, self.err + o.err)

    def __sub__(self, o):
        return Affine([a - b for a, b in zip(self.coef, o.coef)], self.const - o.const, self.err + o.err)

    def scaled(self, f, rounding):
        return Affine([a * f for a in self.coef], self.const * f, self.err * abs(f) + rounding)

    def bound(self, top):
        hi = self.const + sum(a for a in self.coef if a > 0) * top + self.err
        lo = self.const + sum(a for a in self.coef if a < 0) * top - self.err
        return max(abs(hi), abs(lo))


class Network:
    """Daala's od_bin_fdct8, recording the largest value and product."""

    def __init__(self, top):
        self.top, self.max_value, self.max_product = top, Fraction(0), Fraction(0)

    def seen(self, v):
        self.max_value = max(self.max_value, v.bound(self.top))
        return v

    def half(self, a):  # (a + (a < 0)) >> 1: a / 2 rounded toward zero
        return self.seen(a.scaled(Fraction(1, 2), Fraction(1, 2)))

    def mul_round(self, a, num, shift):  # (a * num + 2^(shift-1)) >> shift
        self.max_product = max(self.max_product, a.bound(self.top) * num + 2 ** (shift - 1))
        return self.seen(a.scaled(Fraction(num, 2 ** shift), Fraction(1, 2)))

    def fdct8(self, x):
        s = self.seen
        t0, t4, t2, t6, t7, t3, t5, t1 = x
        t1 = s(t0 - t1); t1h = self.half(t1); t0 = s(t0 - t1h)
        t4 = s(t4 + t5); t4h = self.half(t4); t5 = s(t5 - t4h)
        t3 = s(t2 - t3); t2 = s(t2 - self.half(t3))
        t6 = s(t6 + t7); t6h = self.half(t6); t7 = s(t6h - t7)
        t0 = s(t0 + t6h); t6 = s(t0 - t6); t2 = s(t4h - t2); t4 = s(t2 - t4)
        t0 = s(t0 - self.mul_round(t4, 13573, 15))
        t4 = s(t4 + self.mul_round(t0, 11585, 14))
        t0 = s(t0 - self.mul_round(t4, 13573, 15))
        t6 = s(t6 - self.mul_round(t2, 21895, 15))
        t2 = s(t2 + self.mul_round(t6, 15137, 14))
        t6 = s(t6 - self.mul_round(t2, 21895, 15))
        t3 = s(t3 + self.mul_round(t5, 19195, 15))
        t5 = s(t5 + self.mul_round(t3, 11585, 14))
        t3 = s(t3 - self.mul_round(t5, 7489, 13))
        t7 = s(self.half(t5) - t7); t5 = s(t5 - t7); t3 = s(t1h - t3); t1 = s(t1 - t3)
        t7 = s(t7 + self.mul_round(t1, 3227, 15))
        t1 = s(t1 - self.mul_round(t7, 6393, 15))
        t7 = s(t7 + self.mul_round(t1, 3227, 15))
        t5 = s(t5 + self.mul_round(t3, 2485, 13))
        t3 = s(t3 - self.mul_round(t5, 18205, 15))
        t5 = s(t5 + self.mul_round(t3, 2485, 13))
        return [t0, t1, t2, t3, t4, t5, t6, t7]

    def fdct8x8(self):
        x = [[Affine([Fraction(int(k == r * 8 + c)) for k in range(N)]) for c in range(8)]
             for r in range(8)]
        z = [self.fdct8([x[r][i] for r in range(8)]) for i in range(8)]
        for i in range(8):
            self.fdct8([z[m][i] for m in range(8)])


def main():
    passed = failed = 0

    def check(cond, what):
        nonlocal passed, failed
        if cond:
            passed += 1
        else:
            failed += 1
            print('FAIL', what)

    for bpc in (8, 10, 12, 16):
        net = Network((1 << bpc) - 1)
        net.fdct8x8()
        print(f'{bpc} bits: |value| <= {float(net.max_value):.1f}, '
              f'|product| <= {float(net.max_product):.4g}')
        check(net.max_value < 2 ** 31, f'{bpc} bits: values fit int32')
        check(2 * net.max_value < 2 ** 31, f'{bpc} bits: coefficient differences fit int32')
        check(net.max_value ** 2 < 2 ** 53, f'{bpc} bits: squares exact in double')
        if bpc <= 12:
            check(net.max_product < 2 ** 31, f'{bpc} bits: products fit int32')
        else:
            check(net.max_product < 2 ** 63, f'{bpc} bits: products fit int64')
    print(f'{passed} passed, {failed} failed')
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())
