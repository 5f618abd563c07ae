/* pschema_unit.c - the profile files' reading and writing, below dsmprof:
 *   the loader and the schemas (profile/pschema*.c): both schemas well
 *     formed, every sample in tests/data valid, and each kind of bad input
 *     refused with one line naming the field (wrong type, null, missing,
 *     negative, fraction, NaN, 1e400, out of range, wrong array length,
 *     nesting, truncation, trailing data), non-regular files (/dev/zero, a
 *     FIFO, a directory) and files over the size limit refused at once;
 *   text hygiene (profile/ptext.c): UTF-8 validity and repair, terminal
 *     escaping;
 *   safe writing (profile/pfile.c) through the writers the runtime calls
 *     (profile_write_json, simprof_write_json): a symbolic link planted at
 *     the temporary name the writers used to use (PATH.tmpPID) is not
 *     followed, a FIFO, a character device, a symbolic link or a directory
 *     at PATH is refused and left alone, a write error (RLIMIT_FSIZE)
 *     leaves the old file and no temporary file, modes are kept;
 *     profile_path_check's answers, with nothing created;
 *   names with invalid UTF-8 and control bytes written as valid UTF-8 JSON.
 * `pschema_unit hostile-profile PATH` only writes such a profile (for
 * tests/dsmprof_hostile.sh).  Exit 0 on success, 1 on a failure. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "pfile.h"
#include "profile.h"
#include "pschema.h"
#include "ptext.h"
#include "simprof.h"

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) {                                                                                \
            printf("ok   ");                                                                       \
        } else {                                                                                   \
            printf("FAIL ");                                                                       \
            failures++;                                                                            \
        }                                                                                          \
        printf(__VA_ARGS__);                                                                       \
        printf("\n");                                                                              \
    } while (0)

static char dir[] = "/tmp/pschema_unit.XXXXXX";

static char *at(const char *name)
{
    static char buf[8][512];
    static int k;
    char *b = buf[k++ % 8];
    snprintf(b, sizeof buf[0], "%s/%s", dir, name);
    return b;
}

static void put_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(text, f) < 0 || fclose(f)) {
        printf("FAIL cannot write %s\n", path);
        exit(1);
    }
}

static char *get_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *b = malloc(1 << 22);
    size_t n = b ? fread(b, 1, (1 << 22) - 1, f) : 0;
    fclose(f);
    if (b)
        b[n] = '\0';
    if (len)
        *len = n;
    return b;
}

/* ---- the loader and the schemas ---- */

static void selfcheck(void)
{
    char err[512];
    CHECK(pschema_selfcheck(&pschema_profile, err, sizeof err) == 0, "dsm-profile/2 schema well formed %s",
          err);
    CHECK(pschema_selfcheck(&pschema_sim, err, sizeof err) == 0, "dsm-sim/1 schema well formed %s", err);
    /* and the check itself catches an undeclared parent */
    static const pschema_field bad_fields[] = {
        { "a.b", PS_INT, 0, 0, 0, NULL, NULL },
    };
    const pschema bad = { "x/1", "x", bad_fields, 1 };
    CHECK(pschema_selfcheck(&bad, err, sizeof err) == -1 && strstr(err, "parent a"),
          "selfcheck refuses an undeclared parent: %s", err);
}

static void samples(void)
{
    const char *srcdir = getenv("srcdir");
    static const struct {
        const char *file;
        const pschema *s;
    } files[] = {
        { "advice_sample.json", &pschema_profile }, { "html_timeslices.json", &pschema_profile },
        { "memspy_sample.json", &pschema_sim },     { "fp_run.json", &pschema_sim },
        { "fp_control.json", &pschema_sim },        { "fp_far.json", &pschema_sim },
    };
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        char path[1024], err[512] = "";
        snprintf(path, sizeof path, "%s/tests/data/%s", srcdir ? srcdir : ".", files[i].file);
        json_object *doc;
        CHECK(pschema_load(path, files[i].s, NULL, &doc, err, sizeof err) == 0,
              "sample %s valid %s", files[i].file, err);
        json_object_put(doc);
    }
}

#define PROFILE_HEAD "{\"schema\":\"dsm-profile/2\",\"nodes\":2,\"wall_seconds\":1.5,"

/* parse text as schema s: expect success (want NULL) or an error containing want */
static void parse(const char *what, const char *text, const pschema *s, const pschema_need *need,
                  const char *want)
{
    json_object *doc = NULL;
    char err[512] = "";
    int rc = pschema_parse(text, strlen(text), s, need, &doc, err, sizeof err);
    if (!want)
        CHECK(rc == 0 && doc, "%s: accepted %s", what, err);
    else
        CHECK(rc == -1 && !doc && strstr(err, want) && !strchr(err, '\n'),
              "%s: \"%s\" (want \"%s\")", what, err, want);
    json_object_put(doc);
}

static void parsing(void)
{
    const pschema *P = &pschema_profile, *S = &pschema_sim;
    parse("empty", "", P, NULL, "empty");
    parse("blank", "  \n ", P, NULL, "empty");
    parse("truncated", "{\"schema\": \"dsm-profile/2\", ", P, NULL, "truncated JSON");
    parse("an array", "[1, 2]", P, NULL, "not a JSON object");
    parse("null", "null", P, NULL, "not a JSON object");
    parse("a number", "5", P, NULL, "not a JSON object");
    parse("not JSON", "hello", P, NULL, "not valid JSON");
    parse("trailing data", PROFILE_HEAD "\"structures\":[]} x", P, NULL, "data after the document");
    parse("no schema", "{\"nodes\": 1}", P, NULL, "no \"schema\" member");
    parse("schema not a string", "{\"schema\": 5}", P, NULL, "\"schema\" is not a string");
    parse("other schema, escaped", "{\"schema\": \"x\\u001b[2J\"}", P, NULL,
          "schema is \"x\\x1b[2J\", expected \"dsm-profile/2\"");
    parse("minimal profile", PROFILE_HEAD "\"structures\":[]}", P, NULL, NULL);
    parse("nodes missing", "{\"schema\":\"dsm-profile/2\",\"wall_seconds\":1,\"structures\":[]}", P,
          NULL, "nodes: missing");
    parse("nodes 0", "{\"schema\":\"dsm-profile/2\",\"nodes\":0,\"wall_seconds\":1,\"structures\":[]}",
          P, NULL, "nodes: 0 is out of range [1, 65536]");
    parse("nodes 2.5", "{\"schema\":\"dsm-profile/2\",\"nodes\":2.5,\"wall_seconds\":1,\"structures\":[]}",
          P, NULL, "nodes: expected an integer, got the number 2.5");
    parse("wall NaN", "{\"schema\":\"dsm-profile/2\",\"nodes\":1,\"wall_seconds\":NaN,\"structures\":[]}",
          P, NULL, "wall_seconds: NaN is not a finite number");
    parse("wall 1e400", "{\"schema\":\"dsm-profile/2\",\"nodes\":1,\"wall_seconds\":1e400,\"structures\":[]}",
          P, NULL, "wall_seconds: 1e400 is not a finite number");
    parse("wall near DBL_MAX",
          "{\"schema\":\"dsm-profile/2\",\"nodes\":1,\"wall_seconds\":1.7e308,\"structures\":[]}", P,
          NULL, "wall_seconds: 1.7e308 is out of range");
    parse("wall negative", "{\"schema\":\"dsm-profile/2\",\"nodes\":1,\"wall_seconds\":-1,\"structures\":[]}",
          P, NULL, "wall_seconds: -1 is out of range");
    parse("structures missing", "{\"schema\":\"dsm-profile/2\",\"nodes\":1,\"wall_seconds\":1}", P, NULL,
          "structures: missing");
    parse("structure name missing", PROFILE_HEAD "\"structures\":[{\"name\":\"a\"},{}]}", P, NULL,
          "structures[1].name: missing");
    parse("structure name null", PROFILE_HEAD "\"structures\":[{\"name\":null}]}", P, NULL,
          "structures[0].name: expected a string, got null");
    parse("negative count",
          PROFILE_HEAD "\"structures\":[{\"name\":\"a\",\"metrics\":{\"memoryBlockTime\":-1}}]}", P,
          NULL, "structures[0].metrics.memoryBlockTime: -1 is out of range");
    parse("count below int64",
          PROFILE_HEAD "\"structures\":[{\"name\":\"a\",\"bytes\":-9223372036854775809}]}", P, NULL,
          "structures[0].bytes: -9223372036854775808 is out of range");
    parse("count past uint64 (json-c saturates)",
          PROFILE_HEAD "\"structures\":[{\"name\":\"a\",\"bytes\":99999999999999999999999}]}", P,
          NULL, NULL);
    parse("count as a string",
          PROFILE_HEAD "\"structures\":[{\"name\":\"a\",\"metrics\":{\"x\":\"7\"}}]}", P, NULL,
          "structures[0].metrics.x: expected an integer, got the string \"7\"");
    parse("per_node not an array",
          PROFILE_HEAD "\"structures\":[{\"name\":\"a\",\"metrics\":{\"per_node\":\"x\"}}]}", P, NULL,
          "structures[0].metrics.per_node: expected an array, got the string \"x\"");
    parse("share above 1",
          PROFILE_HEAD "\"structures\":[{\"name\":\"a\",\"false_sharing\":{\"share\":1.5}}]}", P, NULL,
          "structures[0].false_sharing.share: 1.5 is out of range [0, 1]");
    parse("range of 3 numbers",
          PROFILE_HEAD "\"structures\":[{\"name\":\"a\",\"false_sharing\":{\"top_blocks\":[{"
                       "\"writers\":[{\"node\":0,\"ranges\":[[0,8],[1,2,3]]}]}]}}]}",
          P, NULL,
          "structures[0].false_sharing.top_blocks[0].writers[0].ranges[1]: 3 elements, expected 2 to 2");
    parse("the older version",
          "{\"schema\":\"dsm-profile/1\",\"nodes\":1,\"wall_seconds\":1,\"structures\":[]}", P, NULL,
          "schema is \"dsm-profile/1\", expected \"dsm-profile/2\": a DSM profile of another version, "
          "which this dsmprof does not read (run the program again with this libdsm to write one it "
          "reads)");
    parse("a group's id out of range",
          PROFILE_HEAD "\"structures\":[],\"groups\":[{\"id\":-2}]}", P, NULL,
          "groups[0].id: -2 is out of range [-1, 4294967295]");
    parse("range not an array",
          PROFILE_HEAD "\"structures\":[{\"name\":\"a\",\"false_sharing\":{\"top_blocks\":[{\"writers\":"
                       "[{\"ranges\":[5]}]}]}}]}",
          P, NULL,
          "structures[0].false_sharing.top_blocks[0].writers[0].ranges[0]: expected an array, got "
          "the number 5");
    parse("block_list null", PROFILE_HEAD "\"structures\":[{\"name\":\"a\",\"block_list\":null}]}", P,
          NULL, NULL);
    parse("block_list a string", PROFILE_HEAD "\"structures\":[{\"name\":\"a\",\"block_list\":\"x\"}]}",
          P, NULL, "structures[0].block_list: expected an array or null, got the string \"x\"");
    parse("node metric a string", PROFILE_HEAD "\"structures\":[],\"per_node\":[{\"metrics\":"
                                               "{\"pageFaults\":\"x\"}}]}",
          P, NULL, "per_node[0].metrics.pageFaults: expected an integer");
    parse("node number out of range",
          PROFILE_HEAD "\"structures\":[],\"per_node\":[{\"node\":70000}]}", P, NULL,
          "per_node[0].node: 70000 is out of range");
    parse("timeslices interval 0 (no node kept slices)",
          PROFILE_HEAD "\"structures\":[],\"timeslices\":{\"interval_seconds\":0,\"slices\":[]}}", P,
          NULL, NULL);
    parse("timeslices interval negative",
          PROFILE_HEAD "\"structures\":[],\"timeslices\":{\"interval_seconds\":-0.1,\"slices\":[]}}",
          P, NULL, "timeslices.interval_seconds: -0.1 is out of range");
    parse("timeslices a bare list",
          PROFILE_HEAD "\"structures\":[],\"timeslices\":[{\"misses\":1},{\"misses\":true}]}", P, NULL,
          "timeslices[1].misses: expected an integer, got true");
    parse("unknown members ignored", PROFILE_HEAD "\"structures\":[],\"future\":{\"x\":[1]}}", P, NULL,
          NULL);
    char deep[400];
    snprintf(deep, sizeof deep, "%s\"structures\":[],\"x\":", PROFILE_HEAD);
    for (int i = 0; i < 100; i++)
        strcat(deep, "[");
    parse("nesting 100 deep", deep, P, NULL, "not valid JSON: nesting too deep");
    /* dsm-sim/1 and its flashpoint section */
    parse("minimal sim", "{\"schema\":\"dsm-sim/1\"}", S, NULL, NULL);
    static const pschema_need need[] = { { "flashpoint", "no flashpoint section" }, { NULL, NULL } };
    parse("a need", "{\"schema\":\"dsm-sim/1\"}", S, need, "no flashpoint section");
    parse("flashpoint mode null",
          "{\"schema\":\"dsm-sim/1\",\"flashpoint\":{\"schema\":\"flashpoint/1\",\"mode\":null}}", S, need,
          "flashpoint.mode: expected a string, got null");
    parse("flashpoint schema null", "{\"schema\":\"dsm-sim/1\",\"flashpoint\":{\"schema\":null}}", S, need,
          "flashpoint.schema: expected a string, got null");
    parse("flashpoint schema 9", "{\"schema\":\"dsm-sim/1\",\"flashpoint\":{\"schema\":\"flashpoint/9\"}}",
          S, need, "flashpoint.schema is \"flashpoint/9\", expected \"flashpoint/1\"");
    parse("memspy estimate past 2^64",
          "{\"schema\":\"dsm-sim/1\",\"sampling\":{\"estimates\":{\"by_bin\":[{\"stall_cycles\":2e19}]}}}",
          S, NULL, "sampling.estimates.by_bin[0].stall_cycles: 2e19 is out of range");
    parse("bin id below -1", "{\"schema\":\"dsm-sim/1\",\"by_bin\":[{\"bin\":-2}]}", S, NULL,
          "by_bin[0].bin: -2 is out of range");
    parse("model option key escaped",
          "{\"schema\":\"dsm-sim/1\",\"machine\":{\"model_options\":{\"a\\u001bb\":1}}}", S, NULL,
          "machine.model_options.a\\x1bb: expected a string");
}

static void loading(void)
{
    json_object *doc = NULL;
    char err[512];
    /* an alarm turns a hang (a read of /dev/zero, a FIFO's open) into a failure */
    alarm(20);
    err[0] = '\0';
    CHECK(pschema_load("/dev/zero", &pschema_profile, NULL, &doc, err, sizeof err) == -1 &&
              strstr(err, "is a character device"),
          "/dev/zero refused: %s", err);
    err[0] = '\0';
    CHECK(pschema_load(dir, &pschema_profile, NULL, &doc, err, sizeof err) == -1 &&
              strstr(err, "is a directory"),
          "a directory refused: %s", err);
    if (mkfifo(at("fifo.json"), 0600) == 0) {
        err[0] = '\0';
        CHECK(pschema_load(at("fifo.json"), &pschema_profile, NULL, &doc, err, sizeof err) == -1 &&
                  strstr(err, "is a FIFO"),
              "a FIFO without a writer refused at once: %s", err);
    }
    err[0] = '\0';
    CHECK(pschema_load(at("none.json"), &pschema_profile, NULL, &doc, err, sizeof err) == -1 &&
              strstr(err, "No such file"),
          "a missing file: %s", err);
    /* a sparse file over the limit: refused before a byte is read */
    int fd = open(at("huge.json"), O_CREAT | O_WRONLY | O_TRUNC, 0600);
    if (fd >= 0 && ftruncate(fd, (off_t)PSCHEMA_MAX_BYTES + 1) == 0) {
        err[0] = '\0';
        CHECK(pschema_load(at("huge.json"), &pschema_profile, NULL, &doc, err, sizeof err) == -1 &&
                  strstr(err, "more than the"),
              "a file over the limit refused: %s", err);
    }
    if (fd >= 0)
        close(fd);
    unlink(at("huge.json"));
    put_file(at("small.json"), PROFILE_HEAD "\"structures\":[]}");
    setenv("DSMPROF_MAX_BYTES", "10", 1);
    err[0] = '\0';
    CHECK(pschema_load(at("small.json"), &pschema_profile, NULL, &doc, err, sizeof err) == -1 &&
              strstr(err, "more than the 10 bytes"),
          "DSMPROF_MAX_BYTES=10: %s", err);
    setenv("DSMPROF_MAX_BYTES", "ten", 1);
    err[0] = '\0';
    CHECK(pschema_load(at("small.json"), &pschema_profile, NULL, &doc, err, sizeof err) == -1 &&
              strstr(err, "DSMPROF_MAX_BYTES=ten"),
          "a bad DSMPROF_MAX_BYTES named: %s", err);
    unsetenv("DSMPROF_MAX_BYTES");
    err[0] = '\0';
    CHECK(pschema_load(at("small.json"), &pschema_profile, NULL, &doc, err, sizeof err) == 0,
          "the small file within the default limit %s", err);
    json_object_put(doc);
    alarm(0);
}

/* ---- text ---- */

static void text(void)
{
    static const struct {
        const char *s;
        int valid;
        const char *repaired;
    } u[] = {
        { "plain", 1, "plain" },
        { "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 1, "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80" },
        { "a\xff" "b", 0, "a\xef\xbf\xbd" "b" },
        { "\xc0\xaf", 0, "\xef\xbf\xbd\xef\xbf\xbd" },             /* overlong '/' */
        { "\xed\xa0\x80", 0, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" }, /* a surrogate */
        { "\xf4\x90\x80\x80", 0, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd" }, /* > U+10FFFF */
        { "\xe2\x82", 0, "\xef\xbf\xbd\xef\xbf\xbd" },             /* cut short */
        { "\x01\x1b[2J", 1, "\x01\x1b[2J" },                         /* valid; JSON escapes them */
    };
    for (size_t i = 0; i < sizeof u / sizeof u[0]; i++) {
        char *r = ptext_utf8_repair(u[i].s);
        CHECK(ptext_utf8_valid(u[i].s) == u[i].valid && r && !strcmp(r, u[i].repaired) &&
                  ptext_utf8_valid(r),
              "utf-8 case %zu: valid %d, repaired", i, u[i].valid);
        free(r);
    }
    const char *s = "caf\xc3\xa9";
    CHECK(ptext_term(s) == s, "ptext_term returns clean text itself");
    static const struct {
        const char *in, *out;
    } t[] = {
        { "a\x1b[31mb", "a\\x1b[31mb" },
        { "tab\tnl\n", "tab\\x09nl\\x0a" },
        { "del\x7f", "del\\x7f" },
        { "csi\xc2\x9b" "1m", "csi\\xc2\\x9b1m" },
        { "bad\xff", "bad\\xff" },
        { "ok \xc3\xa9\x01", "ok \xc3\xa9\\x01" },
    };
    void *mark = ptext_mark();
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        CHECK(!strcmp(ptext_term(t[i].in), t[i].out), "ptext_term case %zu: %s", i, ptext_term(t[i].in));
    ptext_release_to(mark);
    ptext_release();
}

/* ---- writing ---- */

static json_object *sim_doc(const char *program, const char *bin)
{
    static sim_params p;
    memset(&p, 0, sizeof p);
    snprintf(p.machine, sizeof p.machine, "uniform");
    p.nprocs = 1;
    static sim_time cycles[1] = { 100 };
    static const char *bins[1];
    bins[0] = bin;
    static memspy *ms;
    if (!ms)
        ms = memspy_create();
    simprof_run run = {
        .program = program, .params = &p, .cycles = cycles, .references = 10,
        .bin_names = bins, .nbins = 1, .ms = ms,
    };
    return simprof_run_to_json(&run);
}

/* a profile with one structure, one procedure and one pair, named as given */
static int write_profile(const char *path, const char *name, char *err, size_t errlen)
{
    profile_input in;
    memset(&in, 0, sizeof in);
    in.nnodes = 1;
    in.block_size = 4096;
    in.wall_seconds = 1;
    uint64_t node_metrics[CM_NMETRICS] = { 0 };
    in.node_metrics = node_metrics;
    uint64_t per_node[CM_NBLOCK_METRICS] = { 0 };
    profile_causes cpn[1];
    memset(cpn, 0, sizeof cpn);
    char *path_frames[1] = { (char *)name };
    profile_structure st;
    memset(&st, 0, sizeof st);
    st.name = (char *)name;
    st.kind = "site";
    st.site_function = (char *)name;
    st.site_file = (char *)name;
    st.path = path_frames;
    st.npath = 1;
    st.per_node = per_node;
    st.causes_per_node = cpn;
    in.structures = &st;
    in.nstructures = 1;
    profile_procedure pr;
    memset(&pr, 0, sizeof pr);
    pr.name = (char *)name;
    pr.file = (char *)name;
    in.procedures = &pr;
    in.nprocedures = 1;
    profile_pair pa;
    memset(&pa, 0, sizeof pa);
    in.pairs = &pa;
    in.npairs = 1;
    return profile_write_json(&in, path, err, errlen);
}

#define HOSTILE_NAME "evil\x1b[2J\x01\xff\xc0\xaf\xed\xa0\x80 name"

static int leftovers(void)
{
    /* temporary files are hidden: ".NAME.XXXXXXXXXX.tmp" */
    DIR *d = opendir(dir);
    int n = 0;
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (strstr(e->d_name, ".tmp"))
            n++;
    if (d)
        closedir(d);
    return n;
}

static void writing(void)
{
    char err[512];
    json_object *doc = sim_doc("prog", "X");
    /* 1. a symbolic link at the guessable temporary name is not followed */
    put_file(at("victim"), "victim\n");
    char tmpname[600];
    snprintf(tmpname, sizeof tmpname, "%s.tmp%ld", at("sim.json"), (long)getpid());
    CHECK(symlink(at("victim"), tmpname) == 0, "planted %s -> victim", tmpname);
    err[0] = '\0';
    int rc = simprof_write_json(doc, at("sim.json"), err, sizeof err);
    char *v = get_file(at("victim"), NULL);
    struct stat st;
    CHECK(rc == 0 && v && !strcmp(v, "victim\n") && lstat(at("sim.json"), &st) == 0 &&
              S_ISREG(st.st_mode),
          "simprof_write_json: the planted link's target untouched, a regular file written %s", err);
    free(v);
    snprintf(tmpname, sizeof tmpname, "%s.tmp%ld", at("p.json"), (long)getpid());
    CHECK(symlink(at("victim"), tmpname) == 0, "planted %s -> victim", tmpname);
    err[0] = '\0';
    rc = write_profile(at("p.json"), "x", err, sizeof err);
    v = get_file(at("victim"), NULL);
    CHECK(rc == 0 && v && !strcmp(v, "victim\n") && lstat(at("p.json"), &st) == 0 &&
              S_ISREG(st.st_mode),
          "profile_write_json: the planted link's target untouched, a regular file written %s", err);
    free(v);
    snprintf(tmpname, sizeof tmpname, "%s.tmp%ld", at("sim.json"), (long)getpid());
    unlink(tmpname);
    snprintf(tmpname, sizeof tmpname, "%s.tmp%ld", at("p.json"), (long)getpid());
    unlink(tmpname);

    /* 2. what is not a regular file is refused and left as it was */
    CHECK(mkfifo(at("fifo"), 0600) == 0, "made a FIFO");
    err[0] = '\0';
    rc = simprof_write_json(doc, at("fifo"), err, sizeof err);
    CHECK(rc == -1 && strstr(err, "is a FIFO") && lstat(at("fifo"), &st) == 0 && S_ISFIFO(st.st_mode),
          "a FIFO refused and kept: %s", err);
    err[0] = '\0';
    rc = write_profile(at("fifo"), "x", err, sizeof err);
    CHECK(rc == -1 && strstr(err, "is a FIFO") && lstat(at("fifo"), &st) == 0 && S_ISFIFO(st.st_mode),
          "profile_write_json: a FIFO refused and kept: %s", err);
    if (geteuid() == 0 && mknod(at("null"), S_IFCHR | 0666, makedev(1, 3)) == 0) {
        err[0] = '\0';
        rc = write_profile(at("null"), "x", err, sizeof err);
        CHECK(rc == -1 && strstr(err, "is a character device") && lstat(at("null"), &st) == 0 &&
                  S_ISCHR(st.st_mode),
              "a character device (as root) refused and kept: %s", err);
    } else {
        printf("skip a character device: not root\n");
    }
    CHECK(symlink(at("victim"), at("link.json")) == 0, "made a symbolic link");
    err[0] = '\0';
    rc = simprof_write_json(doc, at("link.json"), err, sizeof err);
    v = get_file(at("victim"), NULL);
    CHECK(rc == -1 && strstr(err, "is a symbolic link") && lstat(at("link.json"), &st) == 0 &&
              S_ISLNK(st.st_mode) && v && !strcmp(v, "victim\n"),
          "a symbolic link at the path refused, link and target kept: %s", err);
    free(v);
    CHECK(mkdir(at("adir"), 0700) == 0, "made a directory");
    err[0] = '\0';
    rc = simprof_write_json(doc, at("adir"), err, sizeof err);
    CHECK(rc == -1 && strstr(err, "is a directory"), "a directory refused: %s", err);
    err[0] = '\0';
    rc = simprof_write_json(doc, at("nodir/x.json"), err, sizeof err);
    CHECK(rc == -1 && strstr(err, "does not exist"), "a missing directory: %s", err);

    /* 3. a write error keeps the old file and leaves no temporary file */
    put_file(at("old.json"), "old\n");
    chmod(at("old.json"), 0640);
    json_object *big = sim_doc("a-program-name-long-enough-to-need-more-than-one-kilobyte", "X");
    /* the soft limit only: the hard one could not be raised back */
    struct rlimit old_lim, lim;
    getrlimit(RLIMIT_FSIZE, &old_lim);
    lim = old_lim;
    lim.rlim_cur = 512;
    signal(SIGXFSZ, SIG_IGN);
    setrlimit(RLIMIT_FSIZE, &lim);
    err[0] = '\0';
    rc = simprof_write_json(big, at("old.json"), err, sizeof err);
    setrlimit(RLIMIT_FSIZE, &old_lim);
    v = get_file(at("old.json"), NULL);
    CHECK(rc == -1 && strstr(err, "File too large") && v && !strcmp(v, "old\n") && !leftovers(),
          "a write error: reported, old file intact, no temporary file: %s", err);
    free(v);
    json_object_put(big);
    /* 4. modes: a replaced file keeps its own, a new one 0666 less the umask */
    err[0] = '\0';
    rc = simprof_write_json(doc, at("old.json"), err, sizeof err);
    CHECK(rc == 0 && stat(at("old.json"), &st) == 0 && (st.st_mode & 07777) == 0640,
          "a replaced file keeps mode 0640 (%o) %s", (unsigned)(st.st_mode & 07777), err);
    chmod(at("old.json"), 06750);
    rc = simprof_write_json(doc, at("old.json"), err, sizeof err);
    CHECK(rc == 0 && stat(at("old.json"), &st) == 0 && (st.st_mode & 07777) == 0750,
          "a replaced set-id file keeps 0750 without its set-id bits (%o) %s",
          (unsigned)(st.st_mode & 07777), err);
    mode_t um = umask(027);
    rc = simprof_write_json(doc, at("new.json"), err, sizeof err);
    umask(um);
    CHECK(rc == 0 && stat(at("new.json"), &st) == 0 && (st.st_mode & 07777) == 0640,
          "a new file under umask 027 gets 0640 (%o)", (unsigned)(st.st_mode & 07777));
    CHECK(!leftovers(), "no temporary file left behind");
    json_object_put(doc);

    /* 5. profile_path_check, which creates nothing */
    static const struct {
        const char *name, *want;
    } pc[] = {
        { "fresh.json", NULL },
        { "old.json", NULL },
        { "nodir/x.json", "directory " },
        { "adir", "is a directory" },
        { "fifo", "is a FIFO" },
        { "link.json", "is a symbolic link" },
        { "old.json/x", "Not a directory" },
        { "", "empty path" },
    };
    for (size_t i = 0; i < sizeof pc / sizeof pc[0]; i++) {
        char why[512] = "";
        const char *path = *pc[i].name ? at(pc[i].name) : "";
        rc = profile_path_check(path, why, sizeof why);
        CHECK(pc[i].want ? rc == -1 && strstr(why, pc[i].want) : rc == 0,
              "profile_path_check(%s): %d %s", pc[i].name, rc, why);
    }
    CHECK(access(at("fresh.json"), F_OK) != 0, "profile_path_check created nothing");
    if (geteuid() != 0) {
        CHECK(mkdir(at("ro"), 0500) == 0, "made a read-only directory");
        char why[512] = "";
        rc = profile_path_check(at("ro/x.json"), why, sizeof why);
        CHECK(rc == -1 && strstr(why, "cannot create files in directory"), "a read-only directory: %s",
              why);
    } else {
        printf("skip a read-only directory: root may write anywhere\n");
    }
}

/* ---- names that are not UTF-8, or hold control bytes ---- */

static void names(void)
{
    char err[512] = "";
    int rc = write_profile(at("names.json"), HOSTILE_NAME, err, sizeof err);
    size_t len;
    char *text = get_file(at("names.json"), &len);
    CHECK(rc == 0 && text && strlen(text) == len && ptext_utf8_valid(text),
          "profile with hostile names: the file is valid UTF-8 %s", err);
    CHECK(text && !strchr(text, '\x1b') && !strchr(text, '\x01') && strstr(text, "\\u001b[2J\\u0001"),
          "profile: control bytes escaped in the JSON");
    free(text);
    json_object *doc = NULL;
    err[0] = '\0';
    rc = pschema_load(at("names.json"), &pschema_profile, NULL, &doc, err, sizeof err);
    json_object *st = NULL, *name = NULL;
    if (!rc) {
        json_object_object_get_ex(doc, "structures", &st);
        json_object_object_get_ex(json_object_array_get_idx(st, 0), "name", &name);
    }
    CHECK(rc == 0 && name &&
              !strcmp(json_object_get_string(name),
                      "evil\x1b[2J\x01\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
                      "\xef\xbf\xbd name"),
          "profile: the name reads back repaired, control bytes kept %s", err);
    json_object_put(doc);

    json_object *sdoc = sim_doc("prog\xff\x1b", "bin\xc0\xaf");
    err[0] = '\0';
    rc = simprof_write_json(sdoc, at("simnames.json"), err, sizeof err);
    json_object_put(sdoc);
    text = get_file(at("simnames.json"), &len);
    CHECK(rc == 0 && text && strlen(text) == len && ptext_utf8_valid(text) && !strchr(text, '\x1b'),
          "dsm-sim/1 with hostile names: valid UTF-8, control bytes escaped %s", err);
    free(text);
}

static void cleanup(void)
{
    static const char *const names[] = {
        "fifo.json", "small.json", "victim", "sim.json", "p.json", "fifo", "null", "link.json",
        "old.json", "new.json", "names.json", "simnames.json", "fresh.json",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        unlink(at(names[i]));
    char tmpname[600];
    snprintf(tmpname, sizeof tmpname, "%s.tmp%ld", at("sim.json"), (long)getpid());
    unlink(tmpname);
    snprintf(tmpname, sizeof tmpname, "%s.tmp%ld", at("p.json"), (long)getpid());
    unlink(tmpname);
    rmdir(at("adir"));
    rmdir(at("ro"));
    rmdir(dir);
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "hostile-profile")) {
        char err[512];
        if (write_profile(argv[2], HOSTILE_NAME, err, sizeof err)) {
            fprintf(stderr, "pschema_unit: %s: %s\n", argv[2], err);
            return 1;
        }
        return 0;
    }
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 99;
    }
    selfcheck();
    samples();
    parsing();
    loading();
    text();
    writing();
    names();
    cleanup();
    if (failures)
        printf("FAIL: %d failure(s)\n", failures);
    return failures ? 1 : 0;
}
