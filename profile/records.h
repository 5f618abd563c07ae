/* records.h - one node's profile records, as every node ships them to node
 * 0 at dsm_finalize: the wire format both sides share, its writer (the
 * runtime, dsm/prof/, serializes what it recorded) and its reader (node 0
 * decodes each node's bytes for profile/aggregate.c).
 *
 * The format is a sequence of records, each a tag byte and fixed-size
 * fields in the host's byte order (every node of a job runs the same
 * build); strings are a 32-bit length and the bytes.  A node writes its
 * allocations, then miss causes, write epochs, reads, symbolized instructions,
 * (instruction, block) misses, its timeslices and what it lost.  The reader
 * trusts nothing: a truncated buffer, an unknown tag or a field out of its
 * range is an error with a reason, never a read out of bounds.  Pure: no
 * I/O, no globals. */
#ifndef DSM_PROFILE_RECORDS_H
#define DSM_PROFILE_RECORDS_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

/* Timeslices a node keeps: past that its interval doubles (pairs merge). */
#define PROFILE_SLICES_MAX 1024
/* The block of an instruction's misses when the node's table was full. */
#define PROFILE_NO_BLOCK UINT32_MAX

/* A symbolized code address. */
typedef struct profile_frame {
    char *function, *file; /* file: "" when unknown */
    uint32_t line;
} profile_frame;

/* An allocation of [off, off + len) (region offsets) at this node. */
typedef struct profile_rec_alloc {
    uint64_t off, len;
    int collective;       /* dsm_alloc (node 0 ships those for every node) */
    uint32_t seq;         /* its order among the node's allocations */
    char *name;           /* the name it was given; NULL: named by its path */
    profile_frame *path;  /* the call path, the allocation site first */
    uint32_t npath;
    profile_type *type;   /* its element type, or NULL when unknown */
} profile_rec_alloc;

/* The misses of one block at this node, by cause. */
typedef struct profile_rec_cause {
    uint32_t block;
    uint32_t cold, inval, upgrade;
    uint64_t first_ns;    /* when the node's first (cold) miss on it began */
    uint64_t cold_wall, inval_wall, upgrade_wall; /* ns */
} profile_rec_cause;

/* A write epoch of a block: the bytes node wrote between t0 and t1.  A
 * home logs its remote writers' epochs too, so node is the writer, not
 * necessarily the node that shipped the record.  Instants (here and
 * first_ns) are CLOCK_MONOTONIC ns, comparable between the nodes of a
 * machine. */
typedef struct profile_rec_epoch {
    uint32_t block;
    int32_t node;
    uint64_t t0, t1;
    uint32_t nw;           /* the bytes it changed: runs w[0..nw), exact */
    profile_range *w;      /* owned by the records (profile_records_parse) */
} profile_rec_epoch;

/* A miss whose access read bytes of the block: the bytes [lo, hi) it read
 * (offsets inside the block) and when the miss completed (CLOCK_MONOTONIC
 * ns, as epochs).  The node is the one that shipped the record. */
typedef struct profile_rec_read {
    uint32_t block;
    uint32_t lo, hi;
    uint64_t t;
} profile_rec_read;

/* The misses of one (instruction, block) at this node. */
typedef struct profile_rec_miss {
    uint32_t ip;          /* index into the node's instructions */
    uint32_t block;       /* PROFILE_NO_BLOCK: not kept */
    uint32_t reads, writes, upgrades;
    uint64_t wall;        /* ns */
} profile_rec_miss;

/* One timeslice of this node. */
typedef struct profile_rec_slice {
    uint64_t misses, wall, barrier; /* wall: of the misses; ns */
} profile_rec_slice;

/* One node's records, decoded (profile_records_parse owns every pointer). */
typedef struct profile_node_records {
    profile_rec_alloc *allocs;
    size_t nallocs;
    profile_rec_cause *causes;
    size_t ncauses;
    profile_rec_epoch *epochs;
    size_t nepochs;
    profile_rec_read *reads;
    size_t nreads;
    profile_frame *ips;       /* the faulting instructions, symbolized */
    size_t nips;
    profile_rec_miss *misses;
    size_t nmisses;
    uint64_t slice_ns;        /* the slices' interval; 0: no slices shipped */
    profile_rec_slice *slices;
    size_t nslices;
    uint64_t epochs_dropped, twins_skipped, reads_dropped;
    int symbolized;           /* 0: the node could not symbolize its code */
} profile_node_records;

/* ---- the writer (each node) ---- */

/* A growing byte buffer; failed is set once memory ran out (later puts do
 * nothing), so the writer checks once at the end. */
typedef struct profile_wbuf {
    unsigned char *p;
    size_t len, cap;
    int failed;
} profile_wbuf;

/* Raw bytes (node 0 gathering a node's pieces in order). */
void profile_wbuf_append(profile_wbuf *w, const void *data, size_t len);
void profile_wbuf_free(profile_wbuf *w);

void profile_put_alloc(profile_wbuf *w, const profile_rec_alloc *a);
void profile_put_cause(profile_wbuf *w, const profile_rec_cause *c);
void profile_put_epoch(profile_wbuf *w, const profile_rec_epoch *e);
void profile_put_read(profile_wbuf *w, const profile_rec_read *r);
/* Instructions are numbered from 0 in the order they are put. */
void profile_put_ip(profile_wbuf *w, uint32_t id, const profile_frame *f);
void profile_put_miss(profile_wbuf *w, const profile_rec_miss *m);
void profile_put_slices(profile_wbuf *w, uint64_t slice_ns, const profile_rec_slice *s, size_t n);
void profile_put_lost(profile_wbuf *w, uint64_t epochs_dropped, uint64_t twins_skipped,
                      uint64_t reads_dropped, int symbolized);

/* ---- the reader (node 0) ---- */

/* Decode one node's bytes (a job of nnodes nodes) into out.  0, or -1 with
 * the reason in err ("truncated profile data", "bad profile data", "bad
 * profile record T", "out of memory") and out empty. */
int profile_records_parse(const void *data, size_t len, int nnodes, profile_node_records *out,
                          char *err, size_t errlen);
/* Free what a parse filled in (not r itself); r is left empty. */
void profile_node_records_free(profile_node_records *r);

#endif
