/* dsmrun_quickstep.c - dsmrun --quickstep: QuickStep's host side (sections
 * 3.2-3.4) for the simulated Alewife.  Reads the configuration file
 * (protocol/sim/quickstep_config.c), lets the resource allocator pack the
 * requested statistics into runs of at most 4 counters and one histogram
 * mask, runs the program once per run with those registers programmed
 * (DSM_MACHINE's qs0..qs3, qs_hist, qs_slice; the simulation is
 * deterministic, so every run executes the same program the same way),
 * and merges the runs' registers (DSM_QUICKSTEP_DUMP, dsm/simfront/
 * quickstep.c) into one raw data file in the column format of Fig. 3.9,
 * which `dsmprof quickstep` reports.
 *
 * Raw data file ('#' lines are comments):
 *   # quickstep-raw 1 program P machine M nodes N runs R slice CYCLES
 *   CntRecord "NAME" run K
 *   "HEADER" ... Index Timestamp
 *   VALUE ... NODE SLICE            one line per node and timeslice
 *   EndRecord
 *   HistRecord "NAME" run K
 *   "HEADER" Bin0 .. Bin15 Index Timestamp
 *   V0 .. V15 NODE SLICE
 *   EndRecord
 *   # limitless run K TRAPS / # overflow run K node N TRAPS
 *   # host run K node N reports R bytes B   (timesliced: the reports the
 *   host at node N received, alewife.c) */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif
#include "dsmrun_quickstep.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sim/alewife.h"
#include "sim/quickstep.h"
#include "sim/sim.h"

#define NREGS (QS_NCOUNTERS + QS_NHIST)

typedef struct run_data {
    int nnodes, nslices;
    uint64_t slice;
    uint64_t limitless;
    int host_node;
    uint64_t host_reports, host_bytes;
    uint64_t *traps;   /* [node] */
    uint64_t *v;       /* [(node * nslices + slice) * NREGS + reg] */
} run_data;

static char *read_file(const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "cannot open %.300s: %s", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, len = 0;
    char *buf = malloc(cap);
    size_t n;
    while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
        len += n;
        if (len + 1 == cap) {
            char *g = realloc(buf, cap *= 2);
            if (!g) {
                free(buf);
                buf = NULL;
            }
            buf = g;
        }
    }
    int bad = ferror(f);
    fclose(f);
    if (!buf || bad) {
        free(buf);
        snprintf(err, errlen, "cannot read %.300s", path);
        return NULL;
    }
    buf[len] = 0;
    return buf;
}

/* One run's dump; 0 or -1 with a message. */
static int read_dump(const char *path, run_data *d, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(err, errlen, "the run wrote no QuickStep registers (%.300s: %s)", path,
                 strerror(errno));
        return -1;
    }
    char line[1024];
    int lineno = 0, rc = -1;
    memset(d, 0, sizeof *d);
    while (fgets(line, sizeof line, f)) {
        lineno++;
        unsigned long long slice, t, t2;
        int node, k, n;
        if (lineno == 1) {
            if (strcmp(line, "quickstep-dump 1\n"))
                goto bad;
        } else if (sscanf(line, "nodes %d slices %d slice %llu", &d->nnodes, &d->nslices,
                          &slice) == 3) {
            if (d->nnodes < 1 || d->nnodes > SIM_MAX_PROCS || d->nslices < 1 ||
                d->nslices > (1 << 24))
                goto bad;
            d->slice = slice;
            d->traps = calloc((size_t)d->nnodes, sizeof *d->traps);
            d->v = calloc((size_t)d->nnodes * (size_t)d->nslices * NREGS, sizeof *d->v);
            if (!d->traps || !d->v)
                goto bad;
        } else if (sscanf(line, "traps %d %llu", &node, &t) == 2) {
            if (!d->traps || node < 0 || node >= d->nnodes)
                goto bad;
            d->traps[node] = t;
        } else if (sscanf(line, "limitless %llu", &t) == 1) {
            d->limitless = t;
        } else if (sscanf(line, "host %d %llu %llu", &node, &t, &t2) == 3) {
            d->host_node = node;
            d->host_reports = t;
            d->host_bytes = t2;
        } else if (sscanf(line, "data %d %d%n", &node, &k, &n) == 2) {
            if (!d->v || node < 0 || node >= d->nnodes || k < 0 || k >= d->nslices)
                goto bad;
            uint64_t *v = &d->v[((size_t)node * (size_t)d->nslices + (size_t)k) * NREGS];
            const char *p = line + n;
            for (int r = 0; r < NREGS; r++) {
                char *end;
                v[r] = strtoull(p, &end, 10);
                if (end == p)
                    goto bad;
                p = end;
            }
        } else if (strncmp(line, "counter ", 8) && strncmp(line, "histogram ", 10)) {
            goto bad;
        }
    }
    if (d->v)
        rc = 0;
    else
        snprintf(err, errlen, "%.300s: no register values", path);
    fclose(f);
    return rc;
bad:
    snprintf(err, errlen, "%.300s:%d: not a QuickStep register dump", path, lineno);
    fclose(f);
    return -1;
}

static void free_run(run_data *d)
{
    free(d->traps);
    free(d->v);
}

static void print_value(FILE *f, double v)
{
    if (isnan(v))
        fputs("nan", f);
    else if (v == floor(v) && fabs(v) < 1e18)
        fprintf(f, "%.0f", v);
    else
        fprintf(f, "%.14g", v);
}

static int write_raw(FILE *f, const qs_plan *pl, const run_data *runs, const char *prog,
                     const char *machine)
{
    fprintf(f, "# quickstep-raw 1 program %s machine %s nodes %d runs %d slice %" PRIu64 "\n",
            prog, machine, runs[0].nnodes, pl->nruns, runs[0].slice);
    for (int i = 0; i < pl->nselected; i++) {
        const qs_record *r = pl->selected[i];
        const run_data *d = &runs[pl->run_of[i]];
        if (r->nops) {
            fprintf(f, "CntRecord \"%s\" run %d\n", r->name, pl->run_of[i] + 1);
            for (int h = 0; h < r->nheaders; h++)
                fprintf(f, "\"%s\" ", r->header[h]);
            fputs("Index Timestamp\n", f);
            for (int node = 0; node < d->nnodes; node++)
                for (int k = 0; k < d->nslices; k++) {
                    const uint64_t *v =
                        &d->v[((size_t)node * (size_t)d->nslices + (size_t)k) * NREGS];
                    uint64_t c[QS_NCOUNTERS] = {0};
                    for (int j = 0; j < r->nmasks; j++)
                        c[j] = v[pl->slot[i][j]];
                    double res[QS_MAX_OPS];
                    qs_evaluate(r, c, res);
                    for (int o = 0; o < r->nops; o++) {
                        print_value(f, res[o]);
                        fputc(' ', f);
                    }
                    fprintf(f, "%d %d\n", node, k);
                }
            fputs("EndRecord\n", f);
        }
        if (r->has_hist) {
            fprintf(f, "HistRecord \"%s\" run %d\n", r->name, pl->run_of[i] + 1);
            fprintf(f, "\"%s\"", r->nhist_headers ? r->hist_header[0] : r->name);
            for (int b = 0; b < QS_NHIST; b++)
                fprintf(f, " Bin%d", b);
            fputs(" Index Timestamp\n", f);
            for (int node = 0; node < d->nnodes; node++)
                for (int k = 0; k < d->nslices; k++) {
                    const uint64_t *v =
                        &d->v[((size_t)node * (size_t)d->nslices + (size_t)k) * NREGS];
                    for (int b = 0; b < QS_NHIST; b++)
                        fprintf(f, "%" PRIu64 " ", v[QS_NCOUNTERS + b]);
                    fprintf(f, "%d %d\n", node, k);
                }
            fputs("EndRecord\n", f);
        }
    }
    for (int k = 0; k < pl->nruns; k++) {
        fprintf(f, "# limitless run %d %" PRIu64 "\n", k + 1, runs[k].limitless);
        if (runs[k].host_reports)
            fprintf(f, "# host run %d node %d reports %" PRIu64 " bytes %" PRIu64 "\n", k + 1,
                    runs[k].host_node, runs[k].host_reports, runs[k].host_bytes);
        for (int node = 0; node < runs[k].nnodes; node++)
            if (runs[k].traps[node])
                fprintf(f, "# overflow run %d node %d %" PRIu64 "\n", k + 1, node,
                        runs[k].traps[node]);
    }
    return ferror(f) ? -1 : 0;
}

/* The machine and its options, checked before any run (as dsmrun
 * --machine does): 0, or -1 after a message. */
static int check_machine(const char *prog_name, const char *machine, int nprocs)
{
    char buf[256], err[256] = "";
    if (strlen(machine) >= sizeof buf) {
        fprintf(stderr, "%s: --machine: '%.64s...' is too long\n", prog_name, machine);
        return -1;
    }
    strcpy(buf, machine);
    char *save = NULL, *name = strtok_r(buf, ",", &save);
    sim_params params;
    if (!name || sim_params_for(name, nprocs, &params, err, sizeof err)) {
        fprintf(stderr, "%s: --machine=%s: %s\n", prog_name, machine, err);
        return -1;
    }
    for (char *kv = strtok_r(NULL, ",", &save); kv; kv = strtok_r(NULL, ",", &save))
        if (sim_params_set(&params, kv, err, sizeof err)) {
            fprintf(stderr, "%s: --machine=%s: option '%s': %s\n", prog_name, machine, kv, err);
            return -1;
        }
    if (sim_params_check(&params, err, sizeof err)) {
        fprintf(stderr, "%s: --machine=%s: %s\n", prog_name, machine, err);
        return -1;
    }
    if (nprocs > ALEWIFE_MAX_NODES) {
        fprintf(stderr, "%s: --machine=alewife: %d nodes, must be 1 .. %d\n", prog_name, nprocs,
                ALEWIFE_MAX_NODES);
        return -1;
    }
    return 0;
}

int dsmrun_quickstep(const char *prog_name, const char *machine, int nprocs,
                     const char *quantum, double timeout_s, char **cmd, const char *spec,
                     const char *out_path, const char *slice)
{
    char err[512] = "";
    /* CONFIG[:STAT,GROUP,...] */
    char path[4096];
    snprintf(path, sizeof path, "%s", spec);
    char *names = strchr(path, ':');
    if (names)
        *names++ = 0;
    if (strncmp(machine, "alewife", 7) || (machine[7] && machine[7] != ',')) {
        fprintf(stderr, "%s: --quickstep needs --machine=alewife (the CMMU's counters)\n",
                prog_name);
        return 2;
    }
    if (check_machine(prog_name, machine, nprocs))
        return 2;
    char *text = read_file(path, err, sizeof err);
    if (!text) {
        fprintf(stderr, "%s: --quickstep: %s\n", prog_name, err);
        return 2;
    }
    qs_config cfg;
    int rc = qs_config_parse(text, path, &cfg, err, sizeof err);
    free(text);
    if (rc) {
        fprintf(stderr, "%s: --quickstep: %s\n", prog_name, err);
        return 2;
    }
    static qs_plan plan; /* large: not on the stack */
    if (qs_plan_make(&cfg, names, &plan, err, sizeof err)) {
        fprintf(stderr, "%s: --quickstep: %s: %s\n", prog_name, path, err);
        qs_config_free(&cfg);
        return 2;
    }
    for (int i = 0; slice && i < plan.nselected; i++)
        if (!plan.selected[i]->timeflag) {
            fprintf(stderr,
                    "%s: --quickstep: %s: statistic '%s' has TimeFlag 0: it cannot be "
                    "collected with --timeslice\n",
                    prog_name, path, plan.selected[i]->name);
            qs_config_free(&cfg);
            return 2;
        }
    fprintf(stderr, "dsmrun: quickstep: %d statistic%s in %d run%s\n", plan.nselected,
            plan.nselected == 1 ? "" : "s", plan.nruns, plan.nruns == 1 ? "" : "s");
    const char *tmp = getenv("TMPDIR");
    char dirbuf[1024];
    snprintf(dirbuf, sizeof dirbuf, "%.900s/dsmrun-qs.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dirbuf)) {
        fprintf(stderr, "%s: --quickstep: cannot make a directory %s: %s\n", prog_name, dirbuf,
                strerror(errno));
        qs_config_free(&cfg);
        return 1;
    }
    run_data *runs = calloc((size_t)plan.nruns, sizeof *runs);
    int status = runs ? 0 : 1;
    char dump[1100];
    for (int k = 0; k < plan.nruns && !status; k++) {
        char spec_k[512];
        int n = snprintf(spec_k, sizeof spec_k, "%.256s", machine);
        for (int i = 0; i < plan.run[k].ncounters; i++)
            n += snprintf(spec_k + n, sizeof spec_k - (size_t)n, ",qs%d=%08x", i,
                          plan.run[k].counter[i]);
        if (plan.run[k].has_hist)
            n += snprintf(spec_k + n, sizeof spec_k - (size_t)n, ",qs_hist=%08x",
                          plan.run[k].hist);
        if (slice)
            n += snprintf(spec_k + n, sizeof spec_k - (size_t)n, ",qs_slice=%s", slice);
        if (n >= 250) { /* DSM_MACHINE's limit (dsm/simfront/run.c) */
            fprintf(stderr, "%s: --quickstep: --machine=%s with the registers is too long\n",
                    prog_name, machine);
            status = 2;
            break;
        }
        snprintf(dump, sizeof dump, "%s/run%d", dirbuf, k + 1);
        fprintf(stderr, "dsmrun: quickstep run %d of %d: --machine=%s\n", k + 1, plan.nruns,
                spec_k);
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) {
            fprintf(stderr, "%s: fork: %s\n", prog_name, strerror(errno));
            status = 1;
            break;
        }
        if (pid == 0) {
            char v_procs[16];
            snprintf(v_procs, sizeof v_procs, "%d", nprocs);
            if (setenv("DSM_MACHINE", spec_k, 1) || setenv("DSM_SIM_PROCS", v_procs, 1) ||
                setenv("DSM_QUICKSTEP_DUMP", dump, 1) ||
                (quantum && setenv("DSM_SIM_QUANTUM", quantum, 1)))
                _exit(1);
            unsetenv("DSM_NODES");
            if (timeout_s > 0)
                alarm(timeout_s < 1 ? 1 : (unsigned)(timeout_s + 0.5));
            execvp(cmd[0], cmd);
            fprintf(stderr, "%s: cannot execute '%s': %s\n", prog_name, cmd[0], strerror(errno));
            _exit(127);
        }
        int ws;
        while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
            ;
        if (!WIFEXITED(ws) || WEXITSTATUS(ws)) {
            status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128 + WTERMSIG(ws);
            fprintf(stderr, "%s: quickstep run %d failed (status %d)\n", prog_name, k + 1,
                    status);
            break;
        }
        if (read_dump(dump, &runs[k], err, sizeof err)) {
            fprintf(stderr, "%s: quickstep run %d: %s\n", prog_name, k + 1, err);
            status = 1;
        }
        unlink(dump);
    }
    rmdir(dirbuf);
    if (!status) {
        FILE *f = fopen(out_path, "w");
        const char *base = strrchr(cmd[0], '/');
        if (!f || write_raw(f, &plan, runs, base ? base + 1 : cmd[0], machine) || fclose(f)) {
            fprintf(stderr, "%s: --quickstep: cannot write %s: %s\n", prog_name, out_path,
                    strerror(errno));
            status = 1;
        } else {
            fprintf(stderr, "dsmrun: quickstep: raw data in %s (dsmprof quickstep %s)\n",
                    out_path, out_path);
        }
    }
    for (int k = 0; runs && k < plan.nruns; k++)
        free_run(&runs[k]);
    free(runs);
    qs_config_free(&cfg);
    return status;
}
