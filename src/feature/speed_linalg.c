/*
 * The linear algebra of SpEED on its 25x25 covariance, on the CPU: the
 * scalar steps live in speed_linalg.h, which the CUDA twin compiles too.
 * Results are libvmaf's bit for bit, including the iteration count.
 */
#include <errno.h>
#include <string.h>

#include "feature/speed.h"
#include "feature/speed_linalg.h"

#define N SPEED_DIM

size_t vqx_speed_linalg_scratch(unsigned n_rhs)
{
    /* eigen: matrix + d + sd + two vectors; solve: five matrices + Q^T b */
    const size_t eigen = SPEED_EIGEN_SCRATCH;
    const size_t solve = 5 * N * N + (size_t)N * n_rhs;
    return eigen > solve ? eigen : solve;
}

void vqx_speed_eigenvalues(const float cov[N * N], float eig[N], float *scratch)
{
    speed_eigenvalues_of(cov, eig, scratch);
}

bool vqx_speed_is_regular(const float eig[N])
{
    return speed_eigen_regular(eig);
}

/* The products are SpeedDSPContext.matrix_product (speed_dsp.h). */
void vqx_speed_householder_qr(const SpeedDSPContext *dsp, const float cov[N * N], float *q,
                              float *r, float *scratch)
{
    float *z = scratch, *h = z + N * N, *tmp = h + N * N;
    float *v = tmp; /* first row of tmp; tmp is free before each product */
    memcpy(z, cov, sizeof(float) * N * N);
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++)
            q[i * N + j] = i == j;

    for (int k = 0; k < N - 1; k++) {
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                if (speed_reflector_identity(k, i, j)) z[i * N + j] = i == j;
        speed_reflector_vector(z, cov, k, v);
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++)
                h[i * N + j] = speed_reflector_entry(v, i, j);

        dsp->matrix_product(h, z, N, tmp);
        memcpy(z, tmp, sizeof(float) * N * N);
        dsp->matrix_product(h, q, N, tmp);
        memcpy(q, tmp, sizeof(float) * N * N);
    }
    dsp->matrix_product(q, cov, N, r);
}

int vqx_speed_solve(const SpeedDSPContext *dsp, const float cov[N * N], const float *rhs,
                    unsigned n_rhs, float *x, float *scratch)
{
    float *q = scratch, *r = q + N * N, *qr_scratch = r + N * N;
    float *qb = qr_scratch + 3 * N * N;
    vqx_speed_householder_qr(dsp, cov, q, r, qr_scratch);
    if (!speed_pivots_regular(r)) return -EINVAL;
    dsp->matrix_product(q, rhs, n_rhs, qb);
    /* speed_back_substitute for every column at once, rows from the bottom:
     * each entry sees the same operations in the same order */
    for (int i = N - 1; i >= 0; i--) {
        float *xi = x + (size_t)i * n_rhs;
        memcpy(xi, qb + (size_t)i * n_rhs, sizeof(float) * n_rhs);
        for (int k = i + 1; k < N; k++) {
            const float rik = r[i * N + k];
            const float *xk = x + (size_t)k * n_rhs;
            for (unsigned j = 0; j < n_rhs; j++)
                xi[j] -= xk[j] * rik;
        }
        const float pivot = r[i * N + i];
        for (unsigned j = 0; j < n_rhs; j++)
            xi[j] = xi[j] / pivot;
    }
    return 0;
}
