/* vqx: score a distorted video against its reference. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "io/input.h"
#include "vqx/vqx.h"

#define MSG_LEN 512

/* Notices (a feature dropped at the start, a model not computed) are
 * printed as they come; the flush reports one of those failures again,
 * which is then not repeated. */
#define MAX_NOTICES 64

typedef struct NoticeLog {
    char seen[MAX_NOTICES][MSG_LEN];
    unsigned n;
} NoticeLog;

static void print_notice(void *cookie, const char *msg)
{
    NoticeLog *log = cookie;
    fprintf(stderr, "vqx: %s\n", msg);
    if (log->n < MAX_NOTICES) snprintf(log->seen[log->n++], MSG_LEN, "%s", msg);
}

static bool notice_printed(const NoticeLog *log, const char *msg)
{
    for (unsigned i = 0; i < log->n; i++)
        if (!strncmp(log->seen[i], msg, MSG_LEN - 1)) return true;
    return false;
}

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const char *layout_name(enum VqxPixelLayout l)
{
    static const char *const names[] = { "4:0:0", "4:2:0", "4:2:2", "4:4:4" };
    return names[l];
}

/* Both inputs must have one geometry, layout and bit depth (a common bit
 * depth is made from different ones with --aom_ctc v6.0 and later). */
static int check_inputs(const CliSettings *s, const VqxRawFormat *a, const VqxRawFormat *b)
{
    if (a->w == b->w && a->h == b->h && a->layout == b->layout &&
        (a->bpc == b->bpc || s->common_bitdepth))
        return 0;
    fprintf(stderr, "vqx: inputs differ: %s is %ux%u %s %u-bit, %s is %ux%u %s %u-bit\n",
            s->ref_path, a->w, a->h, layout_name(a->layout), a->bpc,
            s->dis_path, b->w, b->h, layout_name(b->layout), b->bpc);
    return EXIT_INPUT;
}

static int configure(VqxContext *ctx, const CliSettings *s)
{
    for (unsigned i = 0; i < s->n_features; i++) {
        if (vqx_use_feature(ctx, s->features[i].name, s->features[i].options)) {
            fprintf(stderr, "vqx: %s\n", vqx_last_error(ctx));
            return EXIT_USAGE;
        }
    }
    if (s->no_prediction) return EXIT_OK;
    const unsigned n_models = s->n_models;
    for (unsigned i = 0; i < (n_models ? n_models : 1); i++) {
        const char *spec = n_models ? s->models[i] : "version=vmaf_v0.6.1";
        if (vqx_use_model(ctx, spec)) {
            fprintf(stderr, "vqx: %s\n", vqx_last_error(ctx));
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

static int skip_frames(VqxInput *in, unsigned n, const char *path)
{
    char msg[MSG_LEN];
    const int ret = vqx_input_skip(in, n, msg, sizeof(msg));
    if (ret < 0) {
        fprintf(stderr, "vqx: %s\n", msg);
        return EXIT_TRUNCATED;
    }
    if (ret == 0) {
        fprintf(stderr, "vqx: %s has fewer than %u frames to skip\n", path, n);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

static void progress(unsigned frames, double t0)
{
    const double dt = now_seconds() - t0;
    fprintf(stderr, "\r%u frame%s %.2f fps\033[K", frames, frames == 1 ? "" : "s",
            dt > 0 ? frames / dt : 0.);
    fflush(stderr);
}

/* Scale a picture to a higher bit depth: samples shift left by the
 * difference, so that full scale maps to full scale as libvmaf's scaled
 * content does (255 << 2 = 1020 at 10 bits). */
static int promote_picture(VqxPicture *pic, unsigned bpc)
{
    if (pic->bpc >= bpc) return 0;
    VqxPicture out;
    int ret = vqx_picture_alloc(&out, pic->layout, bpc, pic->w[0], pic->h[0]);
    if (ret) return ret;
    const unsigned shift = bpc - pic->bpc;
    for (unsigned p = 0; p < vqx_picture_planes(pic); p++) {
        for (unsigned y = 0; y < pic->h[p]; y++) {
            const uint8_t *src = (const uint8_t *)pic->data[p] + y * pic->stride[p];
            uint16_t *dst = (uint16_t *)((uint8_t *)out.data[p] + y * out.stride[p]);
            for (unsigned x = 0; x < pic->w[p]; x++)
                dst[x] = (uint16_t)((pic->bpc > 8 ? ((const uint16_t *)src)[x] : src[x]) << shift);
        }
    }
    vqx_picture_free(pic);
    *pic = out;
    return 0;
}

/* Read pairs until either input ends; returns the exit code of the reading. */
static int score_frames(VqxContext *ctx, const CliSettings *s, VqxInput *ref, VqxInput *dis,
                        unsigned *n_frames, bool show_progress, double t0)
{
    char msg[MSG_LEN];
    int code = EXIT_OK;
    unsigned n = 0;
    while (!s->frame_cnt || n < s->frame_cnt) {
        /* pictures from the context's pool: no fresh buffer per frame */
        const VqxRawFormat *rf = vqx_input_format(ref), *df = vqx_input_format(dis);
        VqxPicture pr, pd;
        const bool ref_failed = vqx_picture_alloc_from(ctx, &pr, rf->layout, rf->bpc, rf->w, rf->h);
        if (ref_failed || vqx_picture_alloc_from(ctx, &pd, df->layout, df->bpc, df->w, df->h)) {
            vqx_input_frame_message(ref_failed ? s->ref_path : s->dis_path, ref_failed ? rf : df,
                                    VQX_INPUT_CANNOT_ALLOCATE, msg, sizeof(msg));
            fprintf(stderr, "%svqx: %s\n", show_progress ? "\n" : "", msg);
            vqx_picture_free(&pr);
            code = EXIT_INPUT;
            break;
        }
        const int rr = vqx_input_read(ref, &pr, msg, sizeof(msg));
        const int rd = rr < 0 ? 0 : vqx_input_read(dis, &pd, msg, sizeof(msg));
        if (rr <= 0 || rd <= 0) {
            if (rr < 0 || rd < 0) {
                fprintf(stderr, "%svqx: %s\n", show_progress ? "\n" : "", msg);
                code = EXIT_TRUNCATED;
            } else if (rr != rd && !s->quiet) {
                fprintf(stderr, "%svqx: %s ended before %s; scored %u frames\n",
                        show_progress ? "\n" : "", rr ? s->dis_path : s->ref_path,
                        rr ? s->ref_path : s->dis_path, n);
            }
            vqx_picture_free(&pr);
            vqx_picture_free(&pd);
            break;
        }
        if (s->common_bitdepth && (promote_picture(&pr, pd.bpc) || promote_picture(&pd, pr.bpc))) {
            /* the picture that failed is the one still at the lower depth */
            const bool ref_low = pr.bpc < pd.bpc;
            VqxRawFormat wide = *(ref_low ? rf : df);
            wide.bpc = ref_low ? pd.bpc : pr.bpc;
            vqx_input_frame_message(ref_low ? s->ref_path : s->dis_path, &wide,
                                    VQX_INPUT_CANNOT_ALLOCATE, msg, sizeof(msg));
            fprintf(stderr, "%svqx: %s\n", show_progress ? "\n" : "", msg);
            vqx_picture_free(&pr);
            vqx_picture_free(&pd);
            code = EXIT_INPUT;
            break;
        }
        if (vqx_send_pictures(ctx, &pr, &pd)) {
            fprintf(stderr, "%svqx: %s\n", show_progress ? "\n" : "", vqx_last_error(ctx));
            vqx_picture_free(&pr);
            vqx_picture_free(&pd);
            code = EXIT_INPUT;
            break;
        }
        n++;
        if (show_progress) progress(n, t0);
    }
    if (show_progress) fprintf(stderr, "\n");
    *n_frames = n;
    return code;
}

static int output_error(const char *path, int err)
{
    /* the settings are valid, so vqx_write_output refused a name */
    fprintf(stderr, "vqx: cannot write %s: %s\n", path,
            err == EINVAL ? "a score's name cannot be written in this format" : strerror(err));
    return EXIT_OUTPUT;
}

/* /dev/stdout, /dev/fd/N and /proc/self/fd/N name a descriptor open
 * already, perhaps on a regular file that the shell opened (> or >>). */
static bool names_descriptor(const char *path)
{
    return !strcmp(path, "/dev/stdout") || !strcmp(path, "/dev/stderr") ||
           !strncmp(path, "/dev/fd/", 8) || (!strncmp(path, "/proc/", 6) && strstr(path, "/fd/"));
}

/* A regular file is replaced only by a complete one: the output goes to a
 * temporary file beside it (beside the file a symbolic link points to),
 * which is renamed over it once written. "-", a descriptor and a target
 * that exists and is not a regular file (a device, a FIFO) are written in
 * place, appending: a file behind a descriptor is the shell's to truncate.
 * A new file gets the mode fopen would give it, a replaced one keeps its
 * mode. */
static int write_results(VqxContext *ctx, const CliSettings *s, double fps, mode_t umask_bits)
{
    const VqxOutputSettings os = { .format = s->output_format, .precision = s->precision, .fps = fps };
    const char *path = s->output_path;
    int ret;
    if (!strcmp(path, "-")) {
        ret = vqx_write_output(ctx, stdout, &os);
        if (!ret && fflush(stdout)) ret = -errno;
        return ret ? output_error("the standard output", -ret) : EXIT_OK;
    }
    struct stat st;
    const bool exists = stat(path, &st) == 0;
    if ((exists && !S_ISREG(st.st_mode)) || names_descriptor(path)) {
        FILE *f = fopen(path, "a");
        if (!f) return output_error(path, errno);
        ret = vqx_write_output(ctx, f, &os);
        if (fclose(f) && !ret) ret = -errno;
        return ret ? output_error(path, -ret) : EXIT_OK;
    }

    char *resolved = exists ? realpath(path, NULL) : NULL;
    const char *target = resolved ? resolved : path;
    static const char suffix[] = ".XXXXXX";
    char *tmp = malloc(strlen(target) + sizeof(suffix));
    if (!tmp) {
        free(resolved);
        return output_error(path, ENOMEM);
    }
    strcpy(tmp, target);
    strcat(tmp, suffix);
    const int fd = mkstemp(tmp);
    FILE *f = NULL;
    /* mkstemp makes 0600; a file system without modes (vfat) refuses the
     * change, which is no reason to lose the output */
    if (fd >= 0) fchmod(fd, exists ? st.st_mode & 07777 : 0666 & ~umask_bits);
    if (fd < 0) {
        ret = -errno;
    } else if (!(f = fdopen(fd, "w"))) {
        ret = -errno;
        close(fd);
    } else {
        ret = vqx_write_output(ctx, f, &os);
        if (fclose(f) && !ret) ret = -errno;
        if (!ret && rename(tmp, target)) ret = -errno;
    }
    if (ret && fd >= 0) unlink(tmp);
    free(tmp);
    free(resolved);
    return ret ? output_error(path, -ret) : EXIT_OK;
}

/* The pooled mean of each model, as libvmaf's tool prints it. */
static void print_summary(const VqxContext *ctx, unsigned n_frames)
{
    for (unsigned m = 0; n_frames && m < vqx_model_count(ctx); m++) {
        const char *key = vqx_model_key(ctx, m);
        double v;
        if (!vqx_score_pooled(ctx, key, VQX_POOL_MEAN, 0, n_frames - 1, &v))
            fprintf(stderr, "%s: %f\n", key, v);
    }
}

int main(int argc, char **argv)
{
    /* read before any thread starts: umask can only be read by setting it */
    const mode_t umask_bits = umask(0);
    umask(umask_bits);

    CliSettings s;
    int code = parse_cli(&s, argc, argv);
    if (code >= 0) return code;

    char msg[MSG_LEN];
    VqxInput *ref = NULL, *dis = NULL;
    VqxContext *ctx = NULL;
    const VqxRawFormat *raw = s.raw_given ? &s.raw : NULL;

    if (vqx_input_open(&ref, s.ref_path, raw, msg, sizeof(msg)) ||
        vqx_input_open(&dis, s.dis_path, raw, msg, sizeof(msg))) {
        fprintf(stderr, "vqx: %s\n", msg);
        code = EXIT_INPUT;
        goto out;
    }
    code = check_inputs(&s, vqx_input_format(ref), vqx_input_format(dis));
    if (code) goto out;

    VqxSettings vs;
    vqx_default_settings(&vs);
    vs.n_threads = s.threads;
    vs.subsample = s.subsample;
    vs.backend = s.backend;
    vs.strict_backend = s.strict_backend;
    static NoticeLog notices;
    vs.notice = print_notice;
    vs.notice_cookie = &notices;
    if (vqx_open(&ctx, &vs)) {
        fprintf(stderr, "vqx: %s\n", ctx ? vqx_last_error(ctx) : "out of memory");
        code = EXIT_USAGE;
        goto out;
    }
    code = configure(ctx, &s);
    if (code) goto out;

    if (s.frame_skip_ref && (code = skip_frames(ref, s.frame_skip_ref, s.ref_path))) goto out;
    if (s.frame_skip_dist && (code = skip_frames(dis, s.frame_skip_dist, s.dis_path))) goto out;

    const bool show_progress = !s.quiet && isatty(STDERR_FILENO);
    const double t0 = now_seconds();
    unsigned n_frames = 0;
    code = score_frames(ctx, &s, ref, dis, &n_frames, show_progress, t0);

    if (vqx_flush(ctx)) {
        if (!notice_printed(&notices, vqx_last_error(ctx)))
            fprintf(stderr, "vqx: %s\n", vqx_last_error(ctx));
        if (!code) code = EXIT_METRIC;
    }
    const double elapsed = now_seconds() - t0;
    const double fps = elapsed > 0 ? n_frames / elapsed : 0.;

    if (!n_frames && !code) {
        fprintf(stderr, "vqx: no frame to score\n");
        code = EXIT_INPUT;
    }
    /* no frame scored: nothing to write, and an existing file stays as it was */
    if (s.output_path && n_frames) {
        const int out_code = write_results(ctx, &s, fps, umask_bits);
        if (!code) code = out_code;
    }
    if (!s.quiet) print_summary(ctx, n_frames);

out:
    vqx_close(&ctx);
    vqx_input_close(&ref);
    vqx_input_close(&dis);
    free_cli(&s);
    return code;
}
