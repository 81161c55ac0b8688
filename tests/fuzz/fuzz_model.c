/*
 * libFuzzer harness for the model readers: the bytes as a JSON model file
 * (then a prediction from every model read) and as libsvm model text.
 * Any failure must come back as an error with a one-line reason.
 *
 *   clang -fsanitize=fuzzer,address,undefined -ffp-contract=off -Iinclude -Isrc \
 *       src/model/json_model.c src/model/svr.c src/model/svm.c \
 *       tests/fuzz/fuzz_model.c -ljansson -lm -o fuzz_model
 *   ./fuzz_model -max_len=65536 CORPUS_DIR tests/fuzz/corpus_model models
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/json_model.h"
#include "model/svm.h"
#include "model/svr.h"

static void predict_all(VqxModelSet *set)
{
    double inputs[VQX_SVR_MAX_FEATURES];
    for (unsigned i = 0; i < VQX_SVR_MAX_FEATURES; i++) inputs[i] = i % 3 ? 0.5 * i : 0.0;
    for (unsigned m = 0; m < set->n_models; m++) {
        VqxSvrModel *model = &set->models[m];
        for (unsigned i = 0; i < model->n_features; i++) model->features[i].input = i;
        volatile double score = vqx_svr_predict(model, inputs, false);
        score = vqx_svr_finish(model, vqx_svr_predict(model, inputs, true));
        (void)score;
    }
}

static void require_reason(const char *err)
{
    if (!err[0] || strchr(err, '\n')) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512];
    const unsigned flags = size ? data[size - 1] & 3 : 0;

    VqxModelSet set;
    err[0] = 0;
    if (vqx_json_model_read(&set, "fuzz", (const char *)data, size, flags, err, sizeof(err))) {
        require_reason(err);
    } else {
        predict_all(&set);
        vqx_model_set_free(&set);
    }

    VqxSvm svm;
    err[0] = 0;
    if (vqx_svm_parse(&svm, (const char *)data, size, 6, err, sizeof(err))) {
        require_reason(err);
    } else {
        const double x[6] = { 0.1, 0.2, 0.3, 0.4, 0.5, 0.6 };
        volatile double d = vqx_svm_decision(&svm, x);
        (void)d;
        vqx_svm_free(&svm);
    }
    return 0;
}
