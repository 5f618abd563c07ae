/* api.c - the DSM runtime's side of dsm.h (dsm_backend_runtime, backend.h):
 * joining the job through the chosen transport, argument checks and the
 * clear errors for misuse, then the work in node.c, alloc.c and sync.c.
 * Calls come here only between a successful dsm_init and dsm_finalize
 * (backend.c answers the others), so none of them tests the state. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "backend.h"
#include "dsm.h"
#include "error.h"
#include "futex.h"
#include "node.h"
#include "syncid.h"
#include "tasks.h"

static dsm_rt the_rt;

static int env_int(const char *name, int *out)
{
    const char *s = getenv(name);
    if (!s || !*s)
        return -1;
    char *end;
    long v = strtol(s, &end, 10);
    if (*end || v < 0 || v > 1 << 20)
        return -2;
    *out = (int)v;
    return 0;
}

/* Join the job: the transport (transport/registry.c chooses), then the
 * region, the node's runtime and the fault handler. */
static int dsm_runtime_init(int *argc, char ***argv)
{
    (void)argc, (void)argv;
    if (dsm_g) {
        fprintf(stderr, "dsm: node %d: dsm_init: called twice\n", dsm_g->self);
        errno = EALREADY;
        return -1;
    }
    dsm_aslr_off("dsm_init");
    dsm_rt *rt = &the_rt;
    memset(rt, 0, sizeof *rt);
    if (dsm_config_load(&rt->cfg, "dsm: node ?: dsm_init")) {
        errno = EINVAL;
        return -1;
    }
    if (!dsm_blk_checked && rt->cfg.block_size < rt->cfg.page_size) {
        fprintf(stderr, "dsm: node ?: dsm_init: DSM_BLOCK_SIZE=%zu is below the page size (%zu): "
                        "blocks that small need block mode (compile with dsmcc --dsm)\n",
                rt->cfg.block_size, rt->cfg.page_size);
        errno = EINVAL;
        return -1;
    }
    /* before the runtime (and MPI) start threads of their own */
    dsm_park_begin(&rt->park, rt->cfg.park_defer);
    rt->self = 0;
    rt->nnodes = 1;
    const dsm_transport_ops *tp;
    if (dsm_transport_choose(&tp)) {
        errno = EINVAL;
        return -1;
    }
    if (tp) {
        rt->tp = tp->open(rt->cfg.block_size);
        if (!rt->tp) {
            errno = EINVAL;
            return -1;
        }
        if (tp->abort)
            dsm_fatal_exit = tp->abort;
        rt->self = rt->tp->node;
        rt->nnodes = rt->tp->nnodes;
    } else {
        int v;
        if (env_int("DSM_NODES", &v) == 0 && v > 1) {
            fprintf(stderr, "dsm: node ?: dsm_init: DSM_NODES=%d but no transport is set up; "
                            "start the program with dsmrun -n N\n", v);
            errno = EINVAL;
            return -1;
        }
    }
    dsm_error_node = rt->self;
    /* node 0 writes the statistics and the profile: a path that cannot be
     * written is said now, not after the run */
    if (rt->self == 0 && dsm_config_check_paths(&rt->cfg, 0, "dsm: node 0: dsm_init")) {
        errno = EINVAL;
        return -1;
    }
    rt->clock_base_ns = tp && tp->clock_base ? tp->clock_base(rt->tp) : dsm_now_ns();
    if (dsm_region_map(&rt->region, rt->cfg.region_addr, rt->cfg.region_size, rt->cfg.block_size,
                       rt->self)) {
        errno = ENOMEM;
        return -1;
    }
    /* the transport sees the region once, where the protocol reaches it
     * (verbs registers it for RDMA) */
    if (tp && tp->attach)
        tp->attach(rt->tp, rt->region.proto, rt->region.size, rt->region.block_size);
    /* DSM_TEST_CLOCK_STALL_US: odd nodes' first reading of the clock as if
     * preempted halfway (tests/known_sharing.sh) */
    const char *stall = getenv("DSM_TEST_CLOCK_STALL_US");
    dsm_ticks_init(stall && (rt->self & 1) ? (unsigned)strtoul(stall, NULL, 10) : 0);
    if (dsm_rt_start(rt)) {
        errno = ENOMEM;
        return -1;
    }
    if (dsm_shared_globals_setup(rt)) {
        errno = EINVAL;
        return -1;
    }
    dsm_g = rt;
    dsm_fault_install(rt);
    if (dsm_blk_start(rt)) {
        errno = ENOMEM;
        return -1;
    }
    if (tp)
        tp->mark(rt->tp, DSM_NODE_JOINED);
    rt->initialized = 1;
    /* Every node decides alike: the area is the job's or nobody's, and the
     * setting must agree (the collective below ends the job otherwise).
     * Before the collective, which itself takes node 0's messages: a task
     * node 0 starts here (dsm_create) may run as soon as this node handled
     * its end, and its lock must take the path its unlock will. */
    if (rt->tp && rt->tp->job_area && rt->cfg.job_sync) {
        rt->jobsync = dsm_jobsync_open(rt->tp->job_area, rt->self, rt->nnodes);
        if (!rt->jobsync)
            dsm_fatal("dsm_init", "cannot use the job's shared memory for %d nodes (set "
                      "DSM_JOB_SYNC=off)", rt->nnodes);
    }
    /* the settings that must agree are compared at node 0 (sync.c) */
    dsm_collective(rt, COLL_INIT, dsm_config_digest(&rt->cfg), "dsm_init");
    dsm_stdin_copy(rt);
    dsm_park_seal(&rt->park); /* every thread there is now is the runtime's */
    return 0;
}

static void dsm_runtime_finalize(void)
{
    dsm_rt *rt = dsm_g;
    dsm_tasks_finalize_begin(rt);
    dsm_stdin_stop(rt);
    dsm_rt_enter(); /* no signal handler while it holds the runtime's locks (node.h) */
    dsm_stats_finalize(rt); /* gathers at node 0 before the finalize collective */
    dsm_collective(rt, COLL_FINALIZE, 0, "dsm_finalize");
    dsm_jobsync_close(rt->jobsync);
    rt->jobsync = NULL;
    dsm_rt_stop(rt);
    rt->finalized = 1;
    dsm_backend_finished();
    if (rt->tp) {
        rt->tp->ops->mark(rt->tp, DSM_NODE_FINALIZED);
        /* delivers what is still in the overflow lists (the last messages
         * of the finalize collective may be there) */
        rt->tp->close(rt->tp);
        rt->tp = NULL;
    }
    dsm_rt_leave();
    fflush(stdout);
}

static int dsm_runtime_node(void) { return dsm_g->self; }
static int dsm_runtime_nodes(void) { return dsm_g->nnodes; }
static size_t dsm_runtime_block_size(void) { return dsm_g->region.block_size; }
static unsigned dsm_runtime_lock_count(void) { return dsm_g->cfg.locks; }

/* The allocation's label when it has no name comes from the profile's own
 * backtrace (dsm/prof), not from site. */
static void *dsm_runtime_alloc(size_t size, const char *name, uintptr_t site)
{
    (void)site;
    return dsm_alloc_collective(dsm_g, size, name);
}

static void *dsm_runtime_malloc(size_t size, const char *name, uintptr_t site)
{
    (void)site;
    return dsm_alloc_local(dsm_g, size, name);
}

static void dsm_runtime_free(void *p)
{
    dsm_rt *rt = dsm_g;
    if (!p)
        return;
    if (!dsm_region_contains(&rt->region, p))
        dsm_fatal("dsm_free", "%p is outside the shared region", p);
    dsm_free_any(rt, p);
}

static void dsm_runtime_barrier(void)
{
    dsm_rt *rt = dsm_g;
    dsm_rt_enter(); /* the profile's timeline takes the engine lock */
    uint64_t t0 = rt->ctr ? dsm_now_ns() : 0;
    dsm_collective(rt, COLL_BARRIER, 0, "dsm_barrier");
    if (rt->ctr) {
        uint64_t t1 = dsm_now_ns();
        dsm_stats_node_add(&rt->stats, CM_TARGET_BARRIER, 1);
        dsm_stats_node_add(&rt->stats, CM_TARGET_BARRIER_WALL, t1 - t0);
        if (rt->prof)
            dsm_prof_barrier(rt, t0, t1); /* the profile's timeline */
    }
    dsm_rt_leave();
}

static void check_lock(dsm_rt *rt, unsigned id, const char *call)
{
    if (id >= rt->cfg.locks && !dsm_sync_made(id))
        dsm_fatal(call, "lock id %u is out of range (0..%u, or an id from dsm_lock_new; set "
                        "DSM_LOCKS for more)", id, rt->cfg.locks - 1);
}

static void dsm_runtime_lock(unsigned id)
{
    check_lock(dsm_g, id, "dsm_lock");
    dsm_sync_lock(dsm_g, id);
}

static void dsm_runtime_unlock(unsigned id)
{
    check_lock(dsm_g, id, "dsm_unlock");
    dsm_sync_unlock(dsm_g, id);
}

static double dsm_runtime_wtime(void)
{
    return (double)(dsm_now_ns() - dsm_g->clock_base_ns) / 1e9;
}

static int dsm_runtime_home_of(const void *p)
{
    dsm_rt *rt = dsm_g;
    if (!dsm_region_contains(&rt->region, p))
        return -1;
    dsm_rt_enter();
    pthread_mutex_lock(&rt->eng_lock);
    int h = proto_home(rt->eng, dsm_region_block_of(&rt->region, p));
    pthread_mutex_unlock(&rt->eng_lock);
    dsm_rt_leave();
    return h;
}

static long dsm_runtime_block_index(const void *p)
{
    dsm_rt *rt = dsm_g;
    if (!dsm_region_contains(&rt->region, p))
        return -1;
    return (long)dsm_region_block_of(&rt->region, p);
}

static unsigned dsm_runtime_sync_new(const char *call) { return dsm_sync_new(dsm_g, call); }

static void dsm_runtime_barrier_n(unsigned id, unsigned count)
{
    dsm_sync_barrier_n(dsm_g, id, count);
}

static void dsm_runtime_cond_wait(unsigned cond, unsigned lock)
{
    check_lock(dsm_g, lock, "dsm_cond_wait");
    dsm_sync_cond_wait(dsm_g, cond, lock);
}

static void dsm_runtime_cond_signal(unsigned cond, int all)
{
    dsm_sync_cond_signal(dsm_g, cond, all);
}

static long dsm_runtime_atomic_add(unsigned id, long delta)
{
    return dsm_sync_atomic_add(dsm_g, id, delta);
}

/* The measured section belongs to simulated runs (dsm.h): nothing here. */
static void dsm_runtime_no_section(void) {}

/* Checkpoints count on the simulated Alewife only (dsm.h); the id is
 * checked all the same, so a bad one fails on every backend. */
static void dsm_runtime_checkpoint(int id)
{
    if (id < 0 || id > DSM_CHECKPOINT_MAX)
        dsm_fatal("dsm_checkpoint", "checkpoint %d is out of range 0 .. %d", id,
                  DSM_CHECKPOINT_MAX);
}

/* wanted is not asked: the runtime is the last backend, taken when the
 * simulation is not wanted */
const dsm_backend dsm_backend_runtime = {
    .name = "runtime",
    .wanted = NULL,
    .init = dsm_runtime_init,
    .finalize = dsm_runtime_finalize,
    .node = dsm_runtime_node,
    .nodes = dsm_runtime_nodes,
    .alloc = dsm_runtime_alloc,
    .malloc = dsm_runtime_malloc,
    .free = dsm_runtime_free,
    .barrier = dsm_runtime_barrier,
    .lock = dsm_runtime_lock,
    .unlock = dsm_runtime_unlock,
    .wtime = dsm_runtime_wtime,
    .block_size = dsm_runtime_block_size,
    .lock_count = dsm_runtime_lock_count,
    .home_of = dsm_runtime_home_of,
    .block_index = dsm_runtime_block_index,
    .section_begin = dsm_runtime_no_section,
    .section_end = dsm_runtime_no_section,
    .checkpoint = dsm_runtime_checkpoint,
    .sync_new = dsm_runtime_sync_new,
    .barrier_n = dsm_runtime_barrier_n,
    .cond_wait = dsm_runtime_cond_wait,
    .cond_signal = dsm_runtime_cond_signal,
    .atomic_add = dsm_runtime_atomic_add,
    .init_master = dsm_tasks_init_master,
    .create = dsm_tasks_create,
    .join = dsm_tasks_join,
    .wait_for_end = dsm_tasks_wait_for_end,
    .task = dsm_tasks_task,
};
