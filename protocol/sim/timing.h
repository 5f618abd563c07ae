/* timing.h - the timing model a simulated machine implements.
 *
 * The machine core (sim.c) owns the caches, the event queue and the engines;
 * a timing model only answers "how many cycles": it never changes protocol
 * state.  Two kinds of model exist:
 *
 *  - fixed latency (uniform, numa: MemSpy 5.1.1 and App. A.1): protocol
 *    messages take no simulated time, and a miss costs the whole amount
 *    miss_latency() gives; the processor resumes at issue + that latency.
 *
 *  - message timed (flash): every message crosses the network (net_delay)
 *    and is handled by the controller of the node it reaches (handler).
 *    Handlers of one node run one at a time: a handler starts at
 *    max(arrival, the end of the previous handler's occupancy on that node);
 *    the messages it sends leave at start + the latency handler() returns;
 *    the node is busy until start + *occupancy.  A processor's own miss is a
 *    handler too: the request (PM_GETS / PM_GETX / PM_UPGRADE from the
 *    processor to its home) is first handled by the requesting node's
 *    controller with from_local_processor = 1, arrival = issue time.  A reply
 *    that completes the miss resumes the processor at start + latency of the
 *    handler that received it (put the cost of passing the line up to the
 *    processor into that latency).  Messages a node sends to itself never
 *    leave the engine (proto.h), so they cost only what the handler of the
 *    call that produced them charges.
 *
 * A model is registered in sim_timing_models[] (machines.c) by name; the
 * FLASH model (protocol/sim/flash.c) is listed there too.
 *
 * Machine-specific options ("miss_cycles=60") reach the model through
 * set(); sim_params_set() validates them with set(NULL, ...) and keeps them
 * in sim_params.model_options, and sim_create() replays them on the new model
 * in the order they were given.
 *
 * Pure like the rest of protocol/: no I/O, no threads, no clocks. */
#ifndef DSM_SIM_TIMING_H
#define DSM_SIM_TIMING_H

#include <stddef.h>
#include <stdint.h>

#include "proto.h"
#include "sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What a message-timed model may know of the directory when a handler
 * starts at the line's home (handler_dir): the home's entry for the line as
 * the engine holds it then. */
typedef struct sim_dir_view {
    int at_home;          /* the node is the line's home: the fields hold */
    int state;            /* proto_dir_state */
    int sharers;          /* nodes holding a copy besides the message's source
                             (the owner, for PD_EXCL) */
    int source_listed;    /* the message's source holds a copy */
    int home_copy;        /* one of `sharers` (the owner, for PD_EXCL) is the
                             home node's own processor: the home's engine
                             takes its copy without a message (proto.h), but
                             the hardware must still reach into that cache */
} sim_dir_view;

typedef struct sim_timing_ops {
    const char *name;          /* "uniform", "numa", "flash" */
    const char *description;   /* one line, for --help and errors */

    /* Fill the machine's defaults into *p: line_size, cache_size, assoc,
     * page_size, hit_cycles, replacement_hints, excl_clean (p->machine and
     * p->nprocs are already set; everything else is zero). */
    void (*defaults)(sim_params *p);

    /* The model for a machine with these (validated) parameters; NULL with a
     * message in err on failure.  The model may keep a copy of *p. */
    void *(*create)(const sim_params *p, char *err, size_t errlen);
    void (*destroy)(void *model);

    /* A machine-specific option.  model == NULL: only say whether key=value
     * is acceptable.  0, or -1 with a message naming the key (unknown key,
     * bad value). */
    int (*set)(void *model, const char *key, const char *value, char *err, size_t errlen);

    /* Sharer-set representation the engines use at the homes (NULL: bit
     * vector). */
    const dsm_sharers_ops *sharers_ops;

    /* 1: fixed latency (miss_latency is used, net_delay/handler are not);
     * 0: message timed (net_delay and handler are used). */
    int fixed_latency;

    /* Fixed latency: cycles from issue to the processor's resumption for a
     * miss of proc on a line whose home is `home`; owner is the processor
     * holding the line dirty when the request reached the home (-1: none, the
     * home's memory serves it); invalidations is the number of other copies
     * the home invalidated to serve it. */
    sim_time (*miss_latency)(void *model, int proc, int home, int owner, int is_write,
                             int is_upgrade, uint32_t invalidations);

    /* Message timed: cycles from send_time until m (of `bytes` bytes,
     * header and data) reaches m->dst.  May record contention in the model.
     * The machine keeps delivery FIFO per (src, dst) pair whatever it
     * returns. */
    sim_time (*net_delay)(void *model, const proto_msg *m, uint32_t bytes, sim_time send_time);

    /* Message timed: the controller of `node` handles m, which arrived at
     * `arrival` (for a processor's own request: from_local_processor = 1).
     * is_home: node is the home of m->block.  Returns the cycles from the
     * handler's start until its outgoing messages leave (and until a
     * completed miss resumes the processor); *occupancy: the cycles the
     * controller stays busy (>= 1).  `start` is when the handler starts
     * (after queuing behind earlier handlers on this node). */
    sim_time (*handler)(void *model, int node, const proto_msg *m, int is_home,
                        int from_local_processor, sim_time arrival, sim_time start,
                        sim_time *occupancy);

    /* Optional (NULL: none): processor proc starts referencing with a new
     * procedure id at time t (the front end's procedure changed since its
     * previous reference; FlashPoint's FP-Proc charges a command per switch).
     * Returns the cycles the processor stalls; *occupancy (set to 0 by the
     * caller) is charged to proc's own controller on message-timed
     * machines. */
    sim_time (*procedure_switch)(void *model, int proc, int procedure, sim_time t,
                                 sim_time *occupancy);

    /* The processor's clock in Hz, for dsm_wtime's seconds (0: 1 GHz). */
    double clock_hz;
    /* Optional (NULL: clock_hz): the clock of this instance, for models
     * whose clock is one of their options (origin's cpu_mhz). */
    double (*clock_hz_of)(const void *model);

    /* Optional (NULL: none): the measured section (sim_section_begin/end)
     * opened (inside = 1: the first processor entered) or closed (0: the
     * last one left), so a model can keep its own statistics of the
     * section apart from the whole run's. */
    void (*section)(void *model, int inside);

    /* Optional (NULL: handler is used): handler with the directory entry
     * of the line at the home when the handler starts (dir->at_home 0
     * elsewhere), for models whose handler costs depend on it. */
    sim_time (*handler_dir)(void *model, int node, const proto_msg *m, int is_home,
                            int from_local_processor, sim_time arrival, sim_time start,
                            const sim_dir_view *dir, sim_time *occupancy);

    /* Optional (NULL: private references are not simulated): a miss of
     * processor proc at time t on a line of its private memory (stack,
     * private heap, file-scope data: everything outside the shared region),
     * served by its own node's memory with no coherence.  Returns the
     * latency; *occupancy (set to 0 by the caller) is charged to proc's
     * controller on message-timed machines (sim_ref_private). */
    sim_time (*private_miss)(void *model, int proc, int is_write, sim_time t,
                             sim_time *occupancy);

    /* Optional (NULL: the parameters' options only): the model's say in the
     * engines' protocol options, after its options were set (the Origin's
     * three-hop interventions, proto_config.three_hop). */
    void (*engine_config)(const void *model, proto_config *cfg);

    /* Optional (NULL: no TLB): the processors' TLBs, looked up on every
     * reference to the shared region.  tlb_shift: log2 of the bytes one
     * entry maps (asked once, after the options; 0: no TLB).  tlb_miss:
     * processor proc at time t references entry `entry` (region offset >>
     * tlb_shift), none of the 4 distinct entries it reported last (those
     * are in any TLB of 4 entries or more, and a reference in one is a hit,
     * not reported: an LRU TLB then orders entries by their last report);
     * returns the cycles the processor stalls (a refill, or 0). */
    unsigned (*tlb_shift)(const void *model);
    sim_time (*tlb_miss)(void *model, int proc, uint64_t entry, sim_time t);
    /* Message timed, 1: an eviction the engine of the line's home handles
     * without a message (the evicting processor is on the home node) is a
     * handler on that node's controller all the same (FLASH's PILocalPut:
     * MAGIC updates the directory and writes a dirty line to memory); the
     * handler gets a PM_PUTX (dirty), PM_PUTE or PM_PUTS with
     * from_local_processor = 1.  0: such evictions cost nothing. */
    int local_evictions;
} sim_timing_ops;

/* The registry: NULL-terminated, in the order sim_machine_names lists. */
extern const sim_timing_ops *const sim_timing_models[];
const sim_timing_ops *sim_timing_find(const char *name);

/* The fixed-latency models (fixed.c: uniform, numa) and FLASH (flash.c). */
extern const sim_timing_ops sim_timing_uniform;
extern const sim_timing_ops sim_timing_numa;
extern const sim_timing_ops sim_timing_flash;
/* MIT Alewife with QuickStep's counters (alewife.c). */
extern const sim_timing_ops sim_timing_alewife;
extern const sim_timing_ops sim_timing_origin; /* origin.c */

/* A machine on a model that is not in the registry (tests, experiments):
 * like sim_create, with ops in place of sim_timing_find(p->machine). */
sim_machine *sim_create_model(const sim_params *p, const sim_timing_ops *ops, uintptr_t base,
                              size_t bytes, char *err, size_t errlen);

/* The model a machine runs and its ops (for a model's own statistics). */
void *sim_timing_model(const sim_machine *m);
const sim_timing_ops *sim_timing_ops_of(const sim_machine *m);

/* sim_params_check without looking the machine's name up. */
int sim_params_check_shape(const sim_params *p, char *err, size_t errlen);

/* ---- helpers shared by models (net.c) ---- */

/* The smallest near-square 2-D mesh for n nodes: width = ceil(sqrt(n)),
 * height = ceil(n / width); node i sits at (i % width, i / width). */
void sim_mesh_dims(int nnodes, int *width, int *height);
/* Hops between two nodes of that mesh with dimension-order routing
 * (Manhattan distance); 0 for a == b. */
int sim_mesh_hops(int nnodes, int a, int b);

/* Bytes of a protocol message on the wire: a header of SIM_MSG_HEADER_BYTES,
 * plus line_size when the message carries data (proto_msg_has_data). */
#define SIM_MSG_HEADER_BYTES 8u
uint32_t sim_msg_bytes(int type, uint32_t line_size);

/* Option parsing helpers for set(): a non-negative integer (decimal, or with
 * a k/K, m/M suffix for 2^10 / 2^20); 0, or -1 with a message naming key. */
int sim_parse_u64(const char *key, const char *value, uint64_t *out, char *err, size_t errlen);
/* The same within [min, max]: a value outside (or past 2^64 - 1) is refused
 * with "option 'KEY': VALUE is out of range MIN .. MAX".  Every option that
 * is a time or a size goes through it, with the bounds of sim.h. */
int sim_parse_bounded(const char *key, const char *value, uint64_t min, uint64_t max,
                      uint64_t *out, char *err, size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
