/* origin.h - the SGI Origin 2000 machine's timing model behind
 * protocol/sim/timing.h (sim_timing_origin), and what the profiler asks it
 * directly: per processor the local access ratio, the hop breakdown and the
 * coherence transaction mix; per node (Hub) the memory unit's idle /
 * blocked / busy / refresh time, network-interface and SysAD bus
 * utilisation; per link utilisation and contention; all of them also as
 * periodic samples in simulated time (the Hub counters every hub_sample,
 * the router histograms every router_sample).
 *
 * Units: sim_time is processor cycles (cpu_mhz, default 195 MHz); the
 * statistics below are in picoseconds of simulated time, the model's own
 * unit, so that utilisations are exact ratios. */
#ifndef DSM_SIM_ORIGIN_H
#define DSM_SIM_ORIGIN_H

#include <stdint.h>

#include "sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Coherence transactions, as the Origin Hub counts them at the home: the
 * line's directory state when the request arrived. */
typedef enum sim_origin_txn {
    SO_TXN_UNOWNED,          /* no cached copy elsewhere: memory serves it */
    SO_TXN_INVALIDATE,       /* shared copies invalidated (write or upgrade) */
    SO_TXN_CLEAN_EXCLUSIVE,  /* another processor held it exclusive-clean */
    SO_TXN_DIRTY_EXCLUSIVE,  /* another processor held it dirty */
    SO_NTXN
} sim_origin_txn;

#define SO_MAX_HOPS 8        /* hop histogram: 0 .. SO_MAX_HOPS-1, the last bin is "or more" */
#define SO_INV_BINS 5        /* invalidates by sharers: 1, 2, 3, 4-7, 8 or more */

typedef struct sim_origin_thread {
    uint64_t misses, local;              /* local: the home is this processor's node */
    uint64_t hops[SO_MAX_HOPS];          /* router hops to the home (0: same router) */
    uint64_t txn[SO_NTXN];
    uint64_t inv_by_sharers[SO_INV_BINS];
    uint64_t latency_ps;                 /* sum of miss latencies */
    uint64_t tlb_misses;                 /* of every reference to the shared region */
    uint64_t preempted_ps;               /* taken by system activity (preempt_us) */
} sim_origin_thread;

/* Memory unit states (the Hub's MD counters). */
enum { SO_MEM_IDLE, SO_MEM_BLOCKED, SO_MEM_BUSY, SO_MEM_REFRESH, SO_MEM_NSTATES };

typedef struct sim_origin_node {
    uint64_t mem_ps[SO_MEM_NSTATES];     /* idle is the rest of the elapsed time */
    uint64_t mem_bytes;                  /* line data moved by the memory unit */
    uint64_t bus_busy_ps;                /* SysAD */
    uint64_t ni_out_busy_ps, ni_in_busy_ps;
} sim_origin_node;

typedef struct sim_origin_link {
    int from_kind, from, to_kind, to;    /* SO_END_* and its index */
    uint64_t busy_ps;                    /* packets x packet time */
    uint64_t packets;
    uint64_t waited_packets;             /* packets that found the link busy */
    uint64_t wait_ps;                    /* time they waited: contention */
} sim_origin_link;
enum { SO_END_NODE, SO_END_ROUTER, SO_END_META };

/* Shape of the machine the model built. */
int sim_origin_nodes(const void *model);      /* Hubs: ceil(nprocs / 2) */
int sim_origin_routers(const void *model);
int sim_origin_metarouters(const void *model); /* 0 up to 64 processors; 8 planes' routers */
int sim_origin_links(const void *model);      /* directed links, node links first */
int sim_origin_node_of(const void *model, int proc);
int sim_origin_hops(const void *model, int node_a, int node_b); /* routers crossed - 1,
                                                                 * metarouters counted */
uint32_t sim_origin_cpu_mhz(const void *model);

/* Totals up to `now` (picoseconds of simulated time).  0, or -1 out of range. */
int sim_origin_thread_of(const void *model, int proc, sim_origin_thread *out);
int sim_origin_node_stats(const void *model, int node, sim_origin_node *out);
int sim_origin_link_stats(const void *model, int link, sim_origin_link *out);
uint64_t sim_origin_elapsed_ps(const void *model);

/* Periodic samples: sample k covers [k x period, (k+1) x period). */
uint64_t sim_origin_hub_period_ps(const void *model);
uint64_t sim_origin_router_period_ps(const void *model);
int sim_origin_hub_samples(const void *model);   /* samples recorded so far */
int sim_origin_router_samples(const void *model);
/* Node `node` during hub sample k: memory busy+blocked+refresh, SysAD and
 * network interface (out) busy time, in ps, and line bytes from memory. */
int sim_origin_hub_sample(const void *model, int node, int k, uint64_t mem_ps[SO_MEM_NSTATES],
                          uint64_t *bus_ps, uint64_t *ni_out_ps, uint64_t *mem_bytes);
/* Link `link` during router sample k: busy time and contention wait (ps). */
int sim_origin_router_sample(const void *model, int link, int k, uint64_t *busy_ps,
                             uint64_t *wait_ps);

#ifdef __cplusplus
}
#endif
#endif
