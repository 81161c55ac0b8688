/*
 * Support vector regression as libsvm saves and evaluates it: the model text
 * (header, then one support vector per line) and the nu/epsilon-SVR decision
 * function with the RBF kernel.
 */
#ifndef VQX_MODEL_SVM_H
#define VQX_MODEL_SVM_H

#include <stddef.h>

typedef struct VqxSvm {
    double gamma;
    double rho;
    unsigned n_sv;
    unsigned dim;  /* features per vector */
    double *coef;  /* n_sv */
    double *sv;    /* n_sv * dim, dense: indices absent from the text are 0 */
} VqxSvm;

/* Parse libsvm model text of `len` bytes (not NUL-terminated) for vectors of
 * `dim` features. Only regression (nu_svr, epsilon_svr) with the rbf kernel
 * is accepted. On failure writes a one-line reason and leaves *svm empty. */
int vqx_svm_parse(VqxSvm *svm, const char *text, size_t len, unsigned dim,
                  char *err, size_t err_len);
void vqx_svm_free(VqxSvm *svm);

/* sum_i coef_i * exp(-gamma * |x - sv_i|^2) - rho, summed in libsvm's order. */
double vqx_svm_decision(const VqxSvm *svm, const double *x);

#endif
