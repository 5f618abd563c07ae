/* flash.h - the FLASH machine's timing model (FlashPoint,
 * section 3.1) behind protocol/sim/timing.h, and what tests and reports may
 * ask it directly: the handler classes of the MAGIC protocol processor, their
 * costs, and per-class counts of what the handlers cost during a run.
 *
 * The machine core (sim.c) reaches the model only through sim_timing_flash;
 * the functions below take the opaque model pointer that sim_timing_flash's
 * create() returns.  Units: the model's constants are 10 ns system cycles
 * (MAGIC at 100 MHz); everything it returns to the core is processor cycles
 * (system cycles x cpu_ratio, see flash.c). */
#ifndef DSM_SIM_FLASH_H
#define DSM_SIM_FLASH_H

#include <stdint.h>

#include "proto.h"
#include "sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Handler classes, named as FLASH's protocol names its handlers: PI = the
 * request came from this node's processor interface, NI = from the network;
 * Local = this node is the line's home, Remote = it is not. */
typedef enum sim_flash_handler {
    FH_PI_LOCAL_GET,        /* local read, home here */
    FH_PI_LOCAL_GETX,       /* local write miss, home here */
    FH_PI_LOCAL_UPGRADE,    /* local upgrade S -> M, home here */
    FH_PI_LOCAL_PUT,        /* local eviction (writeback or hint), home here */
    FH_PI_REMOTE_GET,       /* local read of a remote line: forward to the home */
    FH_PI_REMOTE_GETX,
    FH_PI_REMOTE_UPGRADE,
    FH_PI_REMOTE_PUT,       /* eviction of a remote line: forward to the home */
    FH_NI_LOCAL_GET,        /* remote read request at the home */
    FH_NI_LOCAL_GETX,
    FH_NI_LOCAL_UPGRADE,
    FH_NI_LOCAL_PUT,        /* remote eviction (PUTX / PUTE / PUTS) at the home */
    FH_NI_INVAL_ACK,        /* invalidation ack at the home */
    FH_NI_LOCAL_WRITEBACK,  /* recalled owner's data at the home */
    FH_NI_REMOTE_PUT,       /* read reply (DATA_S / DATA_E) at the requester */
    FH_NI_REMOTE_PUTX,      /* write reply (DATA_X) at the requester */
    FH_NI_REMOTE_UPGRADE_ACK,
    FH_NI_INVAL,            /* invalidation at a sharer */
    FH_NI_REMOTE_RECALL,    /* recall at the dirty owner */
    FH_NI_PUT_ACK,          /* writeback done, at the evicting owner */
    FH_PI_INTERVENTION_REPLY, /* at the home: the line its own processor's
                               cache gave up to an intervention (a remote
                               request found it dirty there) goes on to the
                               requester; never a protocol message (the
                               home's engine recalls its own copy inside) */
    FH_PI_PROCEDURE_SWITCH, /* FP-Proc only: the processor's uncached load
                               telling MAGIC the procedure delta (paper
                               line 187); never a protocol message */
    FH_OTHER,               /* anything else (a message the classes do not expect) */
    FH_NCLASSES
} sim_flash_handler;

/* The class of the handler that runs when `m` reaches a node. */
sim_flash_handler sim_flash_classify(const proto_msg *m, int is_home, int from_local_processor);
const char *sim_flash_handler_name(int cls);   /* "PILocalGet", ...; NULL out of range */
int sim_flash_handler_by_name(const char *name); /* class, or -1 */

/* A fixed cost of one handler class in system cycles, set by the option
 * CLASS=LAT/OCC in place of the cost the model derives from the handler's
 * work and the directory state (flash.c, "Handler costs").  latency: handler
 * start until its first send; occupancy: how long the protocol processor
 * stays busy. */
typedef struct sim_flash_cost {
    uint32_t latency, occupancy;
} sim_flash_cost;

/* What one handler class cost during the run, in processor cycles.  For
 * FH_PI_PROCEDURE_SWITCH, latency sums the whole processor stall of each
 * switch (fence, bus both ways, handler, waiting for the PP) and queued the
 * part of it spent waiting for earlier handlers. */
typedef struct sim_flash_handler_stat {
    uint64_t count;
    uint64_t latency, occupancy;  /* sums; latency: the handler's own (start to
                                     its first send), without the bus times */
    uint64_t queued;              /* sum of start - arrival (occupancy queuing) */
} sim_flash_handler_stat;

/* The fixed cost of a class (-1: none set, or a class out of range) and the
 * run statistics (-1 for a class out of range) of a model created by
 * sim_timing_flash.create(). */
int sim_flash_cost_of(const void *model, int cls, sim_flash_cost *out);
int sim_flash_stats_of(const void *model, int cls, sim_flash_handler_stat *out);
/* Processor cycles per 10 ns system cycle in this model. */
/* The same counted only while the measured section was open (some
 * processor between sim_section_begin and sim_section_end). */
int sim_flash_section_stats_of(const void *model, int cls, sim_flash_handler_stat *out);
/* The nodes' memories, summed (doc/simulation.md, "Memory"): accesses (line
 * reads and writes), their busy time and the time they waited for earlier
 * accesses, in processor cycles; section: only while the measured section
 * was open. */
typedef struct sim_flash_memory_stat {
    uint64_t accesses, busy, queued;
} sim_flash_memory_stat;
void sim_flash_memory_stats_of(const void *model, int section, sim_flash_memory_stat *out);
uint32_t sim_flash_cpu_ratio(const void *model);
int sim_flash_mode(const void *model);           /* sim_fp_mode */
/* Parse "control" | "dp" | "noproc" | "proc" (also "fp-noproc", "fp-proc");
 * the sim_fp_mode, or -1. */
int sim_flash_parse_mode(const char *text);
const char *sim_flash_mode_name(int mode);        /* NULL out of range */

#ifdef __cplusplus
}
#endif
#endif
