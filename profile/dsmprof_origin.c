/* dsmprof_origin.c - `dsmprof origin FILE`: the Origin 2000 ccNUMA
 * profiler's views of a simulated run, from the "origin" section of its
 * dsm-sim/1 file (profile/origin_json.h), in the manner of the profiler's
 * post-mortem tools:
 *   (default, like sninfo) the system and its objects with their totals:
 *     threads (local access ratio, hops to the home, coherence transaction
 *     mix, invalidates by number of sharers, mean miss latency), nodes
 *     (memory utilisation split into blocked / busy / refresh, MB/s from
 *     memory, SysAD and network interface utilisation), links (utilisation,
 *     packets, contention);
 *   --dump (like sndump): every timestamped sample, Hub samples per node
 *     then router samples per link; --node N keeps one node's Hub samples.
 * The file comes from dsmprof_load, checked against dsm-sim/1's schema. */
#include "dsmprof.h"

#include <getopt.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "origin_html.h"
#include "pfile.h"
#include "pjson.h"

static void usage(FILE *f)
{
    dsmprof_usage(f, "origin");
    fprintf(f, "  the Origin 2000 profiler's views of a run of dsmrun --machine=origin:\n"
               "  threads, nodes and links with their totals (like sninfo);\n"
               "  --dump: every timestamped Hub and router sample (like sndump),\n"
               "  --node N: only node N's Hub samples;\n"
               "  --html OUT: a page with the traces plotted over time (SVG)\n");
}

static double pct(double v) { return 100.0 * v; }
static const char *str_or(const char *s) { return s ? ptext_term(s) : ""; }

static void info(FILE *f, json_object *o, const char *file)
{
    json_object *hs = pj_get(o, "hub_samples"), *rs = pj_get(o, "router_samples");
    fprintf(f, "Origin 2000 profile of %s\n", ptext_term(file));
    fprintf(f, "  %d nodes (2 processors each), %d routers, R10000 at %.0f MHz\n",
            (int)pj_double(o, "node_count"), (int)pj_double(o, "router_count"),
            pj_double(o, "cpu_mhz"));
    fprintf(f, "  elapsed %.3f ms of simulated time; Hub samples every %.3f ms (%zu), "
               "router samples every %.3f ms (%zu)\n\n",
            pj_double(o, "elapsed_ns") / 1e6, pj_double(hs, "period_ns") / 1e6,
            pj_len(pj_arr(hs, "times_ns")), pj_double(rs, "period_ns") / 1e6,
            pj_len(pj_arr(rs, "times_ns")));

    json_object *th = pj_arr(o, "threads");
    fprintf(f, "Threads\n  %4s %4s %9s %7s %8s %8s %8s %8s  %8s %8s %8s %8s  %-22s %9s %7s\n",
            "proc", "node", "misses", "local%", "hops 0", "1", "2", "3+", "unowned", "inval",
            "clean-ex", "dirty-ex", "inval by sharers 1/2/3/4-7/8+", "lat ns", "TLB");
    for (size_t i = 0; i < pj_len(th); i++) {
        json_object *t = pj_at(th, i), *h = pj_arr(t, "hops"), *x = pj_get(t, "transactions"),
                    *inv = pj_get(t, "invalidates_by_sharers");
        uint64_t far = 0;
        for (size_t k = 3; k < pj_len(h); k++)
            far += (uint64_t)json_object_get_double(pj_at(h, k));
        char sharers[64];
        snprintf(sharers, sizeof sharers, "%llu/%llu/%llu/%llu/%llu",
                 (unsigned long long)pj_u64(inv, "1"), (unsigned long long)pj_u64(inv, "2"),
                 (unsigned long long)pj_u64(inv, "3"), (unsigned long long)pj_u64(inv, "4-7"),
                 (unsigned long long)pj_u64(inv, "8+"));
        fprintf(f, "  %4d %4d %9llu %6.1f%% %8.0f %8.0f %8.0f %8llu  %8llu %8llu %8llu %8llu  %-22s %9.0f %7llu\n",
                (int)pj_double(t, "proc"), (int)pj_double(t, "node"),
                (unsigned long long)pj_u64(t, "misses"), pct(pj_double(t, "local_ratio")),
                json_object_get_double(pj_at(h, 0)), json_object_get_double(pj_at(h, 1)),
                json_object_get_double(pj_at(h, 2)), (unsigned long long)far,
                (unsigned long long)pj_u64(x, "unowned"), (unsigned long long)pj_u64(x, "invalidate"),
                (unsigned long long)pj_u64(x, "clean_exclusive"),
                (unsigned long long)pj_u64(x, "dirty_exclusive"), sharers,
                pj_double(t, "mean_latency_ns"), (unsigned long long)pj_u64(t, "tlb_misses"));
    }

    json_object *nodes = pj_arr(o, "nodes");
    fprintf(f, "\nNodes\n  %4s %8s %8s %8s %8s %9s %8s %8s %8s\n", "node", "memory", "busy",
            "blocked", "refresh", "MB/s", "SysAD", "NI out", "NI in");
    for (size_t i = 0; i < pj_len(nodes); i++) {
        json_object *n = pj_at(nodes, i), *m = pj_get(n, "memory");
        fprintf(f, "  %4d %7.1f%% %7.1f%% %7.1f%% %7.1f%% %9.1f %7.1f%% %7.1f%% %7.1f%%\n",
                (int)pj_double(n, "node"), pct(pj_double(m, "utilisation")),
                pct(pj_double(m, "busy")), pct(pj_double(m, "blocked")),
                pct(pj_double(m, "refresh")), pj_double(m, "mb_per_s"),
                pct(pj_double(n, "bus_utilisation")), pct(pj_double(n, "ni_out_utilisation")),
                pct(pj_double(n, "ni_in_utilisation")));
    }

    json_object *links = pj_arr(o, "links");
    fprintf(f, "\nLinks (that carried packets)\n  %5s  %-24s %8s %10s %9s %12s\n", "link",
            "from -> to", "util", "packets", "waited", "wait ns");
    for (size_t i = 0; i < pj_len(links); i++) {
        json_object *l = pj_at(links, i), *c = pj_get(l, "contention");
        char route[64];
        snprintf(route, sizeof route, "%s -> %s", str_or(pj_str(l, "from")),
                 str_or(pj_str(l, "to")));
        fprintf(f, "  %5d  %-24s %7.1f%% %10llu %8.1f%% %12.0f\n", (int)pj_double(l, "link"),
                route, pct(pj_double(l, "utilisation")), (unsigned long long)pj_u64(l, "packets"),
                pct(pj_double(c, "share")), pj_double(c, "wait_ns"));
    }
}

static void dump(FILE *f, json_object *o, int only_node)
{
    json_object *hs = pj_get(o, "hub_samples"), *rs = pj_get(o, "router_samples");
    json_object *times = pj_arr(hs, "times_ns"), *mu = pj_arr(hs, "memory_utilisation"),
                *bu = pj_arr(hs, "bus_utilisation"), *nu = pj_arr(hs, "ni_utilisation"),
                *mb = pj_arr(hs, "mb_per_s");
    fprintf(f, "# Hub samples: time_ms node memory%% MB/s SysAD%% NI%%\n");
    for (size_t n = 0; n < pj_len(mu); n++) {
        if (only_node >= 0 && (size_t)only_node != n)
            continue;
        for (size_t k = 0; k < pj_len(times); k++)
            fprintf(f, "%.3f node %zu %.1f %.1f %.1f %.1f\n",
                    json_object_get_double(pj_at(times, k)) / 1e6, n,
                    pct(json_object_get_double(pj_at(pj_at(mu, n), k))),
                    json_object_get_double(pj_at(pj_at(mb, n), k)),
                    pct(json_object_get_double(pj_at(pj_at(bu, n), k))),
                    pct(json_object_get_double(pj_at(pj_at(nu, n), k))));
    }
    if (only_node >= 0)
        return;
    json_object *rt = pj_arr(rs, "times_ns"), *ids = pj_arr(rs, "links"),
                *ru = pj_arr(rs, "utilisation"), *rw = pj_arr(rs, "contention_ns");
    fprintf(f, "# router samples: time_ms link utilisation%% contention_ns\n");
    for (size_t i = 0; i < pj_len(ids); i++)
        for (size_t k = 0; k < pj_len(rt); k++)
            fprintf(f, "%.3f link %d %.1f %.0f\n", json_object_get_double(pj_at(rt, k)) / 1e6,
                    json_object_get_int(pj_at(ids, i)),
                    pct(json_object_get_double(pj_at(pj_at(ru, i), k))),
                    json_object_get_double(pj_at(pj_at(rw, i), k)));
}

int dsmprof_origin(int argc, char **argv)
{
    static const struct option opts[] = {
        { "dump", no_argument, NULL, 'd' },
        { "node", required_argument, NULL, 'n' },
        { "html", required_argument, NULL, 'o' },
        { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 },
    };
    static const pschema_need need[] = {
        { "origin", "no \"origin\" section: not the statistics of a simulated Origin 2000 run "
                    "(dsmrun --machine=origin writes one)" },
        { NULL, NULL },
    };
    int do_dump = 0, node = -1, c;
    const char *html = NULL;
    optind = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'd': do_dump = 1; break;
        case 'n': {
            char *end;
            long v = strtol(optarg, &end, 10);
            if (end == optarg || *end || v < 0 || v > 1000000) {
                fprintf(stderr, "dsmprof origin: --node takes a node number, got '%s'\n",
                        ptext_term(optarg));
                return DSMPROF_USAGE;
            }
            node = (int)v;
            do_dump = 1;
            break;
        }
        case 'o': html = optarg; break;
        case 'h': usage(stdout); return DSMPROF_OK;
        case ':':
            fprintf(stderr, "dsmprof origin: %s needs a value\n", ptext_term(argv[optind - 1]));
            return DSMPROF_USAGE;
        default:
            fprintf(stderr, "dsmprof origin: unknown option %s\n", ptext_term(argv[optind - 1]));
            usage(stderr);
            return DSMPROF_USAGE;
        }
    }
    if (optind != argc - 1) {
        fprintf(stderr, "dsmprof origin: %s (see dsmprof origin --help)\n",
                optind >= argc ? "no file given" : "one file only");
        return DSMPROF_USAGE;
    }
    const char *file = argv[optind];
    json_object *root = dsmprof_load(file, &pschema_sim, need);
    if (!root)
        return DSMPROF_BAD_INPUT;
    json_object *o = pj_get(root, "origin");
    int rc = DSMPROF_OK;
    if (node >= 0 && (size_t)node >= pj_len(pj_arr(o, "nodes"))) {
        fprintf(stderr, "dsmprof origin: %s has no node %d (%zu nodes)\n", ptext_term(file), node,
                pj_len(pj_arr(o, "nodes")));
        rc = DSMPROF_USAGE;
    } else if (html) {
        pfile w;
        char why[512];
        if (pfile_open(&w, html, why, sizeof why) != 0) {
            fprintf(stderr, "dsmprof origin: %s: %s\n", ptext_term(html), why);
            rc = DSMPROF_USAGE;
        } else {
            origin_html_write(root, file, w.f);
            if (pfile_commit(&w, why, sizeof why) != 0) {
                fprintf(stderr, "dsmprof origin: %s: %s\n", ptext_term(html), why);
                rc = DSMPROF_USAGE;
            }
        }
    } else if (do_dump)
        dump(stdout, o, node);
    else
        info(stdout, o, file);
    json_object_put(root);
    return rc;
}
