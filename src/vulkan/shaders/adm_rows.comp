#version 460
// Integer ADM's sums of one scored row (adm.c's reference_row and
// masked_row): the reference's cubes and the masked cubes of the restored
// and the additive parts, each rounded by the level's per-row shift, into
// rows.sum[s * n_rows + r] for sum s (adm_work.h); a workgroup per row.
// Integers: the order of the additions is free.
#extension GL_GOOGLE_include_directive : require
#include "samples.glsl"
#include "adm.glsl"

layout(local_size_x = 256) in;

layout(push_constant) uniform Push {
    Ints work;
    Sums64 rows;
    uint q_weight[3];
    uint cube_shift[3];
    uint row_shift;
    uint ref_cube_shift;
    uint ref_row_shift;
    uint top;             // the scored region
    uint left;
    uint right;
    uint n_rows;
    uint w;               // the band's size
    uint h;
    uint stride;
    uint plane_words;
    uint level;
    uint skip_aim;
} p;

shared uint64_t partial[256];

// The masking threshold of (i, j) from the terms of part m (adm_threshold,
// the window mirrored as masked_row reads it).
uint threshold(uint m, int i, int j)
{
    const uint sum = ADM_WORK_MASK_SUM(m) * p.plane_words;
    const int up = mirror_hybrid(i - 1, int(p.h)), down = mirror_hybrid(i + 1, int(p.h));
    const int left = mirror_hybrid(j - 1, int(p.w)), right = mirror_hybrid(j + 1, int(p.w));
    const uint rows[3] = uint[3](uint(up) * p.stride, uint(i) * p.stride, uint(down) * p.stride);
    uint box = 0u;
    for (int k = 0; k < 3; k++)
        box += uint(p.work.v[sum + rows[k] + uint(left)]) +
               uint(p.work.v[sum + rows[k] + uint(j)]) +
               uint(p.work.v[sum + rows[k] + uint(right)]);
    return box - uint(p.work.v[sum + rows[1] + uint(j)]) +
           uint(p.work.v[ADM_WORK_MASK_CENTRE(m) * p.plane_words + rows[1] + uint(j)]);
}

int64_t masked_cube(int b, int x, uint thr)
{
    const int weighted = p.level == 0u ? adm_weigh_level0(x, p.q_weight[b])
                                       : adm_weigh_q32(x, p.q_weight[b]);
    return adm_masked_cube(weighted, thr, adm_masked_thr_shift(p.level, b),
                           adm_masked_sq_shift(p.level, b), p.cube_shift[b]);
}

void main()
{
    const uint r = gl_WorkGroupID.x, t = gl_LocalInvocationID.x;
    const int i = int(p.top + r);
    uint64_t sums[ADM_ROW_SUMS];
    for (int s = 0; s < ADM_ROW_SUMS; s++) sums[s] = 0UL;
    for (uint j = p.left + t; j < p.right; j += 256u) {
        const uint o = uint(i) * p.stride + j;
        for (int b = 0; b < 3; b++) {
            const int x = p.work.v[ADM_WORK_BAND(0u, uint(b)) * p.plane_words + o];
            sums[b] += p.level == 0u
                ? adm_reference_cube_16(x)
                : adm_reference_cube_32(x, adm_reference_sq_shift(p.level), p.ref_cube_shift);
        }
        const uint thr_num = threshold(0u, i, int(j));
        for (int b = 0; b < 3; b++)
            sums[3 + b] += uint64_t(masked_cube(b, p.work.v[ADM_WORK_RESTORED(uint(b)) *
                                                            p.plane_words + o], thr_num));
        if (p.skip_aim != 0u) continue;
        const uint thr_aim = threshold(1u, i, int(j));
        for (int b = 0; b < 3; b++)
            sums[6 + b] += uint64_t(masked_cube(b, p.work.v[ADM_WORK_ADDITIVE(uint(b)) *
                                                            p.plane_words + o], thr_aim));
    }
    for (int s = 0; s < ADM_ROW_SUMS; s++) {
        partial[t] = sums[s];
        barrier();
        for (uint half_n = 128u; half_n > 0u; half_n >>= 1) {
            if (t < half_n) partial[t] += partial[t + half_n];
            barrier();
        }
        if (t == 0u) {
            // adm_round_row_u64 for the reference's, adm_round_row (signed) for the others
            const uint64_t row = partial[0];
            p.rows.sum[uint(s) * p.n_rows + r] =
                s < 3 ? (row + uint64_t(adm_round_half(p.ref_row_shift))) >> p.ref_row_shift
                      : uint64_t((int64_t(row) + adm_round_half(p.row_shift)) >> p.row_shift);
        }
        barrier();
    }
}
