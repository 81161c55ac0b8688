#version 460
// Integer VIF's horizontal statistics pass and information terms
// (vif_dsp.c's vqx_vif_horizontal_c and vqx_vif_add_row_c, vif_pixel.h's
// vif_add_pixel), a workgroup per row: each pixel filters the vertical
// pass along the row (columns mirrored) and adds its terms to four 64-bit
// integer sums, into rows.sum[k * height + y] (integers: the order is
// free). The gain's double arithmetic is soft_double.h's, operation for
// operation and with the CPU's truncations.
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"
#include "vif.glsl"
// glslc defines VULKAN, on which soft_double.h selects its GLSL form
#include "soft_double.h"

layout(local_size_x = 256) in;

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Words { uint value[]; };

layout(push_constant) uniform Push {
    Words cols;
    Sums64 rows;
    Words log2_table; // 16-bit entries, two to a word
    uint64_t gain_limit; // doubles as their bits
    uint64_t eps;
    uint width;
    uint height;
    uint scale;
} p;

shared int64_t partial[4][256];

uint log2_entry(uint i)
{
    return (p.log2_table.value[i >> 1] >> ((i & 1u) * 16u)) & 0xffffu;
}

// vif_pixel.h's vif_log2_q11_32 and _64: the mantissa's top 16 bits index the table.
int log2_q11_32(uint x)
{
    const int k = findMSB(x) - 15;
    return int(log2_entry(x >> uint(k))) + 2048 * k;
}

int log2_q11_64(uint64_t x)
{
    const int k = 63 - int(SD_CLZ64(x)) - 15;
    return int(log2_entry(uint(x >> uint(k)))) + 2048 * k;
}

void main()
{
    const uint y = gl_WorkGroupID.x, t = gl_LocalInvocationID.x;
    const uint n = p.width * p.height, row = y * p.width;
    const int half_w = vif_half(p.scale);
    int64_t num_log = 0l, den_log = 0l, num_non_log = 0l, den_non_log = 0l;
    for (uint x = t; x < p.width; x += 256u) {
        uint mu1 = 0u, mu2 = 0u;
        uint64_t ref_sq = 0ul, dis_sq = 0ul, ref_dis = 0ul;
        for (int k = 0; k <= 2 * half_w; k++) {
            const uint o = row + uint(reflect101(int(x) - half_w + k, int(p.width)));
            const uint tap = vif_tap_at(p.scale, k);
            mu1 += tap * p.cols.value[o];
            mu2 += tap * p.cols.value[n + o];
            ref_sq += uint64_t(tap) * uint64_t(p.cols.value[2u * n + o]);
            dis_sq += uint64_t(tap) * uint64_t(p.cols.value[3u * n + o]);
            ref_dis += uint64_t(tap) * uint64_t(p.cols.value[4u * n + o]);
        }
        // vif_add_pixel, statement for statement
        const uint mu1_sq = uint((uint64_t(mu1) * uint64_t(mu1) + 2147483648ul) >> 32);
        const uint mu2_sq = uint((uint64_t(mu2) * uint64_t(mu2) + 2147483648ul) >> 32);
        const uint mu1_mu2 = uint((uint64_t(mu1) * uint64_t(mu2) + 2147483648ul) >> 32);
        const uint xx = uint((ref_sq + 32768ul) >> 16);
        const uint yy = uint((dis_sq + 32768ul) >> 16);
        const uint xy = uint((ref_dis + 32768ul) >> 16);
        const int sigma1_sq = int(xx - mu1_sq);
        const int sigma2_sq = max(int(yy - mu2_sq), 0);
        const int sigma12 = int(xy - mu1_mu2);
        if (sigma1_sq < VIF_SIGMA_NSQ) {
            num_non_log += int64_t(sigma2_sq);
            den_non_log++;
            continue;
        }
        den_log += int64_t(log2_q11_32(uint(VIF_SIGMA_NSQ + sigma1_sq)) - 2048 * 17);
        if (sigma12 > 0 && sigma2_sq > 0) {
            const uint64_t s1 = sd_from_i64(int64_t(sigma1_sq));
            const uint64_t s12 = sd_from_i64(int64_t(sigma12));
            uint64_t g = sd_div(s12, sd_add(s1, p.eps));
            // (int32_t) of a value at most sigma2_sq: below 0 it is clamped to 0
            // whatever the conversion gives, so the 64-bit truncation serves
            const int64_t sv = sd_to_i64(sd_sub(sd_from_i64(int64_t(sigma2_sq)), sd_mul(g, s12)));
            const int sv_sq = sv < 0l ? 0 : int(sv);
            if (!sd_lt(g, p.gain_limit)) g = p.gain_limit;
            const uint noise = uint(sv_sq + VIF_SIGMA_NSQ);
            const int64_t total = sd_to_i64(sd_mul(sd_mul(g, g), s1)) + int64_t(noise);
            num_log += int64_t(log2_q11_64(uint64_t(total)) - log2_q11_64(uint64_t(noise)));
        }
    }
    partial[0][t] = num_log;
    partial[1][t] = den_log;
    partial[2][t] = num_non_log;
    partial[3][t] = den_non_log;
    barrier();
    for (uint half_n = 128u; half_n > 0u; half_n >>= 1) {
        if (t < half_n)
            for (int k = 0; k < 4; k++) partial[k][t] += partial[k][t + half_n];
        barrier();
    }
    if (t < 4u) p.rows.sum[t * p.height + y] = uint64_t(partial[t][0]);
}
