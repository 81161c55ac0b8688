/*
 * Daala's 8-point DCT in one width of integer arithmetic: psnr_hvs_dsp.c
 * includes this file twice, with `coeff` int32_t (input up to 12 bits) and
 * int64_t (deeper input), and CF(name) adding the width to every name.
 *
 * Up to 12 bits every value and every product inside the 2-D DCT is below
 * 2^31 (tests/psnr_hvs_bounds.py bounds them over all inputs: |value| <=
 * 32796, |product| < 3.8e8), so 32-bit and 64-bit arithmetic give the same
 * integers, which are libvmaf's. At 16 bits the products reach 6.1e9 and
 * need 64 bits; the values, up to 524322, still fit 32 bits, which is how
 * blocks come in and go out.
 */

static inline coeff CF(half_toward_zero)(coeff a)
{
    return (a + (a < 0)) >> 1;
}

/* (a * num + 2^(shift - 1)) >> shift */
static inline coeff CF(mul_round)(coeff a, coeff num, int shift)
{
    return (a * num + ((coeff)1 << (shift - 1))) >> shift;
}

/* Daala's 8-point integer DCT-II (od_bin_fdct8 from Xiph's psnr_hvs), a
 * lifting network whose multipliers, roundings and order are the
 * transform's definition, on the 8 columns of a block at once: out[u][j] is
 * coefficient u of column j of in. Lane by lane, so that it vectorises. */
static void CF(fdct8_columns)(int32_t out[BLOCK * BLOCK], const int32_t in[BLOCK * BLOCK])
{
    for (int j = 0; j < BLOCK; j++) {
        const int32_t *x = in + j;
        coeff t0 = x[0 * BLOCK], t4 = x[1 * BLOCK], t2 = x[2 * BLOCK], t6 = x[3 * BLOCK];
        coeff t7 = x[4 * BLOCK], t3 = x[5 * BLOCK], t5 = x[6 * BLOCK], t1 = x[7 * BLOCK];

        /* +1/-1 butterflies */
        t1 = t0 - t1;
        const coeff t1h = CF(half_toward_zero)(t1);
        t0 -= t1h;
        t4 += t5;
        const coeff t4h = CF(half_toward_zero)(t4);
        t5 -= t4h;
        t3 = t2 - t3;
        t2 -= CF(half_toward_zero)(t3);
        t6 += t7;
        const coeff t6h = CF(half_toward_zero)(t6);
        t7 = t6h - t7;

        /* embedded 4-point DCT-II */
        t0 += t6h;
        t6 = t0 - t6;
        t2 = t4h - t2;
        t4 = t2 - t4;
        /* its 2-point DCT-II: rotation by pi/4 */
        t0 -= CF(mul_round)(t4, 13573, 15);
        t4 += CF(mul_round)(t0, 11585, 14);
        t0 -= CF(mul_round)(t4, 13573, 15);
        /* its 2-point DST-IV: rotation by 3 pi/8 */
        t6 -= CF(mul_round)(t2, 21895, 15);
        t2 += CF(mul_round)(t6, 15137, 14);
        t6 -= CF(mul_round)(t2, 21895, 15);

        /* embedded 4-point DST-IV */
        t3 += CF(mul_round)(t5, 19195, 15);
        t5 += CF(mul_round)(t3, 11585, 14);
        t3 -= CF(mul_round)(t5, 7489, 13);
        t7 = CF(half_toward_zero)(t5) - t7;
        t5 -= t7;
        t3 = t1h - t3;
        t1 -= t3;
        /* rotation by pi/16 */
        t7 += CF(mul_round)(t1, 3227, 15);
        t1 -= CF(mul_round)(t7, 6393, 15);
        t7 += CF(mul_round)(t1, 3227, 15);
        /* rotation by 3 pi/16 */
        t5 += CF(mul_round)(t3, 2485, 13);
        t3 -= CF(mul_round)(t5, 18205, 15);
        t5 += CF(mul_round)(t3, 2485, 13);

        int32_t *y = out + j;
        y[0 * BLOCK] = (int32_t)t0, y[1 * BLOCK] = (int32_t)t1, y[2 * BLOCK] = (int32_t)t2;
        y[3 * BLOCK] = (int32_t)t3, y[4 * BLOCK] = (int32_t)t4, y[5 * BLOCK] = (int32_t)t5;
        y[6 * BLOCK] = (int32_t)t6, y[7 * BLOCK] = (int32_t)t7;
    }
}
