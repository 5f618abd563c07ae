/* misstrace.h - a time line of each miss, step by step, for finding where a
 * remote miss's time goes (doc/protocol.md, "Latency on few cores").  Built
 * only with -DDSM_MISS_TRACE (e.g. ./configure CPPFLAGS=-DDSM_MISS_TRACE):
 * otherwise every DSM_MT() is empty and costs nothing.  A traced build
 * writes /tmp/dsm-misstrace.NODE at exit, one line an event: CLOCK_MONOTONIC
 * nanoseconds (dsm_now_ns: one clock for every process of the machine, also
 * across the network namespaces of the test bed), event, block, detail, the
 * thread (0: an application thread, 1: the progress thread).
 * bench/misstrace.sh pairs the nodes' lines into per-step medians. */
#ifndef DSM_MISSTRACE_H
#define DSM_MISSTRACE_H

#include <stdint.h>

enum dsm_mt_event {
    MT_FAULT_IN,    /* the fault handler entered (block: the address's) */
    MT_ACCESS,      /* dsm_rt_access holds the engine lock; detail: is_write */
    MT_SEND_IN,     /* a protocol message handed to the transport; detail: type */
    MT_SEND_OUT,    /* ... the transport returned */
    MT_WAIT_IN,     /* the access waits for its reply (dsm_rt_wait) */
    MT_SLEEP,       /* the waiter stopped spinning and blocks */
    MT_WOKE,        /* ... it woke */
    MT_RECV,        /* a protocol message is handled; detail: type */
    MT_LOCKED,      /* ... its handler holds the engine lock */
    MT_PROT_IN,     /* mprotect of the application's view; detail: new access */
    MT_PROT_OUT,
    MT_COPY_IN,     /* the block installed from the message */
    MT_COPY_OUT,
    MT_SIGNAL,      /* the waiters woken (PA_COMPLETE) */
    MT_HANDLED,     /* the message's handler let the engine lock go */
    MT_WAIT_OUT,    /* the access's wait returned */
    MT_FAULT_OUT,   /* the fault handler returns: the access retries */
    MT_NEVENTS
};

#ifdef DSM_MISS_TRACE
void dsm_mt(int event, uint32_t block, uint32_t detail);
/* the calling thread is the progress thread */
void dsm_mt_progress_thread(void);
#define DSM_MT(ev, block, detail) dsm_mt((ev), (block), (detail))
#else
#define DSM_MT(ev, block, detail) ((void)0)
#endif

#endif
