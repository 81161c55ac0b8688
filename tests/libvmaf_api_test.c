/*
 * The libvmaf 3.2 public API driven in the orders FFmpeg's vf_libvmaf.c uses
 * (FFmpeg 5.1 and FFmpeg 8), on a raw clip pair, plus the API's error paths.
 *
 *   libvmaf_api_test ffmpeg8|ffmpeg51 REF DIS W H 420|422|444 BPC MODEL_DIR
 *                    [--threads N] [--subsample N] [--log PATH]
 *   libvmaf_api_test errors MODEL_DIR
 *
 * The ffmpeg modes print, with %.17g so that the doubles are exact,
 *   frame INDEX NAME VALUE        every scored frame of every model and of a
 *                                 few features (vmaf_score_at_index,
 *                                 vmaf_feature_score_at_index, collection)
 *   pooled NAME METHOD VALUE      vmaf_score_pooled for each pool method
 * and write the log (vmaf_write_output, JSON) to --log; a wrapper
 * (libvmaf_api_test.py) compares them with the golden values.  Any API call
 * that fails prints "FAIL ..." and the exit status is 1.
 *
 * The errors mode asserts what libvmaf 3.2 does on bad input (see
 * check_errors) and prints one "ok"/"FAIL" line per check.
 *
 * Only <libvmaf/libvmaf.h> is used.  Clean under -fsanitize=address,undefined.
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libvmaf/libvmaf.h>

static int failures;

#define CHECK(cond, ...) do { \
        if (cond) { printf("ok   "); } else { printf("FAIL "); failures++; } \
        printf(__VA_ARGS__); printf("\n"); \
    } while (0)

#define MUST(call) do { \
        int must_err_ = (call); \
        if (must_err_) { \
            printf("FAIL %s:%d: %s returned %d\n", __FILE__, __LINE__, #call, must_err_); \
            exit(1); \
        } \
    } while (0)

static const char *pool_name[] = {
    [VMAF_POOL_METHOD_MIN] = "min", [VMAF_POOL_METHOD_MAX] = "max",
    [VMAF_POOL_METHOD_MEAN] = "mean", [VMAF_POOL_METHOD_HARMONIC_MEAN] = "harmonic_mean",
};

typedef struct Clip {
    FILE *f;
    unsigned w, h, bpc;
    enum VmafPixelFormat fmt;
    size_t frame_bytes, plane_w[3], plane_h[3];   /* the file's planes (ceil chroma) */
    unsigned char *buf;
} Clip;

static int clip_open(Clip *c, const char *path, unsigned w, unsigned h, const char *fmt,
                     unsigned bpc)
{
    memset(c, 0, sizeof(*c));
    c->w = w; c->h = h; c->bpc = bpc;
    if (!strcmp(fmt, "420")) c->fmt = VMAF_PIX_FMT_YUV420P;
    else if (!strcmp(fmt, "422")) c->fmt = VMAF_PIX_FMT_YUV422P;
    else if (!strcmp(fmt, "444")) c->fmt = VMAF_PIX_FMT_YUV444P;
    else return -EINVAL;
    const unsigned ss_x = c->fmt != VMAF_PIX_FMT_YUV444P, ss_y = c->fmt == VMAF_PIX_FMT_YUV420P;
    c->plane_w[0] = w; c->plane_h[0] = h;
    c->plane_w[1] = c->plane_w[2] = (w + ss_x) >> ss_x;
    c->plane_h[1] = c->plane_h[2] = (h + ss_y) >> ss_y;
    const size_t bytes = bpc > 8 ? 2 : 1;
    for (int i = 0; i < 3; i++) c->frame_bytes += c->plane_w[i] * c->plane_h[i] * bytes;
    c->buf = malloc(c->frame_bytes);
    c->f = fopen(path, "rb");
    if (!c->f || !c->buf) {
        fprintf(stderr, "cannot open %s\n", path);
        return -EIO;
    }
    return 0;
}

static void clip_close(Clip *c)
{
    if (c->f) fclose(c->f);
    free(c->buf);
}

/* The next frame into a picture allocated the way FFmpeg does (vmaf_picture_alloc, then
 * the planes copied row by row into pic->stride rows of pic->w samples); 1 at the end. */
static int clip_read(Clip *c, VmafPicture *pic)
{
    if (fread(c->buf, 1, c->frame_bytes, c->f) != c->frame_bytes) return 1;
    MUST(vmaf_picture_alloc(pic, c->fmt, c->bpc, c->w, c->h));
    const size_t bytes = c->bpc > 8 ? 2 : 1;
    const unsigned char *src = c->buf;
    for (int i = 0; i < 3; i++) {
        for (unsigned y = 0; y < pic->h[i]; y++) {
            const unsigned char *s = src + y * c->plane_w[i] * bytes;
            unsigned char *d = (unsigned char *)pic->data[i] + y * pic->stride[i];
            if (bytes == 1) {
                memcpy(d, s, pic->w[i]);
            } else {   /* little-endian file samples, host order in the picture */
                uint16_t *d16 = (uint16_t *)(void *)d;
                for (unsigned x = 0; x < pic->w[i]; x++)
                    d16[x] = (uint16_t)(s[2 * x] | (s[2 * x + 1] << 8));
            }
        }
        src += c->plane_w[i] * c->plane_h[i] * bytes;
    }
    return 0;
}

typedef struct Run {
    const char *ref, *dis, *fmt, *model_dir, *log;
    unsigned w, h, bpc, threads, subsample;
} Run;

static VmafFeatureDictionary *dict(const char *k1, const char *v1, const char *k2,
                                   const char *v2)
{
    VmafFeatureDictionary *d = NULL;
    if (k1) MUST(vmaf_feature_dictionary_set(&d, k1, v1));
    if (k2) MUST(vmaf_feature_dictionary_set(&d, k2, v2));
    return d;
}

static void print_value(unsigned i, const char *name, double v)
{
    printf("frame %u %s %.17g\n", i, name, v);
}

/* Feeds every frame, as do_vmaf does: two pictures, vmaf_read_pictures(index++). */
static unsigned feed(VmafContext *vmaf, const Run *r)
{
    Clip ref, dis;
    MUST(clip_open(&ref, r->ref, r->w, r->h, r->fmt, r->bpc));
    MUST(clip_open(&dis, r->dis, r->w, r->h, r->fmt, r->bpc));
    unsigned n = 0;
    for (;;) {
        VmafPicture pic_ref, pic_dis;
        if (clip_read(&ref, &pic_ref)) break;
        if (clip_read(&dis, &pic_dis)) {
            vmaf_picture_unref(&pic_ref);
            break;
        }
        MUST(vmaf_read_pictures(vmaf, &pic_ref, &pic_dis, n));
        n++;
    }
    clip_close(&ref);
    clip_close(&dis);
    /* uninit: the flush */
    MUST(vmaf_read_pictures(vmaf, NULL, NULL, 0));
    return n;
}

static int scored(const Run *r, unsigned i)
{
    return r->subsample <= 1 || i % r->subsample == 0;
}

static void print_features(VmafContext *vmaf, const Run *r, unsigned n, const char **names)
{
    for (unsigned i = 0; i < n; i++) {
        if (!scored(r, i)) continue;
        for (const char **name = names; *name; name++) {
            double v;
            int err = vmaf_feature_score_at_index(vmaf, *name, &v, i);
            if (err) {
                printf("FAIL vmaf_feature_score_at_index(%s, %u) returned %d\n", *name, i, err);
                failures++;
                continue;
            }
            print_value(i, *name, v);
        }
    }
}

static void score_models(VmafContext *vmaf, const Run *r, unsigned n, VmafModel **model,
                         const char **names, unsigned cnt)
{
    /* as uninit: vmaf_score_pooled over 0..frame_cnt-1, here for every pool method */
    for (unsigned m = 0; m < cnt; m++) {
        for (int p = VMAF_POOL_METHOD_MIN; p <= VMAF_POOL_METHOD_HARMONIC_MEAN; p++) {
            double v;
            MUST(vmaf_score_pooled(vmaf, model[m], p, &v, 0, n - 1));
            printf("pooled %s %s %.17g\n", names[m], pool_name[p], v);
        }
    }
    if (r->log) MUST(vmaf_write_output(vmaf, r->log, VMAF_OUTPUT_FORMAT_JSON));
    for (unsigned m = 0; m < cnt; m++) {
        for (unsigned i = 0; i < n; i++) {
            if (!scored(r, i)) continue;
            double v;
            MUST(vmaf_score_at_index(vmaf, model[m], &v, i));
            print_value(i, names[m], v);
        }
    }
}

/* FFmpeg 8: init (vmaf_init, parse_models, parse_features), do_vmaf per frame, uninit. */
static int run_ffmpeg8(const Run *r)
{
    VmafContext *vmaf = NULL;
    VmafConfiguration cfg = {
        .log_level = VMAF_LOG_LEVEL_WARNING,
        .n_threads = r->threads,
        .n_subsample = r->subsample,
    };
    MUST(vmaf_init(&vmaf, cfg));

    /* model=version=vmaf_v0.6.1\:name=vmaf|version=vmaf_v0.6.1neg\:name=vmaf_v0.6.1neg|
     *       path=DIR/vmaf_v0.6.1.json\:name=vmaf_path|
     *       version=vmaf_v0.6.1\:name=vmaf_egl\:vif.vif_enhn_gain_limit=1.0\:adm.adm_enhn_gain_limit=1.0|
     *       version=vmaf_v0.6.1\:name=vmaf_noclip\:disable_clip=true */
    enum { N_MODELS = 5 };
    const char *names[N_MODELS] = { "vmaf", "vmaf_v0.6.1neg", "vmaf_path", "vmaf_egl",
                                    "vmaf_noclip" };
    VmafModel *model[N_MODELS] = { 0 };
    VmafModelConfig mcfg[N_MODELS] = {
        { .name = names[0] }, { .name = names[1] }, { .name = names[2] }, { .name = names[3] },
        { .name = names[4], .flags = VMAF_MODEL_FLAG_DISABLE_CLIP },
    };
    char path[4096];
    snprintf(path, sizeof(path), "%s/vmaf_v0.6.1.json", r->model_dir);
    MUST(vmaf_model_load(&model[0], &mcfg[0], "vmaf_v0.6.1"));
    MUST(vmaf_model_load(&model[1], &mcfg[1], "vmaf_v0.6.1neg"));
    MUST(vmaf_model_load_from_path(&model[2], &mcfg[2], path));
    MUST(vmaf_model_load(&model[3], &mcfg[3], "vmaf_v0.6.1"));
    MUST(vmaf_model_feature_overload(model[3], "vif", dict("vif_enhn_gain_limit", "1.0", NULL, NULL)));
    MUST(vmaf_model_feature_overload(model[3], "adm", dict("adm_enhn_gain_limit", "1.0", NULL, NULL)));
    MUST(vmaf_model_load(&model[4], &mcfg[4], "vmaf_v0.6.1"));
    for (unsigned m = 0; m < N_MODELS; m++)
        MUST(vmaf_use_features_from_model(vmaf, model[m]));

    /* feature=name=psnr|name=float_ssim\:enable_lcs=true */
    MUST(vmaf_use_feature(vmaf, "psnr", NULL));
    MUST(vmaf_use_feature(vmaf, "float_ssim", dict("enable_lcs", "true", NULL, NULL)));

    const unsigned n = feed(vmaf, r);
    if (!n) {
        printf("FAIL no frame read\n");
        return 1;
    }
    score_models(vmaf, r, n, model, names, N_MODELS);
    const char *features[] = { "psnr_y", "psnr_cb", "psnr_cr", "float_ssim", "float_ssim_l",
        "VMAF_integer_feature_adm2_score", "VMAF_integer_feature_motion2_score",
        "VMAF_integer_feature_vif_scale0_score", "VMAF_integer_feature_vif_scale3_score", NULL };
    print_features(vmaf, r, n, features);

    for (unsigned m = 0; m < N_MODELS; m++)
        vmaf_model_destroy(model[m]);
    MUST(vmaf_close(vmaf));
    return failures != 0;
}

/* FFmpeg 5.1: init (vmaf_init, parse_deprecated_options with model_path=... and
 * enable_conf_interval, psnr, ssim and ms_ssim, then parse_models with the default
 * model=version=vmaf_v0.6.1), do_vmaf per frame, uninit.  The collection (FFmpeg leaks it,
 * and calls it "vmaf" like the default model) is named after its version here, scored
 * per frame and destroyed. */
static int run_ffmpeg51(const Run *r)
{
    VmafContext *vmaf = NULL;
    VmafConfiguration cfg = {
        .log_level = VMAF_LOG_LEVEL_WARNING,
        .n_threads = r->threads,
        .n_subsample = r->subsample,
    };
    MUST(vmaf_init(&vmaf, cfg));

    char path[4096];
    snprintf(path, sizeof(path), "%s/vmaf_b_v0.6.3.json", r->model_dir);
    VmafModel *bmodel = NULL;
    VmafModelCollection *collection = NULL;
    VmafModelConfig bcfg = { .name = "vmaf_b_v0.6.3", .flags = VMAF_MODEL_FLAGS_DEFAULT };
    MUST(vmaf_model_collection_load_from_path(&bmodel, &collection, &bcfg, path));
    MUST(vmaf_use_features_from_model_collection(vmaf, collection));
    MUST(vmaf_use_feature(vmaf, "psnr", dict("enable_chroma", "false", NULL, NULL)));
    MUST(vmaf_use_feature(vmaf, "float_ssim", NULL));
    MUST(vmaf_use_feature(vmaf, "float_ms_ssim", NULL));

    /* model's default: version=vmaf_v0.6.1, no name (libvmaf names it "vmaf") */
    VmafModel *model[1] = { 0 };
    VmafModelConfig mcfg = { 0 };
    MUST(vmaf_model_load(&model[0], &mcfg, "vmaf_v0.6.1"));
    MUST(vmaf_use_features_from_model(vmaf, model[0]));

    const unsigned n = feed(vmaf, r);
    if (!n) {
        printf("FAIL no frame read\n");
        return 1;
    }
    const char *names[] = { "vmaf" };
    score_models(vmaf, r, n, model, names, 1);
    for (unsigned i = 0; i < n; i++) {
        if (!scored(r, i)) continue;
        VmafModelCollectionScore s;
        MUST(vmaf_score_at_index_model_collection(vmaf, collection, &s, i));
        print_value(i, "vmaf_b_v0.6.3_bagging", s.bootstrap.bagging_score);
        print_value(i, "vmaf_b_v0.6.3_stddev", s.bootstrap.stddev);
        print_value(i, "vmaf_b_v0.6.3_ci_p95_lo", s.bootstrap.ci.p95.lo);
        print_value(i, "vmaf_b_v0.6.3_ci_p95_hi", s.bootstrap.ci.p95.hi);
    }
    const char *features[] = { "psnr_y", "float_ssim", "float_ms_ssim",
        "VMAF_integer_feature_adm2_score", "VMAF_integer_feature_vif_scale1_score", NULL };
    print_features(vmaf, r, n, features);

    vmaf_model_destroy(model[0]);
    vmaf_model_collection_destroy(collection);
    vmaf_model_destroy(bmodel);
    MUST(vmaf_close(vmaf));
    return failures != 0;
}

static void fill(VmafPicture *p, unsigned seed)
{
    for (int i = 0; i < 3; i++) {
        for (unsigned y = 0; y < p->h[i]; y++) {
            unsigned char *row = (unsigned char *)p->data[i] + y * p->stride[i];
            for (unsigned x = 0; x < p->w[i]; x++) {
                unsigned v = (x * 7 + y * 13 + seed * 31 + (unsigned)i * 5) & 0xff;
                if (p->bpc > 8) ((uint16_t *)(void *)row)[x] = (uint16_t)(v << (p->bpc - 8));
                else row[x] = (unsigned char)v;
            }
        }
    }
}

static VmafContext *context_with_psnr(void)
{
    VmafContext *vmaf = NULL;
    VmafConfiguration cfg = { .log_level = VMAF_LOG_LEVEL_NONE };
    MUST(vmaf_init(&vmaf, cfg));
    MUST(vmaf_use_feature(vmaf, "psnr", NULL));
    return vmaf;
}

static void picture(VmafPicture *p, enum VmafPixelFormat fmt, unsigned bpc, unsigned w,
                    unsigned h, unsigned seed)
{
    MUST(vmaf_picture_alloc(p, fmt, bpc, w, h));
    fill(p, seed);
}

/* What libvmaf 3.2 does on bad input; only what it really does is asserted. */
static int check_errors(const char *model_dir)
{
    /* vmaf_picture_alloc's geometry: chroma floor(w/2), floor(h/2) (4:2:0), rows of at
     * least w samples (libvmaf: w rounded up to 32 samples, times 2 above 8 bits) */
    const struct { enum VmafPixelFormat fmt; unsigned bpc, w, h, cw, ch; } geo[] = {
        { VMAF_PIX_FMT_YUV420P, 8, 577, 325, 288, 162 },
        { VMAF_PIX_FMT_YUV420P, 10, 576, 324, 288, 162 },
        { VMAF_PIX_FMT_YUV422P, 12, 33, 17, 16, 17 },
        { VMAF_PIX_FMT_YUV444P, 16, 31, 9, 31, 9 },
    };
    for (unsigned g = 0; g < sizeof(geo) / sizeof(geo[0]); g++) {
        VmafPicture p;
        MUST(vmaf_picture_alloc(&p, geo[g].fmt, geo[g].bpc, geo[g].w, geo[g].h));
        const unsigned bytes = geo[g].bpc > 8 ? 2 : 1;
        int ok = p.w[0] == geo[g].w && p.h[0] == geo[g].h && p.bpc == geo[g].bpc &&
                 p.pix_fmt == geo[g].fmt;
        for (int i = 1; i < 3; i++)
            ok &= p.w[i] == geo[g].cw && p.h[i] == geo[g].ch;
        for (int i = 0; i < 3; i++)
            ok &= p.data[i] != NULL && p.stride[i] >= (ptrdiff_t)(p.w[i] * bytes);
        CHECK(ok, "vmaf_picture_alloc(fmt %d, %u bits, %ux%u): planes %ux%u %ux%u, strides %td %td",
              geo[g].fmt, geo[g].bpc, geo[g].w, geo[g].h, p.w[0], p.h[0], p.w[1], p.h[1],
              p.stride[0], p.stride[1]);
        fill(&p, g);   /* every byte of every row writable (ASan) */
        CHECK(vmaf_picture_unref(&p) == 0, "vmaf_picture_unref");
    }
    {
        VmafPicture p;
        CHECK(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 7, 64, 64) != 0,
              "vmaf_picture_alloc refuses 7 bits");
        CHECK(vmaf_picture_alloc(&p, VMAF_PIX_FMT_YUV420P, 17, 64, 64) != 0,
              "vmaf_picture_alloc refuses 17 bits");
        CHECK(vmaf_picture_alloc(&p, VMAF_PIX_FMT_UNKNOWN, 8, 64, 64) != 0,
              "vmaf_picture_alloc refuses VMAF_PIX_FMT_UNKNOWN");
    }

    /* model loading */
    {
        VmafModel *m = NULL;
        VmafModelConfig cfg = { .name = "vmaf" };
        CHECK(vmaf_model_load(&m, &cfg, "vmaf_v0.6.1_no_such_version") != 0 && !m,
              "vmaf_model_load of an unknown version fails");
        CHECK(vmaf_model_load(&m, &cfg, "") != 0 && !m, "vmaf_model_load of \"\" fails");
        char path[4096];
        snprintf(path, sizeof(path), "%s/no_such_model.json", model_dir);
        CHECK(vmaf_model_load_from_path(&m, &cfg, path) != 0 && !m,
              "vmaf_model_load_from_path of a missing file fails");
        VmafModelCollection *mc = NULL;
        CHECK(vmaf_model_collection_load(&m, &mc, &cfg, "vmaf_v0.6.1") != 0,
              "vmaf_model_collection_load of a model that is no collection fails");
        MUST(vmaf_model_load(&m, &cfg, "vmaf_v0.6.1"));
        /* the dictionary is consumed in every case; an unknown extractor name is ignored */
        CHECK(vmaf_model_feature_overload(m, "no_such_extractor",
                                          dict("some_option", "1", NULL, NULL)) == 0,
              "vmaf_model_feature_overload of an extractor the model lacks returns 0");
        CHECK(vmaf_model_feature_overload(m, "vif", NULL) != 0,
              "vmaf_model_feature_overload without a dictionary fails");
        vmaf_model_destroy(m);
    }

    /* feature registration */
    {
        VmafContext *vmaf = context_with_psnr();
        CHECK(vmaf_use_feature(vmaf, "no_such_feature", NULL) != 0,
              "vmaf_use_feature of an unknown name fails");
        /* libvmaf returns before taking the dictionary: the caller still owns it */
        VmafFeatureDictionary *d = dict("enable_chroma", "false", NULL, NULL);
        CHECK(vmaf_use_feature(vmaf, "no_such_feature", d) != 0,
              "vmaf_use_feature of an unknown name with options fails");
        vmaf_feature_dictionary_free(&d);
        MUST(vmaf_close(vmaf));
    }

    /* vmaf_read_pictures */
    {
        VmafContext *vmaf = context_with_psnr();
        VmafPicture ref, dis;
        picture(&ref, VMAF_PIX_FMT_YUV420P, 8, 64, 64, 1);
        picture(&dis, VMAF_PIX_FMT_YUV420P, 8, 32, 32, 2);
        CHECK(vmaf_read_pictures(vmaf, &ref, &dis, 0) != 0,
              "vmaf_read_pictures of 64x64 and 32x32 pictures fails");
        /* refused pictures stay the caller's */
        vmaf_picture_unref(&ref);
        vmaf_picture_unref(&dis);

        picture(&ref, VMAF_PIX_FMT_YUV420P, 8, 64, 64, 1);
        picture(&dis, VMAF_PIX_FMT_YUV444P, 8, 64, 64, 2);
        CHECK(vmaf_read_pictures(vmaf, &ref, &dis, 0) != 0,
              "vmaf_read_pictures of 4:2:0 and 4:4:4 pictures fails");
        vmaf_picture_unref(&ref);
        vmaf_picture_unref(&dis);

        picture(&ref, VMAF_PIX_FMT_YUV420P, 8, 64, 64, 1);
        CHECK(vmaf_read_pictures(vmaf, &ref, NULL, 0) != 0,
              "vmaf_read_pictures of a reference without a distorted picture fails");
        vmaf_picture_unref(&ref);
        MUST(vmaf_close(vmaf));
    }
    {
        /* the first picture pair fixes the size: a later pair of another size fails */
        VmafContext *vmaf = context_with_psnr();
        VmafPicture ref, dis;
        picture(&ref, VMAF_PIX_FMT_YUV420P, 8, 64, 64, 1);
        picture(&dis, VMAF_PIX_FMT_YUV420P, 8, 64, 64, 2);
        CHECK(vmaf_read_pictures(vmaf, &ref, &dis, 0) == 0, "vmaf_read_pictures of 64x64");
        picture(&ref, VMAF_PIX_FMT_YUV420P, 8, 48, 48, 3);
        picture(&dis, VMAF_PIX_FMT_YUV420P, 8, 48, 48, 4);
        CHECK(vmaf_read_pictures(vmaf, &ref, &dis, 1) != 0,
              "vmaf_read_pictures of 48x48 after 64x64 fails");
        vmaf_picture_unref(&ref);
        vmaf_picture_unref(&dis);
        picture(&ref, VMAF_PIX_FMT_YUV420P, 8, 64, 64, 5);
        picture(&dis, VMAF_PIX_FMT_YUV420P, 8, 64, 64, 6);
        CHECK(vmaf_read_pictures(vmaf, &ref, &dis, 1) == 0,
              "vmaf_read_pictures of 64x64 again after the refusal");

        /* the flush; then reading, or flushing again, fails */
        CHECK(vmaf_read_pictures(vmaf, NULL, NULL, 0) == 0, "flush (NULL, NULL)");
        picture(&ref, VMAF_PIX_FMT_YUV420P, 8, 64, 64, 7);
        picture(&dis, VMAF_PIX_FMT_YUV420P, 8, 64, 64, 8);
        CHECK(vmaf_read_pictures(vmaf, &ref, &dis, 2) != 0,
              "vmaf_read_pictures after the flush fails");
        vmaf_picture_unref(&ref);
        vmaf_picture_unref(&dis);
        CHECK(vmaf_read_pictures(vmaf, NULL, NULL, 0) != 0, "a second flush fails");

        double v;
        CHECK(vmaf_feature_score_at_index(vmaf, "psnr_y", &v, 1) == 0,
              "vmaf_feature_score_at_index(psnr_y, 1) after the flush: %.6f", v);
        CHECK(vmaf_feature_score_at_index(vmaf, "psnr_y", &v, 2) != 0,
              "vmaf_feature_score_at_index of a frame never read fails");
        CHECK(vmaf_feature_score_at_index(vmaf, "no_such_feature", &v, 0) != 0,
              "vmaf_feature_score_at_index of an unknown name fails");
        CHECK(vmaf_feature_score_pooled(vmaf, "psnr_y", VMAF_POOL_METHOD_MEAN, &v, 1, 0) != 0,
              "vmaf_feature_score_pooled with index_low > index_high fails");
        MUST(vmaf_close(vmaf));
    }
    {
        /* a model whose features were never registered cannot be scored */
        VmafContext *vmaf = context_with_psnr();
        VmafModel *m = NULL;
        VmafModelConfig cfg = { .name = "vmaf" };
        MUST(vmaf_model_load(&m, &cfg, "vmaf_v0.6.1"));
        VmafPicture ref, dis;
        picture(&ref, VMAF_PIX_FMT_YUV420P, 8, 64, 64, 1);
        picture(&dis, VMAF_PIX_FMT_YUV420P, 8, 64, 64, 2);
        MUST(vmaf_read_pictures(vmaf, &ref, &dis, 0));
        MUST(vmaf_read_pictures(vmaf, NULL, NULL, 0));
        double v;
        CHECK(vmaf_score_at_index(vmaf, m, &v, 0) != 0,
              "vmaf_score_at_index of a model without its features fails");
        CHECK(vmaf_score_pooled(vmaf, m, VMAF_POOL_METHOD_MEAN, &v, 0, 0) != 0,
              "vmaf_score_pooled of a model without its features fails");
        vmaf_model_destroy(m);
        MUST(vmaf_close(vmaf));
    }
    printf("%d failed\n", failures);
    return failures != 0;
}

static unsigned parse_uint(const char *s)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (*s == '\0' || *end != '\0' || v > 1u << 20) {
        fprintf(stderr, "not a number: %s\n", s);
        exit(2);
    }
    return (unsigned)v;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "errors"))
        return check_errors(argv[2]);
    if (argc < 9 || (strcmp(argv[1], "ffmpeg8") && strcmp(argv[1], "ffmpeg51"))) {
        fprintf(stderr, "usage: %s ffmpeg8|ffmpeg51 REF DIS W H 420|422|444 BPC MODEL_DIR "
                        "[--threads N] [--subsample N] [--log PATH]\n"
                        "       %s errors MODEL_DIR\n", argv[0], argv[0]);
        return 2;
    }
    Run r = { .ref = argv[2], .dis = argv[3], .w = parse_uint(argv[4]),
              .h = parse_uint(argv[5]), .fmt = argv[6], .bpc = parse_uint(argv[7]),
              .model_dir = argv[8], .subsample = 1 };
    for (int i = 9; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--threads")) r.threads = parse_uint(argv[i + 1]);
        else if (!strcmp(argv[i], "--subsample")) r.subsample = parse_uint(argv[i + 1]);
        else if (!strcmp(argv[i], "--log")) r.log = argv[i + 1];
        else {
            fprintf(stderr, "unknown option %s\n", argv[i]);
            return 2;
        }
    }
    if ((argc - 9) % 2) {
        fprintf(stderr, "option %s without a value\n", argv[argc - 1]);
        return 2;
    }
    printf("# libvmaf %s, %s\n", vmaf_version(), argv[1]);
    return !strcmp(argv[1], "ffmpeg8") ? run_ffmpeg8(&r) : run_ffmpeg51(&r);
}
