#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "io/reader.h"

#define VQX_STRING_(x) #x
#define VQX_STRING(x) VQX_STRING_(x)

enum {
    ARG_XML = 256,
    ARG_JSON,
    ARG_CSV,
    ARG_SUB,
    ARG_THREADS,
    ARG_FEATURE,
    ARG_SUBSAMPLE,
    ARG_CPUMASK,
    ARG_FRAME_CNT,
    ARG_FRAME_SKIP_REF,
    ARG_FRAME_SKIP_DIST,
    ARG_PRECISION,
    ARG_BACKEND,
    ARG_STRICT_BACKEND,
    ARG_HELP,
    ARG_AOM_CTC,
    ARG_NFLX_CTC,
    ARG_PLOT,
    ARG_GPU,
};

static const struct option long_options[] = {
    { "reference",       required_argument, NULL, 'r' },
    { "distorted",       required_argument, NULL, 'd' },
    { "width",           required_argument, NULL, 'w' },
    { "height",          required_argument, NULL, 'h' },
    { "pixel_format",    required_argument, NULL, 'p' },
    { "bitdepth",        required_argument, NULL, 'b' },
    { "model",           required_argument, NULL, 'm' },
    { "output",          required_argument, NULL, 'o' },
    { "xml",             no_argument,       NULL, ARG_XML },
    { "json",            no_argument,       NULL, ARG_JSON },
    { "csv",             no_argument,       NULL, ARG_CSV },
    { "sub",             no_argument,       NULL, ARG_SUB },
    { "plot",            required_argument, NULL, ARG_PLOT },
    { "threads",         required_argument, NULL, ARG_THREADS },
    { "feature",         required_argument, NULL, ARG_FEATURE },
    { "subsample",       required_argument, NULL, ARG_SUBSAMPLE },
    { "cpumask",         required_argument, NULL, ARG_CPUMASK },
    { "frame_cnt",       required_argument, NULL, ARG_FRAME_CNT },
    { "frame_skip_ref",  required_argument, NULL, ARG_FRAME_SKIP_REF },
    { "frame_skip_dist", required_argument, NULL, ARG_FRAME_SKIP_DIST },
    { "no_prediction",   no_argument,       NULL, 'n' },
    { "quiet",           no_argument,       NULL, 'q' },
    { "version",         no_argument,       NULL, 'v' },
    { "precision",       required_argument, NULL, ARG_PRECISION },
    { "backend",         required_argument, NULL, ARG_BACKEND },
    { "strict_backend",  no_argument,       NULL, ARG_STRICT_BACKEND },
    { "gpu",             required_argument, NULL, ARG_GPU },
    { "help",            no_argument,       NULL, ARG_HELP },
    { "aom_ctc",         required_argument, NULL, ARG_AOM_CTC },
    { "nflx_ctc",        required_argument, NULL, ARG_NFLX_CTC },
    { NULL, 0, NULL, 0 },
};

static void print_help(const char *app)
{
    printf("Usage: %s -r REF -d DIS [options]\n\n"
           "Inputs (.y4m is detected from its header; raw .yuv needs -w -h -p -b):\n"
           "  -r, --reference PATH        reference video (- for the standard input)\n"
           "  -d, --distorted PATH        distorted video (- for the standard input)\n"
           "  -w, --width N               width of raw input\n"
           "  -h, --height N              height of raw input\n"
           "  -p, --pixel_format F        420, 422, 444 or 400 for raw input\n"
           "  -b, --bitdepth N            8, 10, 12 or 16 for raw input\n"
           "      --frame_cnt N           score at most N frames\n"
           "      --frame_skip_ref N      skip the first N reference frames\n"
           "      --frame_skip_dist N     skip the first N distorted frames\n"
           "\n"
           "What to compute:\n"
           "  -m, --model SPEC            version=NAME or path=FILE, then :name=OUT,\n"
           "                              :disable_clip, :enable_transform,\n"
           "                              :FEATURE.OPTION=VALUE (repeatable;\n"
           "                              default version=vmaf_v0.6.1 named vmaf)\n"
           "      --feature NAME[=K=V:K=V] feature extractor with options (repeatable)\n"
           "  -n, --no_prediction         features only, no model\n"
           "      --aom_ctc v1.0..v7.0    models and features of the AOM common test\n"
           "                              conditions, as libvmaf defines them\n"
           "      --nflx_ctc v1.0         the same for Netflix's test conditions\n"
           "      --subsample N           score every N-th frame\n"
           "\n"
           "How:\n"
           "      --threads N             worker threads (0: all work in one thread)\n"
           "      --backend NAME          cpu (default), cuda or vulkan: features with a\n"
           "                              twin there run on the GPU, the others on the CPU\n"
           "      --strict_backend        fail instead of running a feature on the CPU\n"
           "      --gpu N                 the GPU of --backend cuda or vulkan (the CUDA\n"
           "                              device index, or the index among the Vulkan\n"
           "                              devices vqx can use; default 0)\n"
           "      --cpumask N             SIMD levels not to use, libvmaf's bits: 1 SSE2,\n"
           "                              2 SSSE3, 4 SSE4.1, 8 AVX2, 16 AVX-512, 32 AVX-512\n"
           "                              ICL; 63: the scalar C (values are equal anyway)\n"
           "\n"
           "Output:\n"
           "  -o, --output PATH           write per-frame, pooled and aggregate scores\n"
           "      --xml | --json | --csv | --sub   output format (default xml)\n"
           "      --plot PATH             also write an SVG plot: one panel per score, the\n"
           "                              per-frame curve, the mean, the worst frames marked\n"
           "      --precision N|max       decimals (default: libvmaf's 6, 16 for tiny\n"
           "                              values); max prints doubles that round-trip\n"
           "  -q, --quiet                 nothing on stderr but errors\n"
           "  -v, --version               print the version\n"
           "      --help                  this text\n"
           "\n"
           "Features:", app);
    for (unsigned i = 0; vqx_feature_name(i); i++)
        printf("%s %s", i ? "," : "", vqx_feature_name(i));
    printf("\n\nExit codes: 0 ok, 1 a metric failed, 2 usage, 3 input cannot be used,\n"
           "4 input truncated, unreadable or above its bit depth's peak (complete frames\n"
           "written), 5 output not written.\n");
}

static int usage_error(const char *app, const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", app);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(see %s --help)\n", app);
    return EXIT_USAGE;
}

static int parse_unsigned(const char *arg, unsigned *out)
{
    char *end;
    errno = 0;
    if (arg[0] == '-') return -EINVAL;
    const unsigned long v = strtoul(arg, &end, 0);
    if (errno || end == arg || *end || v > UINT_MAX) return -EINVAL;
    *out = (unsigned)v;
    return 0;
}

static int parse_layout(const char *arg, enum VqxPixelLayout *out)
{
    static const struct { const char *name; enum VqxPixelLayout layout; } names[] = {
        { "420", VQX_PIX_420 }, { "422", VQX_PIX_422 }, { "444", VQX_PIX_444 }, { "400", VQX_PIX_400 },
    };
    for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        if (!strcmp(arg, names[i].name)) {
            *out = names[i].layout;
            return 0;
        }
    }
    return -EINVAL;
}

/* Add a feature; `replace` swaps an earlier request of the same extractor. */
static int add_feature(CliSettings *s, const char *spec, bool replace)
{
    char *name = strdup(spec);
    if (!name || s->n_owned == 2 * CLI_MAX_ITEMS) {
        free(name);
        return -ENOMEM;
    }
    s->owned[s->n_owned++] = name;
    char *eq = strchr(name, '=');
    if (eq) *eq = 0;
    const CliFeature f = { name, eq ? eq + 1 : NULL };
    for (unsigned i = 0; replace && i < s->n_features; i++) {
        if (!strcmp(s->features[i].name, name)) {
            s->features[i] = f;
            return 0;
        }
    }
    if (s->n_features == CLI_MAX_ITEMS) return -ENOMEM;
    s->features[s->n_features++] = f;
    return 0;
}

static int add_model(CliSettings *s, const char *spec)
{
    if (s->n_models == CLI_MAX_ITEMS) return -ENOMEM;
    s->models[s->n_models++] = spec;
    return 0;
}

/* libvmaf's presets (tools/cli_parse.c of libvmaf 3.2): each version adds
 * to the one before it. */
static int add_aom_ctc(CliSettings *s, unsigned version)
{
    int err = 0;
    err |= add_model(s, "version=vmaf_v0.6.1:name=vmaf");
    err |= add_model(s, "version=vmaf_v0.6.1neg:name=vmaf_neg");
    err |= add_feature(s, "psnr=reduced_hbd_peak=true:enable_apsnr=true:min_sse=0.5", false);
    err |= add_feature(s, "ciede", false);
    err |= add_feature(s, "float_ssim=enable_db=true:clip_db=true", false);
    err |= add_feature(s, "float_ms_ssim=enable_db=true:clip_db=true", false);
    err |= add_feature(s, "psnr_hvs", false);
    if (version >= 3) err |= add_feature(s, "cambi", false);
    if (version >= 6) s->common_bitdepth = true;
    if (version >= 7) err |= add_feature(s, "float_ssim=scale=1:enable_db=true:clip_db=true", true);
    return err;
}

static int add_nflx_ctc(CliSettings *s)
{
    int err = 0;
    err |= add_model(s, "version=vmaf_4k_v0.6.1:name=vmaf");
    err |= add_model(s, "version=vmaf_4k_v0.6.1neg:name=vmaf_neg");
    err |= add_feature(s, "psnr=enable_chroma=true:enable_apsnr=true", false);
    err |= add_feature(s, "float_ssim=enable_db=true:clip_db=true", false);
    err |= add_feature(s, "cambi", false);
    return err;
}

static int parse_args(CliSettings *s, int argc, char *const *argv)
{
    const char *app = "vqx";
    memset(s, 0, sizeof(*s));
    s->output_format = VQX_OUTPUT_XML;
    s->precision = VQX_PRECISION_LIBVMAF;
    s->backend = VQX_BACKEND_CPU;
    unsigned raw_fields = 0;

    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":r:d:w:h:p:b:m:o:nqv", long_options, NULL)) != -1) {
        switch (c) {
        case 'r': s->ref_path = optarg; break;
        case 'd': s->dis_path = optarg; break;
        case 'w':
            if (parse_unsigned(optarg, &s->raw.w) || !s->raw.w)
                return usage_error(app, "invalid width '%s'", optarg);
            raw_fields |= 1;
            break;
        case 'h':
            if (parse_unsigned(optarg, &s->raw.h) || !s->raw.h)
                return usage_error(app, "invalid height '%s'", optarg);
            raw_fields |= 2;
            break;
        case 'p':
            if (parse_layout(optarg, &s->raw.layout))
                return usage_error(app, "invalid pixel format '%s' (420, 422, 444 or 400)", optarg);
            raw_fields |= 4;
            break;
        case 'b':
            if (parse_unsigned(optarg, &s->raw.bpc) || s->raw.bpc < 8 || s->raw.bpc > 16)
                return usage_error(app, "invalid bit depth '%s' (8 to 16)", optarg);
            raw_fields |= 8;
            break;
        case 'm':
            if (add_model(s, optarg))
                return usage_error(app, "too many models (at most %s)", "64");
            break;
        case 'o': s->output_path = optarg; break;
        case ARG_XML:  s->output_format = VQX_OUTPUT_XML; break;
        case ARG_JSON: s->output_format = VQX_OUTPUT_JSON; break;
        case ARG_CSV:  s->output_format = VQX_OUTPUT_CSV; break;
        case ARG_SUB:  s->output_format = VQX_OUTPUT_SUB; break;
        case ARG_PLOT: s->plot_path = optarg; break;
        case ARG_THREADS:
            if (parse_unsigned(optarg, &s->threads) || s->threads > 1024)
                return usage_error(app, "invalid thread count '%s' (0 to 1024)", optarg);
            break;
        case ARG_FEATURE:
            if (add_feature(s, optarg, false))
                return usage_error(app, "too many features (at most %s)", "64");
            break;
        case ARG_AOM_CTC: {
            static const char *const versions[] = { "v1.0", "v2.0", "v3.0", "v4.0", "v5.0", "v6.0", "v7.0" };
            unsigned v = 0;
            while (v < 7 && strcmp(optarg, versions[v])) v++;
            if (v == 7)
                return usage_error(app, "unknown --aom_ctc version '%s' (v1.0 to v7.0)", optarg);
            if (add_aom_ctc(s, v + 1))
                return usage_error(app, "too many features or models with --aom_ctc %s", optarg);
            break;
        }
        case ARG_NFLX_CTC:
            if (strcmp(optarg, "v1.0"))
                return usage_error(app, "unknown --nflx_ctc version '%s' (v1.0)", optarg);
            if (add_nflx_ctc(s))
                return usage_error(app, "too many features or models with --nflx_ctc %s", optarg);
            break;
        case ARG_SUBSAMPLE:
            if (parse_unsigned(optarg, &s->subsample))
                return usage_error(app, "invalid subsample '%s'", optarg);
            break;
        case ARG_CPUMASK:
            if (parse_unsigned(optarg, &s->cpumask) || s->cpumask > 63)
                return usage_error(app, "invalid cpumask '%s' (a set bit disables: 1 SSE2, 2 SSSE3, "
                                   "4 SSE4.1, 8 AVX2, 16 AVX-512, 32 AVX-512 ICL; 63: C only)", optarg);
            break;
        case ARG_FRAME_CNT:
            if (parse_unsigned(optarg, &s->frame_cnt))
                return usage_error(app, "invalid frame count '%s'", optarg);
            break;
        case ARG_FRAME_SKIP_REF:
            if (parse_unsigned(optarg, &s->frame_skip_ref))
                return usage_error(app, "invalid frame skip '%s'", optarg);
            break;
        case ARG_FRAME_SKIP_DIST:
            if (parse_unsigned(optarg, &s->frame_skip_dist))
                return usage_error(app, "invalid frame skip '%s'", optarg);
            break;
        case ARG_PRECISION: {
            unsigned p;
            if (!strcmp(optarg, "max")) s->precision = VQX_PRECISION_MAX;
            else if (!parse_unsigned(optarg, &p) && p <= 17) s->precision = (int)p;
            else return usage_error(app, "invalid precision '%s' (0 to 17, or max)", optarg);
            break;
        }
        case ARG_BACKEND:
            if (!strcmp(optarg, "cpu")) s->backend = VQX_BACKEND_CPU;
            else if (!strcmp(optarg, "cuda")) s->backend = VQX_BACKEND_CUDA;
            else if (!strcmp(optarg, "vulkan")) s->backend = VQX_BACKEND_VULKAN;
            else return usage_error(app, "unknown backend '%s' (backends: cpu, cuda, vulkan)", optarg);
            break;
        case ARG_STRICT_BACKEND:
            s->strict_backend = true;
            break;
        case ARG_GPU:
            if (parse_unsigned(optarg, &s->gpu)) return usage_error(app, "invalid GPU '%s'", optarg);
            s->gpu_given = true;
            break;
        case 'n': s->no_prediction = true; break;
        case 'q': s->quiet = true; break;
        case 'v':
            printf("vqx %s\n", vqx_version());
            return EXIT_OK;
        case ARG_HELP:
            print_help(app);
            return EXIT_OK;
        case ':':
            return usage_error(app, "option '%s' needs a value", argv[optind - 1]);
        default:
            return usage_error(app, "unknown option '%s'", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return usage_error(app, "unexpected argument '%s'", argv[optind]);
    if (!s->ref_path) return usage_error(app, "%s", "no reference (-r) given");
    if (!s->dis_path) return usage_error(app, "%s", "no distorted (-d) given");
    if (!strcmp(s->ref_path, "-") && !strcmp(s->dis_path, "-"))
        return usage_error(app, "%s", "only one input can be the standard input (-)");
    if (s->gpu_given && s->backend == VQX_BACKEND_CPU)
        return usage_error(app, "%s", "--gpu picks the GPU of --backend cuda or vulkan, neither of "
                           "which is given");
    if (raw_fields && raw_fields != 15)
        return usage_error(app, "%s", "raw input needs all of -w, -h, -p and -b");
    const char *reader_threads = getenv("VQX_READER_THREADS");
    if (reader_threads && (parse_unsigned(reader_threads, &s->reader_threads) ||
                           !s->reader_threads || s->reader_threads > VQX_READER_MAX_THREADS))
        return usage_error(app, "VQX_READER_THREADS '%s' is not a number from 1 to "
                           VQX_STRING(VQX_READER_MAX_THREADS), reader_threads);
    s->raw_given = raw_fields == 15;
    return -1;
}

/* Every return of parse_args but "go on" ends the program: what it
 * allocated is freed here, once, whichever return it took. */
int parse_cli(CliSettings *s, int argc, char *const *argv)
{
    const int code = parse_args(s, argc, argv);
    if (code >= 0) free_cli(s);
    return code;
}

void free_cli(CliSettings *s)
{
    for (unsigned i = 0; i < s->n_owned; i++)
        free(s->owned[i]);
    s->n_owned = 0;
}
