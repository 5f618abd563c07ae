/* quickstep.h - the monitoring hardware of the Alewife CMMU as QuickStep
 * programs it (QuickStep, sections 3.2.1-3.2.2, 3.3): per node 4 statistics
 * counters of 32 bits and 16 histogram registers of 20 bits, each counter
 * selecting its events with a 32-bit mask, the histogram registers with one
 * histogram mask; an overflow traps and software keeps the upper 32 bits
 * (64-bit values); timesliced collection reads and clears the registers
 * every `slice` cycles.
 *
 * The machine feeds it events (the Alewife timing model, alewife.c:
 * packets; the machine core's reference and miss observers: accesses and
 * transactions; the front end: checkpoints).  Pure: no I/O.
 *
 * Masks (Fig. 3.3: a 4-bit major function in bits 31-28, a 28-bit minor
 * function below).  The layout of the cache-statistics minor function is
 * the one the masks of Fig. 3.6 imply (#x201EFF20 counts cached data
 * accesses, #x201EFF3F all data accesses, F3/F5/F9 in bits 8-11 select
 * local-local, local-global and remote-global data); the other classes are
 * this simulator's own layout in the same style.  An event counts when the
 * major function matches and every field of the minor function has the
 * event's bit set:
 *
 *  major 1, checkpoints: bits 0-11 the checkpoint address (group << 4 |
 *     index), bit 12 set: single (all 12 bits must match), clear: classwise
 *     (the group, bits 4-11, must match).
 *  major 2, cache statistics (processor requests):
 *     bits 0-5   outcome: 0 miss served by the local memory, 1 miss served
 *                by a remote node, 2 upgrade (write to a read-only copy),
 *                3-4 unused, 5 cached (a hit)
 *     bits 6-8   space: 8 data (shared and private), 6-7 unused
 *     bits 9-11  locality: 9 local-local (private memory: stack, private
 *                heap, file-scope data; sim_ref_private), 10 local-global (home is
 *                this node), 11 remote-global
 *     bits 12-15 hardware context: 12 context 0 (the only one used)
 *     bits 17-21 request: 17 read, 18 write, 19 read-modify-write (unused:
 *                atomics are writes), 20 flush (unused), 21 instruction
 *                (never: instructions are not simulated)
 *  major 7, transactions (latency statistics, with Accumulator): bits 0-1
 *     outcome as major 2 (local / remote miss), bits 17-18 request as
 *     major 2; bit 24 set: add the transaction's latency in cycles instead
 *     of 1 (counter 0 as the accumulator).
 *  major 9, network: bits 0-15 packet classes (qs_packet_class), bit 16
 *     output (sent by this node), bit 17 input (received by it).
 *
 * Histogram mask: major 1 (checkpoint histogram): bits 4-11 the group; the
 * register is the index (bits 0-3) of the checkpoint.  Major 9 (distance
 * histogram): minor as the network counters; the register is the number of
 * mesh hops the packet travelled (15 and more in the last). */
#ifndef DSM_SIM_QUICKSTEP_H
#define DSM_SIM_QUICKSTEP_H

#include <stddef.h>
#include <stdint.h>

#include "sim.h"

#ifdef __cplusplus
extern "C" {
#endif

#define QS_NCOUNTERS 4
#define QS_NHIST 16
#define QS_HIST_BITS 20

enum {
    QS_MAJOR_CHECKPOINT = 1,
    QS_MAJOR_CACHE = 2,
    QS_MAJOR_TRANSACTION = 7,
    QS_MAJOR_NETWORK = 9,
};

/* outcome bits (major 2 and 7) */
enum { QS_LOCAL_MISS = 0, QS_REMOTE_MISS = 1, QS_UPGRADE = 2, QS_CACHED = 5 };

/* Packet classes as the CMMU names them (bit i of a network minor
 * function).  The protocol's messages map onto them in alewife.c. */
typedef enum qs_packet_class {
    QS_RREQ,    /* read request, cache -> memory */
    QS_WREQ,    /* write request, cache -> memory */
    QS_MREQ,    /* modify request (write to a read-only copy) */
    QS_RDATA,   /* read data, memory -> cache */
    QS_WDATA,   /* write data, memory -> cache */
    QS_MACK,    /* modify grant without data */
    QS_INVR,    /* invalidate a read-only copy, memory -> cache */
    QS_INVW,    /* invalidate (recall) a dirty copy, memory -> cache */
    QS_ACKC,    /* invalidation acknowledged, cache -> memory */
    QS_UPDATE,  /* dirty data back to memory, cache -> memory */
    QS_REPL,    /* replacement notice of a clean copy, cache -> memory */
    QS_PACK,    /* writeback acknowledged, memory -> cache */
    QS_MSG,     /* a message-passing packet: the kernel's statistics report
                   to the host (alewife.c) */
    QS_NCLASSES
} qs_packet_class;
const char *qs_packet_class_name(int cls); /* "RREQ", ...; NULL out of range */
int qs_packet_class_by_name(const char *name); /* or -1 */

typedef struct qs_monitor qs_monitor;

/* A monitor of nnodes nodes, all registers disabled, overall collection. */
qs_monitor *qs_create(int nnodes);
void qs_destroy(qs_monitor *q);
/* Program counter i (0..3) with mask (enabled) or disable it (on = 0). */
void qs_set_counter(qs_monitor *q, int i, uint32_t mask, int on);
void qs_set_histogram(qs_monitor *q, uint32_t mask, int on);
/* Timesliced collection: registers read and cleared every `slice` cycles
 * (0: overall, one slice for the whole run). */
void qs_set_slice(qs_monitor *q, uint64_t slice);

/* Events.  t: the cycle the event happens at (its timeslice). */
/* locality: QS_LOCAL_GLOBAL (0: a shared line homed here), QS_REMOTE_GLOBAL
 * (1: homed elsewhere), QS_LOCAL_LOCAL (2: private memory) */
enum { QS_LOCAL_GLOBAL = 0, QS_REMOTE_GLOBAL = 1, QS_LOCAL_LOCAL = 2 };
void qs_access(qs_monitor *q, int node, sim_time t, int is_write, int outcome, int locality);
void qs_transaction(qs_monitor *q, int node, sim_time t, int is_write, int remote,
                    uint64_t latency);
void qs_packet(qs_monitor *q, int node, sim_time t, int cls, int hops, int input);
void qs_checkpoint(qs_monitor *q, int node, sim_time t, unsigned id);

/* Does this mask match this kind of event at all? (for tests and the
 * configuration checks) */
int qs_mask_major(uint32_t mask);

/* Read-out: 64-bit values (hardware bits + software overflow). */
int qs_nnodes(const qs_monitor *q);
int qs_nslices(const qs_monitor *q); /* slices with any event, at least 1 */
uint64_t qs_slice(const qs_monitor *q);
uint32_t qs_counter_mask(const qs_monitor *q, int i, int *on);
uint32_t qs_histogram_mask(const qs_monitor *q, int *on);
uint64_t qs_counter(const qs_monitor *q, int node, int slice, int i);
uint64_t qs_histogram(const qs_monitor *q, int node, int slice, int bin);
/* Overflow traps taken by node so far (counters and histogram registers). */
uint64_t qs_overflow_traps(const qs_monitor *q, int node);
/* Out of memory growing the timeslices: events were dropped (counted). */
uint64_t qs_dropped(const qs_monitor *q);

/* ---- the configuration language (section 3.2.4, Figs. 3.4-3.6) and the
 * resource allocator (3.2.3): quickstep_config.c ---- */

#define QS_MAX_OPS 16
#define QS_MAX_MEMBERS 32
#define QS_TEXT 128

typedef enum qs_op_kind { QS_OP_VALUE, QS_OP_DIV, QS_OP_SUM, QS_OP_MUL, QS_OP_SUB,
                          QS_OP_DIVMUL } qs_op_kind;
typedef struct qs_op {
    int kind;           /* qs_op_kind */
    int nargs;          /* counter arguments */
    int arg[QS_NCOUNTERS];
    double number;      /* DivMul's first argument */
} qs_op;

typedef struct qs_record {
    char name[QS_TEXT];
    int line;                           /* where its Name (or GroupNames) is */
    int nmasks;
    uint32_t mask[QS_NCOUNTERS];
    int nops;
    qs_op op[QS_MAX_OPS];
    int nheaders;
    char header[QS_MAX_OPS][QS_TEXT];
    int has_hist;
    uint32_t hist_mask;
    int nhist_headers;
    char hist_header[QS_MAX_OPS][QS_TEXT];
    int timeflag, accumulator;
    char help[512];
    int is_group;                       /* GroupNames: members name statistics */
    int nmembers;
    char member[QS_MAX_MEMBERS][QS_TEXT];
} qs_record;

typedef struct qs_config {
    qs_record *rec;
    int n;
} qs_config;

/* Parse a configuration file's text; `file` names it in errors ("FILE:LINE:
 * what").  0, or -1 with the message in err. */
int qs_config_parse(const char *text, const char *file, qs_config *out, char *err,
                    size_t errlen);
void qs_config_free(qs_config *c);
/* The statistic (not a group) named `name`, or NULL. */
const qs_record *qs_config_find(const qs_config *c, const char *name);

/* The allocator's plan: runs of at most 4 counters and one histogram mask;
 * every record has its masks in one run (its CounterOperation refers to
 * them as 0..3).  Identical masks are counted once per run. */
#define QS_MAX_RUNS 64
#define QS_MAX_SELECTED 128
typedef struct qs_run {
    int ncounters;
    uint32_t counter[QS_NCOUNTERS];
    int has_hist;
    uint32_t hist;
} qs_run;
typedef struct qs_plan {
    int nruns;
    qs_run run[QS_MAX_RUNS];
    int nselected;
    const qs_record *selected[QS_MAX_SELECTED];
    int run_of[QS_MAX_SELECTED];                 /* per selected record */
    int slot[QS_MAX_SELECTED][QS_NCOUNTERS];     /* record counter -> run counter */
} qs_plan;

/* Plan the statistics named in `names` (comma separated; a group stands for
 * its members; NULL or "all": every statistic of the file).  0, or -1 with
 * a message (an unknown name, too many). */
int qs_plan_make(const qs_config *c, const char *names, qs_plan *out, char *err, size_t errlen);

/* The results of record r's operations from its counters' values (in the
 * record's order); a division by zero gives NaN. */
void qs_evaluate(const qs_record *r, const uint64_t *counters, double *results);

#ifdef __cplusplus
}
#endif
#endif
