/* dsmrun.c - the launcher of a DSM job on one machine (shm transport):
 *   dsmrun -n N [-p] [--timeout S] prog args...
 * or of a simulated run (see run_simulated below):
 *   dsmrun --machine=NAME[,key=value...] [--quantum=K] -n P prog args...
 * creates the job's control/message segment, starts N copies of prog (the
 * nodes) with the environment the library needs, optionally prefixes their
 * output with the node number, and turns their fates into one exit status.
 * A failing node ends the whole job quickly: a DSM job with a dead node can
 * only hang.
 *
 * main follows the job's life: parse_options, prepare (settings, segment,
 * signals), spawn_nodes, supervise (output, forward_signals, reap_nodes,
 * the timeout), and returns the job's status. */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* pipe2, sigabbrev_np; config.h defines it in a configured build */
#endif
#include "settings.h"
#include "transport/shm_layout.h"
#include "sim/sim.h"
#include "dsmrun_quickstep.h"
#include "transport/transport.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef PACKAGE_VERSION
#define PACKAGE_VERSION "unknown"
#endif

#define KILL_GRACE_NS (500ULL * 1000000ULL)  /* SIGTERM, then SIGKILL this much later */
#define DRAIN_GRACE_NS (200ULL * 1000000ULL) /* output of grandchildren after the nodes end */
#define LINE_MAX_BYTES 4096                  /* longer lines are split */

static const char *prog_name = "dsmrun";

static void usage(FILE *f)
{
    fprintf(f,
            "Usage: dsmrun -n N [OPTIONS] PROGRAM [ARGS...]\n"
            "Run PROGRAM as the N nodes of a DSM job on this machine.\n"
            "\n"
            "  -n, --nodes N        number of nodes, 1 to %d (required)\n"
            "  -p, --prefix         prefix each line a node prints with \"[NODE] \"\n"
            "      --timeout SECS   end the job after SECS seconds (exit status 124)\n"
            "      --machine=NAME[,KEY=VALUE...]\n"
            "                       run PROGRAM once as N simulated processors of machine NAME\n"
            "                       (--machine=list shows the machines); KEY=VALUE set its\n"
            "                       parameters (cache_size=65536, assoc=2, ...)\n"
            "      --quantum K      simulated references between scheduling decisions\n"
            "                       (default 100; 1: exact interleaving)\n"
            "      --quickstep=CONFIG[:STAT,...]\n"
            "                       with --machine=alewife: QuickStep's statistics of CONFIG\n"
            "                       (all, or the named statistics and groups), one run per\n"
            "                       4 counters, merged into a raw data file\n"
            "      --quickstep-out FILE  the raw data file (default quickstep.raw)\n"
            "      --timeslice CYCLES    timesliced collection (default: overall)\n"
            "  -h, --help           show this help and exit\n"
            "      --version        show the version and exit\n"
            "\n"
            "The exit status is 0 when every node exits 0 (after dsm_finalize, if it called\n"
            "dsm_init); otherwise that of the first node to fail (128+N for signal N), and\n"
            "the other nodes are ended.  Signals sent to dsmrun go on to the nodes (a second\n"
            "one kills them; the status is then 128+N).  Settings come from DSM_* environment\n"
            "variables (DSM_BLOCK_SIZE, DSM_SHM_SLOTS, ...; see dsmrun(1)).\n",
            DSM_SHM_MAX_NODES);
}

static void usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", prog_name);
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    usage(stderr);
    exit(2);
}

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static const char *signame(int sig)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
    const char *s = sigabbrev_np(sig);
    if (s) {
        static char buf[32];
        snprintf(buf, sizeof buf, "SIG%s", s);
        return buf;
    }
#endif
    static char num[16];
    snprintf(num, sizeof num, "%d", sig);
    return num;
}

/* --- the program to run ------------------------------------------------ */

/* Check up front, as execvp will search, that prog can be executed: one
 * clear message instead of N failing nodes.  Returns 0 or an errno. */
static int check_executable(const char *prog)
{
    struct stat st;
    if (strchr(prog, '/')) {
        if (stat(prog, &st))
            return errno;
        if (S_ISDIR(st.st_mode))
            return EISDIR;
        return access(prog, X_OK) ? errno : 0;
    }
    const char *path = getenv("PATH");
    char defpath[256];
    if (!path) {
        size_t n = confstr(_CS_PATH, defpath, sizeof defpath);
        path = n && n <= sizeof defpath ? defpath : "/bin:/usr/bin";
    }
    int err = ENOENT;
    size_t plen = strlen(prog);
    while (1) {
        const char *end = strchr(path, ':');
        size_t dlen = end ? (size_t)(end - path) : strlen(path);
        char buf[PATH_MAX];
        if (dlen + plen + 2 <= sizeof buf) {
            if (dlen)
                memcpy(buf, path, dlen);
            else
                buf[dlen++] = '.'; /* an empty PATH entry is the current directory */
            buf[dlen] = '/';
            memcpy(buf + dlen + 1, prog, plen + 1);
            if (!stat(buf, &st) && !S_ISDIR(st.st_mode)) {
                if (!access(buf, X_OK))
                    return 0;
                err = EACCES;
            }
        }
        if (!end)
            break;
        path = end + 1;
    }
    return err;
}

/* --- simulated runs (--machine) -------------------------------------------- */

/* The program runs once, its processors simulated inside it (libdsm's
 * simulation mode, dsm/simfront/run.c); here the machine and its options are
 * checked so a bad name fails before the program starts, and the settings
 * go to the program as DSM_MACHINE, DSM_SIM_PROCS and DSM_SIM_QUANTUM.
 * --timeout becomes an alarm the program inherits (it ends by SIGALRM). */
static int run_simulated(const char *machine, int nprocs, const char *quantum, int prefix,
                         double timeout_s, char **cmd)
{
    char err[256] = "";
    char buf[256];
    if (strlen(machine) >= sizeof buf) {
        fprintf(stderr, "%s: --machine: '%s' is too long\n", prog_name, machine);
        return 2;
    }
    strcpy(buf, machine);
    char *save = NULL, *name = strtok_r(buf, ",", &save);
    sim_params params;
    if (!name || sim_params_for(name, nprocs, &params, err, sizeof err)) {
        fprintf(stderr, "%s: --machine=%s: %s (dsmrun --machine=list shows the machines)\n",
                prog_name, machine, name ? err : "no machine named");
        return 2;
    }
    for (char *kv = strtok_r(NULL, ",", &save); kv; kv = strtok_r(NULL, ",", &save))
        if (sim_params_set(&params, kv, err, sizeof err)) {
            fprintf(stderr, "%s: --machine=%s: option '%s': %s\n", prog_name, machine, kv, err);
            return 2;
        }
    if (sim_params_check(&params, err, sizeof err)) { /* the geometry, all options in */
        fprintf(stderr, "%s: --machine=%s: %s\n", prog_name, machine, err);
        return 2;
    }
    if (prefix) {
        fprintf(stderr, "%s: -p cannot be used with --machine: the simulated processors share "
                        "one process and its output\n",
                prog_name);
        return 2;
    }
    int err_exec = check_executable(cmd[0]);
    if (err_exec) {
        fprintf(stderr, "%s: cannot execute '%s': %s\n", prog_name, cmd[0], strerror(err_exec));
        return 127;
    }
    char v_procs[16];
    snprintf(v_procs, sizeof v_procs, "%d", nprocs);
    if (setenv("DSM_MACHINE", machine, 1) || setenv("DSM_SIM_PROCS", v_procs, 1) ||
        (quantum && setenv("DSM_SIM_QUANTUM", quantum, 1))) {
        fprintf(stderr, "%s: setenv: %s\n", prog_name, strerror(errno));
        return 1;
    }
    unsetenv("DSM_NODES");
    fflush(NULL);
    if (timeout_s > 0)
        alarm(timeout_s < 1 ? 1 : (unsigned)(timeout_s + 0.5));
    execvp(cmd[0], cmd);
    fprintf(stderr, "%s: cannot execute '%s': %s\n", prog_name, cmd[0], strerror(errno));
    return 127;
}

/* --- the segment --------------------------------------------------------- */

typedef struct job {
    int nnodes;
    int fd;                   /* the segment */
    dsm_shm_header *hdr;
    dsm_shm_node *nodes;
    char id[96];              /* DSM_JOB_ID, also the segment's name */
    uint64_t clock_base;
} job;

static int create_segment(job *j, const dsm_config *cfg, uint32_t slots)
{
    dsm_shm_geometry g;
    if (dsm_shm_geometry_compute((uint32_t)j->nnodes, cfg->block_size, slots, &g)) {
        fprintf(stderr, "%s: cannot lay out a segment for %d nodes, %u slots of %zu bytes\n",
                prog_name, j->nnodes, slots, cfg->block_size);
        return -1;
    }
    char name[128];
    int fd = -1;
    for (int tries = 0; fd < 0 && tries < 16; tries++) {
        uint64_t r;
        if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r)
            r = now_ns() ^ ((uint64_t)getpid() << 32) ^ (uint64_t)tries;
        snprintf(j->id, sizeof j->id, "%u-%d-%08" PRIx32, (unsigned)getuid(), (int)getpid(),
                 (uint32_t)r);
        snprintf(name, sizeof name, "/dsm-%s", j->id);
        fd = shm_open(name, O_RDWR | O_CREAT | O_EXCL, 0600);
        if (fd < 0 && errno != EEXIST)
            break;
    }
    if (fd < 0) {
        fprintf(stderr, "%s: cannot create the shared segment %s: %s\n", prog_name, name,
                strerror(errno));
        return -1;
    }
    /* Unlinked at once: from now on only the open descriptors and mappings
     * keep it, so nothing is left in /dev/shm whatever happens to the job. */
    shm_unlink(name);
    if (ftruncate(fd, (off_t)g.total_size)) {
        fprintf(stderr, "%s: cannot size the shared segment to %" PRIu64 " bytes: %s\n", prog_name,
                g.total_size, strerror(errno));
        close(fd);
        return -1;
    }
    /* Only the header and node table are written here: the queues are valid
     * as zeros (see shm_layout.h), so their pages are committed on use. */
    size_t hsize = (size_t)g.queue_offset;
    void *p = mmap(NULL, hsize, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED) {
        fprintf(stderr, "%s: cannot map the shared segment: %s\n", prog_name, strerror(errno));
        close(fd);
        return -1;
    }
    dsm_shm_header *h = p;
    dsm_shm_header_fill(h, (uint32_t)j->nnodes, cfg->block_size, slots, &g, j->clock_base,
                        (int32_t)getpid());
    j->fd = fd;
    j->hdr = h;
    j->nodes = (dsm_shm_node *)((unsigned char *)p + g.node_offset);
    return 0;
}

/* --- output prefixing ---------------------------------------------------- */

typedef struct stream {
    int fd;                   /* read end, -1 when closed */
    int out;                  /* 1 or 2 */
    int node;
    size_t len;
    char *buf;                /* LINE_MAX_BYTES */
} stream;

static void write_all(int fd, const char *p, size_t n)
{
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return; /* nowhere to report it */
        }
        p += w;
        n -= (size_t)w;
    }
}

/* One write per line so that lines of different nodes do not mix. */
static void emit_line(stream *s, const char *line, size_t n)
{
    char tmp[LINE_MAX_BYTES + 32];
    int k = snprintf(tmp, sizeof tmp, "[%d] ", s->node);
    memcpy(tmp + k, line, n);
    tmp[k + n] = '\n';
    write_all(s->out, tmp, (size_t)k + n + 1);
}

/* Read what is there; returns 0 at end of file or error (stream closed). */
static int pump(stream *s)
{
    ssize_t r;
    do
        r = read(s->fd, s->buf + s->len, LINE_MAX_BYTES - s->len);
    while (r < 0 && errno == EINTR);
    if (r < 0 && errno == EAGAIN)
        return 1;
    if (r <= 0) {
        if (s->len) /* a last line without newline */
            emit_line(s, s->buf, s->len);
        s->len = 0;
        close(s->fd);
        s->fd = -1;
        return 0;
    }
    s->len += (size_t)r;
    size_t start = 0;
    for (size_t i = 0; i < s->len; i++)
        if (s->buf[i] == '\n') {
            emit_line(s, s->buf + start, i - start);
            start = i + 1;
        }
    if (start == 0 && s->len == LINE_MAX_BYTES) { /* a very long line: split it */
        emit_line(s, s->buf, s->len);
        start = s->len;
    }
    memmove(s->buf, s->buf + start, s->len - start);
    s->len -= start;
    return 1;
}

/* --- the command line -------------------------------------------------------- */

typedef struct options {
    int nnodes, prefix;
    const char *machine, *quantum;  /* --machine, --quantum */
    const char *quickstep, *qs_out, *qs_slice; /* --quickstep, --quickstep-out, --timeslice */
    double timeout_s;
    const char *timeout_arg;        /* as given, for the message */
    char **cmd;                     /* the program and its arguments */
} options;

/* -1: go on; else the exit status (--help, --version, --machine=list). */
static int parse_options(int argc, char **argv, options *o)
{
    static const struct option opts[] = {
        {"nodes", required_argument, NULL, 'n'},
        {"prefix", no_argument, NULL, 'p'},
        {"timeout", required_argument, NULL, 'T'},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {"machine", required_argument, NULL, 'M'},
        {"quantum", required_argument, NULL, 'Q'},
        {"quickstep", required_argument, NULL, 'q'},
        {"quickstep-out", required_argument, NULL, 'O'},
        {"timeslice", required_argument, NULL, 'S'},
        {NULL, 0, NULL, 0},
    };
    int c;
    *o = (options){0};
    opterr = 0;
    /* "+": stop at the program name, its options are its own. */
    while ((c = getopt_long(argc, argv, "+:n:ph", opts, NULL)) != -1) {
        char *end;
        switch (c) {
        case 'n': {
            errno = 0;
            long v = strtol(optarg, &end, 10);
            if (errno || end == optarg || *end || v < 1 || v > DSM_SHM_MAX_NODES)
                usage_error("the number of nodes must be between 1 and 1024, not '%s'", optarg);
            o->nnodes = (int)v;
            break;
        }
        case 'p':
            o->prefix = 1;
            break;
        case 'T':
            errno = 0;
            o->timeout_s = strtod(optarg, &end);
            if (errno || end == optarg || *end || !(o->timeout_s > 0) || o->timeout_s > 1e9)
                usage_error("--timeout wants a positive number of seconds, not '%s'", optarg);
            o->timeout_arg = optarg;
            break;
        case 'M':
            if (!strcmp(optarg, "list")) {
                for (int i = 0; sim_machine_names[i]; i++)
                    printf("%s\n", sim_machine_names[i]);
                return 0;
            }
            o->machine = optarg;
            break;
        case 'Q': {
            errno = 0;
            long v = strtol(optarg, &end, 10);
            if (errno || end == optarg || *end || v < 1 || v > 1L << 30)
                usage_error("--quantum wants a number of references from 1 to 2^30, not '%s'",
                            optarg);
            o->quantum = optarg;
            break;
        }
        case 'q':
            o->quickstep = optarg;
            break;
        case 'O':
            o->qs_out = optarg;
            break;
        case 'S': {
            errno = 0;
            unsigned long long v = strtoull(optarg, &end, 10);
            if (errno || end == optarg || *end || v < 1 || v > 1000000000000ull || *optarg == '-')
                usage_error("--timeslice wants cycles from 1 to 10^12, not '%s'", optarg);
            o->qs_slice = optarg;
            break;
        }
        case 'h':
            usage(stdout);
            return 0;
        case 'V':
            printf("dsmrun (dsm) %s\n", PACKAGE_VERSION);
            return 0;
        case ':':
            usage_error("option '%s' needs an argument", argv[optind - 1]);
            break;
        default:
            if (optopt) {
                char opt[3] = {'-', (char)optopt, 0};
                usage_error("unknown option '%s'", opt);
            }
            usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (!o->nnodes)
        usage_error("%s", "the number of nodes is missing (-n N)");
    if (optind >= argc)
        usage_error("%s", "no program to run");
    o->cmd = argv + optind;
    if (o->quantum && !o->machine)
        usage_error("%s", "--quantum needs --machine");
    if ((o->qs_out || o->qs_slice) && !o->quickstep)
        usage_error("%s", "--quickstep-out and --timeslice need --quickstep");
    if (o->quickstep && !o->machine)
        usage_error("%s", "--quickstep needs --machine=alewife");
    if (o->quickstep && o->prefix)
        usage_error("%s", "-p cannot be used with --quickstep: the simulated processors share "
                          "one process and its output");
    return -1;
}

/* --- the job --------------------------------------------------------------- */

typedef struct node_proc {
    pid_t pid;                /* 0 once reaped */
} node_proc;

/* The signals dsmrun passes on to the nodes (read through a signalfd). */
static const int forwarded_sigs[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

typedef struct run {
    const options *o;
    job j;
    int ncpus;                /* DSM_BIND: the cores shared out, or 0: unbound */
    int *cpus;                /* their numbers, from dsmrun's own affinity */
    int sfd;                  /* signalfd: SIGCHLD and the forwarded signals */
    sigset_t oldmask;         /* the mask to give the nodes */
    node_proc *procs;
    stream *streams;          /* -p: stdout and stderr of each node */
    int nstreams, started, alive;
    int status;               /* exit status of the job */
    int failed;               /* a node failed (or we were told to stop) */
    int timed_out;
    int forwarded;            /* count of forwarded signals */
    uint64_t kill_at;         /* when to SIGKILL the nodes still there */
    uint64_t deadline;        /* --timeout */
    uint64_t drain_until;     /* output of grandchildren after the nodes end */
} run;

static void signal_nodes(run *r, int sig)
{
    for (int i = 0; i < r->o->nnodes; i++)
        if (r->procs[i].pid > 0)
            kill(r->procs[i].pid, sig);
}

/* SIGTERM now, SIGKILL after the grace period to the nodes still there. */
static void end_nodes(run *r)
{
    signal_nodes(r, SIGTERM);
    r->kill_at = now_ns() + KILL_GRACE_NS;
}

/* DSM_BIND (settings.h): core, auto, none */
enum { DSM_BIND_AUTO = 0, DSM_BIND_CORE = 1, DSM_BIND_NONE = 2 };

/* Do the runnable tasks of the machine other than this one leave `free`
 * cores?  Up to three looks at /proc/loadavg's running count, a
 * millisecond apart, the first that says yes decides (a shell that started
 * us may still be running for one of them); yes when it cannot be read. */
static int cores_free(int free)
{
    for (int i = 0; i < 3; i++) {
        FILE *f = fopen("/proc/loadavg", "r");
        int running = 1;
        if (!f)
            return 1;
        if (fscanf(f, "%*s %*s %*s %d/", &running) != 1)
            running = 1;
        fclose(f);
        if (running - 1 <= free)
            return 1;
        struct timespec ms = {0, 1000000};
        nanosleep(&ms, NULL);
    }
    return 0;
}

/* The cores this dsmrun may use, shared out among the nodes when they do
 * not outnumber them (mpirun binds ranks the same way): node k gets cores
 * [k*c/n, (k+1)*c/n).  Bound, the nodes of a job on 2 cores run as mpirun's
 * ranks do (doc/protocol.md, Latency on few cores).  Not with more nodes
 * than cores (the kernel balances them), nor with always (DSM_BIND=auto)
 * when other processes already run: a bound node cannot move away from
 * a core one of them holds.  0, or -1 when out of memory. */
static int plan_binding(run *r, int always)
{
    cpu_set_t set;
    int n = r->o->nnodes;
    if (n < 2 || sched_getaffinity(0, sizeof set, &set))
        return 0;
    int c = CPU_COUNT(&set);
    if (c < n || (!always && !cores_free(c - n)))
        return 0;
    r->cpus = malloc((size_t)c * sizeof *r->cpus);
    if (!r->cpus) {
        fprintf(stderr, "%s: out of memory\n", prog_name);
        return -1;
    }
    for (int cpu = 0; cpu < CPU_SETSIZE && r->ncpus < c; cpu++)
        if (CPU_ISSET(cpu, &set))
            r->cpus[r->ncpus++] = cpu;
    return 0;
}

/* In node k's child, before exec: its share of the cores (plan_binding).
 * Best effort: a refused binding leaves the node where the kernel puts it. */
static void bind_node(const run *r, int k)
{
    if (!r->ncpus)
        return;
    int n = r->o->nnodes;
    cpu_set_t set;
    CPU_ZERO(&set);
    for (int i = (int)((long)k * r->ncpus / n); i < (int)((long)(k + 1) * r->ncpus / n); i++)
        CPU_SET(r->cpus[i], &set);
    (void)sched_setaffinity(0, sizeof set, &set);
}

/* Settings, checks and the segment; signals routed to a signalfd.  -1: go
 * on; else the exit status. */
static int prepare(run *r)
{
    const options *o = r->o;
    dsm_config cfg; /* node 0 runs here: the files it will write are checked now */
    if (dsm_config_load(&cfg, prog_name) || dsm_config_check_paths(&cfg, 0, prog_name))
        return 2;
    uint32_t slots = cfg.shm_slots ? cfg.shm_slots
                                   : dsm_shm_default_slots((uint32_t)o->nnodes, cfg.block_size);

    int err = check_executable(o->cmd[0]);
    if (err) {
        fprintf(stderr, "%s: cannot execute '%s': %s\n", prog_name, o->cmd[0], strerror(err));
        return 127;
    }

    /* Descriptors 0-2 must exist, or the segment or a pipe could become a
     * node's stdin/stdout. */
    for (int fd = 0; fd < 3; fd++)
        if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) != fd)
            return 1;
    if (o->prefix) {
        /* Two pipes per node plus a few: raise the soft limit if we can. */
        struct rlimit rl;
        rlim_t need = (rlim_t)o->nnodes * 2 + 64;
        if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur < need) {
            rl.rlim_cur = rl.rlim_max == RLIM_INFINITY || rl.rlim_max > need ? need : rl.rlim_max;
            setrlimit(RLIMIT_NOFILE, &rl);
        }
    }

    if (cfg.bind_mode != DSM_BIND_NONE && plan_binding(r, cfg.bind_mode == DSM_BIND_CORE))
        return 1;

    r->j = (job){.nnodes = o->nnodes, .fd = -1};
    r->j.clock_base = now_ns();
    if (create_segment(&r->j, &cfg, slots))
        return 1;

    /* Signals arrive through a signalfd, read in the main loop: no handler
     * races.  The children get the original mask back before exec. */
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGCHLD);
    for (size_t i = 0; i < sizeof forwarded_sigs / sizeof forwarded_sigs[0]; i++)
        sigaddset(&mask, forwarded_sigs[i]);
    sigprocmask(SIG_BLOCK, &mask, &r->oldmask);
    /* An ignored signal is discarded, blocked or not: a shell starting
     * `dsmrun ... &` ignores SIGINT and SIGQUIT for it, and then neither
     * could be passed on.  They are dsmrun's to pass on (SIGHUP stays as
     * inherited: nohup ignores it on purpose). */
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    r->sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
    if (r->sfd < 0) {
        fprintf(stderr, "%s: signalfd: %s\n", prog_name, strerror(errno));
        return 1;
    }

    char v_nodes[16], v_fd[16], v_clock[32];
    snprintf(v_nodes, sizeof v_nodes, "%d", o->nnodes);
    snprintf(v_fd, sizeof v_fd, "%d", r->j.fd);
    snprintf(v_clock, sizeof v_clock, "%" PRIu64, r->j.clock_base);
    if (setenv("DSM_NODES", v_nodes, 1) || setenv("DSM_SHM_FD", v_fd, 1) ||
        setenv("DSM_JOB_ID", r->j.id, 1) || setenv("DSM_CLOCK_BASE_NS", v_clock, 1)) {
        fprintf(stderr, "%s: setenv: %s\n", prog_name, strerror(errno));
        return 1;
    }
    fflush(NULL);

    r->procs = calloc((size_t)o->nnodes, sizeof *r->procs);
    r->streams = o->prefix ? calloc((size_t)o->nnodes * 2, sizeof *r->streams) : NULL;
    if (!r->procs || (o->prefix && !r->streams)) {
        fprintf(stderr, "%s: out of memory\n", prog_name);
        return 1;
    }
    return -1;
}

/* In the child: become node k and exec the program. */
static noreturn void exec_node(run *r, int k, pid_t launcher, const int pout[2], const int perr[2])
{
    const options *o = r->o;
    /* The node: die with dsmrun (even after kill -9 of it). */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != launcher)
        _exit(1);
    /* Default actions for what dsmrun passes on, whatever dsmrun inherited
     * (see prepare), and the original mask. */
    signal(SIGINT, SIG_DFL);
    signal(SIGQUIT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    sigprocmask(SIG_SETMASK, &r->oldmask, NULL);
    char v_node[16];
    snprintf(v_node, sizeof v_node, "%d", k);
    setenv("DSM_NODE", v_node, 1);
    bind_node(r, k);
    fcntl(r->j.fd, F_SETFD, 0); /* the one descriptor the node inherits */
    if (o->prefix && (dup2(pout[1], 1) < 0 || dup2(perr[1], 2) < 0))
        _exit(127);
    execvp(o->cmd[0], o->cmd);
    fprintf(stderr, "%s: node %d: cannot execute '%s': %s\n", prog_name, k, o->cmd[0],
            strerror(errno));
    _exit(127);
}

/* Start the nodes; a failure to start one ends those already started. */
static void spawn_nodes(run *r)
{
    const options *o = r->o;
    pid_t self = getpid();
    int spawn_failed = 0;
    for (int k = 0; k < o->nnodes; k++) {
        int pout[2] = {-1, -1}, perr[2] = {-1, -1};
        if (o->prefix) {
            char *b1 = malloc(LINE_MAX_BYTES), *b2 = malloc(LINE_MAX_BYTES);
            if (!b1 || !b2 || pipe2(pout, O_CLOEXEC) || pipe2(perr, O_CLOEXEC)) {
                fprintf(stderr, "%s: cannot create the output pipes of node %d: %s\n", prog_name,
                        k, b1 && b2 ? strerror(errno) : "out of memory");
                spawn_failed = 1;
                break;
            }
            r->streams[2 * k] = (stream){.fd = pout[0], .out = 1, .node = k, .buf = b1};
            r->streams[2 * k + 1] = (stream){.fd = perr[0], .out = 2, .node = k, .buf = b2};
        }
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "%s: cannot start node %d: %s\n", prog_name, k, strerror(errno));
            spawn_failed = 1;
            if (o->prefix) {
                close(pout[0]), close(pout[1]), close(perr[0]), close(perr[1]);
            }
            break;
        }
        if (pid == 0)
            exec_node(r, k, self, pout, perr);
        atomic_store(&r->j.nodes[k].pid, (int32_t)pid);
        r->procs[k].pid = pid;
        r->started++;
        if (o->prefix) {
            close(pout[1]);
            close(perr[1]);
            fcntl(pout[0], F_SETFL, O_NONBLOCK);
            fcntl(perr[0], F_SETFL, O_NONBLOCK);
            r->nstreams += 2;
        }
    }
    r->alive = r->started;
    if (spawn_failed) {
        r->failed = 1;
        r->status = 1;
        end_nodes(r);
    }
}

/* Signals sent to dsmrun go on to the nodes; a second one is not asked
 * twice: it kills them.  Their exits then give no report per node (the
 * user knows why they stop), and the job's status is 128 + the first
 * signal's number, whatever the nodes made of it, unless a node had
 * failed before. */
static void forward_signals(run *r)
{
    struct signalfd_siginfo si;
    while (read(r->sfd, &si, sizeof si) == (ssize_t)sizeof si) {
        int sig = (int)si.ssi_signo;
        if (sig == SIGCHLD)
            continue; /* reaped by reap_nodes */
        if (!r->failed)
            r->status = 128 + sig;
        r->failed = 1;
        signal_nodes(r, ++r->forwarded > 1 ? SIGKILL : sig);
    }
}

/* Collect the nodes that ended; the first to fail ends the job. */
static void reap_nodes(run *r)
{
    pid_t pid;
    int st;
    while ((pid = waitpid(-1, &st, WNOHANG)) > 0) {
        int k;
        for (k = 0; k < r->o->nnodes && r->procs[k].pid != pid; k++)
            ;
        if (k == r->o->nnodes)
            continue;
        r->procs[k].pid = 0;
        r->alive--;
        int code = 0;
        char why[96] = "";
        if (WIFSIGNALED(st)) {
            code = 128 + WTERMSIG(st);
            snprintf(why, sizeof why, "killed by signal %d (%s)", WTERMSIG(st),
                     signame(WTERMSIG(st)));
        } else if (WIFEXITED(st) && WEXITSTATUS(st)) {
            code = WEXITSTATUS(st);
            snprintf(why, sizeof why, "exited with status %d", code);
        } else if (atomic_load(&r->j.nodes[k].state) == DSM_NODE_JOINED) {
            /* It joined the job but left without the collective
             * dsm_finalize: the others would wait for it forever. */
            code = 1;
            snprintf(why, sizeof why, "exited without dsm_finalize");
        }
        if (!code)
            continue;
        if (!r->failed) {
            r->failed = 1;
            r->status = code;
            fprintf(stderr, "%s: node %d %s\n", prog_name, k, why);
            end_nodes(r);
        } else if (!r->status) {
            r->status = code;
        }
    }
}

/* Wait for the nodes, passing on their output (-p), signals, failures and
 * the timeout; returns the job's exit status. */
static int supervise(run *r)
{
    r->deadline = r->o->timeout_s > 0 ? r->j.clock_base + (uint64_t)(r->o->timeout_s * 1e9) : 0;
    struct pollfd *pfd = calloc((size_t)r->nstreams + 1, sizeof *pfd);
    int *pidx = calloc((size_t)r->nstreams + 1, sizeof *pidx);
    if (!pfd || !pidx) {
        fprintf(stderr, "%s: out of memory\n", prog_name);
        signal_nodes(r, SIGKILL);
        return 1;
    }
    for (;;) {
        int open_streams = 0;
        for (int i = 0; i < r->nstreams; i++)
            open_streams += r->streams[i].fd >= 0;
        if (!r->alive) {
            if (!open_streams)
                break;
            if (!r->drain_until)
                r->drain_until = now_ns() + DRAIN_GRACE_NS;
            else if (now_ns() >= r->drain_until)
                break; /* something the nodes started still holds the pipes */
        }
        uint64_t now = now_ns(), next = UINT64_MAX;
        if (r->deadline && !r->timed_out)
            next = r->deadline;
        if (r->kill_at && r->kill_at < next)
            next = r->kill_at;
        if (r->drain_until && r->drain_until < next)
            next = r->drain_until;
        int wait_ms = -1;
        if (next != UINT64_MAX)
            wait_ms = next <= now ? 0 : (int)((next - now + 999999) / 1000000);

        int n = 0;
        pfd[n].fd = r->sfd;
        pfd[n++].events = POLLIN;
        for (int i = 0; i < r->nstreams; i++)
            if (r->streams[i].fd >= 0) {
                pidx[n] = i;
                pfd[n].fd = r->streams[i].fd;
                pfd[n++].events = POLLIN;
            }
        int rc = poll(pfd, (nfds_t)n, wait_ms);
        if (rc < 0 && errno != EINTR) {
            fprintf(stderr, "%s: poll: %s\n", prog_name, strerror(errno));
            signal_nodes(r, SIGKILL);
            return 1;
        }
        int pumped = 0;
        for (int i = 1; rc > 0 && i < n; i++)
            if (pfd[i].revents) {
                pump(&r->streams[pidx[i]]);
                pumped = 1;
            }
        /* the grace is for pipes held open by something the nodes started,
         * not for output still flowing: a node that printed much and
         * ended leaves up to a pipe's worth per stream, which a loaded
         * machine may take longer than the grace to pass on */
        if (pumped && r->drain_until)
            r->drain_until = now_ns() + DRAIN_GRACE_NS;

        forward_signals(r);
        reap_nodes(r);

        now = now_ns();
        if (r->deadline && !r->timed_out && now >= r->deadline && r->alive) {
            r->timed_out = 1;
            r->failed = 1;
            fprintf(stderr, "%s: job timed out after %s seconds, ending it\n", prog_name,
                    r->o->timeout_arg);
            end_nodes(r);
        }
        if (r->kill_at && now >= r->kill_at) {
            signal_nodes(r, SIGKILL);
            r->kill_at = 0;
        }
    }
    free(pfd);
    free(pidx);
    return r->timed_out ? 124 : r->status;
}

int main(int argc, char **argv)
{
    options o;
    int rc = parse_options(argc, argv, &o);
    if (rc >= 0)
        return rc;
    /* the nodes (and a simulated run) inherit it: the same addresses on
     * every node without the re-exec dsm_init would do (dsm/aslr.c) */
    const char *aslr = getenv("DSM_ASLR");
    if (!aslr || strcmp(aslr, "keep")) {
        int pers = personality(0xffffffff);
        if (pers != -1)
            (void)personality((unsigned long)pers | ADDR_NO_RANDOMIZE);
    }
    if (o.quickstep)
        return dsmrun_quickstep(prog_name, o.machine, o.nnodes, o.quantum, o.timeout_s, o.cmd,
                                o.quickstep, o.qs_out ? o.qs_out : "quickstep.raw", o.qs_slice);
    if (o.machine)
        return run_simulated(o.machine, o.nnodes, o.quantum, o.prefix, o.timeout_s, o.cmd);
    run r = {.o = &o, .sfd = -1};
    rc = prepare(&r);
    if (rc >= 0)
        return rc;
    spawn_nodes(&r);
    return supervise(&r);
}
