/*
 * Core tests: option parsing and validation, key naming, pooling, the frame
 * pipeline (order of temporal features, identical results for any thread
 * count, merge, failures) and the output writers (JSON read back).
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "collector.h"
#include "context.h"
#include "options.h"
#include "vqx/vqx.h"

static unsigned n_pass, n_fail;

#define CHECK(cond) do { \
    if (cond) n_pass++; \
    else { n_fail++; fprintf(stderr, "%s:%d: FAIL: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

/* ---- a test extractor: per-frame mean of the distorted luma, plus a
 * temporal twin that emits, for frame n-1, the difference to frame n ---- */

typedef struct TestState {
    bool enable_extra;
    int level;
    double gain;
    const char *mode;
    double prev_mean;
    bool have_prev;
    unsigned frames_seen;
    unsigned last_frame;
    bool out_of_order;
    int fail_at;
} TestState;

static const char *const modes[] = { "fast", "exact", NULL };

static const VqxOption test_options[] = {
    { .name = "enable_extra", .alias = "ex", .type = VQX_OPT_BOOL,
      .offset = offsetof(TestState, enable_extra), .def.b = false, .flags = VQX_OPT_NAMES_KEY },
    { .name = "level", .alias = "lvl", .type = VQX_OPT_INT, .offset = offsetof(TestState, level),
      .def.i = 3, .min = 0, .max = 10, .flags = VQX_OPT_NAMES_KEY },
    { .name = "gain", .alias = "g", .type = VQX_OPT_DOUBLE, .offset = offsetof(TestState, gain),
      .def.d = 100.0, .min = 1.0, .max = DBL_MAX, .flags = VQX_OPT_NAMES_KEY },
    { .name = "mode", .type = VQX_OPT_STRING, .offset = offsetof(TestState, mode),
      .def.s = "fast", .choices = modes },
    { .name = "fail_at", .type = VQX_OPT_INT, .offset = offsetof(TestState, fail_at),
      .def.i = -1, .min = -1, .max = 1000 },
    { 0 }
};

static const char *const test_keys[] = { "VMAF_feature_motion_score", "test_extra", NULL };

static double luma_mean(const VqxPicture *p)
{
    double sum = 0;
    for (unsigned y = 0; y < p->h[0]; y++)
        for (unsigned x = 0; x < p->w[0]; x++)
            sum += ((const uint8_t *)p->data[0])[y * p->stride[0] + x];
    return sum / (p->w[0] * p->h[0]);
}

static int test_extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                        unsigned frame, VqxSink *sink)
{
    (void)ref;
    TestState *s = priv;
    if (s->fail_at == (int)frame) return vqx_fail(sink, -EINVAL, "refused frame %u", frame);
    s->frames_seen++;
    int err = vqx_emit(sink, 0, frame, luma_mean(dis) * s->gain / 100.0);
    if (s->enable_extra) err |= vqx_emit(sink, 1, frame, s->level);
    return err;
}

static void test_merge(void *into, const void *from)
{
    ((TestState *)into)->frames_seen += ((const TestState *)from)->frames_seen;
}

static int test_flush(void *priv, VqxSink *sink)
{
    const TestState *s = priv;
    return vqx_emit_aggregate(sink, "frames_seen", s->frames_seen);
}

static const VqxFeatureExtractor test_fex = {
    .name = "test_mean", .keys = test_keys, .options = test_options,
    .state_size = sizeof(TestState), .extract = test_extract, .merge = test_merge,
    .flush = test_flush,
};

static const char *const temporal_keys[] = { "VMAF_feature_motion2_score", NULL };

static int temporal_extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                            unsigned frame, VqxSink *sink)
{
    (void)ref;
    TestState *s = priv;
    if (s->have_prev && frame != s->last_frame + 1) s->out_of_order = true;
    const double mean = luma_mean(dis);
    int err = 0;
    if (s->have_prev) err = vqx_emit(sink, 0, frame - 1, fabs(mean - s->prev_mean));
    s->prev_mean = mean;
    s->have_prev = true;
    s->last_frame = frame;
    return err;
}

static int temporal_flush(void *priv, VqxSink *sink)
{
    const TestState *s = priv;
    if (s->out_of_order) return -EINVAL;
    return s->have_prev ? vqx_emit(sink, 0, s->last_frame, 0.0) : 0;
}

static const VqxFeatureExtractor temporal_fex = {
    .name = "test_delta", .flags = VQX_FEX_TEMPORAL, .keys = temporal_keys,
    .options = test_options, .state_size = sizeof(TestState),
    .extract = temporal_extract, .flush = temporal_flush,
};

/* A collect extractor: extract of frame n finds mean(ref n) - mean(ref
 * n - 1) + mean(dis n) - mean(dis n - 2) from the pictures the core kept
 * (each term where its frame exists); collect, in frame order, writes the
 * running sum of these. */
static const char *const back_keys[] = { "test_back_sum", NULL };

static int back_extract(void *priv, const VqxPicture *ref, const VqxPicture *dis,
                        unsigned frame, VqxSink *sink)
{
    (void)dis;
    const TestState *s = priv;
    if (s->fail_at >= 0 && frame == (unsigned)s->fail_at) return vqx_fail(sink, -EINVAL, "refused");
    /* only what the table declares, and only frames that exist */
    if (vqx_earlier_picture(sink, 3, false) || vqx_earlier_picture(sink, 0, false) ||
        (frame < 2) != !vqx_earlier_picture(sink, 2, true))
        return -EFAULT;
    /* odd frames late: the next frame's task may finish first */
    if (frame % 2) nanosleep(&(struct timespec){ .tv_nsec = 200000 }, NULL);
    double *delta = vqx_result(sink);
    if (frame >= 1) *delta = luma_mean(ref) - luma_mean(vqx_earlier_picture(sink, 1, false));
    if (frame >= 2) *delta += luma_mean(dis) - luma_mean(vqx_earlier_picture(sink, 2, true));
    return 0;
}

static int back_collect(void *priv, const void *result, unsigned frame, VqxSink *sink)
{
    TestState *s = priv;
    if (s->have_prev ? frame != s->last_frame + 1 : frame != 0) s->out_of_order = true;
    s->have_prev = true;
    s->last_frame = frame;
    s->prev_mean += *(const double *)result;
    return vqx_emit(sink, 0, frame, s->prev_mean);
}

static int back_flush(void *priv, VqxSink *sink)
{
    (void)sink;
    return ((const TestState *)priv)->out_of_order ? -EINVAL : 0;
}

static const VqxFeatureExtractor back_fex = {
    .name = "test_back", .keys = back_keys, .options = test_options,
    .state_size = sizeof(TestState), .pictures_before = 2, .result_size = sizeof(double),
    .extract = back_extract, .collect = back_collect, .flush = back_flush,
};

/* ---- options and key names ---- */

static void test_option_parsing(void)
{
    TestState s;
    char err[256];
    char kv1[] = "level=7:g=2.5:ex=true:mode=exact";
    CHECK(vqx_options_apply(&test_fex, &s, kv1, err, sizeof(err)) == 0);
    CHECK(s.level == 7 && s.gain == 2.5 && s.enable_extra && !strcmp(s.mode, "exact"));

    char suffix[128];
    vqx_options_key_suffix(&test_fex, &s, suffix, sizeof(suffix));
    /* sorted by option name: enable_extra, gain, level; mode does not name keys */
    CHECK(!strcmp(suffix, "_ex_g_2.5_lvl_7"));

    char kv2[] = "";
    CHECK(vqx_options_apply(&test_fex, &s, kv2, err, sizeof(err)) == 0);
    CHECK(s.level == 3 && s.gain == 100.0 && !s.enable_extra && !strcmp(s.mode, "fast"));
    vqx_options_key_suffix(&test_fex, &s, suffix, sizeof(suffix));
    CHECK(!strcmp(suffix, ""));

    char bad_name[] = "levle=3";
    CHECK(vqx_options_apply(&test_fex, &s, bad_name, err, sizeof(err)) == -EINVAL);
    CHECK(strstr(err, "unknown option 'levle'") && strstr(err, "level"));
    char out_of_range[] = "level=11";
    CHECK(vqx_options_apply(&test_fex, &s, out_of_range, err, sizeof(err)) == -ERANGE);
    CHECK(strstr(err, "level") && strstr(err, "[0, 10]"));
    char not_a_number[] = "gain=1.0x";
    CHECK(vqx_options_apply(&test_fex, &s, not_a_number, err, sizeof(err)) == -ERANGE);
    char bad_bool[] = "ex=yes";
    CHECK(vqx_options_apply(&test_fex, &s, bad_bool, err, sizeof(err)) == -EINVAL);
    char bad_choice[] = "mode=slow";
    CHECK(vqx_options_apply(&test_fex, &s, bad_choice, err, sizeof(err)) == -EINVAL);
    CHECK(strstr(err, "fast, exact"));
    char no_value[] = "level";
    CHECK(vqx_options_apply(&test_fex, &s, no_value, err, sizeof(err)) == -EINVAL);

    CHECK(!strcmp(vqx_key_alias("VMAF_integer_feature_adm2_score"), "integer_adm2"));
    CHECK(!strcmp(vqx_key_alias("psnr_y"), "psnr_y"));
}

/* ---- key order ---- */

/* Keys are listed by their earliest write, whatever order the writes come
 * in (threads), unwritten ones last. */
static void test_key_order(void)
{
    VqxCollector c;
    CHECK(vqx_collector_init(&c) == 0);
    unsigned a, b, unwritten;
    CHECK(vqx_collector_key(&c, "a", &a) == 0);
    CHECK(vqx_collector_key(&c, "unwritten", &unwritten) == 0);
    CHECK(vqx_collector_key(&c, "b", &b) == 0);
    CHECK(vqx_collector_put(&c, a, 3, 1.0, (VqxWriteStamp){ 3, 0, 0 }) == 0);
    CHECK(vqx_collector_put(&c, b, 1, 1.0, (VqxWriteStamp){ 1, 2, 0 }) == 0);
    CHECK(!strcmp(vqx_collector_listed_name(&c, 0), "b"));
    CHECK(!strcmp(vqx_collector_listed_name(&c, 1), "a"));
    CHECK(!strcmp(vqx_collector_listed_name(&c, 2), "unwritten"));
    CHECK(vqx_collector_listed_name(&c, 3) == NULL);
    /* frame 1 of `a` arrives late, from an earlier extractor */
    CHECK(vqx_collector_put(&c, a, 1, 1.0, (VqxWriteStamp){ 1, 1, 5 }) == 0);
    CHECK(!strcmp(vqx_collector_listed_name(&c, 0), "a"));
    CHECK(!strcmp(vqx_collector_listed_name(&c, 1), "b"));
    vqx_collector_truncate(&c, 2);
    CHECK(!strcmp(vqx_collector_listed_name(&c, 0), "a"));
    CHECK(!strcmp(vqx_collector_listed_name(&c, 1), "unwritten"));
    CHECK(vqx_collector_listed_name(&c, 2) == NULL);
    vqx_collector_free(&c);
}

/* ---- pooling ---- */

static void test_pooling(void)
{
    VqxCollector c;
    CHECK(vqx_collector_init(&c) == 0);
    unsigned id;
    CHECK(vqx_collector_key(&c, "k", &id) == 0);
    const double v[4] = { 1.0, 3.0, 2.0, 6.0 };
    for (unsigned i = 0; i < 4; i++) vqx_collector_put(&c, id, i, v[i], (VqxWriteStamp){ i, 0, 0 });
    double r;
    CHECK(vqx_collector_pool(&c, id, VQX_POOL_MIN, 0, 3, 0, &r) == 0 && r == 1.0);
    CHECK(vqx_collector_pool(&c, id, VQX_POOL_MAX, 0, 3, 0, &r) == 0 && r == 6.0);
    CHECK(vqx_collector_pool(&c, id, VQX_POOL_MEAN, 0, 3, 0, &r) == 0 && r == 3.0);
    /* libvmaf's harmonic mean: n / sum(1 / (x + 1)) - 1 */
    const double hm = 4.0 / (1 / 2.0 + 1 / 4.0 + 1 / 3.0 + 1 / 7.0) - 1.0;
    CHECK(vqx_collector_pool(&c, id, VQX_POOL_HARMONIC_MEAN, 0, 3, 0, &r) == 0 && r == hm);
    /* subsample 2 keeps frames 0 and 2 */
    CHECK(vqx_collector_pool(&c, id, VQX_POOL_MEAN, 0, 3, 2, &r) == 0 && r == 1.5);
    CHECK(vqx_collector_pool(&c, id, VQX_POOL_MEAN, 0, 4, 0, &r) == -EAGAIN);
    vqx_collector_free(&c);
}

/* ---- pipeline ---- */

static void fill_frame(VqxPicture *p, unsigned seed)
{
    vqx_picture_alloc(p, VQX_PIX_420, 8, 17, 9);
    for (unsigned pl = 0; pl < 3; pl++)
        for (unsigned y = 0; y < p->h[pl]; y++)
            for (unsigned x = 0; x < p->w[pl]; x++)
                ((uint8_t *)p->data[pl])[y * p->stride[pl] + x] = (uint8_t)((seed * 37 + x * 11 + y * 5) & 255);
}

static VqxContext *run_pipeline(unsigned threads, unsigned frames, const char *opts, int *flush_ret)
{
    VqxSettings st;
    vqx_default_settings(&st);
    st.n_threads = threads;
    VqxContext *ctx;
    if (vqx_open(&ctx, &st)) return NULL;
    unsigned a, b;
    vqx_ctx_request_feature(ctx, &test_fex, opts, &a);
    vqx_ctx_request_feature(ctx, &temporal_fex, NULL, &b);
    for (unsigned i = 0; i < frames; i++) {
        VqxPicture r, d;
        fill_frame(&r, i);
        fill_frame(&d, i * i);
        vqx_send_pictures(ctx, &r, &d);
    }
    *flush_ret = vqx_flush(ctx);
    return ctx;
}

static void test_pipeline(void)
{
    const unsigned n = 23;
    int ret0, ret3;
    VqxContext *c0 = run_pipeline(0, n, "ex=true", &ret0);
    VqxContext *c3 = run_pipeline(3, n, "ex=true", &ret3);
    CHECK(c0 && c3 && ret0 == 0 && ret3 == 0);
    CHECK(vqx_frame_count(c3) == n);
    CHECK(vqx_frames_complete(c3) == n);
    bool same = true;
    for (unsigned i = 0; i < n; i++) {
        double a, b, ta, tb;
        same &= vqx_score_at(c0, "motion_ex", i, &a) == 0 && vqx_score_at(c3, "motion_ex", i, &b) == 0 && a == b;
        same &= vqx_score_at(c0, "motion2", i, &ta) == 0 && vqx_score_at(c3, "motion2", i, &tb) == 0 && ta == tb;
    }
    CHECK(same);
    double extra;
    CHECK(vqx_score_at(c3, "test_extra_ex", 5, &extra) == 0 && extra == 3.0);
    CHECK(vqx_score_at(c3, "motion", 0, &extra) == -ENOENT);

    /* merge folded every instance before flush */
    FILE *f = tmpfile();
    const VqxOutputSettings os = { .format = VQX_OUTPUT_JSON, .precision = VQX_PRECISION_MAX, .fps = 12.5 };
    CHECK(vqx_write_output(c3, f, &os) == 0);
    rewind(f);
    json_error_t jerr;
    json_t *root = json_loadf(f, 0, &jerr);
    fclose(f);
    CHECK(root != NULL);
    if (root) {
        json_t *frames = json_object_get(root, "frames");
        CHECK(json_array_size(frames) == n);
        json_t *m7 = json_object_get(json_array_get(frames, 7), "metrics");
        double v7;
        vqx_score_at(c3, "motion_ex", 7, &v7);
        CHECK(json_number_value(json_object_get(m7, "motion_ex")) == v7);
        json_t *agg = json_object_get(json_object_get(root, "aggregate_metrics"), "frames_seen");
        CHECK(json_number_value(agg) == n);
        json_t *pooled = json_object_get(json_object_get(root, "pooled_metrics"), "motion2");
        double mean;
        vqx_score_pooled(c3, "motion2", VQX_POOL_MEAN, 0, n - 1, &mean);
        CHECK(json_number_value(json_object_get(pooled, "mean")) == mean);
        CHECK(json_number_value(json_object_get(root, "fps")) == 12.5);
        json_decref(root);
    }
    vqx_close(&c0);
    vqx_close(&c3);

    /* a failing feature reports the frame; the other keeps its results */
    int ret;
    VqxContext *cf = run_pipeline(2, 8, "fail_at=4", &ret);
    CHECK(ret == -EINVAL);
    CHECK(strstr(vqx_last_error(cf), "frame 4") && strstr(vqx_last_error(cf), "refused frame 4"));
    double v;
    CHECK(vqx_score_at(cf, "motion2", 6, &v) == 0);
    vqx_close(&cf);
}

static int run_back(unsigned threads, unsigned frames, const char *opts, VqxContext **ctx)
{
    VqxSettings st;
    vqx_default_settings(&st);
    st.n_threads = threads;
    if (vqx_open(ctx, &st)) return -ENOMEM;
    unsigned id;
    int ret = vqx_ctx_request_feature(*ctx, &back_fex, opts, &id);
    for (unsigned i = 0; !ret && i < frames; i++) {
        VqxPicture r, d;
        fill_frame(&r, i * 7);
        fill_frame(&d, i);
        ret = vqx_send_pictures(*ctx, &r, &d);
    }
    return ret ? ret : vqx_flush(*ctx);
}

/* Earlier pictures kept for an extract, and collect's order, whatever the
 * threads and however few the frames. */
static void test_collect(void)
{
    const unsigned threads[] = { 0, 1, 2, 4 }, lengths[] = { 1, 2, 3, 23, 300 };
    for (unsigned t = 0; t < 4; t++) {
        for (unsigned l = 0; l < 5; l++) {
            VqxContext *ctx = NULL;
            const int ret = run_back(threads[t], lengths[l], NULL, &ctx);
            CHECK(ret == 0);
            CHECK(vqx_frames_complete(ctx) == lengths[l]);
            double want = 0.0;
            bool same = true;
            for (unsigned i = 0; i < lengths[l]; i++) {
                double delta = 0.0;
                for (unsigned back = 1; back <= 2 && back <= i; back++) {
                    VqxPicture a, b;
                    fill_frame(&a, back == 1 ? i * 7 : i);
                    fill_frame(&b, back == 1 ? (i - 1) * 7 : i - 2);
                    delta += luma_mean(&a) - luma_mean(&b);
                    vqx_picture_free(&a);
                    vqx_picture_free(&b);
                }
                want += delta;
                double v;
                same &= vqx_score_at(ctx, "test_back_sum", i, &v) == 0 && v == want;
            }
            if (!same) fprintf(stderr, "test_back: %u threads, %u frames\n", threads[t], lengths[l]);
            CHECK(same);
            vqx_close(&ctx);
        }
    }
    /* a failed frame stops collect there; the frames before it keep their values */
    VqxContext *ctx = NULL;
    CHECK(run_back(2, 12, "fail_at=5", &ctx) == -EINVAL);
    CHECK(strstr(vqx_last_error(ctx), "test_back: frame 5: refused"));
    double v;
    CHECK(vqx_score_at(ctx, "test_back_sum", 4, &v) == 0);
    CHECK(vqx_score_at(ctx, "test_back_sum", 5, &v) == -EAGAIN);
    CHECK(vqx_score_at(ctx, "test_back_sum", 9, &v) == -EAGAIN);
    vqx_close(&ctx);
}

static void test_mismatch(void)
{
    VqxContext *ctx;
    CHECK(vqx_open(&ctx, NULL) == 0);
    unsigned a;
    vqx_ctx_request_feature(ctx, &test_fex, NULL, &a);
    VqxPicture r, d;
    fill_frame(&r, 1);
    vqx_picture_alloc(&d, VQX_PIX_420, 10, 17, 9);
    CHECK(vqx_send_pictures(ctx, &r, &d) == -EINVAL);
    CHECK(strstr(vqx_last_error(ctx), "10-bit") != NULL);
    vqx_picture_free(&r);
    vqx_picture_free(&d);
    CHECK(vqx_use_feature(ctx, "no_such_feature", NULL) == -EINVAL);
    CHECK(strstr(vqx_last_error(ctx), "psnr") != NULL);
    vqx_close(&ctx);
}

static void test_output_formats(void)
{
    int ret;
    VqxContext *ctx = run_pipeline(0, 3, NULL, &ret);
    char *buf;
    size_t len;
    const enum VqxOutputFormat fmts[] = { VQX_OUTPUT_XML, VQX_OUTPUT_CSV, VQX_OUTPUT_SUB };
    const char *expect[] = { "<frame frameNum=\"2\" motion=\"", "Frame,motion,motion2,\n0,", "{1}{2}frame: 1|motion: " };
    for (unsigned i = 0; i < 3; i++) {
        FILE *f = open_memstream(&buf, &len);
        const VqxOutputSettings os = { .format = fmts[i], .precision = VQX_PRECISION_LIBVMAF };
        CHECK(vqx_write_output(ctx, f, &os) == 0);
        fclose(f);
        CHECK(strstr(buf, expect[i]) != NULL);
        free(buf);
    }
    vqx_close(&ctx);
}

int main(void)
{
    test_option_parsing();
    test_key_order();
    test_pooling();
    test_pipeline();
    test_collect();
    test_mismatch();
    test_output_formats();
    printf("%u passed, %u failed\n", n_pass, n_fail);
    return n_fail ? 1 : 0;
}
