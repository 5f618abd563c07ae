/* dsmprof_cmds.c - `dsmprof html FILE [-o OUT]` and `dsmprof advice FILE`
 * (dsmprof.h).  Options are parsed by hand rather than with getopt because
 * the threshold options are generated from advice.h's names. */
#include "advice.h"
#include "dsmprof.h"
#include "html.h"
#include "pfile.h"
#include "pjson.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f, const char *cmd)
{
    dsmprof_usage(f, cmd);
    if (!strcmp(cmd, "html"))
        fprintf(f, "  -o OUT.html   write the page to OUT.html (replaced whole, or not at all;\n"
                   "                a regular file only), '-' or no -o: standard output\n"
                   "  --title TEXT  the page's heading (default: the file's name)\n");
    else
        fprintf(f, "  --first       only the most useful finding, on one line\n");
    fprintf(f, "  thresholds (percent; also DSM_ADVICE_NAME with NAME upper case, '-' as '_'):");
    for (int i = 0; i < ADVICE_NTHRESHOLDS; i++)
        fprintf(f, " %s", advice_threshold_names[i]);
    fprintf(f, "\n  see doc/advice.md\n");
}

typedef struct opts {
    const char *file, *out, *title;
    int first;
    advice_thresholds t;
} opts;

/* 0, -1 for --help (printed), or 1 (bad usage, as dsmprof's other
 * commands) after a message. */
static int parse(int argc, char **argv, opts *o)
{
    const char *cmd = argv[0];
    int html = !strcmp(cmd, "html");
    char err[256];
    memset(o, 0, sizeof *o);
    advice_thresholds_default(&o->t);
    /* the environment first, so the command line wins */
    if (advice_thresholds_from_env(&o->t, err, sizeof err)) {
        fprintf(stderr, "dsmprof %s: %s\n", cmd, err);
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout, cmd);
            return -1;
        } else if (html && (!strcmp(a, "-o") || !strcmp(a, "--output") || !strcmp(a, "--title"))) {
            if (i + 1 >= argc) {
                fprintf(stderr, "dsmprof %s: %s needs a value\n", cmd, a);
                return 1;
            }
            if (!strcmp(a, "--title"))
                o->title = argv[++i];
            else
                o->out = argv[++i];
        } else if (html && !strncmp(a, "--output=", 9)) {
            o->out = a + 9;
        } else if (html && !strncmp(a, "--title=", 8)) {
            o->title = a + 8;
        } else if (!html && !strcmp(a, "--first")) {
            o->first = 1;
        } else if (!strncmp(a, "--threshold-", 12)) {
            char name[64];
            const char *eq = strchr(a + 12, '='), *val;
            size_t len = eq ? (size_t)(eq - (a + 12)) : strlen(a + 12);
            snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1),
                     a + 12);
            if (eq) {
                val = eq + 1;
            } else if (i + 1 < argc) {
                val = argv[++i];
            } else {
                fprintf(stderr, "dsmprof %s: %s needs a value\n", cmd, a);
                return 1;
            }
            if (advice_threshold_set(&o->t, name, val, err, sizeof err)) {
                fprintf(stderr, "dsmprof %s: %s\n", cmd, err);
                return 1;
            }
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "dsmprof %s: unknown option %s\n", cmd, ptext_term(a));
            usage(stderr, cmd);
            return 1;
        } else if (!o->file) {
            o->file = a;
        } else {
            fprintf(stderr, "dsmprof %s: one profile file only (got %s and %s)\n", cmd,
                    ptext_term(o->file), ptext_term(a));
            return 1;
        }
    }
    if (!o->file) {
        usage(stderr, cmd);
        return 1;
    }
    return 0;
}

int dsmprof_advice(int argc, char **argv)
{
    opts o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    json_object *p = dsmprof_load(o.file, &pschema_profile, NULL);
    if (!p)
        return DSMPROF_BAD_INPUT;
    advice_finding *v;
    size_t n;
    char err[256];
    if (advice_run(p, &o.t, &v, &n, err, sizeof err)) {
        fprintf(stderr, "dsmprof advice: %s: %s\n", ptext_term(o.file), err);
        json_object_put(p);
        return DSMPROF_BAD_INPUT;
    }
    if (o.first) {
        char line[2048];
        if (advice_first_line(v, n, line, sizeof line))
            printf("%s\n", line);
    } else {
        printf("dsmprof advice: %s: %d nodes, %.3f s wall time, blocks of %llu bytes\n",
               ptext_term(o.file),
               json_object_get_int(pj_get(p, "nodes")), pj_double(p, "wall_seconds"),
               (unsigned long long)pj_u64(p, "block_size"));
        advice_print(stdout, v, n, &o.t);
    }
    advice_free(v, n);
    free(v);
    json_object_put(p);
    return DSMPROF_OK;
}

int dsmprof_html(int argc, char **argv)
{
    opts o;
    int rc = parse(argc, argv, &o);
    if (rc)
        return rc < 0 ? 0 : rc;
    json_object *p = dsmprof_load(o.file, &pschema_profile, NULL);
    if (!p)
        return DSMPROF_BAD_INPUT;
    char err[512];
    pfile out = { stdout, NULL, NULL };
    int to_file = o.out && strcmp(o.out, "-");
    if (to_file && pfile_open(&out, o.out, err, sizeof err)) {
        fprintf(stderr, "dsmprof html: %s: %s\n", ptext_term(o.out), err);
        json_object_put(p);
        return DSMPROF_USAGE;
    }
    /* the page's heading names the file it shows, without its directory */
    const char *title = o.title;
    if (!title) {
        const char *slash = strrchr(o.file, '/');
        title = slash ? slash + 1 : o.file;
    }
    rc = html_write_with(p, &o.t, title, out.f, err, sizeof err);
    json_object_put(p);
    if (to_file) {
        if (rc)
            pfile_abort(&out);
        else
            rc = pfile_commit(&out, err, sizeof err);
    }
    if (rc) {
        fprintf(stderr, "dsmprof html: %s: %s\n", to_file ? ptext_term(o.out) : "standard output",
                err);
        return DSMPROF_USAGE;
    }
    return DSMPROF_OK;
}
