/* alewife.h - the MIT Alewife machine's timing model (QuickStep, section
 * 1 and 3.2.1; alewife.c has the parameters and their sources) behind
 * protocol/sim/timing.h, and what the front end, reports and tests ask it
 * directly: the mesh numbering, the packet classes, the LimitLESS
 * directory's software traps and the QuickStep monitor it feeds. */
#ifndef DSM_SIM_ALEWIFE_H
#define DSM_SIM_ALEWIFE_H

#include <stdint.h>

#include "proto.h"
#include "quickstep.h"
#include "sim.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ALEWIFE_MAX_NODES 64

/* Fig. 4.1: node numbers interleave the mesh coordinates bit by bit (x in
 * bits 0, 2, 4, y in bits 1, 3, 5): 00 01 04 05 / 02 03 06 07 / ... on 16
 * nodes, the same pattern doubled on 64.  (0, 0) is node 0. */
void sim_alewife_coords(int node, int *x, int *y);
int sim_alewife_node_at(int x, int y);
/* Mesh hops between two nodes (dimension-order routing). */
int sim_alewife_hops(int a, int b);

/* The CMMU's class of a protocol message (qs_packet_class). */
int sim_alewife_packet_class(int proto_msg_type);

/* The model of a machine created on sim_timing_alewife: its QuickStep
 * monitor and the LimitLESS software traps taken (read overflows and
 * writes to overflowed lines). */
qs_monitor *sim_alewife_monitor(void *model);
uint64_t sim_alewife_limitless_traps(const void *model);
uint64_t sim_alewife_packets(const void *model, int cls);
/* The host (node 15, alewife.c): its node, the statistics reports it
 * received in timesliced collection and their bytes. */
void sim_alewife_host_reports(const void *model, int *node, uint64_t *reports, uint64_t *bytes);

#ifdef __cplusplus
}
#endif
#endif
