/* alewife.c - timing model of the MIT Alewife machine as QuickStep ran on
 * it ("the paper": QuickStep, sections 1, 3.2.1 and 4.2.2), behind
 * sim_timing_alewife (timing.h).  Message timed: every protocol message
 * crosses the 2-D mesh and is handled by the CMMU of the node it reaches.
 *
 * Machine, from the paper's description (section 1, Fig. 1.1):
 *  - SPARCLE at 33 MHz: sim_time is SPARCLE cycles, every constant below is
 *    in them.
 *  - 64 KB direct-mapped cache (cache_size 65536, assoc 1), 16 B lines
 *    (line_size 16: Alewife's coherence unit; option line_size=), 4 MB of
 *    shared memory per node (the front end's region holds the program's
 *    shared data; the size is not a timing input).
 *  - 16 nodes, up to 64 here (ALEWIFE_MAX_NODES), on a 2-D mesh numbered as
 *    Fig. 4.1 (sim_alewife_coords); hops by dimension-order routing.
 *  - The host is attached at node 15 (section 3.2.1; the last node on a
 *    smaller machine, option host_node=).  In overall collection it
 *    receives the registers after the run: nothing measured.  In
 *    timesliced collection (section 3.3) the kernel buffers each slice's
 *    registers and the nodes report to the host in turn, "no two processors
 *    reporting data during the same timeslice": at the start of slice k,
 *    node k mod P sends the records buffered since its last report, 8 B of
 *    header and 160 B a slice (4 counters and 16 histogram registers of 64
 *    bits), in one message.  That costs the node's SPARCLE report_trap
 *    cycles (default 50, an estimate: the timer interrupt's handler sets
 *    up the message and the CMMU's DMA sends the buffer), paid by its next
 *    handler as an overflow trap is; the message's bytes occupy the
 *    sender's CMMU and node 15's, which passes it to the host, bytes /
 *    link_bytes cycles each (paid by their next handlers); the packet is
 *    counted by the sender's CMMU as class MSG with its hops to node 15 and
 *    the host link (quickstep.h).  The host's totals:
 *    sim_alewife_host_reports.  On request (host_reports=1): the
 *    simulator's slices are far shorter than Alewife's (the paper's Water
 *    used 10 M cycles), and at a few hundred cycles the reports carry more
 *    bytes than node 15 can pass on, so the run would never end.
 *  - The LimitLESS directory: 5 hardware pointers per line; a read request
 *    that needs a sixth traps to software, which takes the pointers over
 *    into memory (the hardware pointers are free again), and a write to a
 *    line whose sharers overflowed is served by software too (it sends the
 *    invalidations).  Each trap costs limitless_trap cycles at the home
 *    (latency and occupancy) and is counted (sim_alewife_limitless_traps).
 *    The engine's directory entries are LimitLESS sets
 *    (protocol/sharers_limitless.c: the pointers and the software bit
 *    vector); the timing interface shows a model no directory, so this
 *    model applies the same rule to the requests reaching each home (a
 *    pointer count per line) to know when to charge a trap.
 *  - Sequential consistency: the processor blocks on every miss (the
 *    simulated processors issue one reference at a time), as Alewife's
 *    SPARCLE does for a load or a store to shared memory.  No replacement
 *    hints: a clean line leaves the cache silently (replacement_hints 0).
 *  - A read of a line another cache holds dirty takes the owner's copy away
 *    (read_recall=drop, the engine without downgrade_on_read): Alewife's
 *    protocol has no downgrade.  In LimitLESS (Chaiken, Kubiatowicz and
 *    Agarwal, ASPLOS IV 1991, the protocol the CMMU implements) a RREQ at
 *    a Read-Write line makes the home send INV to the owner and wait in
 *    Read-Transaction; the owner's cache answers any INV by invalidating
 *    its copy (UPDATE with the dirty data, else ACKC), and the home then
 *    sends RDATA to the reader alone (its memory-to-cache messages are
 *    RDATA, WDATA, INV and BUSY: none leaves the owner a copy).
 *
 * Instruction time.  The front end sees only the processor's loads and
 * stores; the instructions between them are not observed, and a machine
 * that charged references alone would run a program's computation in no
 * time (its misses, back to back, would then dominate every comparison of
 * times and queue at the homes far more than on Alewife).  SPARCLE is a
 * SPARC: single issue, one cycle per instruction, loads and stores the only
 * instructions that touch memory.  Each data reference therefore stands for
 * itself and the instructions executed with it: `instr` cycles (default 2)
 * are charged with every reference, hit or miss, shared or private.  The
 * 2 is the ratio of a SPARC load/store machine's dynamic instruction mix
 * (loads and stores about a third of the instructions executed: two other
 * instructions per reference, one cycle each), not a fit to any of the
 * paper's times.  A hit then costs hit_cycles = 1 + instr, a miss its
 * latency + instr; the option hit_cycles=H sets both (instr = H - 1;
 * hit_cycles=1: no instruction time, references alone):
 * the instructions run before the reference is issued, on the processor,
 * so they delay the request but do not occupy the CMMU.
 *
 * Timing constants (estimates; the paper gives none, and its measured
 * latencies are results this model must not be fitted to).  The published
 * descriptions of the Alewife machine give a local miss of about 11 cycles
 * and a miss to a clean remote line, two nodes talking, of about 40; the
 * constants reproduce those two figures without contention:
 *   hit_cycles 3       a cached load or store (1) and its instructions
 *                      (instr 2, above)
 *   local_miss 11      CMMU + local DRAM, the line into the cache
 *   req_send 2         CMMU: transaction buffer, the request leaves
 *   home_mem 10        CMMU at the home: directory and DRAM, reply leaves
 *   fill 3             the reply's line into the cache, processor resumes
 *   inv 3              invalidation at a cache (and the ack leaves)
 *   ack 2              an ack or writeback at the home
 *   net_fixed 2        injection and ejection
 *   hop 1              per router (the mesh routers run faster than SPARCLE)
 *   link_bytes 2       bytes per cycle on a channel: an 8 B header takes 4,
 *                      header + 16 B line 12
 * so a 2-hop clean read costs 2 + (2 + 2 + 4) + 10 + (2 + 2 + 12) + 3 = 39
 * cycles of memory system (+ instr, the processor's instructions before it).
 *   limitless_trap 400 the software handler of a directory overflow
 *                      (estimate: LimitLESS handlers take several hundred
 *                      cycles).
 *   overflow_trap 50   the software handler of a QuickStep statistics
 *                      register that wrapped (quickstep.h: 32-bit counters,
 *                      20-bit histogram registers): an interrupt that adds
 *                      the carry to a word in memory (estimate: trap entry
 *                      and return, a few loads and stores of the CMMU's
 *                      registers and memory); paid by the node's next
 *                      handler (overflow_cycles).
 * Options: every name above as key=value, plus the QuickStep registers:
 * qs0 .. qs3=MASK (hex, 0x or #x), qs_hist=MASK, qs_slice=CYCLES
 * (quickstep.h; dsmrun --quickstep sets them). */
#include "alewife.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sharers_limitless.h"
#include "timing.h"

#define ALEWIFE_MAX_COST 100000u
#define ALEWIFE_INSTR 2u /* instruction cycles per data reference (above) */

void sim_alewife_coords(int node, int *x, int *y)
{
    int cx = 0, cy = 0;
    for (int b = 0; node >> (2 * b); b++) {
        cx |= ((node >> (2 * b)) & 1) << b;
        cy |= ((node >> (2 * b + 1)) & 1) << b;
    }
    *x = cx;
    *y = cy;
}

int sim_alewife_node_at(int x, int y)
{
    int n = 0;
    for (int b = 0; (x >> b) || (y >> b); b++)
        n |= (((x >> b) & 1) << (2 * b)) | (((y >> b) & 1) << (2 * b + 1));
    return n;
}

int sim_alewife_hops(int a, int b)
{
    int ax, ay, bx, by;
    sim_alewife_coords(a, &ax, &ay);
    sim_alewife_coords(b, &bx, &by);
    return abs(ax - bx) + abs(ay - by);
}

int sim_alewife_packet_class(int type)
{
    switch (type) {
    case PM_GETS: return QS_RREQ;
    case PM_GETX: return QS_WREQ;
    case PM_UPGRADE: return QS_MREQ;
    case PM_DATA_S:
    case PM_DATA_E: return QS_RDATA;
    case PM_DATA_X: return QS_WDATA;
    case PM_UPGRADE_ACK: return QS_MACK;
    case PM_INV: return QS_INVR;
    case PM_RECALL:
    case PM_RECALL_S: return QS_INVW;
    case PM_INV_ACK: return QS_ACKC;
    case PM_WB_DATA:
    case PM_PUTX: return QS_UPDATE;
    case PM_PUTS:
    case PM_PUTE: return QS_REPL;
    case PM_PUT_ACK: return QS_PACK;
    default: return -1;
    }
}

/* The LimitLESS state of one line at its home: who holds it and how many
 * hardware pointers are in use; `soft` once software took them over. */
typedef struct dir_slot {
    uint32_t block1;  /* block + 1; 0: empty slot */
    uint8_t hw, soft;
    uint64_t sharers;
} dir_slot;

typedef struct alewife_model {
    int nnodes;
    uint32_t local_miss, req_send, home_mem, fill, inv, ack;
    uint32_t net_fixed, hop, link_bytes, limitless_trap, overflow_trap;
    uint32_t instr; /* instruction cycles per reference (above) */
    int host_node;          /* the host's node (above) */
    uint32_t report_trap;   /* a report's cycles on its sender's SPARCLE */
    uint32_t host_on;       /* host_reports=1: model the reports (above) */
    uint64_t host_slices;   /* slices whose reports were sent */
    uint64_t host_reports, host_bytes;
    uint64_t reported[ALEWIFE_MAX_NODES]; /* each node's slices reported */
    uint64_t due[ALEWIFE_MAX_NODES];      /* report cycles not paid yet */
    uint64_t traps;
    uint64_t overflow_charged[ALEWIFE_MAX_NODES]; /* QuickStep traps paid so far */
    uint64_t packets[QS_NCLASSES];
    dir_slot *dir;
    size_t dir_cap, dir_used;
    qs_monitor *qs;
} alewife_model;

static void alewife_defaults(sim_params *p)
{
    p->line_size = 16;
    p->cache_size = 64u << 10;
    p->assoc = 1;
    p->page_size = 4096;
    p->hit_cycles = 1 + ALEWIFE_INSTR; /* the access and its instructions */
    p->replacement_hints = 0;
    p->excl_clean = 0;
    p->downgrade_on_read = 0; /* read_recall=drop: a read invalidates the owner (above) */
}

static void *alewife_create(const sim_params *p, char *err, size_t errlen)
{
    if (p->nprocs < 1 || p->nprocs > ALEWIFE_MAX_NODES) {
        snprintf(err, errlen, "alewife: %d nodes, must be 1 .. %d", p->nprocs, ALEWIFE_MAX_NODES);
        return NULL;
    }
    alewife_model *am = calloc(1, sizeof *am);
    if (am) {
        am->dir_cap = 1024;
        am->dir = calloc(am->dir_cap, sizeof *am->dir);
        am->qs = qs_create(p->nprocs);
    }
    if (!am || !am->dir || !am->qs) {
        if (am) {
            free(am->dir);
            qs_destroy(am->qs);
        }
        free(am);
        snprintf(err, errlen, "alewife: out of memory");
        return NULL;
    }
    am->nnodes = p->nprocs;
    am->local_miss = 11;
    am->req_send = 2;
    am->home_mem = 10;
    am->fill = 3;
    am->inv = 3;
    am->ack = 2;
    am->net_fixed = 2;
    am->hop = 1;
    am->link_bytes = 2;
    am->limitless_trap = 400;
    am->overflow_trap = 50;
    /* one knob for both: hit_cycles is the access's cycle and the
     * instructions' (hit_cycles=1: no instruction time) */
    am->instr = p->hit_cycles > 1 ? (uint32_t)(p->hit_cycles - 1) : 0;
    am->host_node = p->nprocs > 15 ? 15 : p->nprocs - 1;
    am->report_trap = 50;
    return am;
}

static void alewife_destroy(void *model)
{
    alewife_model *am = model;
    if (!am)
        return;
    free(am->dir);
    qs_destroy(am->qs);
    free(am);
}

static int parse_mask(const char *key, const char *value, uint32_t *out, char *err, size_t errlen)
{
    const char *s = value;
    if (s[0] == '#' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    else if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
        s += 2;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 16);
    if (!*s || *end || errno || v > UINT32_MAX || *s == '-') {
        snprintf(err, errlen, "option '%s': '%s' is not a 32-bit hexadecimal mask", key, value);
        return -1;
    }
    *out = (uint32_t)v;
    return 0;
}

static int alewife_set(void *model, const char *key, const char *value, char *err,
                       size_t errlen)
{
    alewife_model *am = model;
    static const struct {
        const char *key;
        size_t offset;
        uint64_t min, max;
    } numeric[] = {
        {"local_miss", offsetof(alewife_model, local_miss), 1, ALEWIFE_MAX_COST},
        {"req_send", offsetof(alewife_model, req_send), 0, ALEWIFE_MAX_COST},
        {"home_mem", offsetof(alewife_model, home_mem), 0, ALEWIFE_MAX_COST},
        {"fill", offsetof(alewife_model, fill), 0, ALEWIFE_MAX_COST},
        {"inv", offsetof(alewife_model, inv), 0, ALEWIFE_MAX_COST},
        {"ack", offsetof(alewife_model, ack), 0, ALEWIFE_MAX_COST},
        {"net_fixed", offsetof(alewife_model, net_fixed), 0, ALEWIFE_MAX_COST},
        {"hop", offsetof(alewife_model, hop), 0, ALEWIFE_MAX_COST},
        {"link_bytes", offsetof(alewife_model, link_bytes), 1, 4096},
        {"limitless_trap", offsetof(alewife_model, limitless_trap), 0, ALEWIFE_MAX_COST},
        {"overflow_trap", offsetof(alewife_model, overflow_trap), 0, ALEWIFE_MAX_COST},
        {"report_trap", offsetof(alewife_model, report_trap), 0, ALEWIFE_MAX_COST},
        {"host_reports", offsetof(alewife_model, host_on), 0, 1},
    };
    uint64_t v;
    for (size_t i = 0; i < sizeof numeric / sizeof numeric[0]; i++)
        if (!strcmp(key, numeric[i].key)) {
            if (sim_parse_bounded(key, value, numeric[i].min, numeric[i].max, &v, err, errlen))
                return -1;
            if (am)
                *(uint32_t *)((char *)am + numeric[i].offset) = (uint32_t)v;
            return 0;
        }
    if (!strcmp(key, "host_node")) {
        if (sim_parse_bounded(key, value, 0, ALEWIFE_MAX_NODES - 1, &v, err, errlen))
            return -1;
        if (am && (int)v >= am->nnodes) {
            snprintf(err, errlen, "option 'host_node': node %d of %d", (int)v, am->nnodes);
            return -1;
        }
        if (am)
            am->host_node = (int)v;
        return 0;
    }
    uint32_t mask;
    if (!strncmp(key, "qs", 2) && key[2] >= '0' && key[2] < '0' + QS_NCOUNTERS && !key[3]) {
        if (parse_mask(key, value, &mask, err, errlen))
            return -1;
        if (am)
            qs_set_counter(am->qs, key[2] - '0', mask, 1);
        return 0;
    }
    if (!strcmp(key, "qs_hist")) {
        if (parse_mask(key, value, &mask, err, errlen))
            return -1;
        if (am)
            qs_set_histogram(am->qs, mask, 1);
        return 0;
    }
    if (!strcmp(key, "qs_slice")) {
        if (sim_parse_bounded(key, value, 0, SIM_MAX_SAMPLE_CYCLES, &v, err, errlen))
            return -1;
        if (am)
            qs_set_slice(am->qs, v);
        return 0;
    }
    snprintf(err, errlen,
             "no option '%s' (local_miss, req_send, home_mem, fill, inv, ack, net_fixed, hop, "
             "link_bytes, limitless_trap, overflow_trap, report_trap, host_reports, host_node, qs0..qs3, qs_hist, qs_slice)",
             key);
    return -1;
}

static sim_time alewife_net_delay(void *model, const proto_msg *m, uint32_t bytes,
                                  sim_time send_time)
{
    alewife_model *am = model;
    int hops = sim_alewife_hops(m->src, m->dst);
    sim_time d = am->net_fixed + (sim_time)hops * am->hop +
                 (bytes + am->link_bytes - 1) / am->link_bytes;
    int cls = sim_alewife_packet_class(m->type);
    if (cls >= 0) {
        am->packets[cls]++;
        qs_packet(am->qs, m->src, send_time, cls, hops, 0);
        qs_packet(am->qs, m->dst, send_time + d, cls, hops, 1);
    }
    return d;
}

/* The LimitLESS slot of block (created when `create`), NULL when absent. */
static dir_slot *dir_find(alewife_model *am, uint32_t block, int create)
{
    if (create && 2 * (am->dir_used + 1) > am->dir_cap) {
        size_t cap = am->dir_cap * 2;
        dir_slot *d = calloc(cap, sizeof *d);
        if (!d)
            return NULL;
        for (size_t i = 0; i < am->dir_cap; i++)
            if (am->dir[i].block1) {
                size_t h = (am->dir[i].block1 * 2654435761u) & (cap - 1);
                while (d[h].block1)
                    h = (h + 1) & (cap - 1);
                d[h] = am->dir[i];
            }
        free(am->dir);
        am->dir = d;
        am->dir_cap = cap;
    }
    size_t h = ((block + 1) * 2654435761u) & (am->dir_cap - 1);
    while (am->dir[h].block1 && am->dir[h].block1 != block + 1)
        h = (h + 1) & (am->dir_cap - 1);
    if (am->dir[h].block1)
        return &am->dir[h];
    if (!create)
        return NULL;
    am->dir[h].block1 = block + 1;
    am->dir_used++;
    return &am->dir[h];
}

/* The pointer bookkeeping of a request or notice reaching the home; the
 * cycles of a software trap it causes (0: none). */
static sim_time limitless(alewife_model *am, const proto_msg *m)
{
    uint64_t bit = 1ull << m->src;
    dir_slot *d;
    switch (m->type) {
    case PM_GETS:
        if (!(d = dir_find(am, m->block, 1)) || (d->sharers & bit))
            return 0;
        d->sharers |= bit;
        if (d->hw < DSM_LIMITLESS_POINTERS) {
            d->hw++;
            return 0;
        }
        d->hw = 1; /* software took the full pointers over; this one is in hardware */
        d->soft = 1;
        am->traps++;
        return am->limitless_trap;
    case PM_GETX:
    case PM_UPGRADE: {
        if (!(d = dir_find(am, m->block, 1)))
            return 0;
        int trap = d->soft;
        d->sharers = bit;
        d->hw = 1;
        d->soft = 0;
        if (!trap)
            return 0;
        am->traps++;
        return am->limitless_trap;
    }
    case PM_PUTS:
        if ((d = dir_find(am, m->block, 0)) && (d->sharers & bit)) {
            d->sharers &= ~bit;
            if (d->hw)
                d->hw--;
        }
        return 0;
    case PM_PUTX:
    case PM_PUTE:
        if ((d = dir_find(am, m->block, 0)))
            d->sharers = d->hw = d->soft = 0;
        return 0;
    default:
        return 0;
    }
}

static int is_request(int t) { return t == PM_GETS || t == PM_GETX || t == PM_UPGRADE; }

/* The cycles of the QuickStep overflow traps node took since the last
 * charge: a statistics register that wraps interrupts the node's SPARCLE,
 * whose handler adds the carry to the upper word in memory.  They are paid
 * by the node's next handler (its processor's next miss, or a message it
 * handles), the first moment the model has the node's time in hand. */
static sim_time overflow_cycles(alewife_model *am, int node)
{
    uint64_t traps = qs_overflow_traps(am->qs, node);
    uint64_t due = traps - am->overflow_charged[node];
    am->overflow_charged[node] = traps;
    sim_time reports = am->due[node];
    am->due[node] = 0;
    return (sim_time)due * am->overflow_trap + reports;
}

/* The reports to the host of the slices that began by time t (timesliced
 * collection only): slice k's is node k mod P's, carrying its records since
 * its last report (above). */
static void host_reports(alewife_model *am, sim_time t)
{
    uint64_t slice = qs_slice(am->qs);
    if (!slice || !am->host_on)
        return;
    while (am->host_slices < t / slice) {
        uint64_t k = ++am->host_slices;
        int node = (int)(k % (uint64_t)am->nnodes);
        uint64_t records = k - am->reported[node];
        am->reported[node] = k;
        uint64_t bytes = SIM_MSG_HEADER_BYTES + records * 8 * (QS_NCOUNTERS + QS_NHIST);
        sim_time wire = (bytes + am->link_bytes - 1) / am->link_bytes;
        am->due[node] += am->report_trap + wire;
        if (node != am->host_node)
            am->due[am->host_node] += wire;
        am->host_reports++;
        am->host_bytes += bytes;
        am->packets[QS_MSG]++;
        qs_packet(am->qs, node, k * slice, QS_MSG, sim_alewife_hops(node, am->host_node) + 1, 0);
    }
}

static sim_time alewife_handler(void *model, int node, const proto_msg *m, int is_home,
                                int from_local_processor, sim_time arrival, sim_time start,
                                sim_time *occupancy)
{
    (void)arrival;
    alewife_model *am = model;
    host_reports(am, start);
    sim_time lat, trap_cycles = overflow_cycles(am, node);
    if (is_home && (is_request(m->type) || m->type == PM_PUTS || m->type == PM_PUTX ||
                    m->type == PM_PUTE)) {
        sim_time trap = limitless(am, m);
        if (!is_request(m->type))
            lat = am->ack;
        else
            lat = (from_local_processor ? am->local_miss : am->home_mem) + trap;
    } else if (from_local_processor) {
        lat = am->req_send; /* a request to a remote home (or an eviction notice) */
    } else {
        switch (m->type) {
        case PM_DATA_S:
        case PM_DATA_E:
        case PM_DATA_X:
        case PM_UPGRADE_ACK: lat = am->fill; break;
        case PM_INV:
        case PM_RECALL:
        case PM_RECALL_S: lat = am->inv; break;
        default: lat = am->ack; break; /* acks, writebacks, put acks */
        }
    }
    lat += trap_cycles;
    *occupancy = lat ? lat : 1;
    /* the processor's instructions before its reference: its own time */
    if (from_local_processor && is_request(m->type))
        lat += am->instr;
    return lat;
}

/* A miss on private memory (stack, private heap, file-scope data): the
 * CMMU fetches the line from the node's own DRAM, as for a local miss on a
 * shared line, with no directory work: local_miss cycles of latency and of
 * the CMMU's time. */
static sim_time alewife_private_miss(void *model, int proc, int is_write, sim_time t,
                                     sim_time *occupancy)
{
    (void)is_write;
    alewife_model *am = model;
    host_reports(am, t);
    sim_time lat = am->local_miss + overflow_cycles(am, proc);
    *occupancy = lat;
    return lat + am->instr; /* the instructions before the reference */
}

const sim_timing_ops sim_timing_alewife = {
    .name = "alewife",
    .description = "MIT Alewife: 33 MHz SPARCLE, 64 KB direct-mapped cache, 16 B lines, 2-D mesh "
                   "numbered as QuickStep's Fig. 4.1, LimitLESS directory (5 hardware pointers, "
                   "software traps), QuickStep counters (qs0..qs3, qs_hist, qs_slice)",
    .defaults = alewife_defaults,
    .create = alewife_create,
    .destroy = alewife_destroy,
    .set = alewife_set,
    .sharers_ops = &dsm_sharers_limitless,
    .fixed_latency = 0,
    .miss_latency = NULL,
    .net_delay = alewife_net_delay,
    .handler = alewife_handler,
    .procedure_switch = NULL,
    .clock_hz = 33e6, /* SPARCLE's 33 MHz: dsm_wtime's seconds */
    .private_miss = alewife_private_miss,
};

qs_monitor *sim_alewife_monitor(void *model) { return ((alewife_model *)model)->qs; }

uint64_t sim_alewife_limitless_traps(const void *model)
{
    return ((const alewife_model *)model)->traps;
}

uint64_t sim_alewife_packets(const void *model, int cls)
{
    return cls >= 0 && cls < QS_NCLASSES ? ((const alewife_model *)model)->packets[cls] : 0;
}

void sim_alewife_host_reports(const void *model, int *node, uint64_t *reports, uint64_t *bytes)
{
    const alewife_model *am = model;
    *node = am->host_node;
    *reports = am->host_reports;
    *bytes = am->host_bytes;
}
