/* run.c - entering and leaving simulation mode, and every simulated
 * reference.
 *
 * dsm_init enters simulation mode when DSM_MACHINE is set (dsmrun --machine
 * sets it with DSM_SIM_PROCS and DSM_SIM_QUANTUM):
 *   DSM_MACHINE="NAME[,key=value...]"  the machine (sim_params_for) and its
 *                            options (sim_params_set, one per key=value)
 *   DSM_SIM_PROCS=P          simulated processors
 *   DSM_SIM_QUANTUM=K        references between scheduling decisions
 *                            (1 is exact interleaving)
 *   DSM_SIM_STACK=SIZE       stack of processors 1..P-1
 *   DSM_SIM_PROFILE=FILE     the statistics (off: none)
 * and the region settings of the DSM (DSM_REGION_SIZE, DSM_REGION_ADDR,
 * DSM_LOCKS, DSM_HOMES); their ranges and defaults are in the settings
 * table (dsm/settings_table.c).  Processor 0 is the thread that called dsm_init;
 * processors 1..P-1 start in main with a copy of the program's arguments
 * and their dsm_init returns at once.  File-scope variables are shared by
 * the processors (one process), as in SPLASH-2's model.
 *
 * The default quantum: a processor runs at most 100 references past the
 * moment another processor's clock fell behind its own.  With 1-cycle hits
 * that is at most ~100 cycles of skew, two miss latencies of the uniform
 * machine, and it keeps context switches a small share of the host time.
 *
 * dsm_finalize is collective: the last processor to arrive writes the
 * statistics (profile/simprof.c) and prints one summary line on stderr;
 * processor 0 then waits for the others to end before it goes on. */
#include <config.h>

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "error.h"
#include "settings.h"
#include "simfront.h"
#include "simprof.h"
#include "sim/timing.h"

/* simulation mode is on (dsm_sim_init ran for processor 0) */
static int dsm_sim_active;

static struct {
    int argc;
    char **argv;            /* the program's arguments, copied at load */
    int (*main_fn)(int, char **);
    int nprocs;
    char machine_spec[256];
    const char *profile_path;   /* NULL: off */
    unsigned char *inited, *finalizing;
    int stats_done;
    simprof *prof;
    uint64_t misses, upgrades;
    double t0;
    /* progress on a terminal */
    int progress_on, progress_shown;
    double progress_last;
    uint32_t progress_count;
} R;

static double host_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* --- at load --------------------------------------------------------------- */

static char **copy_args(int argc, char **argv)
{
    char **v = calloc((size_t)argc + 1, sizeof *v);
    if (!v)
        return NULL;
    for (int i = 0; i < argc; i++)
        if (!(v[i] = strdup(argv[i] ? argv[i] : "")))
            return NULL;
    return v;
}

/* glibc passes (argc, argv, envp) to the constructors of shared objects:
 * the arguments are kept before main can change them, and the procedure
 * stacks start now, as processor 0 enters main. */
__attribute__((constructor)) static void sim_at_load(int argc, char **argv, char **envp)
{
    (void)envp;
    const char *m = dsm_setting_raw("DSM_MACHINE");
    if (!m || !*m)
        return;
    if (argc > 0 && argv) {
        R.argc = argc;
        R.argv = copy_args(argc, argv);
    }
    dsm_sim_hot_state.track_procs = 1;
}

/* --- errors ----------------------------------------------------------------- */

void dsm_sim_fatal(const char *call, const char *fmt, ...)
{
    char buf[600];
    int n = snprintf(buf, sizeof buf, "dsm: processor %d: %s: ", dsm_sim_hot_state.cur, call);
    va_list ap;
    va_start(ap, fmt);
    int m = vsnprintf(buf + n, sizeof buf - (size_t)n - 1, fmt, ap);
    va_end(ap);
    n += m < 0 ? 0 : m;
    if (n > (int)sizeof buf - 2)
        n = (int)sizeof buf - 2;
    buf[n++] = '\n';
    if (R.progress_shown)
        fputc('\n', stderr);
    fflush(stdout);
    ssize_t w = write(STDERR_FILENO, buf, (size_t)n);
    (void)w;
    _exit(1);
}

static void need(const char *call)
{
    int p = dsm_sim_hot_state.cur;
    if (!R.inited[p])
        dsm_sim_fatal(call, "called before dsm_init");
    if (R.finalizing[p])
        dsm_sim_fatal(call, "called after dsm_finalize");
}

/* --- references --------------------------------------------------------------- */

void dsm_sim_access(uintptr_t addr, uint32_t size, int is_write)
{
    /* On a message-timed machine a miss reserves protocol processors and
     * links: it must not be issued before the misses of processors whose
     * clocks are behind (they would have issued theirs first).  The
     * decision runs whoever is behind until this processor's clock is the
     * smallest, so the quantum only bounds how long hits run ahead. */
    if (dsm_sim_hot_state.in_order)
        dsm_sim_in_clock_order();
    int p = dsm_sim_hot_state.cur;
    int r = sim_ref(dsm_sim_machine, p, addr, size, is_write, dsm_sim_proc_current(p));
    if (r < 0)
        dsm_sim_fatal(is_write ? "store" : "load", "the simulated machine failed at %#lx: %s",
                      (unsigned long)addr, sim_error(dsm_sim_machine));
    if (dsm_sim_hot_state.sync_only) {
        /* MemSpy's interleaving: the processor goes on through its misses
         * until it synchronises; only a reference that waits for an event
         * (a fixed-latency reference over several lines) lets others run */
        if (sim_stalled(dsm_sim_machine, p))
            dsm_sim_quantum_end();
        return;
    }
    if (r == SIM_STALL || ++dsm_sim_hot_state.since_decision >= dsm_sim_hot_state.quantum)
        dsm_sim_quantum_end();
}

void dsm_sim_private_access(uintptr_t addr, uint32_t size, int is_write)
{
    int r = sim_ref_private(dsm_sim_machine, dsm_sim_hot_state.cur, addr, size, is_write);
    if (r < 0)
        dsm_sim_fatal(is_write ? "store" : "load", "the simulated machine failed at %#lx: %s",
                      (unsigned long)addr, sim_error(dsm_sim_machine));
    if (r == SIM_STALL || ++dsm_sim_hot_state.since_decision >= dsm_sim_hot_state.quantum)
        dsm_sim_quantum_end();
}

/* A scheduling decision from the reference path (a miss, or the quantum
 * ran out); progress shows now and then. */
void dsm_sim_quantum_end(void)
{
    dsm_sim_hot_state.since_decision = 0;
    if (R.progress_on && !(++R.progress_count & 0x3ff))
        dsm_sim_progress();
    dsm_sim_schedule();
}

static sim_time max_clock(void)
{
    sim_time t = 0;
    for (int p = 0; p < R.nprocs; p++)
        if (sim_clock(dsm_sim_machine, p) > t)
            t = sim_clock(dsm_sim_machine, p);
    return t;
}

void dsm_sim_progress(void)
{
    double now = host_now();
    if (now - R.progress_last < 1.0)
        return;
    R.progress_last = now;
    R.progress_shown = 1;
    fprintf(stderr, "\rdsm-sim: %llu references, %llu simulated cycles, %.0f s",
            (unsigned long long)sim_references(dsm_sim_machine), (unsigned long long)max_clock(),
            now - R.t0);
    fflush(stderr);
}

static void count_miss(void *arg, const sim_miss *miss)
{
    (void)arg;
    if (miss->is_upgrade)
        R.upgrades++;
    else
        R.misses++;
}

/* --- the other processors ------------------------------------------------------- */

static void processor_main(int k)
{
    dsm_sim_proc_reset(k);
    optind = 0; /* getopt's state is shared: each processor parses afresh */
    char **argv = copy_args(R.argc, R.argv);
    if (!argv)
        dsm_sim_fatal("dsm_init", "out of memory copying the arguments");
    /* Processor 0 started the thread model already (dsm_init_master, maybe
     * from a constructor before main, as dsm-parmacs does): the others
     * wait for tasks at once and never run main's code, as on the DSM. */
    int ac = R.argc;
    if (dsm_sim_tasks_started())
        dsm_sim_init_master(&ac, &argv); /* does not return */
    int rc = R.main_fn(R.argc, argv);
    if (!R.finalizing[k])
        dsm_sim_fatal("main", "returned (status %d) without calling dsm_finalize", rc);
    if (rc) {
        fflush(stdout);
        fprintf(stderr, "dsmrun: processor %d exited with status %d\n", k, rc);
        exit(rc);
    }
    dsm_sim_processor_done(k);
}

/* processor 0 waits in dsm_finalize for the others to end */
void dsm_sim_processor_done(int k)
{
    int others = 0;
    for (int q = 1; q < R.nprocs; q++)
        others += q != k && dsm_sim_state(q) != SIMP_DONE;
    if (!others)
        dsm_sim_wake(0);
}

/* An exit before everyone finalized would lose the run silently. */
static void at_exit(int status, void *arg)
{
    (void)arg;
    if (dsm_sim_active && !R.stats_done && status == 0)
        dsm_sim_fatal("exit", "the program ended before every simulated processor called "
                              "dsm_finalize");
}

/* --- entering ---------------------------------------------------------------------- */

/* The machine named by DSM_MACHINE with its options; 0 or -1 after a message. */
static int machine_params(const char *spec, int nprocs, sim_params *sp)
{
    char err[256] = "";
    if (strlen(spec) >= sizeof R.machine_spec) {
        fprintf(stderr, "dsm: dsm_init: DSM_MACHINE is too long\n");
        return -1;
    }
    char buf[sizeof R.machine_spec];
    strcpy(buf, spec);
    char *save = NULL;
    char *name = strtok_r(buf, ",", &save);
    if (!name || !*name) {
        fprintf(stderr, "dsm: dsm_init: DSM_MACHINE='%s' names no machine\n", spec);
        return -1;
    }
    if (sim_params_for(name, nprocs, sp, err, sizeof err)) {
        fprintf(stderr, "dsm: dsm_init: DSM_MACHINE=%s: %s\n", spec, err);
        return -1;
    }
    for (char *kv = strtok_r(NULL, ",", &save); kv; kv = strtok_r(NULL, ",", &save))
        if (sim_params_set(sp, kv, err, sizeof err)) {
            fprintf(stderr, "dsm: dsm_init: DSM_MACHINE=%s: option '%s': %s\n", spec, kv, err);
            return -1;
        }
    if (sim_params_check(sp, err, sizeof err)) {
        fprintf(stderr, "dsm: dsm_init: DSM_MACHINE=%s: %s\n", spec, err);
        return -1;
    }
    strcpy(R.machine_spec, spec);
    return 0;
}

int dsm_sim_init(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    if (dsm_sim_active) {
        int p = dsm_sim_hot_state.cur;
        if (R.inited[p]) {
            fprintf(stderr, "dsm: processor %d: dsm_init: called twice\n", p);
            errno = EALREADY;
            return -1;
        }
        R.inited[p] = 1;
        return 0;
    }
    dsm_config cfg; /* the statistics file is checked now, not after the run */
    if (dsm_config_load(&cfg, "dsm: dsm_init") ||
        dsm_config_check_paths(&cfg, 1, "dsm: dsm_init"))
        goto bad;
    long nprocs = (long)cfg.sim_procs, quantum = (long)cfg.sim_quantum;
    size_t stack = cfg.sim_stack;
    sim_params sp;
    if (machine_params(cfg.machine, (int)nprocs, &sp))
        goto bad;
    R.profile_path = cfg.sim_profile;
    R.nprocs = (int)nprocs;
    dsm_sim_hot_state.quantum = (uint32_t)quantum;

    void *base = mmap((void *)cfg.region_addr, cfg.region_size, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1, 0);
    if (base == MAP_FAILED || (uintptr_t)base != cfg.region_addr) {
        fprintf(stderr, "dsm: dsm_init: cannot map the shared region (%zu bytes at %#lx): %s\n",
                cfg.region_size, (unsigned long)cfg.region_addr,
                base == MAP_FAILED ? strerror(errno) : "the address is taken");
        goto bad;
    }
    char err[256] = "";
    dsm_sim_machine = sim_create(&sp, cfg.region_addr, cfg.region_size, err, sizeof err);
    if (!dsm_sim_machine) {
        fprintf(stderr, "dsm: dsm_init: cannot create the simulated machine '%s': %s\n",
                R.machine_spec, err);
        goto bad;
    }
    if (R.profile_path && !(R.prof = simprof_attach(dsm_sim_machine)))
        fprintf(stderr, "dsm: dsm_init: cannot attach the statistics collectors; the run goes on "
                        "without %s\n",
                R.profile_path);
    if (R.prof)
        simprof_set_front_end(R.prof, (uint32_t)quantum, cfg.homes_cyclic ? "cyclic" : "blocked");
    sim_on_miss(dsm_sim_machine, count_miss, NULL);
    dsm_sim_quickstep_start(dsm_sim_machine);
    R.inited = calloc((size_t)nprocs, 1);
    R.finalizing = calloc((size_t)nprocs, 1);
    if (!R.inited || !R.finalizing)
        goto bad;
    dsm_sim_malloc_spread = cfg.malloc_spread;
    if (dsm_sim_api_start((int)nprocs, cfg.region_addr, cfg.region_size, cfg.locks,
                          cfg.homes_cyclic))
        goto bad;
    if (nprocs > 1) {
        R.main_fn = (int (*)(int, char **))dsm_sim_find_main();
        if (!R.main_fn || !R.argv) {
            fprintf(stderr, "dsm: dsm_init: cannot find the program's main%s; the simulated "
                            "processors start there (do not strip the program)\n",
                    R.argv ? "" : " and arguments");
            goto bad;
        }
    }
    if (dsm_sim_sched_start((int)nprocs, processor_main, stack))
        goto bad;
    dsm_sim_hot_state.base = cfg.region_addr;
    dsm_sim_hot_state.end = cfg.region_addr + cfg.region_size;
    dsm_sim_hot_state.cur = 0;
    dsm_sim_hot_state.fast = sim_fast_of(dsm_sim_machine, 0);
    dsm_sim_hot_state.proc_switch = sim_has_procedure_switch(dsm_sim_machine);
    dsm_sim_hot_state.in_order = !sim_timing_ops_of(dsm_sim_machine)->fixed_latency;
    /* reschedule=sync: no decision per quantum either (the hooks count
     * references up to the quantum) */
    dsm_sim_hot_state.sync_only = sim_get_params(dsm_sim_machine)->reschedule_sync &&
                                  !dsm_sim_hot_state.in_order;
    if (dsm_sim_hot_state.sync_only) {
        dsm_sim_hot_state.quantum = UINT32_MAX;
        /* ... so the references between sampling windows may go as one
         * batch each (sim_ref_gap: one decrement a reference) */
        for (long p = 0; p < nprocs; p++)
            sim_fast_of(dsm_sim_machine, (int)p)->gap_batching = 1;
    }
    dsm_error_node = 0;
    R.inited[0] = 1;
    R.progress_on = isatty(STDERR_FILENO);
    R.t0 = R.progress_last = host_now();
    on_exit(at_exit, NULL);
    dsm_sim_active = 1;
    dsm_sim_hot_state.private_refs = sim_has_private_memory(dsm_sim_machine);
    dsm_sim_hot_state.refs_on = 1;
    return 0;
bad:
    errno = EINVAL;
    return -1;
}

/* --- leaving ---------------------------------------------------------------------- */

static const char *base_name(const char *path)
{
    const char *b = path ? strrchr(path, '/') : NULL;
    return b ? b + 1 : path ? path : "";
}

/* Called in the last processor to reach dsm_finalize. */
static void finish_statistics(void)
{
    double host = host_now() - R.t0;
    dsm_sim_hot_state.refs_on = 0;
    sim_settle(dsm_sim_machine); /* the batches of references between windows */
    if (R.progress_shown) {
        fputc('\n', stderr);
        R.progress_shown = 0;
    }
    R.progress_on = 0;
    const char *file_note = "statistics off";
    char note[512];
    if (R.profile_path && R.prof) {
        char err[256] = "";
        const char *const *names = dsm_sim_proc_names();
        if (simprof_write(R.prof, R.profile_path, base_name(R.argv ? R.argv[0] : NULL), names,
                          dsm_sim_proc_count(), host, err, sizeof err))
            dsm_sim_fatal("dsm_finalize", "cannot write the statistics to %s: %s",
                          R.profile_path, err);
        snprintf(note, sizeof note, "statistics in %s", R.profile_path);
        file_note = note;
    }
    dsm_sim_quickstep_finish();
    uint64_t refs = sim_references(dsm_sim_machine);
    /* under time sampling the misses are those of the windows only: their
     * rate is taken over the references made in the windows */
    int sampled = sim_get_params(dsm_sim_machine)->sample_period != 0;
    uint64_t rate_refs = sampled ? sim_references_sampled(dsm_sim_machine) : refs;
    char in_samples[96] = "";
    if (sampled)
        snprintf(in_samples, sizeof in_samples, " in samples (of %llu sampled references)",
                 (unsigned long long)rate_refs);
    char private[96] = ""; /* machines that simulate private memory (Alewife) */
    if (sim_has_private_memory(dsm_sim_machine))
        snprintf(private, sizeof private, ", %llu private references (%llu misses)",
                 (unsigned long long)sim_private_references(dsm_sim_machine),
                 (unsigned long long)sim_private_misses(dsm_sim_machine));
    fflush(stdout);
    fprintf(stderr,
            "dsm-sim: %s, %d processors: %llu cycles, %llu references, %llu misses%s (%.2f%%), "
            "%llu upgrades%s, host %.2f s, %llu context switches; %s\n",
            R.machine_spec, R.nprocs, (unsigned long long)max_clock(), (unsigned long long)refs,
            (unsigned long long)R.misses, in_samples,
            rate_refs ? 100.0 * (double)R.misses / (double)rate_refs : 0.0,
            (unsigned long long)R.upgrades, private, host, (unsigned long long)dsm_sim_switches(),
            file_note);
    R.stats_done = 1;
}

void dsm_sim_finalize(void)
{
    int p = dsm_sim_hot_state.cur;
    need("dsm_finalize");
    R.finalizing[p] = 1;
    if (dsm_sim_finalize_arrive())
        finish_statistics();
    if (p != 0)
        return;
    /* processor 0 leaves last: its return from main ends the process */
    for (;;) {
        int others = 0;
        for (int q = 1; q < R.nprocs; q++)
            others += dsm_sim_state(q) != SIMP_DONE;
        if (!others)
            break;
        dsm_sim_block(0, "dsm_finalize");
        dsm_sim_schedule();
    }
    fflush(stdout);
}

/* api.c's checks of init/finalize for the other calls */
void dsm_sim_need(const char *call) { need(call); }
