/*
 * Daala's 8-point integer DCT-II (od_bin_fdct8 from Xiph's psnr_hvs), a
 * lifting network whose multipliers, roundings and order are the
 * transform's definition, written once for the C (psnr_hvs_tmpl.h, on
 * samples) and the x86 entries (src/x86/psnr_hvs_simd.h, on vectors of
 * blocks). The includer defines
 *   T                     the type of a value
 *   ADD(a, b), SUB(a, b)  a + b, a - b
 *   HALF(a)               (a + (a < 0)) >> 1: half, toward zero
 *   MULR(a, num, shift)   (a * num + 2^(shift - 1)) >> shift
 * In: t0, t4, t2, t6, t7, t3, t5, t1 hold inputs 0 to 7; out: tu holds
 * coefficient u.
 */
#ifndef VQX_FEATURE_PSNR_HVS_FDCT8_H
#define VQX_FEATURE_PSNR_HVS_FDCT8_H

#define PSNR_HVS_FDCT8(t0, t1, t2, t3, t4, t5, t6, t7)        \
    do {                                                      \
        /* +1/-1 butterflies */                               \
        t1 = SUB(t0, t1);                                     \
        const T t1h_ = HALF(t1);                              \
        t0 = SUB(t0, t1h_);                                   \
        t4 = ADD(t4, t5);                                     \
        const T t4h_ = HALF(t4);                              \
        t5 = SUB(t5, t4h_);                                   \
        t3 = SUB(t2, t3);                                     \
        t2 = SUB(t2, HALF(t3));                               \
        t6 = ADD(t6, t7);                                     \
        const T t6h_ = HALF(t6);                              \
        t7 = SUB(t6h_, t7);                                   \
        /* embedded 4-point DCT-II */                         \
        t0 = ADD(t0, t6h_);                                   \
        t6 = SUB(t0, t6);                                     \
        t2 = SUB(t4h_, t2);                                   \
        t4 = SUB(t2, t4);                                     \
        /* its 2-point DCT-II: rotation by pi/4 */            \
        t0 = SUB(t0, MULR(t4, 13573, 15));                    \
        t4 = ADD(t4, MULR(t0, 11585, 14));                    \
        t0 = SUB(t0, MULR(t4, 13573, 15));                    \
        /* its 2-point DST-IV: rotation by 3 pi/8 */          \
        t6 = SUB(t6, MULR(t2, 21895, 15));                    \
        t2 = ADD(t2, MULR(t6, 15137, 14));                    \
        t6 = SUB(t6, MULR(t2, 21895, 15));                    \
        /* embedded 4-point DST-IV */                         \
        t3 = ADD(t3, MULR(t5, 19195, 15));                    \
        t5 = ADD(t5, MULR(t3, 11585, 14));                    \
        t3 = SUB(t3, MULR(t5, 7489, 13));                     \
        t7 = SUB(HALF(t5), t7);                               \
        t5 = SUB(t5, t7);                                     \
        t3 = SUB(t1h_, t3);                                   \
        t1 = SUB(t1, t3);                                     \
        /* rotation by pi/16 */                               \
        t7 = ADD(t7, MULR(t1, 3227, 15));                     \
        t1 = SUB(t1, MULR(t7, 6393, 15));                     \
        t7 = ADD(t7, MULR(t1, 3227, 15));                     \
        /* rotation by 3 pi/16 */                             \
        t5 = ADD(t5, MULR(t3, 2485, 13));                     \
        t3 = SUB(t3, MULR(t5, 18205, 15));                    \
        t5 = ADD(t5, MULR(t3, 2485, 13));                     \
    } while (0)

#endif
