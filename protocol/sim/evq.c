/* evq.c - binary min-heap of events by (time, sequence); see evq.h. */
#include "sim/evq.h"

#include <stdlib.h>

#include "growable.h"

void sim_evq_init(sim_evq *q)
{
    q->heap = NULL;
    q->n = q->cap = 0;
    q->next_seq = 0;
}

void sim_evq_free(sim_evq *q)
{
    free(q->heap);
    sim_evq_init(q);
}

static inline int before(const sim_event *a, const sim_event *b)
{
    return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

int sim_evq_push(sim_evq *q, const sim_event *e)
{
    if (q->n == q->cap && GROWABLE_RESERVE(q->heap, q->cap, q->n + 1))
        return -1;
    sim_event ev = *e;
    ev.seq = q->next_seq++;
    size_t i = q->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!before(&ev, &q->heap[parent]))
            break;
        q->heap[i] = q->heap[parent];
        i = parent;
    }
    q->heap[i] = ev;
    return 0;
}

int sim_evq_pop(sim_evq *q, sim_event *out)
{
    if (!q->n)
        return -1;
    *out = q->heap[0];
    sim_event last = q->heap[--q->n];
    size_t i = 0, n = q->n;
    for (;;) {
        size_t child = 2 * i + 1;
        if (child >= n)
            break;
        if (child + 1 < n && before(&q->heap[child + 1], &q->heap[child]))
            child++;
        if (!before(&q->heap[child], &last))
            break;
        q->heap[i] = q->heap[child];
        i = child;
    }
    if (n)
        q->heap[i] = last;
    return 0;
}
