/* evq.h - the simulator's event queue (internal to protocol/sim): a binary
 * min-heap ordered by (time, insertion sequence), so events due at the same
 * cycle come out in the order they were scheduled and a run is
 * deterministic. */
#ifndef DSM_SIM_EVQ_H
#define DSM_SIM_EVQ_H

#include <stddef.h>
#include <stdint.h>

#include "proto.h"
#include "sim/sim.h"

typedef enum sim_event_kind {
    SIM_EV_RESUME = 1, /* fixed latency: the stalled processor `node` resumes */
    SIM_EV_ARRIVE,     /* message timed: msg reaches msg.dst's controller */
    SIM_EV_HANDLE,     /* message timed: msg.dst's controller starts handling msg */
    SIM_EV_REQUEST,    /* message timed: processor `node`'s controller starts its miss */
} sim_event_kind;

typedef struct sim_event {
    sim_time time;
    uint64_t seq;      /* tie-break: insertion order */
    uint8_t kind;
    int32_t node;
    sim_time latency;  /* SIM_EV_HANDLE / SIM_EV_REQUEST: handler latency */
    proto_msg msg;
} sim_event;

typedef struct sim_evq {
    sim_event *heap;
    size_t n, cap;
    uint64_t next_seq;
} sim_evq;

void sim_evq_init(sim_evq *q);
void sim_evq_free(sim_evq *q);
/* 0, or -1 when memory ran out; e->seq is assigned here. */
int sim_evq_push(sim_evq *q, const sim_event *e);
/* The earliest event (NULL when empty) / remove it into *out. */
static inline const sim_event *sim_evq_peek(const sim_evq *q) { return q->n ? &q->heap[0] : NULL; }
int sim_evq_pop(sim_evq *q, sim_event *out);

#endif
