/* dsmprof_mutate.c - the schema-mutation test of dsmprof.
 *
 * Each valid sample in tests/data is mutated one field at a time: at the
 * first occurrence of every schema path (structures[].metrics.x, not each
 * structure's), the value is removed, or replaced by null, a value of each
 * other type, a negative, fractional, zero, huge (DBL_MAX, 1e400, 2^64-1,
 * past 2^64, below -2^63) or tiny number, NaN, +-Infinity, a string of
 * control bytes, of invalid UTF-8, a long or an empty string; an array
 * also gets a stray element.  A few whole-document mutations (truncations,
 * another root) come on top.  Every dsmprof command is then run on the
 * mutant (in a worker process, through dsmprof_run, with a time limit):
 * each must end with status 0 or 2, print nothing on stderr when it
 * succeeds and exactly one line when it does not, and never crash or hang.
 * A failing mutant is kept as tests/dsmprof_mutate-fail.json.
 *
 * First, the HTML renderer is run on unvalidated profiles whose numbers
 * reach the ends of the double range (its axes once looped forever near
 * DBL_MAX): it must return.  Exit 0 on success, 1 on a failure. */
#include <errno.h>
#include <fcntl.h>
#include <float.h>
#include <json.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "advice.h"
#include "dsmprof.h"
#include "html.h"

#define TIME_LIMIT 20 /* seconds per command: a hang, not a slow machine */

static char dir[] = "/tmp/dsmprof_mutate.XXXXXX";
static char *report; /* shared with the children: what failed */
#define REPORT_SIZE 4096
static int failures, mutants, runs;

static char *at(const char *name)
{
    static char buf[8][512];
    static int k;
    char *b = buf[k++ % 8];
    snprintf(b, sizeof buf[0], "%s/%s", dir, name);
    return b;
}

/* ---- the HTML axes on unvalidated extremes ---- */

static json_object *extreme_profile(double wall, double interval)
{
    json_object *p = json_object_new_object();
    json_object_object_add(p, "schema", json_object_new_string("dsm-profile/2"));
    json_object_object_add(p, "nodes", json_object_new_int(2));
    json_object_object_add(p, "wall_seconds", json_object_new_double(wall));
    json_object *nodes = json_object_new_array();
    for (int n = 0; n < 2; n++) {
        json_object *o = json_object_new_object();
        json_object_object_add(o, "memoryBlockTime", json_object_new_uint64(UINT64_MAX - (uint64_t)n));
        json_object_object_add(o, "barrier_wait", json_object_new_uint64(1));
        json_object_array_add(nodes, o);
    }
    json_object_object_add(p, "per_node", nodes);
    json_object *st = json_object_new_array(), *s = json_object_new_object(),
                *m = json_object_new_object();
    json_object_object_add(s, "name", json_object_new_string("s"));
    json_object_object_add(m, "memoryBlockTime", json_object_new_uint64(UINT64_MAX));
    json_object_object_add(s, "metrics", m);
    json_object_array_add(st, s);
    json_object_object_add(p, "structures", st);
    json_object *ts = json_object_new_object(), *sl = json_object_new_array();
    json_object_object_add(ts, "interval_seconds", json_object_new_double(interval));
    for (int i = 0; i < 3; i++) {
        json_object *o = json_object_new_object();
        json_object_object_add(o, "misses", json_object_new_uint64(UINT64_MAX / (uint64_t)(i + 1)));
        json_object_array_add(sl, o);
    }
    json_object_object_add(ts, "slices", sl);
    json_object_object_add(p, "timeslices", ts);
    return p;
}

static void axes(void)
{
    static const double v[] = { DBL_MAX, 1e308, 1e300, 1.5, 1e-300, 5e-324, 0, -1e308 };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        pid_t pid = fork();
        if (pid == 0) {
            alarm(TIME_LIMIT);
            FILE *out = fopen("/dev/null", "w");
            json_object *p = extreme_profile(v[i], v[i]);
            advice_thresholds t;
            advice_thresholds_default(&t);
            char err[256];
            int rc = out ? html_write_with(p, &t, "extreme", out, err, sizeof err) : -1;
            json_object_put(p);
            _exit(rc == 0 ? 0 : 1);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
        if (!ok)
            failures++;
        printf("%s html on an unvalidated profile with wall_seconds = interval = %g: %s\n",
               ok ? "ok  " : "FAIL", v[i],
               WIFSIGNALED(status) ? (WTERMSIG(status) == SIGALRM ? "hangs" : "crashes")
               : ok              ? "returns"
                                 : "fails");
    }
}

/* ---- mutations ---- */

enum {
    M_MISSING, M_NULL, M_STRING, M_TRUE, M_OBJECT, M_ARRAY, M_ONE, M_MINUS_ONE, M_MINUS_HALF,
    M_HALF, M_ZERO, M_DBL_MAX, M_1E400, M_U64_MAX, M_PAST_U64, M_BELOW_I64, M_NAN, M_INF,
    M_MINUS_INF, M_DENORMAL, M_CONTROL, M_BAD_UTF8, M_LONG, M_EMPTY, M_STRAY, M_NKINDS
};
static const char *const kind_names[M_NKINDS] = {
    "removed", "null", "a string", "true", "an object", "an array", "1", "-1", "-0.5", "0.5", "0",
    "DBL_MAX", "1e400", "2^64-1", "past 2^64", "below -2^63", "NaN", "Infinity", "-Infinity",
    "5e-324", "control bytes", "invalid UTF-8", "a long string", "an empty string",
    "a stray array element",
};

static json_object *value_of(int kind)
{
    static char long_string[4097];
    switch (kind) {
    case M_NULL: return NULL;
    case M_STRING: return json_object_new_string("x");
    case M_TRUE: return json_object_new_boolean(1);
    case M_OBJECT: return json_object_new_object();
    case M_ARRAY: return json_object_new_array();
    case M_ONE: return json_object_new_int(1);
    case M_MINUS_ONE: return json_object_new_int(-1);
    case M_MINUS_HALF: return json_object_new_double(-0.5);
    case M_HALF: return json_object_new_double(0.5);
    case M_ZERO: return json_object_new_int(0);
    case M_DBL_MAX: return json_object_new_double(DBL_MAX);
    /* written as the text given: what a hand-edited file may hold */
    case M_1E400: return json_object_new_double_s(INFINITY, "1e400");
    case M_U64_MAX: return json_object_new_uint64(UINT64_MAX);
    case M_PAST_U64: return json_object_new_double_s(1e23, "99999999999999999999999");
    case M_BELOW_I64: return json_object_new_double_s(-9.3e18, "-9223372036854775809");
    case M_NAN: return json_object_new_double_s(NAN, "NaN");
    case M_INF: return json_object_new_double_s(INFINITY, "Infinity");
    case M_MINUS_INF: return json_object_new_double_s(-INFINITY, "-Infinity");
    case M_DENORMAL: return json_object_new_double_s(5e-324, "5e-324");
    case M_CONTROL: return json_object_new_string("ctl\x1b[2J\x1b]0;title\x07\x01\x7f\xc2\x9b");
    case M_BAD_UTF8: return json_object_new_string("bad\xff\xfe\xc0\xaf\xed\xa0\x80");
    case M_LONG:
        memset(long_string, 'A', sizeof long_string - 1);
        return json_object_new_string(long_string);
    case M_EMPTY: return json_object_new_string("");
    }
    return NULL;
}

/* A place in a document: the steps from the root, keys or indices. */
#define MAXSTEPS 16
typedef struct step {
    const char *key; /* NULL: an array index */
    size_t index;
} step;
typedef struct place {
    step s[MAXSTEPS];
    int n;
    char path[512]; /* the schema path, for messages */
} place;

static place *places;
static size_t nplaces, cap;
/* schema paths already taken, by an earlier place or sample */
static char **seen;
static size_t nseen;

static int cur_sim; /* the two formats share names ("pairs"), not schemas */

static int was_seen(const char *path)
{
    char key[600];
    snprintf(key, sizeof key, "%d:%s", cur_sim, path);
    for (size_t i = 0; i < nseen; i++)
        if (!strcmp(seen[i], key))
            return 1;
    seen = realloc(seen, (nseen + 1) * sizeof *seen);
    seen[nseen++] = strdup(key);
    return 0;
}

static void collect(json_object *v, place *p)
{
    if (p->n && !was_seen(p->path)) {
        if (nplaces == cap) {
            cap = cap ? 2 * cap : 256;
            places = realloc(places, cap * sizeof *places);
        }
        places[nplaces++] = *p;
    }
    if (p->n == MAXSTEPS)
        return;
    size_t len = strlen(p->path);
    if (json_object_is_type(v, json_type_object)) {
        json_object_object_foreach(v, key, member)
        {
            p->s[p->n++] = (step){ key, 0 };
            snprintf(p->path + len, sizeof p->path - len, "%s%s", len ? "." : "", key);
            collect(member, p);
            p->n--;
            p->path[len] = '\0';
        }
    } else if (json_object_is_type(v, json_type_array) && json_object_array_length(v)) {
        p->s[p->n++] = (step){ NULL, 0 };
        snprintf(p->path + len, sizeof p->path - len, "[]");
        collect(json_object_array_get_idx(v, 0), p);
        p->n--;
        p->path[len] = '\0';
    }
}

/* Does a kind test something new on a value of type t?  Every kind is a
 * wrong type for some values; one wrong type of each family is enough. */
static int applies(int kind, json_type t)
{
    int number = t == json_type_int || t == json_type_double;
    switch (kind) {
    case M_MISSING: case M_NULL: case M_STRING: case M_TRUE: case M_OBJECT: case M_ARRAY:
    case M_ONE:
        return 1;
    case M_NAN: return number || t == json_type_string;
    case M_STRAY: return t == json_type_array;
    case M_CONTROL: case M_BAD_UTF8: case M_LONG: case M_EMPTY: return t == json_type_string;
    default: return number;
    }
}

/* Mutate a copy of doc at p: the copy, or NULL when the kind does not
 * apply to the value there. */
static json_object *at_place(json_object *doc, const place *p, int depth)
{
    for (int i = 0; i < depth; i++)
        doc = p->s[i].key ? json_object_object_get(doc, p->s[i].key)
                          : json_object_array_get_idx(doc, p->s[i].index);
    return doc;
}

static json_object *mutate(json_object *doc, const place *p, int kind)
{
    json_object *copy = NULL;
    if (!applies(kind, json_object_get_type(at_place(doc, p, p->n))) ||
        json_object_deep_copy(doc, &copy, NULL))
        return NULL;
    json_object *parent = at_place(copy, p, p->n - 1);
    const step *last = &p->s[p->n - 1];
    if (kind == M_STRAY) {
        json_object_array_add(at_place(copy, p, p->n), json_object_new_string("stray"));
    } else if (kind == M_MISSING) {
        if (last->key)
            json_object_object_del(parent, last->key);
        else
            json_object_array_del_idx(parent, last->index, 1);
    } else if (last->key) {
        json_object_object_add(parent, last->key, value_of(kind));
    } else {
        json_object_array_put_idx(parent, last->index, value_of(kind));
    }
    return copy;
}

/* ---- running the commands ---- */

typedef struct sample {
    const char *file;
    int sim;           /* dsm-sim/1, else dsm-profile/2 */
    char path[512];
    char name[256];    /* its first structure or bin, for --structure / --bin */
    json_object *doc;
} sample;

static sample samples[] = {
    { "advice_sample.json", 0, "", "", NULL }, { "html_timeslices.json", 0, "", "", NULL },
    { "memspy_sample.json", 1, "", "", NULL }, { "fp_run.json", 1, "", "", NULL },
    { "fp_control.json", 1, "", "", NULL },    { "fp_far.json", 1, "", "", NULL },
    { "origin_run.json", 1, "", "", NULL },
};
#define NSAMPLES (sizeof samples / sizeof samples[0])

/* Run one command line in this (child) process; 0, or -1 with the
 * problem in report. */
static int run_one(char **argv, int argc, const char *what)
{
    int err = open(at("stderr"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (err < 0 || dup2(err, 2) < 0)
        _exit(99);
    close(err);
    snprintf(report, REPORT_SIZE, "%s: dsmprof", what);
    for (int i = 1; i < argc; i++)
        snprintf(report + strlen(report), REPORT_SIZE - strlen(report), " %s", argv[i]);
    alarm(TIME_LIMIT);
    int rc = dsmprof_run(argc, argv);
    alarm(0);
    fflush(stdout);
    clearerr(stdout);
    fflush(stderr);
    FILE *f = fopen(at("stderr"), "r");
    int lines = 0, c, last = '\n';
    while (f && (c = getc(f)) != EOF) {
        lines += c == '\n';
        last = c;
    }
    if (f)
        fclose(f);
    lines += last != '\n';
    const char *bad = rc != 0 && rc != 2 ? "exit status neither 0 nor 2"
                      : rc == 0 && lines ? "success with something on stderr"
                      : rc == 2 && lines != 1 ? "not exactly one line on stderr"
                                              : NULL;
    if (!bad)
        return 0;
    snprintf(report + strlen(report), REPORT_SIZE - strlen(report), ": %s (status %d, %d lines)",
             bad, rc, lines);
    return -1;
}

#define NLINES 12
/* Every command on file m (the mutant of sample s): 0 or -1.  (html -o,
 * whose fsync would dominate the time, is tested by dsmprof_hostile.sh.) */
static int run_all(const char *m, const sample *s, const char *what)
{
    const char *profile = samples[0].path, *run = samples[3].path, *control = samples[4].path;
    const char *structure = s->sim ? samples[0].name : s->name;
    const char *bin = s->sim && *s->name ? s->name : samples[2].name;
    const char *lines[NLINES][7] = {
        { "report", m },
        { "report", m, "--structure", structure },
        { "csv", m },
        { "diff", m, profile },
        { "html", m },
        { "advice", m },
        { "memspy", m },
        { "memspy", m, "--bin", bin },
        { "flashpoint", m, control },
        { "flashpoint", run, m, "--top", "20" },
        { "origin", m },
        { "origin", m, "--dump" },
    };
    for (size_t i = 0; i < NLINES; i++) {
        char *argv[9] = { "dsmprof" };
        int argc = 1;
        while (argc < 8 && lines[i][argc - 1])
            argv[argc] = (char *)lines[i][argc - 1], argc++;
        argv[argc] = NULL;
        if (run_one(argv, argc, what))
            return -1;
    }
    return 0;
}

/* ---- the worker ----
 * One worker process runs the commands of mutant after mutant.  A child
 * forked per mutant copied the parent's heap pages as it touched them, each
 * copy a TLB flush that a virtual machine makes slow: most of the test's
 * time, and 300 s beside another job.  The worker is replaced when it
 * crashes or hangs (SIGALRM, run_one), and that mutant is reported as
 * before; a defect that damaged the worker's heap without crashing it could
 * show on a later mutant, which is then named instead (the kept file
 * replays it in a fresh process either way). */
typedef struct {
    int sample;      /* index in samples[] */
    char what[256];  /* the mutation, for the report */
} job;

static pid_t worker = -1;
static int to_worker = -1, from_worker = -1;

static void worker_loop(int in, int out)
{
    int null = open("/dev/null", O_WRONLY);
    if (null < 0 || dup2(null, 1) < 0)
        _exit(99);
    job j;
    while (read(in, &j, sizeof j) == (ssize_t)sizeof j) {
        char verdict = run_all(at("mutant.json"), &samples[j.sample], j.what) ? 1 : 0;
        if (write(out, &verdict, 1) != 1)
            _exit(99);
    }
    _exit(0);
}

static void worker_start(void)
{
    int req[2], ans[2];
    fflush(stdout);
    if (pipe(req) || pipe(ans)) {
        perror("pipe");
        exit(99);
    }
    worker = fork();
    if (worker < 0) {
        perror("fork");
        exit(99);
    }
    if (worker == 0) {
        close(req[1]);
        close(ans[0]);
        worker_loop(req[0], ans[1]);
    }
    close(req[0]);
    close(ans[1]);
    to_worker = req[1];
    from_worker = ans[0];
}

/* The worker's end: its exit status (as waitpid's), the pipes closed. */
static int worker_stop(void)
{
    int status = 0;
    close(to_worker);
    close(from_worker);
    while (waitpid(worker, &status, 0) < 0 && errno == EINTR)
        ;
    worker = -1;
    return status;
}

/* Write text as a mutant and have the worker run everything on it. */
static void try(const char *text, size_t len, const sample *s, const char *what)
{
    const char *m = at("mutant.json");
    FILE *f = fopen(m, "w");
    if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
        printf("FAIL cannot write %s\n", m);
        exit(1);
    }
    mutants++;
    report[0] = '\0';
    if (worker < 0)
        worker_start();
    job j = { .sample = (int)(s - samples) };
    snprintf(j.what, sizeof j.what, "%s", what);
    char verdict = 1;
    int died = write(to_worker, &j, sizeof j) != (ssize_t)sizeof j;
    while (!died) {
        ssize_t r = read(from_worker, &verdict, 1);
        if (r == 1)
            break;
        if (r < 0 && errno == EINTR)
            continue;
        died = 1;
    }
    runs += NLINES;
    int status = died ? worker_stop() : 0;
    if (!died && verdict == 0)
        return;
    failures++;
    if (!report[0])
        snprintf(report, REPORT_SIZE, "%s: the worker", what);
    if (died && WIFSIGNALED(status))
        printf("FAIL %s: %s\n", report,
               WTERMSIG(status) == SIGALRM ? "hangs (time limit)" : strsignal(WTERMSIG(status)));
    else
        printf("FAIL %s\n", report);
    /* keep the first failing mutant for replay */
    if (failures == 1) {
        FILE *keep = fopen("tests/dsmprof_mutate-fail.json", "w");
        if (keep) {
            fwrite(text, 1, len, keep);
            fclose(keep);
            printf("     (kept as tests/dsmprof_mutate-fail.json)\n");
        }
    }
}

static void mutate_sample(sample *s)
{
    place root;
    memset(&root, 0, sizeof root);
    nplaces = 0;
    cur_sim = s->sim;
    collect(s->doc, &root);
    int before = failures, n = 0;
    for (size_t i = 0; i < nplaces && failures < before + 20; i++) {
        for (int kind = 0; kind < M_NKINDS; kind++) {
            json_object *m = mutate(s->doc, &places[i], kind);
            if (!m)
                continue;
            size_t len;
            const char *text = json_object_to_json_string_length(
                m, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE, &len);
            char what[700];
            snprintf(what, sizeof what, "%s, %s %s", s->file, places[i].path, kind_names[kind]);
            try(text, len, s, what);
            json_object_put(m);
            n++;
        }
    }
    /* whole documents: cut short anywhere, another root */
    size_t len;
    const char *text = json_object_to_json_string_length(s->doc, JSON_C_TO_STRING_PLAIN, &len);
    for (size_t cut = 0; cut < len; cut += len / 23 + 1) {
        char what[600];
        snprintf(what, sizeof what, "%s cut at byte %zu", s->file, cut);
        try(text, cut, s, what);
        n++;
    }
    static const char *const roots[] = { "[]", "null", "\"dsm-profile/2\"", "{}", "{\"schema\":null}" };
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        try(roots[i], strlen(roots[i]), s, roots[i]);
        n++;
    }
    printf("%s %s: %zu new schema paths, %d mutants\n", failures == before ? "ok  " : "FAIL",
           s->file, nplaces, n);
}

int main(void)
{
    const char *srcdir = getenv("srcdir");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 99;
    }
    report = mmap(NULL, REPORT_SIZE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (report == MAP_FAILED)
        return 99;
    axes();
    for (size_t i = 0; i < NSAMPLES; i++) {
        sample *s = &samples[i];
        snprintf(s->path, sizeof s->path, "%s/tests/data/%s", srcdir ? srcdir : ".", s->file);
        s->doc = json_object_from_file(s->path);
        if (!s->doc) {
            printf("FAIL cannot read %s\n", s->path);
            return 1;
        }
        json_object *list = json_object_object_get(s->doc, s->sim ? "by_bin" : "structures");
        json_object *first = json_object_is_type(list, json_type_array) && json_object_array_length(list)
                                 ? json_object_array_get_idx(list, 0)
                                 : NULL;
        const char *name = json_object_get_string(json_object_object_get(first, "name"));
        snprintf(s->name, sizeof s->name, "%s", name ? name : "");
    }
    /* the originals pass, as they must for the mutants to mean anything */
    for (size_t i = 0; i < NSAMPLES; i++) {
        size_t len;
        const char *text = json_object_to_json_string_length(samples[i].doc, 0, &len);
        try(text, len, &samples[i], samples[i].file);
    }
    printf("%s every command on the unmutated samples\n", failures ? "FAIL" : "ok  ");
    for (size_t i = 0; i < NSAMPLES; i++)
        mutate_sample(&samples[i]);
    if (worker >= 0)
        worker_stop();
    printf("%d mutants, %d command lines, %d failure(s)\n", mutants, runs, failures);
    for (size_t i = 0; i < NSAMPLES; i++)
        json_object_put(samples[i].doc);
    unlink(at("mutant.json"));
    unlink(at("out.html"));
    unlink(at("stderr"));
    rmdir(dir);
    return failures ? 1 : 0;
}
