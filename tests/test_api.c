/*
 * Public API, end to end on the bundled sample pair: VMAF per frame is
 * readable as soon as the motion window allows (frame n once frame n+1 has
 * been sent), before the flush, and equals what the flush leaves; any thread
 * count gives the same doubles; errors come back as negative errno values
 * with a message.
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

int main(int argc, char **argv)
{
    const char *samples = argc > 1 ? argv[1] : "samples";
    test_live_scores(samples);
    test_picture_pool();
    test_errors();
    printf("%u passed, %u failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
