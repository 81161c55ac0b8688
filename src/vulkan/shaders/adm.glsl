// Integer ADM's per-sample statements (feature/adm_pixel.h), each after the
// C function of the same name, in the C's integer widths and wrap-arounds;
// the C's double expressions (the angle test, the enhancement credit) in
// soft_double.h's binary64. Band values live in the work buffer
// (adm_work.h).
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// glslc defines VULKAN for Vulkan targets, which soft_double.h expects
#include "soft_double.h"
#include "adm_taps.h"
#include "adm_work.h"

layout(buffer_reference, std430, buffer_reference_align = 4) buffer Ints { int v[]; };

const int db2_lo[4] = int[4](ADM_DB2_LO_VALUES);
const int db2_hi[4] = int[4](ADM_DB2_HI_VALUES);

// hostdev.h's vqx_mirror_hybrid: -1 -> 1, n -> n - 1
int mirror_hybrid(int i, int n)
{
    return i < 0 ? -i : i >= n ? 2 * n - i - 1 : i;
}

// int64_t(v), for values whose sign is then tested: Mesa 22.3's lavapipe
// answers x < 0 and x >> 63 of int64_t(v) as if v were zero-extended, and
// this builds the two halves instead.
int64_t widen(int v)
{
    return packInt2x32(ivec2(v, v >> 31));
}

// (int16_t)v
int sext16(int v)
{
    return (v << 16) >> 16;
}

uint adm_abs_u32(int v)
{
    return v < 0 ? 0u - uint(v) : uint(v);
}

int64_t adm_round_half(uint shift)
{
    return shift != 0u ? int64_t(1) << (shift - 1u) : int64_t(0);
}

int adm_dwt_16(const int taps[4], const int v[4], int add, uint shift)
{
    return (taps[0] * v[0] + taps[1] * v[1] + taps[2] * v[2] + taps[3] * v[3] + add) >> shift;
}

int64_t adm_dwt_32(const int taps[4], const int64_t v[4], int64_t add, uint shift)
{
    return (int64_t(taps[0]) * v[0] + int64_t(taps[1]) * v[1] + int64_t(taps[2]) * v[2] +
            int64_t(taps[3]) * v[3] + add) >> shift;
}

int64_t adm_restore_gain(int o, int t)
{
    const uint mag = adm_abs_u32(o);
    const uint bits = uint(findMSB(mag | 1u)) + 1u;
    const uint shift = bits > 15u ? bits - 15u : 0u;
    const uint idx = (mag + ((1u << shift) >> 1u)) >> shift;
    const int recip = idx != 0u ? ADM_RECIP_Q30 / int(idx) : 0; // adm_reciprocal
    const int64_t product = int64_t(recip) * int64_t(t);
    const int64_t quotient = o < 0 ? -product : product;
    const int64_t k = (quotient + int64_t(int(1u << (14u + shift)))) >> (15u + shift);
    const int64_t clamped = k < 0 ? int64_t(0) : k > 32768 ? int64_t(32768) : k;
    return o == 0 ? int64_t(32768) : clamped;
}

// The C's (float)x / 4096.0: the float widened, times 2^-12 (exact).
uint64_t adm_scaled(int64_t x)
{
    return sd_mul(sd_from_float_bits(sd_float_bits_of_i64(x)), 0x3f30000000000000UL);
}

void adm_decouple(const int o[3], const int t[3], uint cos_1deg_sq_bits, uint64_t gain_limit,
                  out int r[3], out int a[3])
{
    int64_t k[3];
    int restored[3];
    bool any = false;
    for (int b = 0; b < 3; b++) {
        k[b] = adm_restore_gain(o[b], t[b]);
        restored[b] = int((k[b] * int64_t(o[b]) + 16384) >> 15);
        any = any || (k[b] > 0 && o[b] != 0);
    }
    // the angle test only decides where some band would be enhanced
    bool same_angle = false;
    if (any) {
        const int64_t oh = o[0], ov = o[1], th = t[0], tv = t[1];
        const uint64_t dotf = adm_scaled(oh * th + ov * tv);
        const uint64_t bound = sd_mul(sd_mul(sd_from_float_bits(cos_1deg_sq_bits),
                                             adm_scaled(oh * oh + ov * ov)),
                                      adm_scaled(th * th + tv * tv));
        same_angle = !sd_lt(dotf, 0UL) && sd_le(bound, sd_mul(dotf, dotf));
    }
    for (int b = 0; b < 3; b++) {
        const int ob = o[b], tb = t[b];
        int rb = restored[b];
        if (same_angle && k[b] > 0 && ob != 0) {
            const int64_t e = sd_to_i64(sd_mul(sd_from_i64(widen(restored[b])), gain_limit));
            rb = int(ob > 0 ? min(e, widen(tb)) : max(e, widen(tb)));
        }
        r[b] = rb;
        a[b] = tb - rb; // modulo 2^32, as adm_wrap32 of the 64-bit difference
    }
}

void adm_mask_terms_16(const uint q[3], const int x[3], out uint sum, out uint centre)
{
    uint s = 0u, c = 0u;
    for (int b = 0; b < 3; b++) {
        const int shift = b == 2 ? 17 : 15;
        const uint add = b == 2 ? 65535u : 16384u;
        const int weighted = sext16(int(q[b] * uint(x[b]) + add) >> shift);
        const int m = abs(weighted);
        s += uint(sext16((VQX_ADM_ONE_BY_30_Q17 * m + 2048) >> 12));
        c += uint(sext16((VQX_ADM_ONE_BY_15_Q17 * m + 2048) >> 12));
    }
    sum = s;
    centre = c;
}

int adm_weigh_q32(int x, uint q)
{
    return int((int64_t(q) * int64_t(x) + (int64_t(1) << 27)) >> 28);
}

void adm_mask_terms_32(const uint q[3], const int x[3], out uint sum, out uint centre)
{
    const int64_t int32_min = int64_t(-2147483647 - 1);
    uint s = 0u, c = 0u;
    for (int b = 0; b < 3; b++) {
        const int64_t m = int64_t(adm_abs_u32(adm_weigh_q32(x[b], q[b])));
        s += uint(int((int64_t(VQX_ADM_ONE_BY_30_Q32) * m + int32_min) >> 32));
        c += uint(int((int64_t(VQX_ADM_ONE_BY_15_Q32) * m + int32_min) >> 32));
    }
    sum = s;
    centre = c;
}

uint adm_masked_thr_shift(uint level, int b)
{
    return level != 0u ? 0u : b == 2 ? 12u : 10u;
}

uint adm_masked_sq_shift(uint level, int b)
{
    return level != 0u ? 30u : b == 2 ? 30u : 29u;
}

int adm_weigh_level0(int x, uint q)
{
    return int(q * uint(x));
}

int64_t adm_masked_cube(int weighted, uint thr, uint thr_shift, uint sq_shift, uint cube_shift)
{
    const int m = int(adm_abs_u32(weighted) - (thr << thr_shift));
    const int64_t e = m < 0 ? int64_t(0) : int64_t(m);
    const int sq = int((e * e + adm_round_half(sq_shift)) >> sq_shift);
    return (int64_t(sq) * e + adm_round_half(cube_shift)) >> cube_shift;
}

uint64_t adm_reference_cube_16(int x)
{
    const uint m = adm_abs_u32(x) & 0xffffu;
    return uint64_t(m * m) * uint64_t(m);
}

uint adm_reference_sq_shift(uint level)
{
    return level == 2u ? 30u : 31u;
}

uint64_t adm_reference_cube_32(int x, uint sq_shift, uint cube_shift)
{
    const uint64_t m = uint64_t(adm_abs_u32(x));
    return ((((m * m + (uint64_t(1) << sq_shift)) >> sq_shift) * m) +
            uint64_t(adm_round_half(cube_shift))) >> cube_shift;
}
