/* proto_memory.c - memory of the coherence engines of one simulated machine:
 * P engines over the same region (default 16 engines x 2M blocks: 32-byte
 * lines over 64 MiB), homes placed by 4 KiB pages round robin as the
 * simulator places them, then a workload in which every processor reads and
 * writes a fraction of the blocks (its own ones, and reads of its right
 * neighbour's, so that recalls and invalidations happen), messages delivered
 * in FIFO order.  Prints the growth of the resident set (VmRSS) and the
 * time, and the bytes the engines allocated (proto_engine_footprint); with
 * --max-mib it fails (exit 1) when those bytes exceed the bound.  The check
 * counts allocated bytes, not the resident set: a count does not move with
 * the machine's load (the resident set is printed for the record).
 *
 * usage: proto_memory [--engines P] [--blocks N] [--touch 1/K] [--separate]
 *                     [--max-mib M]
 *   --separate  every engine keeps its own home table (as before sharing)
 * Without arguments (make check): the default machine, bound 80 MiB.
 * Built with -DPROTO_MEMORY_OLD_API it uses proto_engine_create only, to
 * measure an engine that predates proto_engine_create_shared. */
#include "proto.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long rss_kib(void)
{
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kib = -1;
    if (!f)
        return -1;
    while (fgets(line, sizeof line, f))
        if (!strncmp(line, "VmRSS:", 6)) {
            kib = strtol(line + 6, NULL, 10);
            break;
        }
    fclose(f);
    return kib;
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static proto_engine **E;
static proto_msg *q;
static size_t qh, qn, qcap;
static proto_actions acts;

static void die(const char *what, int node)
{
    fprintf(stderr, "proto_memory: %s (node %d): %s\n", what, node,
            node >= 0 ? proto_last_error(E[node]) : "");
    exit(1);
}

static void enqueue_sends(void)
{
    for (size_t i = 0; i < acts.n; i++) {
        if (acts.v[i].kind != PA_SEND)
            continue;
        if (qn == qcap) {
            size_t ncap = qcap ? qcap * 2 : 1024;
            proto_msg *nq = malloc(ncap * sizeof *nq);
            if (!nq)
                die("out of memory", -1);
            for (size_t k = 0; k < qn; k++)
                nq[k] = q[(qh + k) % qcap];
            free(q);
            q = nq;
            qh = 0;
            qcap = ncap;
        }
        q[(qh + qn++) % qcap] = acts.v[i].msg;
    }
    acts.n = 0;
}

/* One global FIFO: every pair of nodes is FIFO too. */
static void pump(void)
{
    enqueue_sends();
    while (qn) {
        proto_msg m = q[qh];
        qh = (qh + 1) % qcap;
        qn--;
        if (proto_receive(E[m.dst], &m, &acts) != PROTO_OK)
            die("proto_receive failed", m.dst);
        enqueue_sends();
    }
}

static int allowed(int node, uint32_t b, int write)
{
    proto_cache_state s = proto_cache_state_of(E[node], b);
    if (write)
        return s == PC_M || s == PC_MH;
    return s == PC_S || s == PC_SH || s == PC_M || s == PC_MH || s == PC_SM || s == PC_E ||
           s == PC_EH;
}

static void access_block(int node, uint32_t b, int write)
{
    for (int tries = 0; !allowed(node, b, write); tries++) {
        if (tries == 3)
            die("an access does not complete", node);
        if (proto_access(E[node], b, write, &acts) != PROTO_OK)
            die("proto_access failed", node);
        pump();
    }
    if (proto_release(E[node], b, &acts) != PROTO_OK)
        die("proto_release failed", node);
    pump();
}

static long arg_long(const char *opt, const char *v, long lo, long hi)
{
    char *end;
    long x = strtol(v, &end, 10);
    if (end == v || *end || x < lo || x > hi) {
        fprintf(stderr, "proto_memory: %s wants a number from %ld to %ld, not '%s'\n", opt, lo,
                hi, v);
        exit(99);
    }
    return x;
}

int main(int argc, char **argv)
{
    int nengines = 16, separate = 0;
    long blocks = 2L << 20, touch_div = 16, max_mib = 0;
    /* make check runs it bare: 16 x 2M blocks, 1/16 used, within 80 MiB
     * (the engines before shared homes and chunks took 157 MiB) */
    if (argc == 1)
        max_mib = 80;
#ifdef PROTO_MEMORY_OLD_API
    separate = 1;
#endif
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--engines") && i + 1 < argc)
            nengines = (int)arg_long("--engines", argv[++i], 1, 1024);
        else if (!strcmp(argv[i], "--blocks") && i + 1 < argc)
            blocks = arg_long("--blocks", argv[++i], 128, 1L << 30);
        else if (!strcmp(argv[i], "--touch") && i + 1 < argc) {
            const char *v = argv[++i];
            if (strncmp(v, "1/", 2)) {
                fprintf(stderr, "proto_memory: --touch wants 1/K, not '%s'\n", v);
                return 99;
            }
            touch_div = arg_long("--touch", v + 2, 1, 1L << 20);
        } else if (!strcmp(argv[i], "--separate"))
            separate = 1;
        else if (!strcmp(argv[i], "--max-mib") && i + 1 < argc)
            max_mib = arg_long("--max-mib", argv[++i], 1, 1L << 20);
        else {
            fprintf(stderr, "usage: proto_memory [--engines P] [--blocks N] [--touch 1/K] "
                            "[--separate] [--max-mib M]\n");
            return 99;
        }
    }
    uint32_t nblocks = (uint32_t)blocks;
    E = calloc((size_t)nengines, sizeof *E);
    proto_actions_init(&acts);
    long rss0 = rss_kib();
    double t0 = now();
    for (int i = 0; i < nengines; i++) {
        proto_config c = { .self = i, .nnodes = nengines, .nblocks = nblocks };
#ifdef PROTO_MEMORY_OLD_API
        (void)separate;
        E[i] = proto_engine_create(&c);
#else
        E[i] = proto_engine_create_shared(&c, separate || i == 0 ? NULL : E[0]);
#endif
        if (!E[i]) {
            fprintf(stderr, "proto_memory: cannot create engine %d\n", i);
            return 1;
        }
        proto_set_augment(E[i], 0); /* as the simulator runs them */
    }
    /* 4 KiB pages of 32-byte lines round robin; a shared table once */
    const uint32_t page = 128;
    for (int i = 0; i < nengines; i++) {
#ifndef PROTO_MEMORY_OLD_API
        if (!separate && i > 0)
            break;
#endif
        for (uint32_t b = 0; b < nblocks; b += page) {
            uint32_t n = nblocks - b < page ? nblocks - b : page;
            if (proto_set_home(E[i], b, n, (int)((b / page) % (uint32_t)nengines)))
                die("proto_set_home failed", i);
        }
    }
    long rss_created = rss_kib();
    double t1 = now();
    /* processor p uses the pages p, p + P, ... of the first 1/K of the
     * region (a page homed elsewhere: p + 1's), writing then reading each
     * line; then reads its right neighbour's lines (a recall each) */
    uint32_t used = (uint32_t)(nblocks / (uint32_t)touch_div);
    unsigned long accesses = 0;
    for (int p = 0; p < nengines; p++)
        for (uint32_t b = 0; b < used; b++) {
            uint32_t pg = b / page;
            if ((int)(pg % (uint32_t)nengines) != (p + 1) % nengines)
                continue;
            access_block(p, b, 1);
            access_block(p, b, 0);
            accesses += 2;
        }
    for (int p = 0; p < nengines; p++)
        for (uint32_t b = 0; b < used; b++) {
            uint32_t pg = b / page;
            if ((int)(pg % (uint32_t)nengines) != (p + 2) % nengines)
                continue;
            access_block(p, b, 0);
            accesses++;
        }
    long rss_used = rss_kib();
    double t2 = now();
    printf("proto_memory: %d engines x %u blocks, %s; %u blocks used, %lu accesses\n",
           nengines, nblocks, separate ? "one home table per engine" : "one shared home table",
           used, accesses);
    printf("  RSS growth: %.1f MiB after creation and placement (%.2f s), %.1f MiB after the "
           "workload (%.2f s)\n",
           (double)(rss_created - rss0) / 1024, t1 - t0, (double)(rss_used - rss0) / 1024,
           t2 - t1);
    long used_mib = (rss_used - rss0) / 1024;
#ifndef PROTO_MEMORY_OLD_API
    size_t total = 0, home_bytes = 0;
    for (int i = 0; i < nengines; i++)
        total += proto_engine_footprint(E[i], &home_bytes);
    printf("  engine footprint: %.1f MiB in all, plus %.1f MiB per home table\n",
           (double)total / (1 << 20), (double)home_bytes / (1 << 20));
    used_mib = (long)((total + home_bytes) >> 20);
#endif
    for (int i = 0; i < nengines; i++)
        proto_engine_destroy(E[i]);
    free(E);
    free(q);
    proto_actions_free(&acts);
    if (max_mib && used_mib > max_mib) {
        printf("FAIL: the engines hold %ld MiB, over the bound %ld MiB\n", used_mib, max_mib);
        return 1;
    }
    return 0;
}
