/* settings_table.c - every DSM_* environment variable, in one table: the
 * loader (settings.c) parses and checks them from it, dsm_init compares the
 * must-agree ones across nodes from it, and tests/settings_doc prints the
 * documentation's tables from it (README.md, doc/user-guide.md, doc/dsm.3;
 * tests/settings_doc.sh fails when they differ).  A new setting is a new row
 * here, then `tests/settings_doc.sh --update`.
 *
 * Order matters: the loader reads the rows in order, and a range may depend
 * on a row above (DSM_REGION_SIZE and DSM_REGION_ADDR on DSM_BLOCK_SIZE). */
#include "settings.h"

#include <stddef.h>

#include "sim/sim.h"                /* SIM_MAX_PROCS */
#include "transport/shm_layout.h"   /* DSM_SHM_SLOTS_MIN, DSM_SHM_SLOTS_MAX */

#define F(field) offsetof(dsm_config, field)
#define NOF DSM_SET_NOFIELD
#define K ((uint64_t)1 << 10)
#define M ((uint64_t)1 << 20)
#define G ((uint64_t)1 << 30)
#define T ((uint64_t)1 << 40)

const dsm_setting dsm_settings[] = {
    /* ---- the runtime, on every node ---- */
    { .name = "DSM_BLOCK_SIZE", .kind = DSM_SET_SIZE,
      .flags = DSM_SET_AGREE | DSM_SET_POW2 | DSM_SET_PAGE_MODE, .min = 32, .max = 16 * M,
      .dflt_doc = "the page size", .field = F(block_size), .group = DSM_GROUP_RUNTIME,
      .doc = "coherence block, the unit of sharing; also the largest message payload "
             "(it sizes `dsmrun`'s segment). Page mode keeps access with page protections; "
             "a program compiled with `dsmcc --dsm` (block mode) keeps it in a per-block state "
             "table its inline checks read, and may use blocks below the page size" },
    { .name = "DSM_REGION_SIZE", .kind = DSM_SET_SIZE,
      .flags = DSM_SET_AGREE | DSM_SET_MIN_BLOCK, .max = T, .dflt = "1G",
      .field = F(region_size), .group = DSM_GROUP_RUNTIME,
      .doc = "bytes of shared address space, rounded up to whole blocks: half for `dsm_alloc`, "
             "half split in one `dsm_malloc` arena per node" },
    { .name = "DSM_REGION_ADDR", .kind = DSM_SET_ADDRESS,
      .flags = DSM_SET_AGREE | DSM_SET_ALIGN_BLOCK, .max = UINT64_MAX, .dflt = "0x5a0000000000",
      .field = F(region_addr), .group = DSM_GROUP_RUNTIME,
      .doc = "virtual address of the shared region, the same on every node" },
    { .name = "DSM_LOCKS", .kind = DSM_SET_COUNT, .flags = DSM_SET_AGREE, .min = 1,
      .max = 1u << 20, .dflt = "1024", .field = F(locks), .group = DSM_GROUP_RUNTIME,
      .doc = "number of global locks (`dsm_lock` ids 0 to N-1)" },
    { .name = "DSM_HOMES", .kind = DSM_SET_WORDS, .flags = DSM_SET_AGREE,
      .words = "blocked|cyclic", .dflt = "blocked", .field = F(homes_cyclic),
      .group = DSM_GROUP_RUNTIME,
      .doc = "homes of `dsm_alloc` memory: contiguous runs, one per node, or block by block "
             "(see Homes)" },
    { .name = "DSM_MALLOC_HOMES", .kind = DSM_SET_WORDS, .flags = DSM_SET_AGREE,
      .words = "caller|round-robin", .dflt = "caller", .field = F(malloc_spread),
      .group = DSM_GROUP_RUNTIME,
      .doc = "homes of `dsm_malloc` memory: the calling node, or block by block over all nodes "
             "(block i of the region at node i mod N), so that a program whose master allocates "
             "everything (`dsm-parmacs`, which sets `round-robin` unless it is set) does not home "
             "it all at node 0" },
    { .name = "DSM_PATTERNS", .kind = DSM_SET_SWITCH, .flags = DSM_SET_AGREE, .dflt = "on",
      .field = F(patterns), .group = DSM_GROUP_RUNTIME,
      .doc = "sharing-pattern detection of the augmented protocol (doc/patterns.md)" },
    { .name = "DSM_ADAPT", .kind = DSM_SET_SWITCH, .flags = DSM_SET_AGREE, .dflt = "off",
      .field = F(adapt), .group = DSM_GROUP_RUNTIME,
      .doc = "the adaptive protocol: a read of a block detected migratory is granted "
             "exclusive, so the write that follows needs no upgrade; a reader that did not "
             "write brings the block back to shared grants; at a release (unlock, barrier) a "
             "producer's block goes on to its last consumers, and at an unlock a migratory "
             "block goes home (doc/patterns.md; needs DSM_PATTERNS=on, refused without it)" },
    { .name = "DSM_PREFETCH", .kind = DSM_SET_COUNT, .flags = DSM_SET_AGREE, .min = 0,
      .max = 64, .dflt = "0", .field = F(prefetch), .group = DSM_GROUP_RUNTIME,
      .doc = "with `DSM_ADAPT=on`: a remote read miss of a block whose group is not known yet "
             "brings along the next N-1 blocks of the same home that the home can grant at once "
             "(shared, unowned, or its own; never recalled from a third node), as ArgoDSM's "
             "fetch of several pages per miss; 0 or 1: off; more is refused without "
             "DSM_ADAPT=on (doc/patterns.md)" },
    { .name = "DSM_PARK_DEFER", .kind = DSM_SET_SWITCH, .dflt = "on",
      .field = F(park_defer), .group = DSM_GROUP_RUNTIME,
      .doc = "while a node's only program thread waits inside the runtime (a barrier, a "
             "lock, a condition, a join) and no other thread of the program exists, the "
             "home answers a miss before it takes its own write right away (`mprotect`), "
             "not after: nothing can write the block meanwhile (doc/protocol.md, \"The "
             "parked home\")" },
    { .name = "DSM_JOB_SYNC", .kind = DSM_SET_SWITCH, .flags = DSM_SET_AGREE, .dflt = "on",
      .field = F(job_sync), .group = DSM_GROUP_RUNTIME,
      .doc = "when every node of the job is on one host, the collectives (`dsm_barrier`, "
             "`dsm_alloc`), the locks, `dsm_barrier_n` and the atomic counters "
             "(`dsm_atomic_add`) work in memory the nodes share, with the processor's atomics, "
             "instead of messages to a manager node "
             "(doc/protocol.md, \"Synchronisation in the job's memory\")" },
    { .name = "DSM_PROTECT_BATCH", .kind = DSM_SET_SWITCH, .dflt = "on",
      .field = F(protect_batch), .group = DSM_GROUP_RUNTIME,
      .doc = "the protection changes of one engine call (and the read copies of a bulk "
             "fetch's burst of messages) over contiguous blocks are made in one `mprotect`: "
             "on a VM each call that removes rights pays a trapped TLB shootdown "
             "(doc/patterns.md)" },
    { .name = "DSM_COUNTERS", .kind = DSM_SET_SWITCH, .flags = DSM_SET_AGREE, .dflt = "on",
      .field = F(counters), .group = DSM_GROUP_RUNTIME,
      .doc = "the per-block counters behind the statistics and the profile (doc/metrics.md)" },
    { .name = "DSM_SPIN_US", .kind = DSM_SET_MICROS, .flags = DSM_SET_AUTO, .min = 0,
      .max = 1000000, .dflt = "auto", .field = F(spin_us), .group = DSM_GROUP_RUNTIME,
      .doc = "a waiting thread spins this long before it blocks. `auto`: not at all when this "
             "host runs more nodes than the node has usable cores (a spinning waiter would take "
             "the core its home needs to answer; a node `dsmrun` or `mpirun` bound to one core "
             "has one), else 50 us (200 us when some nodes are on other "
             "hosts: a round trip over TCP is longer), turned off while most of the node's "
             "waits outlast it (other processes hold the cores)" },
    { .name = "DSM_HOLD_US", .kind = DSM_SET_MICROS, .min = 0, .max = 1000000, .dflt = "5",
      .field = F(hold_us), .group = DSM_GROUP_RUNTIME,
      .doc = "a fresh grant is kept at least this long after its faulting access left the "
             "fault handler, so that two writers cannot take a block from each other between "
             "grant and retry" },
    { .name = "DSM_SIGMASK", .kind = DSM_SET_WORDS, .words = "auto|always", .dflt = "auto",
      .field = F(sigmask_always), .group = DSM_GROUP_RUNTIME,
      .doc = "whether a thread blocks the program's asynchronous signals while it is inside "
             "the runtime (two system calls per entry): `auto` only while the program has a "
             "handler for one (installed through `sigaction` or `signal`), `always` in every "
             "entry (a handler installed by other means, such as the raw system call)" },
    /* checked by the transport registry (dsm/transport/registry.c), which
     * knows which transports this library was built with */
    { .name = "DSM_TRANSPORT", .kind = DSM_SET_WORDS, .words = "shm|mpi|verbs",
      .flags = DSM_SET_NOLOAD,
      .dflt_doc = "`shm` under `dsmrun`, `mpi` under `mpirun`, else one node", .field = NOF,
      .group = DSM_GROUP_RUNTIME,
      .doc = "the transport between the nodes: `shm` (nodes started by `dsmrun`), `mpi` (ranks "
             "started by `mpirun`), `verbs` (RDMA; ranks started by `mpirun`); a transport "
             "this library was not built with, or one whose launcher did not start the "
             "program while another's did (`mpi` under `dsmrun`), is an error" },
    { .name = "DSM_STDIN", .kind = DSM_SET_WORDS, .words = "auto|copy|keep", .dflt = "auto",
      .field = F(stdin_mode), .group = DSM_GROUP_RUNTIME,
      .doc = "`copy`: every node reads all of standard input from its own offset, as in one "
             "process (node 0 reads it as it comes and sends it to every node); `keep`: each "
             "node keeps the descriptor it was given (`dsmrun`'s nodes share one offset, "
             "`mpirun` gives stdin to rank 0 only); `auto`: `copy` unless stdin is a terminal" },
    { .name = "DSM_ASLR", .kind = DSM_SET_WORDS, .words = "off|keep", .dflt = "off",
      .field = F(aslr_keep), .group = DSM_GROUP_RUNTIME,
      .doc = "`off`: `dsm_init` runs the program without address randomisation (re-executing "
             "it once if `dsmrun` did not already), so code, globals and the heap have the same "
             "addresses on every node (function pointers in shared memory, `dsm_create`); "
             "`keep` leaves it on" },

    /* ---- what the run writes ---- */
    { .name = "DSM_STATS", .kind = DSM_SET_PATH, .flags = DSM_SET_AGREE | DSM_SET_NODE0,
      .dflt_doc = "unset: none", .field = F(stats_path), .group = DSM_GROUP_OUTPUT,
      .doc = "node 0 writes the statistics to this file at `dsm_finalize` (doc/metrics.md)" },
    { .name = "DSM_PROFILE", .kind = DSM_SET_PATH,
      .flags = DSM_SET_AGREE | DSM_SET_NODE0 | DSM_SET_OFF, .dflt = "dsm-profile.json",
      .field = F(profile_path), .group = DSM_GROUP_OUTPUT,
      .doc = "node 0 writes the profile to this file at `dsm_finalize` "
             "(doc/profile-format.md); `off` runs without it" },
    { .name = "DSM_PROFILE_SUMMARY", .kind = DSM_SET_SWITCH, .flags = DSM_SET_NODE0,
      .dflt = "on", .field = F(profile_summary), .group = DSM_GROUP_OUTPUT,
      .doc = "the profile's summary and advice line on standard error at the end" },
    { .name = "DSM_TIMESLICE_MS", .kind = DSM_SET_MILLIS, .flags = DSM_SET_AGREE, .min = 1,
      .max = 3600000, .dflt = "100", .field = F(timeslice_ms), .group = DSM_GROUP_OUTPUT,
      .doc = "interval of the profile's timeslices, its timeline (doc/profile-format.md)" },
    { .name = "DSM_ADVICE_<NAME>", .kind = DSM_SET_PERCENT, .flags = DSM_SET_NOLOAD, .min = 0,
      .max = 100, .dflt_doc = "per threshold", .field = NOF, .group = DSM_GROUP_OUTPUT,
      .doc = "the thresholds of `dsmprof advice` and of the summary's advice line, one "
             "variable per threshold: doc/advice.md lists them" },

    /* ---- the launcher and the transports ---- */
    { .name = "DSM_SHM_SLOTS", .kind = DSM_SET_COUNT, .flags = DSM_SET_POW2,
      .min = DSM_SHM_SLOTS_MIN, .max = DSM_SHM_SLOTS_MAX,
      .dflt_doc = "256, fewer for large jobs", .field = F(shm_slots), .group = DSM_GROUP_LAUNCH,
      .doc = "read by `dsmrun`: messages each node's incoming queue holds (dsmrun(1))" },
    { .name = "DSM_BIND", .kind = DSM_SET_WORDS, .words = "auto|core|none", .dflt = "none",
      .field = F(bind_mode), .group = DSM_GROUP_LAUNCH,
      .doc = "read by `dsmrun`: `none` leaves the placement to the kernel, so a node's "
             "progress thread can answer on a core the program's threads leave idle; `core` "
             "binds each node to its own share of the cores `dsmrun` may use (node k to the "
             "k-th core when there are as many nodes as cores, as `mpirun` binds ranks) when "
             "the nodes do not outnumber them; `auto` does so only when, at the start, the "
             "processes already running leave each node a core (a bound node cannot move away "
             "from a busy core) (doc/protocol.md, Latency on few cores: \"Unbound again\")" },
    { .name = "DSM_PROGRESS_MOVE", .kind = DSM_SET_SWITCH, .dflt = "on",
      .field = F(progress_move), .group = DSM_GROUP_LAUNCH,
      .doc = "a node bound to its cores (`DSM_BIND`, `mpirun`'s binding) whose progress thread "
             "keeps waiting to run there (the program's threads hold the cores: spinning on "
             "shared data without entering the runtime, or computing while other nodes wait "
             "for this one's answers) moves that thread to every core, once, and says so on "
             "standard error; `off` keeps it on the node's cores (doc/protocol.md, Latency on "
             "few cores)" },
    { .name = "DSM_MPI_SHM", .kind = DSM_SET_SWITCH, .dflt = "on", .field = NOF,
      .group = DSM_GROUP_LAUNCH,
      .doc = "the `mpi` transport: ranks on one host send each other messages and blocks "
             "through the shm transport's queues in a segment they share, as under `dsmrun` "
             "(ranks on other hosts keep MPI); `off`: MPI between all ranks (doc/cluster.md)" },
    { .name = "DSM_VERBS_DEVICE", .kind = DSM_SET_TEXT, .dflt_doc = "the first device",
      .accepts_doc = "a device name",
      .field = NOF, .group = DSM_GROUP_LAUNCH,
      .doc = "RDMA device of the `verbs` transport, by name (`ibv_devices`)" },
    { .name = "DSM_VERBS_IB_PORT", .kind = DSM_SET_COUNT, .min = 1, .max = 255, .dflt = "1",
      .field = NOF, .group = DSM_GROUP_LAUNCH,
      .doc = "port of that device" },
    { .name = "DSM_VERBS_GID_INDEX", .kind = DSM_SET_COUNT, .min = 0, .max = 255, .dflt = "0",
      .field = NOF, .group = DSM_GROUP_LAUNCH,
      .doc = "GID index of the port (RoCE may need another: `show_gids`)" },

    /* ---- simulated machines ---- */
    { .name = "DSM_MACHINE", .kind = DSM_SET_TEXT, .flags = DSM_SET_NOLOAD,
      .dflt_doc = "unset: not simulated", .accepts_doc = "a machine, then options: `numa,cache_size=16k`",
      .field = F(machine), .group = DSM_GROUP_SIM,
      .doc = "run on this simulated machine: a name and options, as `dsmrun --machine` "
             "sets it (doc/simulation.md)" },
    { .name = "DSM_SIM_PROCS", .kind = DSM_SET_COUNT, .min = 1, .max = SIM_MAX_PROCS,
      .dflt = "1", .field = F(sim_procs), .group = DSM_GROUP_SIM,
      .doc = "simulated processors (`dsmrun --machine -n P` sets it)" },
    { .name = "DSM_SIM_QUANTUM", .kind = DSM_SET_COUNT, .min = 1, .max = (uint64_t)1 << 30,
      .dflt = "100", .field = F(sim_quantum), .group = DSM_GROUP_SIM,
      .doc = "shared references a simulated processor makes before the next one runs "
             "(`dsmrun --quantum`)" },
    { .name = "DSM_SIM_STACK", .kind = DSM_SET_SIZE, .min = 64 * K, .max = 4 * G, .dflt = "8M",
      .field = F(sim_stack), .group = DSM_GROUP_SIM,
      .doc = "stack of each simulated processor but the first" },
    { .name = "DSM_SIM_PROFILE", .kind = DSM_SET_PATH, .flags = DSM_SET_OFF,
      .dflt = "dsm-sim.json", .field = F(sim_profile), .group = DSM_GROUP_SIM,
      .doc = "the simulation's statistics file (doc/sim-format.md); `off` for none" },

    /* ---- set by dsmrun for each node ---- */
    { .name = "DSM_NODE", .kind = DSM_SET_INTERNAL, .field = NOF, .group = DSM_GROUP_INTERNAL,
      .doc = "the node's number, 0 to N-1" },
    { .name = "DSM_NODES", .kind = DSM_SET_INTERNAL, .field = NOF, .group = DSM_GROUP_INTERNAL,
      .doc = "the number of nodes N" },
    { .name = "DSM_SHM_FD", .kind = DSM_SET_INTERNAL, .field = NOF, .group = DSM_GROUP_INTERNAL,
      .doc = "the descriptor of the job's shared segment" },
    { .name = "DSM_JOB_ID", .kind = DSM_SET_INTERNAL, .field = NOF, .group = DSM_GROUP_INTERNAL,
      .doc = "the job's identifier, the same on every node" },
    { .name = "DSM_CLOCK_BASE_NS", .kind = DSM_SET_INTERNAL, .field = NOF,
      .group = DSM_GROUP_INTERNAL,
      .doc = "CLOCK_MONOTONIC at the start of the job, the common origin of `dsm_wtime`" },
    { .name = "DSM_QUICKSTEP_DUMP", .kind = DSM_SET_INTERNAL, .field = NOF,
      .group = DSM_GROUP_INTERNAL,
      .doc = "dsmrun --quickstep: where one run writes its QuickStep registers" },
    { .name = "DSM_TEST_CLOCK_OFFSET_NS", .kind = DSM_SET_INTERNAL, .field = NOF,
      .group = DSM_GROUP_INTERNAL,
      .doc = "testing: signed nanoseconds added to this process's clock, as if its host's clock "
             "differed (the network test bed sets it per host)" },
    { .name = "DSM_TEST_CLOCK_STALL_US", .kind = DSM_SET_INTERNAL, .field = NOF,
      .group = DSM_GROUP_INTERNAL,
      .doc = "testing: microseconds the first reading of the clock and the time-stamp counter "
             "takes on odd nodes, as if the node were preempted between them "
             "(tests/known_sharing.sh)" },
    { .name = "DSM_TEST_NO_DOORBELLS", .kind = DSM_SET_INTERNAL, .field = NOF,
      .group = DSM_GROUP_INTERNAL,
      .doc = "measuring: set (not 0), ranks of the mpi transport do not ring each other's "
             "doorbells (other hosts) or bells (this host) and wait with fixed sleeps "
             "(bench/bench_tcp.sh compares)" },
};

const size_t dsm_nsettings = sizeof dsm_settings / sizeof dsm_settings[0];
