/*
 * Public API, end to end on the bundled sample pair: VMAF per frame is
 * readable as soon as the motion window allows (frame n once frame n+1 has
 * been sent), before the flush, and equals what the flush leaves; any thread
 * count gives the same doubles; errors come back as negative errno values
 * with a message. The temporal window (vqx_frames_needed) is the widest of
 * the features requested, and a stream imported into a second context
 * (vqx_import_stream) pools and predicts as the first.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "io/input.h"
#include "vqx/vqx.h"

static unsigned n_pass, n_fail;

#define CHECK(cond) do { \
    if (cond) n_pass++; \
    else { n_fail++; fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

#define MAX_FRAMES 16

typedef struct Run {
    unsigned n_frames;
    double live[MAX_FRAMES];     /* VMAF read before the flush */
    double final[MAX_FRAMES];    /* after the flush */
    unsigned complete_after[MAX_FRAMES]; /* vqx_frames_complete after sending frame i */
} Run;

static int score_sample(const char *dir, unsigned threads, Run *run)
{
    char ref_path[512], dis_path[512], err[256];
    snprintf(ref_path, sizeof(ref_path), "%s/city_ref_320x180.y4m", dir);
    snprintf(dis_path, sizeof(dis_path), "%s/city_x264_100k_320x180.y4m", dir);
    VqxInput *ref = NULL, *dis = NULL;
    if (vqx_input_open(&ref, ref_path, NULL, err, sizeof(err)) ||
        vqx_input_open(&dis, dis_path, NULL, err, sizeof(err))) {
        fprintf(stderr, "%s\n", err);
        return -1;
    }
    VqxSettings s;
    vqx_default_settings(&s);
    s.n_threads = threads;
    VqxContext *ctx;
    int ret = vqx_open(&ctx, &s);
    if (!ret) ret = vqx_use_model(ctx, "version=vmaf_v0.6.1");
    memset(run, 0, sizeof(*run));
    VqxPicture pr = { 0 }, pd = { 0 };
    while (!ret && run->n_frames < MAX_FRAMES &&
           vqx_input_read(ref, &pr, NULL, err, sizeof(err)) == 1) {
        if (vqx_input_read(dis, &pd, NULL, err, sizeof(err)) != 1) {
            vqx_picture_free(&pr);
            break;
        }
        ret = vqx_send_pictures(ctx, &pr, &pd);
        const unsigned n = run->n_frames++;
        if (!threads) {
            run->complete_after[n] = vqx_frames_complete(ctx);
            if (n > 0) ret |= vqx_score_at(ctx, "vmaf", n - 1, &run->live[n - 1]);
        }
    }
    if (!ret) ret = vqx_flush(ctx);
    for (unsigned i = 0; !ret && i < run->n_frames; i++)
        ret = vqx_score_at(ctx, "vmaf", i, &run->final[i]);
    vqx_close(&ctx);
    vqx_input_close(&ref);
    vqx_input_close(&dis);
    return ret;
}

static void test_live_scores(const char *dir)
{
    Run single, pooled;
    CHECK(score_sample(dir, 0, &single) == 0);
    CHECK(score_sample(dir, 2, &pooled) == 0);
    CHECK(single.n_frames == 5 && pooled.n_frames == 5);
    for (unsigned i = 0; i + 1 < single.n_frames; i++) {
        /* frame i is final once frame i + 1 is in: motion2 needs it */
        CHECK(single.complete_after[i + 1] == i + 1);
        CHECK(single.live[i] == single.final[i]);
    }
    CHECK(single.complete_after[0] == 0);
    for (unsigned i = 0; i < single.n_frames; i++) {
        CHECK(single.final[i] == pooled.final[i]);
        CHECK(single.final[i] > 0.0 && single.final[i] < 100.0);
    }
}

/* With no worker threads a frame is done when it is sent: its buffers come
 * back from the context's pool for the next frame. */
static void test_picture_pool(void)
{
    VqxContext *ctx;
    CHECK(vqx_open(&ctx, NULL) == 0);
    CHECK(vqx_use_feature(ctx, "psnr", NULL) == 0);
    void *first[2] = { NULL, NULL };
    bool reused = true;
    for (unsigned i = 0; i < 4; i++) {
        VqxPicture ref, dis;
        CHECK(vqx_picture_alloc_from(ctx, &ref, VQX_PIX_420, 10, 33, 17) == 0);
        CHECK(vqx_picture_alloc_from(ctx, &dis, VQX_PIX_420, 10, 33, 17) == 0);
        for (unsigned p = 0; p < 3; p++) {
            for (unsigned y = 0; y < ref.h[p]; y++) {
                memset((char *)ref.data[p] + y * ref.stride[p], 0, 2 * ref.w[p]);
                memset((char *)dis.data[p] + y * dis.stride[p], 1, 2 * dis.w[p]);
            }
        }
        if (!i) {
            first[0] = ref.buf;
            first[1] = dis.buf;
        } else {
            reused &= (ref.buf == first[0] || ref.buf == first[1]) &&
                      (dis.buf == first[0] || dis.buf == first[1]);
        }
        CHECK(vqx_send_pictures(ctx, &ref, &dis) == 0);
    }
    CHECK(reused);
    CHECK(vqx_flush(ctx) == 0);
    double v;
    CHECK(vqx_score_at(ctx, "psnr_y", 3, &v) == 0 && v > 0);
    /* another geometry gets a fresh buffer */
    VqxPicture other;
    CHECK(vqx_picture_alloc_from(ctx, &other, VQX_PIX_444, 8, 8, 8) == 0);
    CHECK(other.buf != first[0] && other.buf != first[1]);
    vqx_picture_free(&other);
    vqx_close(&ctx);
}

static void test_errors(void)
{
    VqxContext *ctx;
    CHECK(vqx_open(&ctx, NULL) == 0);
    CHECK(vqx_use_model(ctx, "version=no_such_model") < 0);
    CHECK(strstr(vqx_last_error(ctx), "vmaf_v0.6.1") != NULL);
    CHECK(vqx_use_model(ctx, "path=/no/such/model.json") < 0);
    CHECK(strstr(vqx_last_error(ctx), "/no/such/model.json") != NULL);
    CHECK(vqx_use_feature(ctx, "psnr", "enable_mse=maybe") == -EINVAL);
    CHECK(vqx_score_at(ctx, "psnr_y", 0, &(double){ 0 }) == -EAGAIN ||
          vqx_score_at(ctx, "psnr_y", 0, &(double){ 0 }) == -ENOENT);
    VqxPicture bad = { 0 };
    CHECK(vqx_picture_alloc(&bad, VQX_PIX_420, 17, 16, 16) == -EINVAL);
    CHECK(vqx_picture_alloc(&bad, VQX_PIX_420, 8, 0, 16) == -EINVAL);
    vqx_close(&ctx);

    VqxSettings s;
    vqx_default_settings(&s);
    s.backend = VQX_BACKEND_CUDA;
    /* not built in, or no device: a clear error; with a device it opens */
    const int ret = vqx_open(&ctx, &s);
    CHECK(ret == 0 || ret == -ENOTSUP || ret == -ENODEV);
    CHECK(ret == 0 || strstr(vqx_last_error(ctx), "backend cuda: ") != NULL);
    vqx_close(&ctx);
}

/* The window of a context with these features and models. */
static void check_window(const char *feature, const char *model, unsigned before, unsigned after)
{
    VqxContext *ctx;
    unsigned b = 99, a = 99;
    CHECK(vqx_open(&ctx, NULL) == 0);
    if (feature) CHECK(vqx_use_feature(ctx, feature, NULL) == 0);
    if (model) CHECK(vqx_use_model(ctx, model) == 0);
    CHECK(vqx_frames_needed(ctx, &b, &a) == 0);
    CHECK(b == before && a == after);
    vqx_close(&ctx);
}

static void test_frames_needed(void)
{
    check_window(NULL, NULL, 0, 0);
    check_window("psnr", NULL, 0, 0);
    check_window("float_motion", NULL, 1, 1);
    check_window("speed_temporal", NULL, 1, 0);
    /* integer motion's widest: the five-frame window with the moving average */
    check_window("motion", NULL, 4, 2);
    check_window(NULL, "version=vmaf_v0.6.1", 4, 2);
    check_window("speed_temporal", "version=vmaf_float_v0.6.1", 1, 1);
    CHECK(vqx_frames_needed(NULL, &(unsigned){ 0 }, &(unsigned){ 0 }) == -EINVAL);
}

/* The sample scored by frames, then its feature values imported into a
 * second context: the models' scores and every pooled value are the same
 * doubles, and the imported context takes no pictures. */
static void test_import_stream(const char *dir)
{
    char ref_path[512], dis_path[512], err[256];
    snprintf(ref_path, sizeof(ref_path), "%s/city_ref_320x180.y4m", dir);
    snprintf(dis_path, sizeof(dis_path), "%s/city_x264_100k_320x180.y4m", dir);
    VqxInput *ref = NULL, *dis = NULL;
    VqxContext *run = NULL, *merged = NULL;
    CHECK(vqx_input_open(&ref, ref_path, NULL, err, sizeof(err)) == 0);
    CHECK(vqx_input_open(&dis, dis_path, NULL, err, sizeof(err)) == 0);
    CHECK(vqx_open(&run, NULL) == 0);
    CHECK(vqx_use_model(run, "version=vmaf_v0.6.1") == 0);
    VqxPicture pr = { 0 }, pd = { 0 };
    while (ref && dis && vqx_input_read(ref, &pr, NULL, err, sizeof(err)) == 1) {
        CHECK(vqx_input_read(dis, &pd, NULL, err, sizeof(err)) == 1);
        CHECK(vqx_send_pictures(run, &pr, &pd) == 0);
    }
    CHECK(vqx_flush(run) == 0);
    const unsigned n = vqx_frame_count(run);
    CHECK(n == 5);

    CHECK(vqx_open(&merged, NULL) == 0);
    CHECK(vqx_use_model(merged, "version=vmaf_v0.6.1") == 0);
    CHECK(vqx_import_aggregate(merged, "apsnr_y", 50.0) == -EINVAL);
    CHECK(vqx_import_backend(merged, 0, VQX_BACKEND_CUDA) == -EINVAL);
    CHECK(vqx_import_stream(merged, VQX_PIX_420, 8, 0, 180, n) == -EINVAL);
    CHECK(vqx_import_stream(merged, VQX_PIX_420, 8, 320, 180, n) == 0);
    CHECK(vqx_import_stream(merged, VQX_PIX_420, 8, 320, 180, n) == -EINVAL);
    CHECK(vqx_use_feature(merged, "psnr", NULL) == -EINVAL);
    CHECK(vqx_import_aggregate(merged, "apsnr_y", 50.0) == 0);
    CHECK(vqx_aggregate_count(merged) == 1 && vqx_aggregate_value(merged, 0) == 50.0);
    CHECK(vqx_import_backend(merged, vqx_run_feature_count(merged), VQX_BACKEND_CPU) == -EINVAL);
    CHECK(vqx_import_backend(merged, 0, VQX_BACKEND_CUDA) == 0);
    CHECK(!strcmp(vqx_run_feature_backend(merged, 0), "cuda"));
    for (unsigned k = 0; k < vqx_key_count(run); k++) {
        const char *key = vqx_key_name(run, k);
        if (!strcmp(key, "vmaf")) continue; /* the model's, predicted at the flush */
        double v;
        for (unsigned i = 0; i < n; i++) /* keys of debug outputs have none */
            if (!vqx_score_at(run, key, i, &v)) CHECK(vqx_import_score(merged, key, i, v) == 0);
    }
    VqxPicture p1, p2;
    CHECK(vqx_picture_alloc(&p1, VQX_PIX_420, 8, 320, 180) == 0);
    CHECK(vqx_picture_alloc(&p2, VQX_PIX_420, 8, 320, 180) == 0);
    CHECK(vqx_send_pictures(merged, &p1, &p2) == -EINVAL);
    vqx_picture_free(&p1);
    vqx_picture_free(&p2);
    CHECK(vqx_flush(merged) == 0);
    CHECK(vqx_frame_count(merged) == n && vqx_key_count(merged) == vqx_key_count(run));
    unsigned written = 0;
    for (unsigned k = 0; k < vqx_key_count(run); k++) {
        const char *key = vqx_key_name(run, k);
        CHECK(!strcmp(key, vqx_key_name(merged, k)));
        double a = 0, b = 1;
        if (vqx_score_at(run, key, 0, &a)) {
            CHECK(vqx_score_at(merged, key, 0, &b) == -EAGAIN);
            continue;
        }
        written++;
        for (unsigned i = 0; i < n; i++) {
            CHECK(vqx_score_at(run, key, i, &a) == 0 && vqx_score_at(merged, key, i, &b) == 0);
            CHECK(memcmp(&a, &b, sizeof(a)) == 0);
        }
        for (int m = VQX_POOL_MIN; m <= VQX_POOL_HARMONIC_MEAN; m++) {
            CHECK(vqx_score_pooled(run, key, (enum VqxPool)m, 0, n - 1, &a) == 0);
            CHECK(vqx_score_pooled(merged, key, (enum VqxPool)m, 0, n - 1, &b) == 0);
            CHECK(memcmp(&a, &b, sizeof(a)) == 0);
        }
    }
    CHECK(written >= 7); /* vmaf and its six features */
    vqx_close(&run);
    vqx_close(&merged);
    vqx_input_close(&ref);
    vqx_input_close(&dis);
}

int main(int argc, char **argv)
{
    const char *samples = argc > 1 ? argv[1] : "samples";
    test_live_scores(samples);
    test_picture_pool();
    test_errors();
    test_frames_needed();
    test_import_stream(samples);
    printf("%u passed, %u failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
