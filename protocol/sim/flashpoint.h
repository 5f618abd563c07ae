/* flashpoint.h - FlashPoint's statistics (FlashPoint, section
 * 3.1.3 and Table 3) collected from a simulated machine's misses.
 *
 * FLASH's FlashPoint protocol keeps, per procedure and per data bin, the
 * counts and summed latencies of read and write misses, local and remote,
 * the cold misses (the warm bit of the line's directory header, carried in
 * the reply, was clear) and the invalidations.  This collector keeps the same
 * ten metrics from the sim_miss records the machine core hands to every
 * collector (sim_on_miss); it costs the simulated machine nothing, because
 * the monitoring cost of the chosen FlashPoint mode is charged by the FLASH
 * timing model (flash.c) as handler occupancy.  So the same collector serves
 * the control run and the FP-NoProc / FP-Proc runs that Tables 1-3 compare.
 *
 * Bins are the machine's data bins (sim_bin, from dsm_alloc names);
 * procedures are the front end's procedure ids.  Miss or bin -1 (unknown)
 * gets its own row / column.  Pure: no I/O; profile/flashpoint_json.c
 * renders it. */
#ifndef DSM_SIM_FLASHPOINT_H
#define DSM_SIM_FLASHPOINT_H

#include <stdint.h>

#include "sim.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The ten metrics of Table 3, in its order. */
typedef enum sim_fp_metric {
    FPM_READ_MISS_LOCAL,
    FPM_READ_LATENCY_LOCAL,
    FPM_READ_MISS_REMOTE,
    FPM_READ_LATENCY_REMOTE,
    FPM_WRITE_MISS_LOCAL,
    FPM_WRITE_LATENCY_LOCAL,
    FPM_WRITE_MISS_REMOTE,
    FPM_WRITE_LATENCY_REMOTE,
    FPM_COLD_MISSES,       /* the line was not warm: nobody had touched it */
    FPM_INVALIDATION_MISSES, /* misses whose cause was an invalidation (MemSpy
                                4.2.7: another processor's request took the line) */
    FPM_NMETRICS
} sim_fp_metric;

/* "read_miss_local", ... (JSON keys) and "Read Miss Local", ... (tables). */
const char *sim_flashpoint_metric_key(int metric);
const char *sim_flashpoint_metric_title(int metric);
int sim_flashpoint_metric_by_key(const char *key);   /* metric, or -1 */

typedef struct sim_fp_record {
    uint64_t v[FPM_NMETRICS];   /* latencies: sums of processor cycles */
    uint64_t upgrades;          /* write misses that were upgrades of a read copy */
    uint64_t invalidations_sent; /* INVs the homes sent to serve the misses */
} sim_fp_record;

typedef struct sim_flashpoint sim_flashpoint;

/* A collector attached to m (sim_on_miss), or NULL when out of memory. */
sim_flashpoint *sim_flashpoint_attach(sim_machine *m);
/* A collector attached to nothing, fed by sim_flashpoint_record (tests). */
sim_flashpoint *sim_flashpoint_new(void);
void sim_flashpoint_free(sim_flashpoint *fp);
/* Account one miss (the sim_on_miss callback); 0, or -1 when out of memory
 * (the miss is then dropped and counted in sim_flashpoint_dropped). */
int sim_flashpoint_record(sim_flashpoint *fp, const sim_miss *miss);
uint64_t sim_flashpoint_dropped(const sim_flashpoint *fp);
/* The misses recorded with in_section set (issued inside the program's
 * measured section, sim_section_begin/end), as a collector of their own;
 * NULL until one was recorded. */
const sim_flashpoint *sim_flashpoint_section(const sim_flashpoint *fp);

/* The machine it is attached to (NULL for sim_flashpoint_new), and the
 * largest processor clock when it was attached: the start of the measured
 * section. */
const sim_machine *sim_flashpoint_machine(const sim_flashpoint *fp);
sim_time sim_flashpoint_start(const sim_flashpoint *fp);

/* Table extent: procedure ids -1 .. nprocedures-1, bins -1 .. nbins-1 that
 * have been seen. */
int sim_flashpoint_nprocedures(const sim_flashpoint *fp);
int sim_flashpoint_nbins(const sim_flashpoint *fp);
/* The record of (procedure, bin): NULL when nothing was recorded there. */
const sim_fp_record *sim_flashpoint_get(const sim_flashpoint *fp, int procedure, int bin);
/* Sums: a bin over all procedures, a procedure over all bins (bin or
 * procedure may be -1), and everything. */
void sim_flashpoint_bin_total(const sim_flashpoint *fp, int bin, sim_fp_record *out);
void sim_flashpoint_procedure_total(const sim_flashpoint *fp, int procedure, sim_fp_record *out);
void sim_flashpoint_total(const sim_flashpoint *fp, sim_fp_record *out);

#ifdef __cplusplus
}
#endif
#endif
