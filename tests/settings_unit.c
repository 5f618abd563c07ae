/* settings_unit.c - the settings table and its loader (dsm/settings.c):
 * defaults, every kind of bad value refused with a line naming the variable,
 * the value and the accepted range, the region kept inside user space, the
 * digest that dsm_init compares across nodes, the line naming the settings
 * that differ, and the check of the files node 0 will write. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "node.h"
#include "settings.h"

static int failures;
static char tmpdir[256];

static void check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void check(int ok, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    printf("%s ", ok ? "ok  " : "FAIL");
    vprintf(fmt, ap);
    printf("\n");
    va_end(ap);
    failures += !ok;
}

static void clear_env(void)
{
    for (size_t i = 0; i < dsm_nsettings; i++)
        unsetenv(dsm_settings[i].name);
}

/* Run fn with stderr captured into out. */
static int captured(int (*fn)(void *), void *arg, char *out, size_t n)
{
    char path[300];
    snprintf(path, sizeof path, "%s/stderr", tmpdir);
    fflush(stderr);
    int saved = dup(2);
    FILE *f = fopen(path, "w+");
    if (!f || saved < 0) {
        perror("settings_unit: capture");
        exit(99);
    }
    dup2(fileno(f), 2);
    int rc = fn(arg);
    fflush(stderr);
    dup2(saved, 2);
    close(saved);
    rewind(f);
    size_t k = fread(out, 1, n - 1, f);
    out[k] = '\0';
    fclose(f);
    return rc;
}

static dsm_config the_cfg;
static int load(void *prefix) { return dsm_config_load(&the_cfg, prefix); }
static int check_paths_plain(void *unused)
{
    (void)unused;
    return dsm_config_check_paths(&the_cfg, 0, "unit");
}
static int check_paths_sim(void *unused)
{
    (void)unused;
    return dsm_config_check_paths(&the_cfg, 1, "unit");
}

/* Load with one variable set; 0 or -1, the message in msg. */
static int load_with(const char *var, const char *value, char *msg, size_t n)
{
    clear_env();
    if (var)
        setenv(var, value, 1);
    int rc = captured(load, (void *)"unit", msg, n);
    if (var)
        unsetenv(var);
    return rc;
}

static void table_sane(void)
{
    for (size_t i = 0; i < dsm_nsettings; i++) {
        const dsm_setting *s = &dsm_settings[i];
        for (size_t j = 0; j < i; j++)
            if (!strcmp(s->name, dsm_settings[j].name))
                check(0, "%s appears twice in the table", s->name);
        if ((s->flags & DSM_SET_AGREE) && s->field == DSM_SET_NOFIELD)
            check(0, "%s must agree but fills no field of dsm_config", s->name);
        if (strncmp(s->name, "DSM_", 4) || !s->doc || !*s->doc)
            check(0, "%s: a name beginning DSM_ and one line of documentation", s->name);
        if (dsm_setting_find(s->name) != s)
            check(0, "dsm_setting_find(%s)", s->name);
    }
    check(dsm_nsettings > 20 && dsm_nsettings <= DSM_SETTINGS_MAX,
          "the table has %zu rows, at most DSM_SETTINGS_MAX", dsm_nsettings);
}

static void defaults(void)
{
    char msg[1024];
    int rc = load_with(NULL, NULL, msg, sizeof msg);
    check(rc == 0 && !*msg, "the defaults load (%s)", msg);
    dsm_config *c = &the_cfg;
    check(c->block_size == (size_t)sysconf(_SC_PAGESIZE), "block size is the page size");
    check(c->region_size == (size_t)1 << 30, "region 1G");
    check(c->region_addr == 0x5a0000000000ULL, "region address");
    check(c->locks == 1024 && c->spin_us == DSM_SET_AUTO_VALUE && c->hold_us == 5,
          "locks, spin auto, hold");
    check(!c->homes_cyclic && c->patterns && c->counters, "homes blocked, patterns and counters on");
    check(c->timeslice_ms == 100 && !c->stats_path, "timeslice 100, no statistics");
    check(c->profile_path && !strcmp(c->profile_path, "dsm-profile.json") && c->profile_summary,
          "profile dsm-profile.json with its summary");
    check(c->shm_slots == 0 && !c->machine, "dsmrun chooses the slots; not simulated");
    check(c->sim_procs == 1 && c->sim_quantum == 100 && c->sim_stack == (size_t)8 << 20 &&
              c->sim_profile && !strcmp(c->sim_profile, "dsm-sim.json"),
          "simulation defaults");
}

static void accepted(void)
{
    char msg[1024];
    struct {
        const char *var, *value;
    } ok[] = { { "DSM_LOCKS", "64" },          { "DSM_HOMES", "cyclic" },
               { "DSM_PROFILE", "off" },        { "DSM_BLOCK_SIZE", "16K" },
               { "DSM_REGION_SIZE", "5000" },   { "DSM_SHM_SLOTS", "1024" },
               { "DSM_TRANSPORT", "mpi" },      { "DSM_REGION_ADDR", "0x100000000" },
               { "DSM_SIM_STACK", "64K" },      { "DSM_PROFILE_SUMMARY", "off" },
               { "DSM_REGION_SIZE", "1T" },     { "DSM_SPIN_US", "7" },
               { "DSM_SPIN_US", "auto" } };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        int rc = load_with(ok[i].var, ok[i].value, msg, sizeof msg);
        check(rc == 0, "%s=%s accepted %s", ok[i].var, ok[i].value, msg);
        if (rc)
            continue;
        if (!strcmp(ok[i].var, "DSM_LOCKS"))
            check(the_cfg.locks == 64, "DSM_LOCKS=64 gives 64 locks");
        if (!strcmp(ok[i].var, "DSM_HOMES"))
            check(the_cfg.homes_cyclic == 1, "DSM_HOMES=cyclic");
        if (!strcmp(ok[i].var, "DSM_PROFILE"))
            check(the_cfg.profile_path == NULL, "DSM_PROFILE=off: no profile");
        if (!strcmp(ok[i].var, "DSM_BLOCK_SIZE"))
            check(the_cfg.block_size == 16384, "DSM_BLOCK_SIZE=16K");
        if (!strcmp(ok[i].value, "5000"))
            check(the_cfg.region_size == (size_t)sysconf(_SC_PAGESIZE) * 2 ||
                      the_cfg.region_size >= 5000,
                  "DSM_REGION_SIZE=5000 rounded up to whole blocks (%zu)", the_cfg.region_size);
        if (!strcmp(ok[i].var, "DSM_SHM_SLOTS"))
            check(the_cfg.shm_slots == 1024, "DSM_SHM_SLOTS=1024");
        if (!strcmp(ok[i].var, "DSM_PROFILE_SUMMARY"))
            check(the_cfg.profile_summary == 0, "DSM_PROFILE_SUMMARY=off");
        if (!strcmp(ok[i].var, "DSM_SPIN_US"))
            check(the_cfg.spin_us == (strcmp(ok[i].value, "auto") ? 7 : DSM_SET_AUTO_VALUE),
                  "DSM_SPIN_US=%s", ok[i].value);
    }
}

/* DSM_SPIN_US=auto: no spin when the host runs more nodes than it has
 * cores (the waiter would take its home's core), a spin otherwise; a
 * number is taken as it is. */
static void spin_policy(void)
{
    static dsm_rt rt;
    rt.cfg.spin_us = DSM_SET_AUTO_VALUE;
    dsm_rt_spin_policy(&rt, 3, 2);
    check(rt.spin_ns == 0, "auto, 3 nodes on 2 cores: no spin (%llu ns)",
          (unsigned long long)rt.spin_ns);
    dsm_rt_spin_policy(&rt, 2, 2);
    check(rt.spin_ns > 0, "auto, 2 nodes on 2 cores: a spin");
    uint64_t local = rt.spin_ns;
    /* a read miss waits for its home's downgrade: the spin covers it,
     * within the remote spin's bound */
    rt.downgrade_ns = 45000;
    dsm_rt_spin_policy(&rt, 2, 2);
    check(rt.spin_ns == local + 45000 && rt.spin_cap_ns == rt.spin_ns,
          "auto, 2 nodes on 2 cores, 45 us downgrades: the spin covers one (%llu ns)",
          (unsigned long long)rt.spin_ns);
    rt.downgrade_ns = 10000000000ull;
    dsm_rt_spin_policy(&rt, 2, 2);
    check(rt.spin_ns > local && rt.spin_ns <= 200000, "auto, 10 s downgrades: the spin stays bounded (%llu ns)",
          (unsigned long long)rt.spin_ns);
    rt.downgrade_ns = 0;
    rt.nnodes = 4; /* 2 of them on other hosts: a round trip over the network */
    dsm_rt_spin_policy(&rt, 2, 2);
    check(rt.spin_ns > local && rt.spin_cap_ns == rt.spin_ns,
          "auto, peers on other hosts: a longer spin (%llu ns against %llu)",
          (unsigned long long)rt.spin_ns, (unsigned long long)local);
    rt.nnodes = 0;
    rt.cfg.spin_us = 7;
    dsm_rt_spin_policy(&rt, 8, 2);
    check(rt.spin_ns == 7000, "DSM_SPIN_US=7 on an oversubscribed host: 7 us");
    check(dsm_rt_cores() >= 1, "at least one usable core");
}

/* Settings that do nothing without another are refused, naming both. */
static void dependencies(void)
{
    char msg[1024];
    int rc = load_with("DSM_PREFETCH", "8", msg, sizeof msg);
    check(rc == -1 && strstr(msg, "unit: DSM_PREFETCH=8 needs DSM_ADAPT=on"),
          "DSM_PREFETCH=8 without DSM_ADAPT refused (%s)", msg);
    rc = load_with("DSM_PREFETCH", "1", msg, sizeof msg);
    check(rc == 0 && !*msg, "DSM_PREFETCH=1 (off) without DSM_ADAPT accepted (%s)", msg);
    clear_env();
    setenv("DSM_ADAPT", "on", 1);
    setenv("DSM_PREFETCH", "8", 1);
    rc = captured(load, (void *)"unit", msg, sizeof msg);
    check(rc == 0 && the_cfg.prefetch == 8 && the_cfg.adapt,
          "DSM_PREFETCH=8 with DSM_ADAPT=on accepted (%s)", msg);
    clear_env();
    setenv("DSM_ADAPT", "on", 1);
    setenv("DSM_PATTERNS", "off", 1);
    rc = captured(load, (void *)"unit", msg, sizeof msg);
    check(rc == -1 && strstr(msg, "unit: DSM_ADAPT=on needs DSM_PATTERNS=on"),
          "DSM_ADAPT=on with DSM_PATTERNS=off refused (%s)", msg);
    clear_env();
}

/* Every refusal names the variable with its value, and what is accepted. */
static void refused(void)
{
    char msg[1024];
    struct {
        const char *var, *value, *says;
    } bad[] = {
        { "DSM_BLOCK_SIZE", "3", "is not a power of two from 32 to 16M; below the page size (" },
        { "DSM_BLOCK_SIZE", "32M", "from 32 to 16M" },
        { "DSM_REGION_SIZE", "2T", "is not a size from one block (" },
        { "DSM_REGION_ADDR", "0x1001", "is not an address aligned to the block size" },
        { "DSM_REGION_ADDR", "0", "is below 0x" },
        { "DSM_REGION_ADDR", "0x7fffffff0000", "the end of user space" },
        { "DSM_REGION_ADDR", "0xfffffffffff00000", "the end of user space" },
        { "DSM_LOCKS", "0", "is not a number from 1 to 1048576" },
        { "DSM_LOCKS", "010x", "is not a number from 1 to 1048576" },
        { "DSM_LOCKS", "-1", "is not a number from 1 to 1048576" },
        { "DSM_SPIN_US", "1000001", "is not a number of microseconds from 0 to 1000000" },
        { "DSM_HOLD_US", "x", "is not a number of microseconds from 0 to 1000000" },
        { "DSM_HOMES", "random", "is neither 'blocked' nor 'cyclic'" },
        { "DSM_PATTERNS", "maybe", "is neither 'on' nor 'off'" },
        { "DSM_COUNTERS", "1", "is neither 'on' nor 'off'" },
        { "DSM_TIMESLICE_MS", "0", "is not a number of milliseconds from 1 to 3600000" },
        { "DSM_PROFILE_SUMMARY", "yes", "is neither 'on' nor 'off'" },
        { "DSM_SHM_SLOTS", "5", "is not a power of two from 2 to 65536" },
        { "DSM_SHM_SLOTS", "131072", "is not a power of two from 2 to 65536" },
        { "DSM_VERBS_IB_PORT", "0", "is not a number from 1 to 255" },
        { "DSM_VERBS_GID_INDEX", "256", "is not a number from 0 to 255" },
        { "DSM_SIM_PROCS", "0", "is not a number from 1 to 1024" },
        { "DSM_SIM_QUANTUM", "0", "is not a number from 1 to 1073741824" },
        { "DSM_SIM_STACK", "1K", "is not a size from 64K to 4G" },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = load_with(bad[i].var, bad[i].value, msg, sizeof msg);
        char named[128];
        snprintf(named, sizeof named, "unit: %s=%s ", bad[i].var, bad[i].value);
        check(rc == -1 && !strncmp(msg, named, strlen(named)) && strstr(msg, bad[i].says) &&
                  !strchr(msg, '\n')[1],
              "%s=%s refused in one line: %.*s", bad[i].var, bad[i].value,
              (int)strcspn(msg, "\n"), msg);
    }
    /* the region's end names both variables */
    clear_env();
    setenv("DSM_REGION_ADDR", "0x7ff000000000", 1);
    setenv("DSM_REGION_SIZE", "1T", 1);
    int rc = captured(load, (void *)"unit", msg, sizeof msg);
    check(rc == -1 && strstr(msg, "DSM_REGION_ADDR=0x7ff000000000 with DSM_REGION_SIZE=1T") &&
              strstr(msg, "end of user space"),
          "a region reaching past user space names both variables: %.*s",
          (int)strcspn(msg, "\n"), msg);
    clear_env();
}

static uint64_t digest_with(const char *var, const char *value)
{
    char msg[1024];
    if (load_with(var, value, msg, sizeof msg))
        check(0, "%s=%s loads: %s", var, value, msg);
    return dsm_config_digest(&the_cfg);
}

static void agreement(void)
{
    uint64_t d0 = digest_with(NULL, NULL);
    check(digest_with("DSM_LOCKS", "64") != d0, "DSM_LOCKS changes the digest");
    check(digest_with("DSM_BLOCK_SIZE", "64K") != d0, "DSM_BLOCK_SIZE changes the digest");
    check(digest_with("DSM_HOMES", "cyclic") != d0, "DSM_HOMES changes the digest");
    check(digest_with("DSM_TIMESLICE_MS", "7") != d0, "DSM_TIMESLICE_MS changes the digest");
    check(digest_with("DSM_PROFILE", "off") != d0, "DSM_PROFILE=off changes the digest");
    check(digest_with("DSM_STATS", "st") != d0, "DSM_STATS set changes the digest");
    check(digest_with("DSM_SPIN_US", "7") == d0, "DSM_SPIN_US need not agree");
    check(digest_with("DSM_PROFILE", "elsewhere.json") == d0,
          "the profile's file name need not agree (only node 0 writes it)");
    check(digest_with("DSM_LOCKS", "1024") == d0, "the default written out agrees with unset");

    /* node 0's values against a node with two differences */
    char msg[1024];
    load_with(NULL, NULL, msg, sizeof msg);
    uint64_t theirs[128] = { 0 };
    unsigned char have[128] = { 0 };
    for (size_t i = 0; i < dsm_nsettings && i < 128; i++) {
        theirs[i] = dsm_setting_agree_value(&dsm_settings[i], &the_cfg);
        have[i] = (dsm_settings[i].flags & DSM_SET_AGREE) != 0;
    }
    clear_env();
    setenv("DSM_LOCKS", "64", 1);
    setenv("DSM_HOMES", "cyclic", 1);
    captured(load, (void *)"unit", msg, sizeof msg);
    char line[400];
    int n = dsm_config_differences(&the_cfg, theirs, have, 0, line, sizeof line);
    check(n == 2 && strstr(line, "DSM_LOCKS is 64 here but 1024 on node 0") &&
              strstr(line, "DSM_HOMES is 'cyclic' here but 'blocked' on node 0") &&
              strstr(line, "mpirun -x DSM_LOCKS -x DSM_HOMES"),
          "two differences named with both values: %s", line);
    /* everything differs: the line stays within its buffer, with a count */
    for (size_t i = 0; i < dsm_nsettings && i < 128; i++)
        theirs[i] += 1;
    n = dsm_config_differences(&the_cfg, theirs, have, 0, line, sizeof line);
    check(n >= 8 && strlen(line) < sizeof line - 1 && strstr(line, "more") &&
              strstr(line, "forward DSM_* settings"),
          "all %d differ: %zu characters, ends with the advice", n, strlen(line));
    clear_env();
}

static void paths(void)
{
    char msg[1024], p[400];
    struct {
        const char *var, *value, *says;
        int sim;
    } bad[] = {
        { "DSM_PROFILE", "/nonexistent/dir/p.json", "directory /nonexistent/dir does not exist", 0 },
        { "DSM_STATS", tmpdir, "it is a directory", 0 },
        { "DSM_STATS", "/etc/passwd/st", "/etc/passwd is not a directory", 0 },
        { "DSM_SIM_PROFILE", "/nonexistent/s.json", "directory /nonexistent does not exist", 1 },
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = load_with(bad[i].var, bad[i].value, msg, sizeof msg);
        check(rc == 0, "%s=%s loads (checked later, where node 0 runs)", bad[i].var,
              bad[i].value);
        setenv(bad[i].var, bad[i].value, 1);
        rc = captured(bad[i].sim ? check_paths_sim : check_paths_plain, NULL, msg, sizeof msg);
        snprintf(p, sizeof p, "unit: %s=%s cannot be written: ", bad[i].var, bad[i].value);
        check(rc == -1 && !strncmp(msg, p, strlen(p)) && strstr(msg, bad[i].says),
              "%s=%s refused: %.*s", bad[i].var, bad[i].value, (int)strcspn(msg, "\n"), msg);
        unsetenv(bad[i].var);
    }
    /* the simulation's file is not the runtime's business, and back */
    load_with("DSM_SIM_PROFILE", "/nonexistent/s.json", msg, sizeof msg);
    check(captured(check_paths_plain, NULL, msg, sizeof msg) == 0,
          "DSM_SIM_PROFILE is not checked for a run on real nodes");
    load_with("DSM_PROFILE", "/nonexistent/p.json", msg, sizeof msg);
    check(captured(check_paths_sim, NULL, msg, sizeof msg) == 0,
          "DSM_PROFILE is not checked for a simulated run");

    /* a writable place passes and nothing is created */
    snprintf(p, sizeof p, "%s/p.json", tmpdir);
    load_with("DSM_PROFILE", p, msg, sizeof msg);
    int rc = captured(check_paths_plain, NULL, msg, sizeof msg);
    struct stat st;
    check(rc == 0 && stat(p, &st) != 0, "a writable DSM_PROFILE passes and is not created %s",
          msg);
    /* a directory without write permission (root may write anyway) */
    if (geteuid() != 0) {
        char ro[300];
        snprintf(ro, sizeof ro, "%s/ro", tmpdir);
        mkdir(ro, 0555);
        snprintf(p, sizeof p, "%s/p.json", ro);
        load_with("DSM_PROFILE", p, msg, sizeof msg);
        rc = captured(check_paths_plain, NULL, msg, sizeof msg);
        check(rc == -1 && strstr(msg, "is not writable"), "a read-only directory: %s", msg);
        rmdir(ro);
    } else {
        printf("note: running as root: a directory without write permission is writable, "
               "not checked\n");
    }
    clear_env();
}

static int raw_unknown(void *unused)
{
    (void)unused;
    return dsm_setting_raw("DSM_NOT_IN_THE_TABLE") != NULL;
}

int main(void)
{
    snprintf(tmpdir, sizeof tmpdir, "%s/settings_unit.XXXXXX",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    if (!mkdtemp(tmpdir)) {
        perror("settings_unit: mkdtemp");
        return 99;
    }
    table_sane();
    defaults();
    accepted();
    spin_policy();
    refused();
    dependencies();
    agreement();
    paths();
    char msg[512];
    setenv("DSM_NOT_IN_THE_TABLE", "1", 1);
    int rc = captured(raw_unknown, NULL, msg, sizeof msg);
    check(rc == 0 && strstr(msg, "DSM_NOT_IN_THE_TABLE is not in the settings table"),
          "a name missing from the table reads as unset, with a line: %.*s",
          (int)strcspn(msg, "\n"), msg);
    char path[300];
    snprintf(path, sizeof path, "%s/stderr", tmpdir);
    unlink(path);
    rmdir(tmpdir);
    printf("settings_unit: %s\n", failures ? "FAILED" : "all passed");
    return failures ? 1 : 0;
}
