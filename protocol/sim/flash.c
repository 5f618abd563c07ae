/* flash.c - timing model of the Stanford FLASH multiprocessor with its MAGIC
 * protocol processor (PP), as FlashPoint ran on it (FlashPoint,
 * "the paper" below; line numbers refer to that file).  Implements
 * sim_timing_flash (timing.h): the machine core asks it what each message
 * costs on the network and what each handler costs on the PP of the node it
 * reaches, and queues handlers of one node behind each other's occupancy.
 *
 * Machine (paper 3.1.1-3.1.2): 128 B lines (line 108), a dynamic pointer
 * allocation directory (line 108; protocol/sharers_list.c), a 2-D mesh
 * (line 95), MAGIC at 100 MHz, so 10 ns system cycles (line 104).
 *
 * Units.  Every constant below is in system cycles, as the paper states
 * them; the model multiplies by cpu_ratio on the way out because sim_time is
 * processor cycles.  cpu_ratio defaults to 2: FLASH's compute processor (a
 * MIPS R10000, line 60/414) was designed to run at 200 MHz against MAGIC's
 * 100 MHz; the paper only says remote accesses take "as many as 380
 * processor cycles" (line 27), which with the defaults here is a 3-4 hop
 * miss of about 190 system cycles.  Option cpu_ratio=N changes it.
 *
 * Handler classes come from (message type, is-home, from-local-processor),
 * see sim_flash_classify.  Handler costs are derived from each handler's
 * work on the PP and the directory entry it finds (handler_work; the core
 * passes the home's entry, sim_dir_view), never read from the paper, so
 * that its Table 4 and Figures 6-7 are outputs to compare with
 * (doc/simulation.md, "Handler costs", has the table of steps and reasons):
 *    pp_dispatch 1   the inbox selects the handler in hardware
 *    pp_addr 2       the header's address from the line's (Figure 4's
 *                    AddrToHeadlinkAddr): a shift and a dependent add
 *    pp_header 3     the directory header load and its use delay (MAGIC
 *                    data cache hit; no interlocks on the PP)
 *    pp_test 1       one branch on a state bit (bit-field branch extension);
 *                    a request tests Pending and Dirty, and HeadPtr when it
 *                    will point to or invalidate sharers (Figure 4)
 *    pp_send 2       compose the outgoing header (dual-issued) and send
 *    pp_update 2     modify and store the header
 *    pp_list 4       one pointer-list step (load link, test, branch)
 *    inv_send 6      one more INV of a walk (pp_list + pp_send); also the
 *                    stagger between the INVs one handler sends
 *    fp_header 2     FlashPoint: bin and warm bit into a reply header
 *                    before the send (Figure 4)
 *    fp_warm 2       FlashPoint: the warm bit into the directory header
 *    fp_record 10    FlashPoint: the recording after the send (Figure 3):
 *                    latency counter 1, record address 1, count and latency
 *                    sum 6, cold test 2
 * Latency is from the handler's start to its first send (the paper's
 * definition, line 315), occupancy until the PP takes the next handler.
 *  - Processor interface: pi_in 2 (bus request into MAGIC) and pi_out 11
 *    (the line up to the processor: 128 B at 16 B a cycle, plus
 *    arbitration and restart; first set so that a local read matched
 *    Table 2's 22, so that figure is not an independent check).  Classes
 *    that answer the processor add pi_out to the latency returned to the
 *    core (timing.h: the processor resumes at start + latency of the
 *    handler that completes its miss), not to Table 4's statistics.  The
 *    PP is not busy during bus transfers.
 *  - intervention 15: fetching a dirty line out of the owner's processor
 *    cache on a recall (estimate).  The same when the owner is the home's
 *    own processor: its engine recalls the copy without a message
 *    (proto.h), but MAGIC must still intervene on its bus, and the line
 *    that comes back is a processor-interface event, so a handler of its
 *    own (PIInterventionReply: the recalled owner's data, the work of
 *    NILocalWriteback) sends the reply and the line is written to memory;
 *    a remote write of a line only the home's processor shares
 *    invalidates it on the bus, with no ack to wait for.
 *  - Network: net_fixed 16 (injection and ejection through the network
 *    interfaces), hop 4 per router, link_bytes 8 per system cycle (800 MB/s
 *    links); a message costs net_fixed + hops x hop + ceil(bytes /
 *    link_bytes) (estimates).  Message sizes come from sim_msg_bytes: an 8 B
 *    header, plus the 128 B line for data messages.  With contention=1
 *    (default) each directed mesh link is busy for a message's serialisation
 *    time and later messages wait for it (dimension-order routing, x first).
 *  - CLASS=LAT/OCC fixes one class's cost in place of its work.
 *  - Memory (memory_access): one queue per node.  MAGIC starts a line's
 *    read when the request reaches the inbox; the line's first data come
 *    mem_access 6 later (a 60 ns DRAM, estimate; latency only, overlapped
 *    with the transfer before it), and the data path is busy for the line
 *    at mem_bytes 16 a cycle (as wide as the processor bus), 8 cycles; a
 *    reply carrying the line leaves no earlier than its first data.
 *    Writebacks take the data path too.  A processor's eviction of a line
 *    of its own node is a PILocalPut handler (.local_evictions).
 *  - pi_line N (default 0, off): the processor bus as a queue, a line up or
 *    down holding it N cycles (doc/simulation.md says why it is off).
 *
 * FlashPoint modes (sim_params.fp_mode, option fp_mode=, parsed by the
 * machine core): control and dp charge nothing (DP is the default protocol;
 * the paper's control is the DP run whose statistics the simulator
 * collects, line 215); noproc and proc run the fp_* steps.
 *
 * FP-Proc's procedure commands (procedure_switch, mode proc only).  To keep
 * per-procedure bins the processor tells MAGIC the procedure "on every
 * function call and return": an uncached load whose page offset bits carry
 * the delta between the old and the new procedure number (line 187), fenced
 * so that no later load or store passes it and lands in the wrong bin (line
 * 352, which calls "the fence stall time ... the major source of execution
 * time overhead" of FP-Proc).  MAGIC's handler moves the current-bin pointer
 * by delta x the bin array size, "just two instructions - a shift and an add"
 * (footnote 2, line 223).  The uncached load blocks the processor, so one
 * switch stalls it for, in system cycles:
 *    (the buffered stores complete first: the front end fences, sim_fence)
 *    fence 4          the pipeline drain before the uncached load may
 *                     issue (estimate)
 *  + pi_in 2          the load over the bus into MAGIC, as for a miss
 *  + waiting          for the PP to finish the handlers before it
 *  + PIProcedureSwitch latency 3   its work: pp_dispatch + pp_send
 *  + pi_word 3        the one-word reply up the bus (estimate; a whole
 *                     128 B line takes pi_out 11)
 * = 12 system cycles, 24 processor cycles, without waiting; and the PP is
 * busy for 4 (the reply, then the shift and the add, one dual-issued pair,
 * after the send, as Figure 3 records after its send).  The cost comes from
 * these steps, not from the paper's totals; for comparison only: Table 5 has
 * FFT on 16 processors at 5.19 x 10^6 cycles with FP-Proc against 3.62 with
 * FP-NoProc (line 345), 1.57 M extra per processor; SPLASH-2's FFT calls
 * a bit-reversal procedure for each element of each row it transforms, about
 * 2 x 16K calls per processor for 256K points (line 209), 64K switches, so
 * some 24 cycles per switch.  Whatever the exact figure, FP-Proc's extra
 * cost is proportional to the number of switches: the paper has it "only an
 * extra 5%" for OCEAN and RADIX and 51% for FFT (lines 293, 345), "generally
 * less than 2X" (line 384).  The machine core calls the hook when a
 * processor's procedure changes and charges the occupancy to its own
 * controller (timing.h); the other modes pay nothing there.
 *
 * Options (sim_params_set "key=value", replayed through set()): cpu_ratio,
 * pi_in, pi_out, pi_word, fence, intervention, net_fixed, hop, link_bytes,
 * inv_send, the pp_* and fp_* steps, mem_access, mem_bytes, pi_line,
 * contention (0/1), and CLASS=LAT/OCC
 * (e.g. PILocalGet=9/11, PIProcedureSwitch=3/5) to fix one handler class's
 * cost. */
#include "flash.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sharers_list.h"
#include "timing.h"

static const char *const handler_names[FH_NCLASSES] = {
    [FH_PI_LOCAL_GET] = "PILocalGet",
    [FH_PI_LOCAL_GETX] = "PILocalGetX",
    [FH_PI_LOCAL_UPGRADE] = "PILocalUpgrade",
    [FH_PI_LOCAL_PUT] = "PILocalPut",
    [FH_PI_REMOTE_GET] = "PIRemoteGet",
    [FH_PI_REMOTE_GETX] = "PIRemoteGetX",
    [FH_PI_REMOTE_UPGRADE] = "PIRemoteUpgrade",
    [FH_PI_REMOTE_PUT] = "PIRemotePut",
    [FH_NI_LOCAL_GET] = "NILocalGet",
    [FH_NI_LOCAL_GETX] = "NILocalGetX",
    [FH_NI_LOCAL_UPGRADE] = "NILocalUpgrade",
    [FH_NI_LOCAL_PUT] = "NILocalPut",
    [FH_NI_INVAL_ACK] = "NIInvalAck",
    [FH_NI_LOCAL_WRITEBACK] = "NILocalWriteback",
    [FH_NI_REMOTE_PUT] = "NIRemotePut",
    [FH_NI_REMOTE_PUTX] = "NIRemotePutX",
    [FH_NI_REMOTE_UPGRADE_ACK] = "NIRemoteUpgradeAck",
    [FH_NI_INVAL] = "NIInval",
    [FH_NI_REMOTE_RECALL] = "NIRemoteRecall",
    [FH_NI_PUT_ACK] = "NIPutAck",
    [FH_PI_INTERVENTION_REPLY] = "PIInterventionReply",
    [FH_PI_PROCEDURE_SWITCH] = "PIProcedureSwitch",
    [FH_OTHER] = "Other",
};

/* Bounds of the options (system cycles; doc/simulation.md, "Bounds").  With
 * every constant at its maximum one message costs at most cpu_ratio x
 * (net_fixed + (SIM_MAX_PROCS - 1) x inv_send + 62 hops x hop + (8 +
 * SIM_MAX_LINE_SIZE) / 1 byte per cycle) < 64 x 1.1e8 < 2^33 processor
 * cycles, one handler at most 64 x (20 steps + 1023 INVs + 512 list steps)
 * x FLASH_MAX_COST < 2^34, a procedure command 64 x 5 x FLASH_MAX_COST
 * < 2^25: far below SIM_CLOCK_LIMIT. */
#define FLASH_MAX_COST 100000u
#define FLASH_MAX_CPU_RATIO 64u

enum { DIR_EAST, DIR_WEST, DIR_NORTH, DIR_SOUTH, NDIRS };

typedef struct flash_model {
    int nnodes;
    uint32_t line_size;
    int mode;
    uint32_t cpu_ratio;
    uint32_t pi_in, pi_out, pi_word, fence, intervention;
    uint32_t net_fixed, hop, link_bytes, inv_send;
    /* the protocol processor's work, system cycles per step (header comment) */
    uint32_t pp_dispatch, pp_addr, pp_header, pp_test, pp_send, pp_update, pp_list;
    uint32_t fp_header, fp_warm, fp_record;
    int contention;
    /* CLASS=LAT/OCC: a fixed cost for one class in place of its work */
    sim_flash_cost cost[FH_NCLASSES];
    uint8_t fixed_cost[FH_NCLASSES];
    sim_flash_handler_stat stat[FH_NCLASSES];
    sim_flash_handler_stat section_stat[FH_NCLASSES]; /* while the measured section is open */
    int in_section;
    int mesh_width, mesh_height;
    sim_time *link_free;          /* [node * NDIRS + dir]: processor cycles */
    sim_time *inv_batch_time;     /* [node]: send time of its last INV */
    uint32_t *inv_batch_seq;      /* [node]: INVs sent at that time so far */
    sim_time *pp_busy_until;      /* [node]: end of the last handler's occupancy
                                     the model has seen there (processor cycles) */
    /* the node's memory (doc/simulation.md, "Memory"): system cycles */
    uint32_t mem_access, mem_bytes;
    sim_time *mem_free;           /* [node]: the memory is busy until (processor cycles) */
    uint32_t pi_line;             /* a line's transfer on the processor bus */
    sim_time *bus_free;           /* [node]: the processor bus is busy until */
    sim_flash_memory_stat mem_stat, mem_section_stat;
} flash_model;

static const char *const mode_names[SIM_FP_NMODES] = {
    [SIM_FP_CONTROL] = "control",
    [SIM_FP_DP] = "dp",
    [SIM_FP_NOPROC] = "noproc",
    [SIM_FP_PROC] = "proc",
};

const char *sim_flash_mode_name(int mode)
{
    return mode >= 0 && mode < SIM_FP_NMODES ? mode_names[mode] : NULL;
}

int sim_flash_parse_mode(const char *text)
{
    if (!text)
        return -1;
    if (!strncasecmp(text, "fp-", 3) || !strncasecmp(text, "fp_", 3))
        text += 3;
    for (int i = 0; i < SIM_FP_NMODES; i++)
        if (!strcasecmp(text, mode_names[i]))
            return i;
    return -1;
}

const char *sim_flash_handler_name(int cls)
{
    return cls >= 0 && cls < FH_NCLASSES ? handler_names[cls] : NULL;
}

int sim_flash_handler_by_name(const char *name)
{
    for (int i = 0; i < FH_NCLASSES; i++)
        if (!strcasecmp(name, handler_names[i]))
            return i;
    return -1;
}

static int is_put(int type) { return type == PM_PUTS || type == PM_PUTX || type == PM_PUTE; }

sim_flash_handler sim_flash_classify(const proto_msg *m, int is_home, int from_local_processor)
{
    int t = m->type;
    if (from_local_processor) {
        if (t == PM_GETS)
            return is_home ? FH_PI_LOCAL_GET : FH_PI_REMOTE_GET;
        if (t == PM_GETX)
            return is_home ? FH_PI_LOCAL_GETX : FH_PI_REMOTE_GETX;
        if (t == PM_UPGRADE)
            return is_home ? FH_PI_LOCAL_UPGRADE : FH_PI_REMOTE_UPGRADE;
        if (is_put(t))
            return is_home ? FH_PI_LOCAL_PUT : FH_PI_REMOTE_PUT;
        return FH_OTHER;
    }
    switch (t) {
    case PM_GETS: return is_home ? FH_NI_LOCAL_GET : FH_OTHER;
    case PM_GETX: return is_home ? FH_NI_LOCAL_GETX : FH_OTHER;
    case PM_UPGRADE: return is_home ? FH_NI_LOCAL_UPGRADE : FH_OTHER;
    case PM_PUTS:
    case PM_PUTX:
    case PM_PUTE: return is_home ? FH_NI_LOCAL_PUT : FH_OTHER;
    case PM_INV_ACK: return is_home ? FH_NI_INVAL_ACK : FH_OTHER;
    case PM_WB_DATA: return is_home ? FH_NI_LOCAL_WRITEBACK : FH_OTHER;
    case PM_DATA_S:
    case PM_DATA_E: return FH_NI_REMOTE_PUT;
    case PM_DATA_X: return FH_NI_REMOTE_PUTX;
    case PM_UPGRADE_ACK: return FH_NI_REMOTE_UPGRADE_ACK;
    case PM_INV: return FH_NI_INVAL;
    case PM_RECALL:
    case PM_RECALL_S: return FH_NI_REMOTE_RECALL; /* a read recall: the owner keeps a copy */
    case PM_PUT_ACK: return FH_NI_PUT_ACK;
    default: return FH_OTHER;
    }
}

/* Classes whose handler hands a line or a grant to the local processor. */
static int answers_processor(int cls)
{
    return cls == FH_PI_LOCAL_GET || cls == FH_PI_LOCAL_GETX || cls == FH_PI_LOCAL_UPGRADE ||
           cls == FH_NI_REMOTE_PUT || cls == FH_NI_REMOTE_PUTX ||
           cls == FH_NI_REMOTE_UPGRADE_ACK;
}

static int from_processor_interface(int cls)
{
    return cls >= FH_PI_LOCAL_GET && cls <= FH_PI_REMOTE_PUT;
}

static int monitoring(const flash_model *fm)
{
    return fm->mode == SIM_FP_NOPROC || fm->mode == SIM_FP_PROC;
}

/* ---- sim_timing_ops ---- */

static void flash_defaults(sim_params *p)
{
    p->line_size = 128;             /* paper line 108 */
    p->cache_size = 1u << 20;       /* 1 MB 2-way secondary cache per processor (estimate) */
    p->assoc = 2;
    p->page_size = 4096;
    p->hit_cycles = 1;
    p->replacement_hints = 1;       /* dynamic pointer allocation keeps its lists short with them */
    p->excl_clean = 0;
    p->outstanding = 4;             /* the R10000's outstanding misses (3 posted, 1 waited for) */
    p->load_use = 16;               /* the R10000's address queue: a load and 15 references after it */
}

static void *flash_create(const sim_params *p, char *err, size_t errlen)
{
    if (p->nprocs < 1) {
        snprintf(err, errlen, "flash: nprocs must be at least 1 (got %d)", p->nprocs);
        return NULL;
    }
    if (p->fp_mode < 0 || p->fp_mode >= SIM_FP_NMODES) {
        snprintf(err, errlen, "flash: fp_mode %d out of range", p->fp_mode);
        return NULL;
    }
    flash_model *fm = calloc(1, sizeof *fm);
    if (fm) {
        fm->link_free = calloc((size_t)p->nprocs * NDIRS, sizeof *fm->link_free);
        fm->inv_batch_time = calloc((size_t)p->nprocs, sizeof *fm->inv_batch_time);
        fm->inv_batch_seq = calloc((size_t)p->nprocs, sizeof *fm->inv_batch_seq);
        fm->pp_busy_until = calloc((size_t)p->nprocs, sizeof *fm->pp_busy_until);
        fm->mem_free = calloc((size_t)p->nprocs, sizeof *fm->mem_free);
        fm->bus_free = calloc((size_t)p->nprocs, sizeof *fm->bus_free);
    }
    if (!fm || !fm->link_free || !fm->inv_batch_time || !fm->inv_batch_seq ||
        !fm->pp_busy_until || !fm->mem_free || !fm->bus_free) {
        if (fm) {
            free(fm->link_free);
            free(fm->inv_batch_time);
            free(fm->inv_batch_seq);
            free(fm->pp_busy_until);
            free(fm->mem_free);
            free(fm->bus_free);
        }
        free(fm);
        snprintf(err, errlen, "flash: out of memory for %d nodes", p->nprocs);
        return NULL;
    }
    fm->nnodes = p->nprocs;
    fm->line_size = p->line_size;
    fm->mode = p->fp_mode;
    fm->cpu_ratio = 2;
    fm->pi_in = 2;
    fm->pi_out = 11;
    fm->pi_word = 3;
    fm->fence = 4;
    fm->intervention = 15;
    fm->net_fixed = 16;
    fm->hop = 4;
    fm->link_bytes = 8;
    fm->pp_dispatch = 1;
    fm->pp_addr = 2;
    fm->pp_header = 3;
    fm->pp_test = 1;
    fm->pp_send = 2;
    fm->pp_update = 2;
    fm->pp_list = 4;
    fm->inv_send = fm->pp_list + fm->pp_send;
    fm->fp_header = 2;
    fm->fp_warm = 2;
    fm->fp_record = 10;
    fm->contention = 1;
    fm->mem_access = 6;
    fm->mem_bytes = 16;
    fm->pi_line = 0;
    sim_mesh_dims(fm->nnodes, &fm->mesh_width, &fm->mesh_height);
    return fm;
}

static void flash_destroy(void *model)
{
    flash_model *fm = model;
    if (!fm)
        return;
    free(fm->link_free);
    free(fm->inv_batch_time);
    free(fm->inv_batch_seq);
    free(fm->pp_busy_until);
    free(fm->mem_free);
    free(fm->bus_free);
    free(fm);
}

/* "LAT/OCC" for a handler-class option. */
static int parse_cost_pair(const char *key, const char *value, uint32_t *lat, uint32_t *occ,
                           char *err, size_t errlen)
{
    char *end;
    errno = 0;
    unsigned long a = strtoul(value, &end, 10);
    if (end == value || *end != '/' || errno || a > FLASH_MAX_COST || *value == '-')
        goto bad;
    const char *second = end + 1;
    unsigned long b = strtoul(second, &end, 10);
    if (end == second || *end || errno || b < 1 || b > FLASH_MAX_COST || *second == '-')
        goto bad;
    *lat = (uint32_t)a;
    *occ = (uint32_t)b;
    return 0;
bad:
    snprintf(err, errlen,
             "option '%s': %s is not LATENCY/OCCUPANCY in system cycles in range 0 .. %u / "
             "1 .. %u (e.g. %s=9/11)",
             key, value, FLASH_MAX_COST, FLASH_MAX_COST, key);
    return -1;
}

static int flash_set(void *model, const char *key, const char *value, char *err, size_t errlen)
{
    flash_model *fm = model;
    int cls = sim_flash_handler_by_name(key);
    if (cls >= 0) {
        uint32_t lat, occ;
        if (parse_cost_pair(key, value, &lat, &occ, err, errlen))
            return -1;
        if (fm) {
            fm->cost[cls].latency = lat;
            fm->cost[cls].occupancy = occ;
            fm->fixed_cost[cls] = 1;
        }
        return 0;
    }
    static const struct {
        const char *key;
        size_t offset;
        uint64_t min, max;
    } numeric[] = {
        {"cpu_ratio", offsetof(flash_model, cpu_ratio), 1, FLASH_MAX_CPU_RATIO},
        {"pi_in", offsetof(flash_model, pi_in), 0, FLASH_MAX_COST},
        {"pi_out", offsetof(flash_model, pi_out), 0, FLASH_MAX_COST},
        {"pi_word", offsetof(flash_model, pi_word), 0, FLASH_MAX_COST},
        {"fence", offsetof(flash_model, fence), 0, FLASH_MAX_COST},
        {"intervention", offsetof(flash_model, intervention), 0, FLASH_MAX_COST},
        {"net_fixed", offsetof(flash_model, net_fixed), 0, FLASH_MAX_COST},
        {"hop", offsetof(flash_model, hop), 0, FLASH_MAX_COST},
        {"link_bytes", offsetof(flash_model, link_bytes), 1, SIM_MAX_LINE_SIZE},
        {"inv_send", offsetof(flash_model, inv_send), 0, FLASH_MAX_COST},
        {"pp_dispatch", offsetof(flash_model, pp_dispatch), 0, FLASH_MAX_COST},
        {"pp_addr", offsetof(flash_model, pp_addr), 0, FLASH_MAX_COST},
        {"pp_header", offsetof(flash_model, pp_header), 0, FLASH_MAX_COST},
        {"pp_test", offsetof(flash_model, pp_test), 0, FLASH_MAX_COST},
        {"pp_send", offsetof(flash_model, pp_send), 0, FLASH_MAX_COST},
        {"pp_update", offsetof(flash_model, pp_update), 0, FLASH_MAX_COST},
        {"pp_list", offsetof(flash_model, pp_list), 0, FLASH_MAX_COST},
        {"fp_header", offsetof(flash_model, fp_header), 0, FLASH_MAX_COST},
        {"fp_warm", offsetof(flash_model, fp_warm), 0, FLASH_MAX_COST},
        {"fp_record", offsetof(flash_model, fp_record), 0, FLASH_MAX_COST},
        {"mem_access", offsetof(flash_model, mem_access), 0, FLASH_MAX_COST},
        {"mem_bytes", offsetof(flash_model, mem_bytes), 1, SIM_MAX_LINE_SIZE},
        {"pi_line", offsetof(flash_model, pi_line), 0, FLASH_MAX_COST},
    };
    for (size_t i = 0; i < sizeof numeric / sizeof numeric[0]; i++) {
        if (strcmp(key, numeric[i].key))
            continue;
        uint64_t v;
        if (sim_parse_bounded(key, value, numeric[i].min, numeric[i].max, &v, err, errlen))
            return -1;
        if (fm)
            *(uint32_t *)((char *)fm + numeric[i].offset) = (uint32_t)v;
        return 0;
    }
    if (!strcmp(key, "contention")) {
        if (strcmp(value, "0") && strcmp(value, "1")) {
            snprintf(err, errlen, "flash: contention=%s: expected 0 or 1", value);
            return -1;
        }
        if (fm)
            fm->contention = value[0] == '1';
        return 0;
    }
    snprintf(err, errlen,
             "flash: unknown option '%s' (known: cpu_ratio, pi_in, pi_out, pi_word, "
             "fence, intervention, net_fixed, hop, link_bytes, inv_send, pp_dispatch, "
             "pp_addr, pp_header, pp_test, pp_send, pp_update, pp_list, fp_header, fp_warm, fp_record, "
             "mem_access, mem_bytes, pi_line, contention, or a handler class such as PILocalGet=LAT/OCC)",
             key);
    return -1;
}

/* Route a message x first, then y, charging each directed link it crosses:
 * the head waits for a busy link, the link stays busy for the serialisation
 * time.  Returns the time the head leaves the last router. */
static sim_time route_with_contention(flash_model *fm, int src, int dst, sim_time t,
                                      sim_time hop, sim_time serialise)
{
    int x = src % fm->mesh_width, y = src / fm->mesh_width;
    int dx = dst % fm->mesh_width, dy = dst / fm->mesh_width;
    while (x != dx || y != dy) {
        int dir;
        if (x != dx)
            dir = x < dx ? DIR_EAST : DIR_WEST;
        else
            dir = y < dy ? DIR_NORTH : DIR_SOUTH;
        sim_time *link = &fm->link_free[(size_t)(y * fm->mesh_width + x) * NDIRS + dir];
        if (*link > t)
            t = *link;
        *link = t + serialise;
        t += hop;
        switch (dir) {
        case DIR_EAST: x++; break;
        case DIR_WEST: x--; break;
        case DIR_NORTH: y++; break;
        default: y--; break;
        }
    }
    return t;
}

static sim_time flash_net_delay(void *model, const proto_msg *m, uint32_t bytes, sim_time send_time)
{
    flash_model *fm = model;
    sim_time r = fm->cpu_ratio;
    sim_time serialise = r * ((bytes + fm->link_bytes - 1) / fm->link_bytes);
    sim_time t = send_time;
    /* The k-th INV one handler sends leaves k pointer-list steps later. */
    if (m->type == PM_INV && m->src >= 0 && m->src < fm->nnodes) {
        if (fm->inv_batch_time[m->src] != send_time || fm->inv_batch_seq[m->src] == 0) {
            fm->inv_batch_time[m->src] = send_time;
            fm->inv_batch_seq[m->src] = 0;
        }
        t += r * fm->inv_send * fm->inv_batch_seq[m->src]++;
    }
    t += r * fm->net_fixed;
    if (fm->contention && m->src >= 0 && m->src < fm->nnodes && m->dst >= 0 &&
        m->dst < fm->nnodes)
        t = route_with_contention(fm, m->src, m->dst, t, r * fm->hop, serialise);
    else
        t += r * fm->hop * (sim_time)sim_mesh_hops(fm->nnodes, m->src, m->dst);
    t += serialise;
    return t - send_time;
}


/* A handler's work: cycles until its first send (latency, Table 4's
 * definition: from the first instruction to the send) and in all
 * (occupancy: until the PP loads the next handler). */
typedef struct pp_work {
    uint32_t latency, occupancy;
    int sent;
    uint32_t leave;  /* until the message to the network leaves, when the
                        first send went to the processor bus (0: latency) */
    int intervene;   /* the first send was an intervention in the home's own
                        processor cache: flash_handler_dir adds the rest */
} pp_work;

static void pp_do(pp_work *w, uint32_t cycles)
{
    w->occupancy += cycles;
    if (!w->sent)
        w->latency += cycles;
}

static void pp_send(pp_work *w, const flash_model *fm)
{
    pp_do(w, fm->pp_send);
    w->sent = 1;
}

static int is_request_type(int t) { return t == PM_GETS || t == PM_GETX || t == PM_UPGRADE; }

/* The work of handler class cls on message m (header comment: "Handler
 * costs").  dir: the home's directory entry (dir->at_home 0 elsewhere). */
static pp_work handler_work(const flash_model *fm, int cls, const proto_msg *m,
                            const sim_dir_view *dir)
{
    pp_work w = {0, 0, 0, 0, 0};
    int fp = monitoring(fm);
    int from_ni = !from_processor_interface(cls);
    pp_do(&w, fm->pp_dispatch);
    if (cls >= FH_PI_REMOTE_GET && cls <= FH_PI_REMOTE_PUT) {
        pp_send(&w, fm); /* pass-through: rewrite the header, send to the home */
        return w;
    }
    switch (cls) {
    case FH_NI_REMOTE_PUT:
    case FH_NI_REMOTE_PUTX:
    case FH_NI_REMOTE_UPGRADE_ACK:
        pp_send(&w, fm); /* hand the reply to the processor interface */
        if (fp)
            pp_do(&w, fm->fp_record); /* Figure 3: the recording after the send */
        return w;
    case FH_NI_INVAL:
        pp_send(&w, fm); /* the invalidation on the processor bus */
        pp_send(&w, fm); /* the ack to the home */
        return w;
    case FH_NI_REMOTE_RECALL:
        pp_send(&w, fm); /* the intervention; the data go on when it returns */
        pp_send(&w, fm);
        return w;
    case FH_NI_PUT_ACK:
    case FH_OTHER:
        pp_do(&w, fm->pp_test);
        return w;
    case FH_PI_PROCEDURE_SWITCH:
        return w; /* not a message: flash_procedure_switch */
    default: break;
    }
    /* at the home: the header's address, its load, a branch on its state
     * (Pending; a request also tests Dirty, and HeadPtr when it will point
     * to or invalidate other sharers: Figure 4) */
    int state = dir && dir->at_home ? dir->state : PD_UNOWNED;
    int others = dir && dir->at_home ? dir->sharers : 0;
    int home_copy = dir && dir->at_home && dir->home_copy && from_ni;
    pp_do(&w, fm->pp_addr);
    pp_do(&w, fm->pp_header);
    pp_do(&w, fm->pp_test);
    if (is_request_type(m->type)) {
        pp_do(&w, fm->pp_test); /* Dirty */
        if (!(state == PD_EXCL && others > 0) && (from_ni || m->type != PM_GETS))
            pp_do(&w, fm->pp_test); /* HeadPtr */
        /* a local miss is recorded by this node's PP: after the reply's
         * send here, or, when the reply waits for acks or the owner's
         * data, by the handler that sends it then; the model charges the
         * recording here either way (same PP, a little earlier) */
        int recording = !from_ni;
        if (fp && from_ni)
            pp_do(&w, fm->fp_header); /* Figure 4: bin and warm bit into the reply header */
        if (state == PD_EXCL && others > 0) {
            /* forward a recall to the dirty owner; when that is the home's
             * own processor, the intervention goes on its bus and the line
             * comes back as a handler of its own (flash_handler_dir) */
            pp_send(&w, fm);
            w.intervene = home_copy;
        } else if (m->type != PM_GETS && others > 0) {
            /* walk the pointer list: one step and one INV per other sharer */
            pp_do(&w, fm->pp_list);
            pp_send(&w, fm);
            pp_do(&w, (uint32_t)(others - 1) * fm->inv_send);
            if (home_copy && others == 1) {
                /* the one other copy was the home processor's, invalidated
                 * on its bus with no ack to wait for: the reply goes now */
                pp_do(&w, fm->pp_send);
                w.leave = w.occupancy;
            }
        } else {
            pp_send(&w, fm); /* the reply (data from memory, or the grant) */
            if (from_ni && (m->type == PM_GETS || state == PD_SHARED))
                pp_do(&w, fm->pp_list); /* a pointer from (to) the free list */
        }
        pp_do(&w, fm->pp_update);
        if (fp && from_ni)
            pp_do(&w, fm->fp_warm); /* the warm bit into the directory header */
        if (fp && recording)
            pp_do(&w, fm->fp_record);
        return w;
    }
    switch (m->type) {
    case PM_PUTS: /* unlink the sharer's pointer: half the list on average */
        pp_do(&w, fm->pp_list * (uint32_t)(1 + others / 2));
        break;
    case PM_INV_ACK: /* count down; the last one sends the grant */
        pp_do(&w, 1);
        pp_send(&w, fm);
        break;
    case PM_WB_DATA: /* the recalled owner's data: reply to the requester */
        if (fp)
            pp_do(&w, fm->fp_header);
        pp_send(&w, fm);
        if (fp)
            pp_do(&w, fm->fp_warm);
        break;
    default: break; /* PUTX / PUTE: the owner's copy goes; memory is written by hardware */
    }
    pp_do(&w, fm->pp_update);
    if (from_ni && is_put(m->type))
        pp_send(&w, fm); /* the PUT_ACK */
    return w;
}

/* One handler's cost, in the run's statistics and, while the measured
 * section is open, in the section's (Table 4 and Figures 6-7 are of the
 * timed phase, as the paper's). */
static void count_handler(flash_model *fm, int cls, sim_time latency, sim_time occ,
                          sim_time queued)
{
    for (int k = 0; k < 1 + fm->in_section; k++) {
        sim_flash_handler_stat *s = k ? &fm->section_stat[cls] : &fm->stat[cls];
        s->count++;
        s->latency += latency;
        s->occupancy += occ;
        s->queued += queued;
    }
}

/* What a handler asks of its node's memory: MAGIC starts a line's read as
 * the request reaches the inbox, before the PP has looked at the
 * directory (it is dropped when the line is dirty elsewhere), and writes
 * the data of a writeback.  MEM_READ_REPLY: the handler's first send is
 * the line, which cannot leave before the memory's first data. */
enum { MEM_NONE, MEM_READ, MEM_READ_REPLY, MEM_WRITE };

static int memory_use(const proto_msg *m, int is_home, const sim_dir_view *dir)
{
    if (!is_home)
        return MEM_NONE;
    int state = dir && dir->at_home ? dir->state : PD_UNOWNED;
    int others = dir && dir->at_home ? dir->sharers : 0;
    if (others == 1 && dir->home_copy && state != PD_EXCL)
        others = 0; /* the home processor's copy: no ack, the line goes now */
    switch (m->type) {
    case PM_GETS:
    case PM_GETX:
        if (state == PD_EXCL && others > 0)
            return MEM_NONE; /* a recall: the owner's cache has the line (written
                                back when the home's own: flash_handler_dir) */
        if (m->type == PM_GETX && others > 0)
            return MEM_READ; /* the line goes with the last ack's grant */
        return MEM_READ_REPLY;
    case PM_PUTX:
    case PM_WB_DATA:
    case PM_SHWB:
    case PM_PUSH:
    case PM_FLUSH: return MEM_WRITE;
    default: return MEM_NONE;
    }
}

/* One line access to node's memory, which reached MAGIC at t: the data
 * path carries one line at a time, busy for its transfer (line / mem_bytes
 * system cycles), later accesses wait; the DRAM access (mem_access) is
 * latency only, overlapped with the transfer before it (interleaved
 * banks).  Returns when the access's first data are ready. */
static sim_time memory_access(flash_model *fm, int node, sim_time t)
{
    sim_time r = fm->cpu_ratio;
    sim_time begin = t > fm->mem_free[node] ? t : fm->mem_free[node];
    sim_time busy = r * ((fm->line_size + fm->mem_bytes - 1) / fm->mem_bytes);
    fm->mem_free[node] = begin + busy;
    for (int k = 0; k < 1 + fm->in_section; k++) {
        sim_flash_memory_stat *s = k ? &fm->mem_section_stat : &fm->mem_stat;
        s->accesses++;
        s->busy += busy;
        s->queued += begin - t;
    }
    return begin + r * fm->mem_access;
}

static void flash_section(void *model, int inside) { ((flash_model *)model)->in_section = inside; }

static sim_time flash_handler_dir(void *model, int node, const proto_msg *m, int is_home,
                                  int from_local_processor, sim_time arrival, sim_time start,
                                  const sim_dir_view *dir, sim_time *occupancy)
{
    flash_model *fm = model;
    int cls = sim_flash_classify(m, is_home, from_local_processor);
    pp_work w = {0, 0, 0, 0, 0};
    if (fm->fixed_cost[cls]) {
        w.latency = fm->cost[cls].latency;
        w.occupancy = fm->cost[cls].occupancy;
        w.intervene = handler_work(fm, cls, m, dir).intervene;
    } else {
        w = handler_work(fm, cls, m, dir);
    }
    sim_time r = fm->cpu_ratio;
    sim_time latency = r * w.latency, occ = r * (w.occupancy ? w.occupancy : 1);
    sim_time leave = r * (w.leave ? w.leave : w.latency);
    count_handler(fm, cls, latency, occ, start > arrival ? start - arrival : 0);
    int valid = node >= 0 && node < fm->nnodes;
    /* a request found the line dirty in the home's own processor cache:
     * the intervention on the bus, the cache's answer (intervention, as at
     * a remote owner), then the line is a handler of its own at the PP
     * (PIInterventionReply: the recalled owner's data, NILocalWriteback's
     * work) that sends the reply; the line is written to memory.  The PP's
     * two occupancies are charged in one piece from the start (the core
     * keeps one busy-until per node); it is free during the wait. */
    if (w.intervene) {
        int rc = FH_PI_INTERVENTION_REPLY;
        proto_msg wb = *m;
        wb.type = PM_WB_DATA;
        pp_work w2 = handler_work(fm, FH_NI_LOCAL_WRITEBACK, &wb, dir);
        if (fm->fixed_cost[rc]) {
            w2.latency = fm->cost[rc].latency;
            w2.occupancy = fm->cost[rc].occupancy;
        }
        sim_time back = start + latency + r * fm->intervention;
        count_handler(fm, rc, r * w2.latency, r * w2.occupancy, 0);
        leave = latency + r * fm->intervention + r * w2.latency;
        occ += r * w2.occupancy;
        if (valid)
            memory_access(fm, node, back);
    }
    if (valid && start + occ > fm->pp_busy_until[node])
        fm->pp_busy_until[node] = start + occ;
    *occupancy = occ;
    /* a request from the processor crosses the bus first (pi_in): the PP's
     * work and the memory's begin after it */
    sim_time bus_in = from_processor_interface(cls) ? r * fm->pi_in : 0;
    sim_time send = start + bus_in + leave;
    int use = valid ? memory_use(m, is_home, dir) : MEM_NONE;
    sim_time at_magic = arrival + bus_in;
    if (valid && bus_in && m->type == PM_PUTX && fm->pi_line) {
        /* the dirty line came down the processor bus */
        sim_time begin = arrival > fm->bus_free[node] ? arrival : fm->bus_free[node];
        fm->bus_free[node] = begin + r * fm->pi_line;
        at_magic = begin + bus_in + r * fm->pi_line;
    }
    if (use != MEM_NONE) {
        sim_time ready = memory_access(fm, node, at_magic);
        if (use == MEM_READ_REPLY && ready > send)
            send = ready;
    }
    if (valid && answers_processor(cls) && cls != FH_NI_REMOTE_UPGRADE_ACK &&
        (cls != FH_PI_LOCAL_UPGRADE || use == MEM_READ_REPLY) && fm->pi_line) {
        /* the line goes up the processor bus after earlier transfers */
        if (send < fm->bus_free[node])
            send = fm->bus_free[node];
        fm->bus_free[node] = send + r * fm->pi_line;
    }
    /* what the processor or the network sees after the send: the line up
     * the bus and the owner's cache intervention */
    sim_time extra = 0;
    if (answers_processor(cls))
        extra += fm->pi_out;
    if (cls == FH_NI_REMOTE_RECALL)
        extra += fm->intervention;
    return send - start + extra * r;
}

static sim_time flash_handler(void *model, int node, const proto_msg *m, int is_home,
                              int from_local_processor, sim_time arrival, sim_time start,
                              sim_time *occupancy)
{
    sim_dir_view none = {0};
    return flash_handler_dir(model, node, m, is_home, from_local_processor, arrival, start,
                             &none, occupancy);
}

/* FP-Proc's uncached procedure command (header comment).  The command is a
 * PP handler of proc's own node: it waits for the handlers the model has
 * seen start there, and the processor stalls until the reply is back. */
static sim_time flash_procedure_switch(void *model, int proc, int procedure, sim_time t,
                                       sim_time *occupancy)
{
    (void)procedure; /* only the delta travels; the cost does not depend on it */
    flash_model *fm = model;
    if (fm->mode != SIM_FP_PROC || proc < 0 || proc >= fm->nnodes)
        return 0;
    /* the handler's work: dispatch, the one-word reply, then the shift and
     * the add (one dual-issued pair) after the send, as Figure 3 records
     * after its send */
    sim_time lat = fm->pp_dispatch + fm->pp_send, work = lat + 1;
    if (fm->fixed_cost[FH_PI_PROCEDURE_SWITCH]) {
        lat = fm->cost[FH_PI_PROCEDURE_SWITCH].latency;
        work = fm->cost[FH_PI_PROCEDURE_SWITCH].occupancy;
    }
    sim_time r = fm->cpu_ratio;
    sim_time arrival = t + r * (fm->fence + fm->pi_in);
    sim_time start = arrival > fm->pp_busy_until[proc] ? arrival : fm->pp_busy_until[proc];
    sim_time occ = r * (work ? work : 1);
    sim_time resume = start + r * (lat + fm->pi_word);
    fm->pp_busy_until[proc] = start + occ;
    count_handler(fm, FH_PI_PROCEDURE_SWITCH, resume - t, occ, start - arrival);
    *occupancy = occ;
    return resume - t;
}

const sim_timing_ops sim_timing_flash = {
    .name = "flash",
    .description = "Stanford FLASH: 128 B lines, 2-D mesh, MAGIC handler latency and "
                   "occupancy per handler class, FlashPoint modes (fp_mode=control|dp|noproc|proc)",
    .defaults = flash_defaults,
    .create = flash_create,
    .destroy = flash_destroy,
    .set = flash_set,
    .sharers_ops = &dsm_sharers_pointer_list,
    .fixed_latency = 0,
    .miss_latency = NULL,
    .net_delay = flash_net_delay,
    .handler = flash_handler,
    .handler_dir = flash_handler_dir,
    .procedure_switch = flash_procedure_switch,
    .section = flash_section,
    .local_evictions = 1,
};

/* ---- direct access for tests and reports ---- */

int sim_flash_cost_of(const void *model, int cls, sim_flash_cost *out)
{
    const flash_model *fm = model;
    if (cls < 0 || cls >= FH_NCLASSES || !fm->fixed_cost[cls])
        return -1;
    *out = fm->cost[cls];
    return 0;
}

int sim_flash_stats_of(const void *model, int cls, sim_flash_handler_stat *out)
{
    if (cls < 0 || cls >= FH_NCLASSES)
        return -1;
    *out = ((const flash_model *)model)->stat[cls];
    return 0;
}

int sim_flash_section_stats_of(const void *model, int cls, sim_flash_handler_stat *out)
{
    if (cls < 0 || cls >= FH_NCLASSES)
        return -1;
    *out = ((const flash_model *)model)->section_stat[cls];
    return 0;
}

void sim_flash_memory_stats_of(const void *model, int section, sim_flash_memory_stat *out)
{
    const flash_model *fm = model;
    *out = section ? fm->mem_section_stat : fm->mem_stat;
}

uint32_t sim_flash_cpu_ratio(const void *model) { return ((const flash_model *)model)->cpu_ratio; }

int sim_flash_mode(const void *model) { return ((const flash_model *)model)->mode; }
