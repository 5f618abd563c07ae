/* api.c - the public API of dsm.h: argument checks and the clear errors for
 * misuse, then the work in node.c, alloc.c and sync.c. */
#include <config.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "access.h"
#include "dsm.h"
#include "error.h"
#include "futex.h"
#include "node.h"
#include "simfront/simfront.h" /* sim mode */
#include "transport/mpi_transport.h"
#include "transport/verbs_transport.h"

static dsm_rt the_rt;

/* sim mode: once dsm_init entered simulation mode (DSM_MACHINE set, dsm/simfront/run.c)
 * every call below goes to dsm/simfront/api.c instead. */
#define SIM_DIVERT(call, stmt)                                                                    \
    do {                                                                                          \
        if (__builtin_expect(dsm_sim_active, 0)) {                                                \
            dsm_sim_need(call);                                                                   \
            stmt;                                                                                 \
        }                                                                                         \
    } while (0)

static dsm_rt *need_init(const char *call)
{
    if (!dsm_g)
        dsm_fatal(call, "called before dsm_init");
    if (dsm_g->finalized)
        dsm_fatal(call, "called after dsm_finalize");
    return dsm_g;
}

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

/* The transport: DSM_TRANSPORT=shm|mpi|verbs, else shm under dsmrun, mpi
 * under mpirun, none (one node) otherwise.  NULL after a message. */
static const char *pick_transport(void)
{
    const char *s = getenv("DSM_TRANSPORT");
    if (s && *s) {
        if (!strcmp(s, "shm")) {
            if (!dsm_transport_shm_present()) {
                fprintf(stderr, "dsm: node ?: dsm_init: DSM_TRANSPORT=shm but this process was "
                                "not started by dsmrun (dsmrun -n N prog)\n");
                return NULL;
            }
            return "shm";
        }
        if (!strcmp(s, "mpi")) {
#ifdef HAVE_MPI
            return "mpi";
#else
            fprintf(stderr, "dsm: node ?: dsm_init: DSM_TRANSPORT=mpi but this libdsm was built "
                            "without MPI (install libopenmpi-dev and reconfigure)\n");
            return NULL;
#endif
        }
        if (!strcmp(s, "verbs")) {
#ifdef DSM_HAVE_VERBS
            return "verbs";
#else
            fprintf(stderr, "dsm: node ?: dsm_init: DSM_TRANSPORT=verbs but this libdsm was "
                            "built without the verbs transport (it needs libibverbs-dev and "
                            "MPI, its bootstrap; install them and reconfigure)\n");
            return NULL;
#endif
        }
        fprintf(stderr, "dsm: node ?: dsm_init: DSM_TRANSPORT=%s is not one of shm, mpi, verbs\n",
                s);
        return NULL;
    }
    if (dsm_transport_shm_present())
        return "shm";
    if (dsm_transport_mpi_launched()) {
#ifdef HAVE_MPI
        return "mpi";
#else
        fprintf(stderr, "dsm: node ?: dsm_init: started by mpirun but this libdsm was built "
                        "without MPI (install libopenmpi-dev and reconfigure)\n");
        return NULL;
#endif
    }
    return "none";
}

static dsm_transport *open_mpi(size_t block_size)
{
#ifdef HAVE_MPI
    return dsm_transport_mpi_open(block_size);
#else
    (void)block_size;
    return NULL;
#endif
}

static dsm_transport *open_verbs(size_t block_size)
{
#ifdef DSM_HAVE_VERBS
    return dsm_transport_verbs_open(block_size);
#else
    (void)block_size;
    return NULL;
#endif
}

static void mark(dsm_transport *tp, int state)
{
#ifdef DSM_HAVE_VERBS
    if (!strcmp(tp->name, "verbs"))
        tp = dsm_transport_verbs_boot(tp); /* MPI watches the node for the verbs transport */
#endif
#ifdef HAVE_MPI
    if (!strcmp(tp->name, "mpi")) {
        dsm_transport_mpi_mark(tp, state);
        return;
    }
#endif
    dsm_transport_shm_mark(tp, state);
}

int dsm_init(int *argc, char ***argv)
{
    const char *sim_machine = getenv("DSM_MACHINE"); /* sim mode */
    if (dsm_sim_active || (sim_machine && *sim_machine))
        return dsm_sim_init(argc, argv);
    if (dsm_g) {
        fprintf(stderr, "dsm: node %d: dsm_init: called twice\n", dsm_g->self);
        errno = EALREADY;
        return -1;
    }
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
    rt->self = 0;
    rt->nnodes = 1;
    const char *which = pick_transport();
    if (!which) {
        errno = EINVAL;
        return -1;
    }
    if (strcmp(which, "none")) {
        rt->tp = !strcmp(which, "shm")   ? dsm_transport_shm_open(rt->cfg.block_size)
                 : !strcmp(which, "mpi") ? open_mpi(rt->cfg.block_size)
                                         : open_verbs(rt->cfg.block_size);
        if (!rt->tp) {
            errno = EINVAL;
            return -1;
        }
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
    const char *base = getenv("DSM_CLOCK_BASE_NS");
    rt->clock_base_ns = base && *base ? strtoull(base, NULL, 10) : dsm_now_ns();
#ifdef HAVE_MPI
    if (rt->tp && !strcmp(rt->tp->name, "mpi"))
        rt->clock_base_ns = dsm_transport_mpi_clock_base(rt->tp);
#endif
#ifdef DSM_HAVE_VERBS
    if (rt->tp && !strcmp(rt->tp->name, "verbs"))
        rt->clock_base_ns = dsm_transport_mpi_clock_base(dsm_transport_verbs_boot(rt->tp));
#endif
    if (dsm_region_map(&rt->region, rt->cfg.region_addr, rt->cfg.region_size, rt->cfg.block_size,
                       rt->self)) {
        errno = ENOMEM;
        return -1;
    }
#ifdef DSM_HAVE_VERBS
    /* the region is registered for RDMA once, where the protocol reaches it */
    if (rt->tp && !strcmp(rt->tp->name, "verbs"))
        dsm_transport_verbs_attach(rt->tp, rt->region.proto, rt->region.size,
                                   rt->region.block_size);
#endif
    dsm_ticks_init();
    if (dsm_rt_start(rt)) {
        errno = ENOMEM;
        return -1;
    }
    dsm_g = rt;
    dsm_fault_install(rt);
    if (dsm_blk_start(rt)) {
        errno = ENOMEM;
        return -1;
    }
    if (rt->tp)
        mark(rt->tp, DSM_NODE_JOINED);
    rt->initialized = 1;
    dsm_collective(rt, COLL_INIT, (uint64_t)rt->cfg.block_size, "dsm_init");
    return 0;
}

void dsm_finalize(void)
{
    if (dsm_sim_active) { /* sim mode */
        dsm_sim_finalize();
        return;
    }
    dsm_rt *rt = need_init("dsm_finalize");
    dsm_stats_finalize(rt); /* gathers at node 0 before the finalize collective */
    dsm_collective(rt, COLL_FINALIZE, 0, "dsm_finalize");
    dsm_rt_stop(rt);
    rt->finalized = 1;
    if (rt->tp) {
        mark(rt->tp, DSM_NODE_FINALIZED);
        /* delivers what is still in the overflow lists (the last messages
         * of the finalize collective may be there) */
        rt->tp->close(rt->tp);
        rt->tp = NULL;
    }
    fflush(stdout);
}

int dsm_node(void)
{
    SIM_DIVERT("dsm_node", return dsm_sim_node());
    return need_init("dsm_node")->self;
}
int dsm_nodes(void)
{
    SIM_DIVERT("dsm_nodes", return dsm_sim_nodes());
    return need_init("dsm_nodes")->nnodes;
}
size_t dsm_block_size(void)
{
    SIM_DIVERT("dsm_block_size", return dsm_sim_block_size());
    return need_init("dsm_block_size")->region.block_size;
}
unsigned dsm_lock_count(void)
{
    SIM_DIVERT("dsm_lock_count", return dsm_sim_lock_count());
    return need_init("dsm_lock_count")->cfg.locks;
}

void *dsm_alloc(size_t size, const char *name)
{
    SIM_DIVERT("dsm_alloc", return dsm_sim_alloc(size, name, (uintptr_t)__builtin_return_address(0)));
    return dsm_alloc_collective(need_init("dsm_alloc"), size, name);
}

void *dsm_malloc(size_t size, const char *name)
{
    SIM_DIVERT("dsm_malloc", return dsm_sim_malloc(size, name, (uintptr_t)__builtin_return_address(0)));
    return dsm_alloc_local(need_init("dsm_malloc"), size, name);
}

void dsm_free(void *p)
{
    SIM_DIVERT("dsm_free", dsm_sim_free(p); return);
    dsm_rt *rt = need_init("dsm_free");
    if (!p)
        return;
    if (!dsm_region_contains(&rt->region, p))
        dsm_fatal("dsm_free", "%p is outside the shared region", p);
    dsm_free_any(rt, p);
}

void dsm_barrier(void)
{
    SIM_DIVERT("dsm_barrier", dsm_sim_barrier(); return);
    dsm_rt *rt = need_init("dsm_barrier");
    uint64_t t0 = rt->ctr ? dsm_now_ns() : 0;
    dsm_collective(rt, COLL_BARRIER, 0, "dsm_barrier");
    if (rt->ctr) {
        uint64_t t1 = dsm_now_ns();
        dsm_stats_node_add(&rt->stats, CM_TARGET_BARRIER, 1);
        dsm_stats_node_add(&rt->stats, CM_TARGET_BARRIER_WALL, t1 - t0);
        if (rt->prof)
            dsm_prof_barrier(rt, t0, t1); /* the profile's timeline */
    }
}

static void check_lock(dsm_rt *rt, unsigned id, const char *call)
{
    if (id >= rt->cfg.locks)
        dsm_fatal(call, "lock id %u is out of range (0..%u; set DSM_LOCKS for more)", id,
                  rt->cfg.locks - 1);
}

void dsm_lock(unsigned id)
{
    SIM_DIVERT("dsm_lock", dsm_sim_lock(id); return);
    dsm_rt *rt = need_init("dsm_lock");
    check_lock(rt, id, "dsm_lock");
    dsm_sync_lock(rt, id);
}

void dsm_unlock(unsigned id)
{
    SIM_DIVERT("dsm_unlock", dsm_sim_unlock(id); return);
    dsm_rt *rt = need_init("dsm_unlock");
    check_lock(rt, id, "dsm_unlock");
    dsm_sync_unlock(rt, id);
}

double dsm_wtime(void)
{
    SIM_DIVERT("dsm_wtime", return dsm_sim_wtime());
    dsm_rt *rt = need_init("dsm_wtime");
    return (double)(dsm_now_ns() - rt->clock_base_ns) / 1e9;
}

int dsm_home_of(const void *p)
{
    SIM_DIVERT("dsm_home_of", return dsm_sim_home_of(p));
    dsm_rt *rt = need_init("dsm_home_of");
    if (!dsm_region_contains(&rt->region, p))
        return -1;
    pthread_mutex_lock(&rt->eng_lock);
    int h = proto_home(rt->eng, dsm_region_block_of(&rt->region, p));
    pthread_mutex_unlock(&rt->eng_lock);
    return h;
}

long dsm_block_index(const void *p)
{
    SIM_DIVERT("dsm_block_index", return dsm_sim_block_index(p));
    dsm_rt *rt = need_init("dsm_block_index");
    if (!dsm_region_contains(&rt->region, p))
        return -1;
    return (long)dsm_region_block_of(&rt->region, p);
}

const char *dsm_version(void)
{
    return DSM_VERSION;
}
