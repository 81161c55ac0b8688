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
#include "io/reader.h"
#include "vqx/vqx.h"

#define MSG_LEN 512
/* Seconds between progress updates (the first frame and the end are
 * always shown). */
#define PROGRESS_INTERVAL 0.25

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

/* "-" is the standard input. */
static const char *input_name(const char *path)
{
    return strcmp(path, "-") ? path : "standard input";
}

static int open_input(VqxInput **in, const char *path, const VqxRawFormat *raw, char *msg)
{
    return strcmp(path, "-") ? vqx_input_open(in, path, raw, msg, MSG_LEN)
                             : vqx_input_open_fd(in, STDIN_FILENO, input_name(path), raw, msg, MSG_LEN);
}

/* Both inputs must have one geometry, layout and bit depth (a common bit
 * depth is made from different ones with --aom_ctc v6.0 and later). */
static int check_inputs(const CliSettings *s, const VqxRawFormat *a, const VqxRawFormat *b)
{
    if (a->w == b->w && a->h == b->h && a->layout == b->layout &&
        (a->bpc == b->bpc || s->common_bitdepth))
        return 0;
    fprintf(stderr, "vqx: inputs differ: %s is %ux%u %s %u-bit, %s is %ux%u %s %u-bit\n",
            input_name(s->ref_path), a->w, a->h, layout_name(a->layout), a->bpc,
            input_name(s->dis_path), b->w, b->h, layout_name(b->layout), b->bpc);
    return EXIT_INPUT;
}

/* The models' features first, then --feature's, as libvmaf's CLI requests
 * them: the order of the extractors orders the output keys. */
static int configure(VqxContext *ctx, const CliSettings *s)
{
    const unsigned n_models = s->no_prediction ? 0 : s->n_models ? s->n_models : 1;
    for (unsigned i = 0; i < n_models; i++) {
        const char *spec = s->n_models ? s->models[i] : "version=vmaf_v0.6.1";
        if (vqx_use_model(ctx, spec)) {
            fprintf(stderr, "vqx: %s\n", vqx_last_error(ctx));
            return EXIT_USAGE;
        }
    }
    for (unsigned i = 0; i < s->n_features; i++) {
        if (vqx_use_feature(ctx, s->features[i].name, s->features[i].options)) {
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
        fprintf(stderr, "vqx: %s has fewer than %u frames to skip\n", input_name(path), n);
        return EXIT_INPUT;
    }
    return EXIT_OK;
}

/* The progress line on a terminal: frames done, of the total when the
 * inputs' sizes (or --frame_cnt) bound it, with the time left. */
typedef struct Progress {
    bool shown;
    double t0, last;
    uint64_t total; /* UINT64_MAX: not known */
} Progress;

static void progress(Progress *p, unsigned done, bool final)
{
    if (!p->shown) return;
    const double now = now_seconds();
    if (!final && done > 1 && now - p->last < PROGRESS_INTERVAL) return;
    p->last = now;
    const double fps = now > p->t0 ? done / (now - p->t0) : 0.;
    if (p->total != UINT64_MAX && p->total >= done) {
        fprintf(stderr, "\r%u/%llu frames (%.0f%%), %.2f fps", done, (unsigned long long)p->total,
                p->total ? 100. * done / p->total : 100., fps);
        if (!final && fps > 0) {
            const unsigned left = (unsigned)((p->total - done) / fps + 0.5);
            if (left >= 3600)
                fprintf(stderr, ", %u:%02u:%02u left", left / 3600, left / 60 % 60, left % 60);
            else
                fprintf(stderr, ", %u:%02u left", left / 60, left % 60);
        }
    } else {
        fprintf(stderr, "\r%u frame%s, %.2f fps", done, done == 1 ? "" : "s", fps);
    }
    fputs(final ? "\033[K\n" : "\033[K", stderr);
    fflush(stderr);
}

/* Scale a picture to a higher bit depth: samples shift left by the
 * difference, so that full scale maps to full scale as libvmaf's scaled
 * content does (255 << 2 = 1020 at 10 bits). Only the planes the features
 * read are filled. */
static int promote_picture(VqxContext *ctx, VqxPicture *pic, unsigned bpc, unsigned planes)
{
    if (pic->bpc >= bpc) return 0;
    VqxPicture out;
    int ret = vqx_picture_alloc_from(ctx, &out, pic->layout, bpc, pic->w[0], pic->h[0]);
    if (ret) return ret;
    const unsigned shift = bpc - pic->bpc;
    for (unsigned p = 0; p < vqx_picture_planes(pic); p++) {
        if (!(planes >> p & 1)) continue;
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

/* Send pairs until either input ends; returns the exit code of the reading.
 * A message is printed after the progress line is finished. */
static int score_frames(VqxContext *ctx, const CliSettings *s, VqxReader *ref, VqxReader *dis,
                        unsigned *n_frames, Progress *pg)
{
    char msg[MSG_LEN] = "";
    int code = EXIT_OK;
    const unsigned planes = vqx_planes_used(ctx);
    unsigned n = 0;
    for (;; n++) {
        VqxPicture pr, pd;
        const int rr = vqx_reader_next(ref, &pr, msg, sizeof(msg));
        const int rd = rr < 0 ? 0 : vqx_reader_next(dis, &pd, msg, sizeof(msg));
        if (rr <= 0 || rd <= 0) {
            if (rr < 0 || rd < 0) {
                /* a frame that cannot be allocated is the input's size; the others are its data */
                code = rr == -ENOMEM || rd == -ENOMEM ? EXIT_INPUT : EXIT_TRUNCATED;
            } else if (rr != rd && !s->quiet) {
                snprintf(msg, sizeof(msg), "%s ended before %s; scored %u frames",
                         input_name(rr ? s->dis_path : s->ref_path),
                         input_name(rr ? s->ref_path : s->dis_path), n);
            }
            vqx_picture_free(&pr);
            if (rr >= 0) vqx_picture_free(&pd);
            break;
        }
        if (s->common_bitdepth && (promote_picture(ctx, &pr, pd.bpc, planes) ||
                                   promote_picture(ctx, &pd, pr.bpc, planes))) {
            /* the picture that failed is the one still at the lower depth */
            const bool ref_low = pr.bpc < pd.bpc;
            VqxRawFormat wide = { .w = pr.w[0], .h = pr.h[0], .bpc = ref_low ? pd.bpc : pr.bpc,
                                  .layout = pr.layout };
            vqx_input_frame_message(input_name(ref_low ? s->ref_path : s->dis_path), &wide,
                                    VQX_INPUT_CANNOT_ALLOCATE, msg, sizeof(msg));
            vqx_picture_free(&pr);
            vqx_picture_free(&pd);
            code = EXIT_INPUT;
            break;
        }
        const int ret = vqx_send_pictures(ctx, &pr, &pd);
        if (ret) {
            /* a sample above the peak is bad data in that frame, as a truncated one is */
            snprintf(msg, sizeof(msg), "%s", vqx_last_error(ctx));
            vqx_picture_free(&pr);
            vqx_picture_free(&pd);
            code = ret == -ERANGE ? EXIT_TRUNCATED : EXIT_INPUT;
            break;
        }
        progress(pg, n + 1, false);
    }
    progress(pg, n, true);
    if (*msg) fprintf(stderr, "vqx: %s\n", msg);
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
static int write_results(VqxContext *ctx, const char *path, const VqxOutputSettings *s,
                         mode_t umask_bits)
{
    int ret;
    if (!strcmp(path, "-")) {
        ret = vqx_write_output(ctx, stdout, s);
        if (!ret && fflush(stdout)) ret = -errno;
        return ret ? output_error("the standard output", -ret) : EXIT_OK;
    }
    struct stat st;
    const bool exists = stat(path, &st) == 0;
    if ((exists && !S_ISREG(st.st_mode)) || names_descriptor(path)) {
        FILE *f = fopen(path, "a");
        if (!f) return output_error(path, errno);
        ret = vqx_write_output(ctx, f, s);
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
        ret = vqx_write_output(ctx, f, s);
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
    VqxReader *ref_reader = NULL, *dis_reader = NULL;
    VqxContext *ctx = NULL;
    const VqxRawFormat *raw = s.raw_given ? &s.raw : NULL;

    if (open_input(&ref, s.ref_path, raw, msg) || open_input(&dis, s.dis_path, raw, msg)) {
        fprintf(stderr, "vqx: %s\n", msg);
        code = EXIT_INPUT;
        goto out;
    }
    code = check_inputs(&s, vqx_input_format(ref), vqx_input_format(dis));
    if (code) goto out;

    VqxSettings vs;
    vqx_default_settings(&vs);
    vs.n_threads = s.threads;
    vs.cpumask = s.cpumask;
    vs.subsample = s.subsample;
    vs.backend = s.backend;
    vs.strict_backend = s.strict_backend;
    vs.gpu = s.gpu;
    static NoticeLog notices;
    vs.notice = print_notice;
    vs.notice_cookie = &notices;
    if (vqx_open(&ctx, &vs)) {
        fprintf(stderr, "vqx: %s\n", ctx ? vqx_last_error(ctx) : "out of memory");
        code = EXIT_USAGE;
        goto out;
    }
    vqx_set_color_range(ctx, vqx_input_pair_range(ref, dis)); /* before any picture: cannot fail */
    code = configure(ctx, &s);
    if (code) goto out;
    /* planes no feature reads are skipped in the files */
    vqx_input_set_planes(ref, vqx_planes_used(ctx));
    vqx_input_set_planes(dis, vqx_planes_used(ctx));

    if (s.frame_skip_ref && (code = skip_frames(ref, s.frame_skip_ref, s.ref_path))) goto out;
    if (s.frame_skip_dist && (code = skip_frames(dis, s.frame_skip_dist, s.dis_path))) goto out;

    /* the total is bounded by every input whose size tells (read before the
     * readers move the inputs on) */
    Progress pg = { .shown = !s.quiet && isatty(STDERR_FILENO) };
    const uint64_t ref_left = vqx_input_frames_left(ref), dis_left = vqx_input_frames_left(dis);
    pg.total = ref_left < dis_left ? ref_left : dis_left;
    if (s.frame_cnt && s.frame_cnt < pg.total) pg.total = s.frame_cnt;

    const VqxReaderSettings rs = { .ctx = ctx, .limit = s.frame_cnt, .threads = s.reader_threads };
    if (vqx_reader_start(&ref_reader, ref, &rs, msg, sizeof(msg)) ||
        vqx_reader_start(&dis_reader, dis, &rs, msg, sizeof(msg))) {
        fprintf(stderr, "vqx: %s\n", msg);
        code = EXIT_INPUT;
        goto out;
    }
    pg.t0 = now_seconds();
    unsigned n_frames = 0;
    code = score_frames(ctx, &s, ref_reader, dis_reader, &n_frames, &pg);
    /* frames read ahead are not needed: they go, and pipes are read no more */
    vqx_reader_stop(&ref_reader);
    vqx_reader_stop(&dis_reader);

    if (vqx_flush(ctx)) {
        if (!notice_printed(&notices, vqx_last_error(ctx)))
            fprintf(stderr, "vqx: %s\n", vqx_last_error(ctx));
        if (!code) code = EXIT_METRIC;
    }
    const double elapsed = now_seconds() - pg.t0;
    const double fps = elapsed > 0 ? n_frames / elapsed : 0.;

    if (!n_frames && !code) {
        fprintf(stderr, "vqx: no frame to score\n");
        code = EXIT_INPUT;
    }
    /* no frame scored: nothing to write, and an existing file stays as it was */
    if (s.output_path && n_frames) {
        const VqxOutputSettings os = { .format = s.output_format, .precision = s.precision,
                                       .fps = fps };
        const int out_code = write_results(ctx, s.output_path, &os, umask_bits);
        if (!code) code = out_code;
    }
    if (s.plot_path && n_frames) {
        const VqxOutputSettings os = { .format = VQX_OUTPUT_SVG, .precision = s.precision };
        const int out_code = write_results(ctx, s.plot_path, &os, umask_bits);
        if (!code) code = out_code;
    }
    if (!s.quiet) print_summary(ctx, n_frames);

out:
    vqx_reader_stop(&ref_reader);
    vqx_reader_stop(&dis_reader);
    vqx_close(&ctx);
    vqx_input_close(&ref);
    vqx_input_close(&dis);
    free_cli(&s);
    return code;
}
