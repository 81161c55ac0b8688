/*
 * The scalar linear algebra of SpEED on its 25x25 covariance, as static
 * inline functions that both the CPU (speed_linalg.c) and the CUDA twin
 * (cuda/speed_kernels.cu) compile, so that the two run one code:
 *   eigenvalues   GSL's symmetric scheme as libvmaf runs it in float:
 *                 Householder tridiagonalisation, then implicit-shift QR
 *                 sweeps with Wilkinson shifts (one thread)
 *   solve         the pieces of an explicit Householder QR and of the back
 *                 substitution, each one element or one column, so that the
 *                 device can run elements and columns in parallel with every
 *                 sum in the CPU's order
 *   variance      one block's variance estimate from the solution.
 * Float throughout, with the double steps (square roots, halvings,
 * threshold products) where libvmaf takes them. sqrt gets an explicit
 * double: C++ (nvcc) would otherwise pick its float overload.
 */
#ifndef VQX_FEATURE_SPEED_LINALG_H
#define VQX_FEATURE_SPEED_LINALG_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "feature/speed.h"

#include "hostdev.h"

/* Tolerances of libvmaf's speed.c (Netflix, BSD+Patent). */
#define SPEED_EIG_EPS 1e-6
#define SPEED_EIG_MAX_SWEEPS 500

/* Scratch of speed_eigenvalues_of: the matrix and four vectors. */
#define SPEED_EIGEN_SCRATCH (SPEED_DIM * SPEED_DIM + 4 * SPEED_DIM)

VQX_HOSTDEV static inline float speed_sqrt_via_double(float x)
{
    return (float)sqrt((double)x);
}

VQX_HOSTDEV static inline float speed_hypot(float a, float b)
{
    return speed_sqrt_via_double(a * a + b * b);
}

VQX_HOSTDEV static inline float speed_sign(float x)
{
    return x >= 0 ? 1.0f : -1.0f;
}

/* ---- tridiagonalisation ----
 * Step i reduces column i below row lo = i + 1 with a Householder
 * reflector. Its parts are functions of one row or one element, so that
 * the device can run a step's rows and elements in parallel; every sum
 * stays in one thread, in order. */

/* The reflector of column `col` below row `row0`: returns tau (0: the
 * column is already reduced); *scaled: the column is to be divided by
 * *scale, its first entry replaced by the new diagonal value *beta (so
 * that the reflector vector has a first entry of 1). One thread. */
VQX_HOSTDEV static inline float speed_reflector_scalars(const float *a, int col, int row0,
                                                       bool *scaled, float *scale, float *beta)
{
    const int n = SPEED_DIM;
    *scaled = false;
    if (row0 == n - 1) return 0.0f;
    float tail = 0;
    for (int r = row0 + 1; r < n; r++)
        tail += a[r * n + col] * a[r * n + col];
    const float tail_norm = speed_sqrt_via_double(tail);
    if (tail_norm == 0.0f) return 0.0f;

    const float alpha = a[row0 * n + col];
    *beta = -speed_sign(alpha) * speed_hypot(alpha, tail_norm);
    const float tau = (*beta - alpha) / *beta;
    *scale = alpha - *beta;
    *scaled = *scale != 0.0f;
    return tau;
}

/* Row r >= row0 of the scaled column. */
VQX_HOSTDEV static inline float speed_reflector_scaled(const float *a, int col, int row0, int r,
                                                      float scale, float beta)
{
    return r == row0 ? beta : a[r * SPEED_DIM + col] / scale;
}

/* Row r >= lo of x = tau A v (A's trailing block), summed over c in order. */
VQX_HOSTDEV static inline float speed_reflector_image(const float *a, const float *v, float tau,
                                                     int lo, int r)
{
    float x = 0.0f;
    for (int c = lo; c < SPEED_DIM; c++)
        x += tau * a[r * SPEED_DIM + c] * v[c];
    return x;
}

/* The correction -tau (x . v) / 2 that makes x symmetric-update ready. One
 * thread. */
VQX_HOSTDEV static inline float speed_reflector_shift(const float *x, const float *v, float tau,
                                                     int lo)
{
    float xv = 0;
    for (int r = lo; r < SPEED_DIM; r++)
        xv += x[r] * v[r];
    return -0.5 * tau * xv;
}

/* Element (r, c) of A - x v' - v x'. */
VQX_HOSTDEV static inline float speed_reflector_update(const float *a, const float *x,
                                                      const float *v, int r, int c)
{
    return a[r * SPEED_DIM + c] - (x[r] * v[c] + v[r] * x[c]);
}

/* a (symmetric, destroyed) -> diagonal d and subdiagonal sd of a similar
 * tridiagonal matrix. v, x: SPEED_DIM floats each. */
VQX_HOSTDEV static inline void speed_tridiagonalise(float *a, float *d, float *sd, float *v,
                                                    float *x)
{
    const int n = SPEED_DIM;
    for (int i = 0; i < n - 2; i++) {
        const int lo = i + 1;
        bool scaled;
        float scale = 0, beta = 0;
        const float tau = speed_reflector_scalars(a, i, lo, &scaled, &scale, &beta);
        if (scaled)
            for (int r = lo; r < n; r++)
                a[r * n + i] = speed_reflector_scaled(a, i, lo, r, scale, beta);
        if (tau == 0.0f) continue;
        for (int j = lo; j < n; j++)
            v[j] = j == lo ? 1.0f : a[j * n + i];

        for (int r = lo; r < n; r++)
            x[r] = speed_reflector_image(a, v, tau, lo, r);
        const float alpha = speed_reflector_shift(x, v, tau, lo);
        for (int r = lo; r < n; r++)
            x[r] += alpha * v[r];
        for (int r = lo; r < n; r++)
            for (int c = lo; c < n; c++)
                a[r * n + c] = speed_reflector_update(a, x, v, r, c);
    }
    for (int i = 0; i < n; i++)
        d[i] = a[i * n + i];
    for (int i = 0; i < n - 1; i++)
        sd[i] = a[(i + 1) * n + i];
}

/* ---- implicit QR on the tridiagonal matrix ---- */

VQX_HOSTDEV static inline void speed_chop_subdiagonal(const float *d, float *sd, int n)
{
    for (int i = 0; i < n - 1; i++)
        if (fabsf(sd[i]) < SPEED_EIG_EPS * (fabsf(d[i]) + fabsf(d[i + 1])))
            sd[i] = 0.0f;
}

/* Eigenvalue of the trailing 2x2 block closest to its last entry. */
VQX_HOSTDEV static inline float speed_wilkinson_shift(const float *d, const float *sd, int n)
{
    const float ta = d[n - 2], tb = d[n - 1], tab = sd[n - 2];
    const float dt = (ta - tb) / 2.0;
    if (dt > 0)
        return tb - tab * (tab / (dt + speed_hypot(dt, tab)));
    if (dt == 0)
        return tb - fabsf(tab);
    return tb + tab * (tab / (-dt + speed_hypot(dt, tab)));
}

/* c, s with [c -s; s c]' [a; b] having a zero second entry. */
VQX_HOSTDEV static inline void speed_givens(float a, float b, float *c, float *s)
{
    if (b == 0) {
        *c = 1;
        *s = 0;
    } else if (fabsf(b) > fabsf(a)) {
        const float t = -a / b;
        const float s1 = 1.0 / sqrt((double)(1 + t * t));
        *s = s1;
        *c = s1 * t;
    } else {
        const float t = -b / a;
        const float c1 = 1.0 / sqrt((double)(1 + t * t));
        *c = c1;
        *s = c1 * t;
    }
}

/* One shifted QR sweep over the unreduced block d[0..n), sd[0..n-1),
 * chasing the bulge down with Givens rotations. */
VQX_HOSTDEV static inline void speed_qr_sweep(float *d, float *sd, int n)
{
    float mu = speed_wilkinson_shift(d, sd, n);
    if (SPEED_EIG_EPS * fabsf(mu) > fabsf(d[0]) + fabsf(sd[0]))
        mu = 0;

    float x = d[0] - mu, z = sd[0];
    float ap = d[0], bp = sd[0], aq = d[1];

    if (n == 2) {
        float c, s;
        speed_givens(x, z, &c, &s);
        const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        d[0] = ap1;
        sd[0] = bp1;
        d[1] = aq1;
        return;
    }

    float bq = sd[1];
    float bk = 0, zk = 0;
    for (int k = 0; k < n - 1; k++) {
        float c, s;
        speed_givens(x, z, &c, &s);

        const float bk1 = c * bk - s * zk;
        const float ap1 = c * (c * ap - s * bp) + s * (s * aq - c * bp);
        const float bp1 = c * (s * ap + c * bp) - s * (s * bp + c * aq);
        const float zp1 = -s * bq;
        const float aq1 = s * (s * ap + c * bp) + c * (s * bp + c * aq);
        const float bq1 = c * bq;

        bk = bp1;
        zk = zp1;
        ap = aq1;
        bp = bq1;
        if (k < n - 2) aq = d[k + 2];
        if (k < n - 3) bq = sd[k + 2];

        d[k] = ap1;
        if (k > 0) sd[k - 1] = bk1;
        if (k < n - 2) sd[k + 1] = bp;

        x = bk;
        z = zk;
    }
    d[n - 1] = ap;
    sd[n - 2] = bk;
}

/* Diagonalises in place: d ends as the eigenvalues. */
VQX_HOSTDEV static inline void speed_tridiagonal_eigenvalues(float *d, float *sd)
{
    const int n = SPEED_DIM;
    speed_chop_subdiagonal(d, sd, n);
    int b = n - 1;
    for (int sweeps = 0; b > 0 && sweeps < SPEED_EIG_MAX_SWEEPS;) {
        if (sd[b - 1] == 0.0f) {
            b--;
            continue;
        }
        int a = b - 1;
        while (a > 0 && sd[a - 1] != 0.0f)
            a--;
        speed_qr_sweep(d + a, sd + a, b - a + 1);
        speed_chop_subdiagonal(d + a, sd + a, b - a + 1);
        sweeps++;
    }
}

/* Eigenvalues of cov into eig (unsorted, as libvmaf uses them); scratch:
 * SPEED_EIGEN_SCRATCH floats. */
VQX_HOSTDEV static inline void speed_eigenvalues_of(const float *cov, float *eig, float *scratch)
{
    const int n = SPEED_DIM;
    float *a = scratch;
    float *d = a + n * n, *sd = d + n, *v = sd + n, *x = v + n;
    for (int i = 0; i < n * n; i++)
        a[i] = cov[i];
    speed_tridiagonalise(a, d, sd, v, x);
    speed_tridiagonal_eigenvalues(d, sd);
    for (int i = 0; i < n; i++)
        eig[i] = d[i];
}

/* Every eigenvalue at least 1e-6. */
VQX_HOSTDEV static inline bool speed_eigen_regular(const float *eig)
{
    for (int i = 0; i < SPEED_DIM; i++)
        if (eig[i] < SPEED_EIG_EPS) return false;
    return true;
}

/* ---- solve ---- */

/* Element (i, j) of a * b, a: SPEED_DIM x SPEED_DIM, b: SPEED_DIM rows of
 * `cols` (row step b_step), accumulated over k in order from 0. */
VQX_HOSTDEV static inline float speed_product_entry(const float *a, const float *b,
                                                    size_t b_step, int i, size_t j)
{
    float o = 0.0f;
    for (int k = 0; k < SPEED_DIM; k++)
        o += a[i * SPEED_DIM + k] * b[k * b_step + j];
    return o;
}

VQX_HOSTDEV static inline float speed_vector_norm(const float *v)
{
    float sum = 0;
    for (int i = 0; i < SPEED_DIM; i++)
        sum += v[i] * v[i];
    return speed_sqrt_via_double(sum);
}

/* Entry (i, j) of the working matrix z before step k: the identity on the
 * leading k rows and columns. */
VQX_HOSTDEV static inline bool speed_reflector_identity(int k, int i, int j)
{
    return i < k || j < k;
}

/* Step k's unit reflector vector v from column k of z (already the
 * identity on the leading k rows and columns); its sign follows the
 * diagonal of the original matrix, as libvmaf's does. */
VQX_HOSTDEV static inline void speed_reflector_vector(const float *z, const float *cov, int k,
                                                      float *v)
{
    for (int i = 0; i < SPEED_DIM; i++)
        v[i] = z[i * SPEED_DIM + k];
    v[k] += speed_sign(cov[k * SPEED_DIM + k]) * speed_vector_norm(v);
    const float len = speed_vector_norm(v);
    for (int i = 0; i < SPEED_DIM; i++)
        v[i] = v[i] / len;
}

/* Entry (i, j) of the reflector I - 2 v v'. */
VQX_HOSTDEV static inline float speed_reflector_entry(const float *v, int i, int j)
{
    float h = -2 * v[i] * v[j];
    if (i == j) h += 1;
    return h;
}

/* Every diagonal entry of R at least 1e-6 in magnitude. */
VQX_HOSTDEV static inline bool speed_pivots_regular(const float *r)
{
    for (int i = 0; i < SPEED_DIM; i++)
        if (fabsf(r[i * SPEED_DIM + i]) < SPEED_EIG_EPS) return false;
    return true;
}

/* One column of R x = Q b, rows from the bottom; qb and x: SPEED_DIM
 * entries `step` apart (R's pivots regular). */
VQX_HOSTDEV static inline void speed_back_substitute(const float *r, const float *qb, float *x,
                                                     size_t step)
{
    for (int i = SPEED_DIM - 1; i >= 0; i--) {
        float xi = qb[i * step];
        for (int k = i + 1; k < SPEED_DIM; k++)
            xi -= x[k * step] * r[i * SPEED_DIM + k];
        x[i * step] = xi / r[i * SPEED_DIM + i];
    }
}

/* One block's variance: sum over the offsets o in order of
 * x[o] * samples[o] / 25, entries `step` apart. */
VQX_HOSTDEV static inline float speed_block_variance(const float *x, const float *samples,
                                                     size_t step)
{
    const float denominator = SPEED_DIM;
    float v = (x[0] * samples[0]) / denominator;
    for (int o = 1; o < SPEED_DIM; o++)
        v += (x[o * step] * samples[o * step]) / denominator;
    return v;
}

#endif
