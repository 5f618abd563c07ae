/* quickstep.c - the front end's side of QuickStep on the simulated Alewife
 * (protocol/sim/alewife.h, quickstep.h): the machine's reference and miss
 * observers feed the CMMU registers the run programmed (DSM_MACHINE's
 * qs0..qs3, qs_hist, qs_slice, set by dsmrun --quickstep), dsm_checkpoint
 * counts checkpoints, and at the end of the run the registers go to the
 * file DSM_QUICKSTEP_DUMP names, for dsmrun to merge the runs (doc/
 * simulation.md, "QuickStep").  Dump format, text:
 *   quickstep-dump 1
 *   nodes N slices S slice CYCLES
 *   counter I MASK ON          (I = 0..3, MASK hex)
 *   histogram MASK ON
 *   traps NODE OVERFLOW_TRAPS
 *   limitless TRAPS
 *   data NODE SLICE C0 C1 C2 C3 H0 .. H15
 * On another machine, or with no register programmed, nothing is fed and
 * checkpoints cost nothing. */
#include <config.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsm.h"
#include "settings.h"
#include "sim/alewife.h"
#include "sim/timing.h"
#include "simfront.h"

static struct {
    sim_machine *m;
    qs_monitor *qs;   /* NULL: not Alewife */
    int fed;          /* some register programmed: observers attached */
} Q;

static void on_ref(void *arg, int proc, int is_write, int outcome, int home, sim_time t)
{
    (void)arg;
    int private = home == SIM_HOME_PRIVATE;
    int o = outcome == SIM_REF_HIT ? QS_CACHED
            : outcome == SIM_REF_UPGRADE ? QS_UPGRADE
            : home == proc || private ? QS_LOCAL_MISS : QS_REMOTE_MISS;
    qs_access(Q.qs, proc, t, is_write, o,
              private ? QS_LOCAL_LOCAL : home == proc ? QS_LOCAL_GLOBAL : QS_REMOTE_GLOBAL);
}

static void on_miss(void *arg, const sim_miss *ms)
{
    (void)arg;
    qs_transaction(Q.qs, ms->proc, ms->issue, ms->is_write, ms->remote, ms->latency);
}

void dsm_sim_quickstep_start(sim_machine *m)
{
    Q.m = m;
    if (sim_timing_ops_of(m) != &sim_timing_alewife)
        return;
    Q.qs = sim_alewife_monitor(sim_timing_model(m));
    int on, any = 0, refs = 0;
    for (int i = 0; i < QS_NCOUNTERS; i++) {
        uint32_t mask = qs_counter_mask(Q.qs, i, &on);
        any |= on;
        refs |= on && qs_mask_major(mask) == QS_MAJOR_CACHE;
    }
    qs_histogram_mask(Q.qs, &on);
    any |= on;
    Q.fed = any;
    /* only cache statistics need every reference: the others keep the
     * inline hit path */
    if (refs && sim_on_ref(m, on_ref, NULL))
        dsm_sim_fatal("dsm_init", "cannot observe the references for QuickStep");
    if (any && sim_on_miss(m, on_miss, NULL))
        dsm_sim_fatal("dsm_init", "cannot observe the misses for QuickStep");
}

void dsm_sim_checkpoint(int id)
{
    dsm_sim_need("dsm_checkpoint");
    if (id < 0 || id > DSM_CHECKPOINT_MAX)
        dsm_sim_fatal("dsm_checkpoint", "checkpoint %d is out of range 0 .. %d", id,
                      DSM_CHECKPOINT_MAX);
    int p = dsm_sim_hot_state.cur;
    if (Q.qs)
        qs_checkpoint(Q.qs, p, sim_clock(Q.m, p), (unsigned)id);
}

void dsm_sim_quickstep_finish(void)
{
    const char *path = dsm_setting_raw("DSM_QUICKSTEP_DUMP");
    if (!path || !*path)
        return;
    if (!Q.qs)
        dsm_sim_fatal("dsm_finalize", "QuickStep statistics need --machine=alewife");
    FILE *f = fopen(path, "w");
    if (!f)
        dsm_sim_fatal("dsm_finalize", "cannot write the QuickStep registers to %s", path);
    int n = qs_nnodes(Q.qs), s = qs_nslices(Q.qs), on;
    fprintf(f, "quickstep-dump 1\nnodes %d slices %d slice %llu\n", n, s,
            (unsigned long long)qs_slice(Q.qs));
    for (int i = 0; i < QS_NCOUNTERS; i++) {
        uint32_t mask = qs_counter_mask(Q.qs, i, &on);
        fprintf(f, "counter %d %08x %d\n", i, mask, on);
    }
    uint32_t hm = qs_histogram_mask(Q.qs, &on);
    fprintf(f, "histogram %08x %d\n", hm, on);
    for (int node = 0; node < n; node++)
        fprintf(f, "traps %d %llu\n", node, (unsigned long long)qs_overflow_traps(Q.qs, node));
    fprintf(f, "limitless %llu\n",
            (unsigned long long)sim_alewife_limitless_traps(sim_timing_model(Q.m)));
    int host;
    uint64_t reports, bytes;
    sim_alewife_host_reports(sim_timing_model(Q.m), &host, &reports, &bytes);
    fprintf(f, "host %d %llu %llu\n", host, (unsigned long long)reports,
            (unsigned long long)bytes);
    for (int node = 0; node < n; node++)
        for (int k = 0; k < s; k++) {
            fprintf(f, "data %d %d", node, k);
            for (int i = 0; i < QS_NCOUNTERS; i++)
                fprintf(f, " %llu", (unsigned long long)qs_counter(Q.qs, node, k, i));
            for (int b = 0; b < QS_NHIST; b++)
                fprintf(f, " %llu", (unsigned long long)qs_histogram(Q.qs, node, k, b));
            fputc('\n', f);
        }
    if (fclose(f))
        dsm_sim_fatal("dsm_finalize", "cannot write the QuickStep registers to %s", path);
}
