/*
 * Daala's 8-point DCT in one width of integer arithmetic, for the CPU and
 * the device (VQX_HOSTDEV): psnr_hvs_block.h includes this file twice, with
 * `coeff` int32_t (input up to 12 bits) and int64_t (deeper input), and
 * CF(name) adding the width to every name.
 *
 * Up to 12 bits every value and every product inside the 2-D DCT is below
 * 2^31 (tests/psnr_hvs_bounds.py bounds them over all inputs: |value| <=
 * 32796, |product| < 3.8e8), so 32-bit and 64-bit arithmetic give the same
 * integers, which are libvmaf's. At 16 bits the products reach 6.1e9 and
 * need 64 bits; the values, up to 524322, still fit 32 bits, which is how
 * blocks come in and go out.
 */

#include "feature/psnr_hvs_fdct8.h"

VQX_HOSTDEV static inline coeff CF(half_toward_zero)(coeff a)
{
    return (a + (a < 0)) >> 1;
}

/* (a * num + 2^(shift - 1)) >> shift */
VQX_HOSTDEV static inline coeff CF(mul_round)(coeff a, coeff num, int shift)
{
    return (a * num + ((coeff)1 << (shift - 1))) >> shift;
}

#define T coeff
#define ADD(a, b) ((a) + (b))
#define SUB(a, b) ((a) - (b))
#define HALF(a) CF(half_toward_zero)(a)
#define MULR(a, num, shift) CF(mul_round)(a, num, shift)

/* Daala's DCT (psnr_hvs_fdct8.h) on the 8 columns of a block at once:
 * out[u][j] is coefficient u of column j of in. Lane by lane, so that it
 * vectorises. */
VQX_HOSTDEV static inline void CF(fdct8_columns)(int32_t out[PSNR_HVS_TERMS],
                                                 const int32_t in[PSNR_HVS_TERMS])
{
    const int n = PSNR_HVS_BLOCK;
    for (int j = 0; j < n; j++) {
        const int32_t *x = in + j;
        coeff t0 = x[0 * n], t4 = x[1 * n], t2 = x[2 * n], t6 = x[3 * n];
        coeff t7 = x[4 * n], t3 = x[5 * n], t5 = x[6 * n], t1 = x[7 * n];

        PSNR_HVS_FDCT8(t0, t1, t2, t3, t4, t5, t6, t7);

        int32_t *y = out + j;
        y[0 * n] = (int32_t)t0, y[1 * n] = (int32_t)t1, y[2 * n] = (int32_t)t2;
        y[3 * n] = (int32_t)t3, y[4 * n] = (int32_t)t4, y[5 * n] = (int32_t)t5;
        y[6 * n] = (int32_t)t6, y[7 * n] = (int32_t)t7;
    }
}

#undef T
#undef ADD
#undef SUB
#undef HALF
#undef MULR
