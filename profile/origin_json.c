/* origin_json.c - renders the Origin model's profiler counters as the
 * "origin" section of dsm-sim/1 (origin_json.h has the layout). */
#include "origin_json.h"

#include <stdio.h>

#include "sim/origin.h"

static void put(json_object *o, const char *key, json_object *v)
{
    json_object_object_add(o, key, v);
}
static json_object *jnum(double v) { return json_object_new_double(v); }
static json_object *ju64(uint64_t v) { return json_object_new_int64((int64_t)v); }
static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

static json_object *thread_json(const void *model, int p)
{
    sim_origin_thread t;
    sim_origin_thread_of(model, p, &t);
    json_object *o = json_object_new_object();
    put(o, "proc", json_object_new_int(p));
    put(o, "node", json_object_new_int(sim_origin_node_of(model, p)));
    put(o, "misses", ju64(t.misses));
    put(o, "local", ju64(t.local));
    put(o, "local_ratio", jnum(ratio(t.local, t.misses)));
    json_object *hops = json_object_new_array();
    for (int h = 0; h < SO_MAX_HOPS; h++)
        json_object_array_add(hops, ju64(t.hops[h]));
    put(o, "hops", hops);
    static const char *const txn[SO_NTXN] = {"unowned", "invalidate", "clean_exclusive",
                                             "dirty_exclusive"};
    json_object *tx = json_object_new_object();
    for (int k = 0; k < SO_NTXN; k++)
        put(tx, txn[k], ju64(t.txn[k]));
    put(o, "transactions", tx);
    static const char *const bins[SO_INV_BINS] = {"1", "2", "3", "4-7", "8+"};
    json_object *inv = json_object_new_object();
    for (int k = 0; k < SO_INV_BINS; k++)
        put(inv, bins[k], ju64(t.inv_by_sharers[k]));
    put(o, "invalidates_by_sharers", inv);
    put(o, "mean_latency_ns", jnum(t.misses ? (double)t.latency_ps / 1000.0 / t.misses : 0));
    put(o, "tlb_misses", ju64(t.tlb_misses));
    put(o, "preempted_ns", ju64(t.preempted_ps / 1000));
    return o;
}

static json_object *node_json(const void *model, int n, uint64_t elapsed)
{
    sim_origin_node s;
    sim_origin_node_stats(model, n, &s);
    json_object *o = json_object_new_object();
    put(o, "node", json_object_new_int(n));
    json_object *mem = json_object_new_object();
    static const char *const st[SO_MEM_NSTATES] = {"idle", "blocked", "busy", "refresh"};
    for (int k = 0; k < SO_MEM_NSTATES; k++)
        put(mem, st[k], jnum(ratio(s.mem_ps[k], elapsed)));
    put(mem, "utilisation", jnum(1.0 - ratio(s.mem_ps[SO_MEM_IDLE], elapsed)));
    put(mem, "mb_per_s", jnum(elapsed ? (double)s.mem_bytes / ((double)elapsed * 1e-6) : 0));
    put(o, "memory", mem);
    put(o, "bus_utilisation", jnum(ratio(s.bus_busy_ps, elapsed)));
    put(o, "ni_out_utilisation", jnum(ratio(s.ni_out_busy_ps, elapsed)));
    put(o, "ni_in_utilisation", jnum(ratio(s.ni_in_busy_ps, elapsed)));
    return o;
}

static json_object *end_name(int kind, int i)
{
    char buf[32];
    if (kind == SO_END_META)
        snprintf(buf, sizeof buf, "metarouter %d", i);
    else
        snprintf(buf, sizeof buf, "%s %d", kind == SO_END_NODE ? "node" : "router", i);
    return json_object_new_string(buf);
}

/* span of sample k of `period` ps in a run of `elapsed` ps */
static uint64_t sample_span(uint64_t period, int k, uint64_t elapsed)
{
    uint64_t from = period * (uint64_t)k;
    if (from >= elapsed)
        return 0;
    return elapsed - from < period ? elapsed - from : period;
}

static json_object *hub_samples_json(const void *model, uint64_t elapsed)
{
    json_object *o = json_object_new_object();
    uint64_t period = sim_origin_hub_period_ps(model);
    int ns = sim_origin_hub_samples(model), nn = sim_origin_nodes(model);
    put(o, "period_ns", jnum((double)period / 1000.0));
    json_object *times = json_object_new_array();
    for (int k = 0; k < ns; k++)
        json_object_array_add(times, jnum((double)period * k / 1000.0));
    put(o, "times_ns", times);
    json_object *mu = json_object_new_array(), *bu = json_object_new_array(),
                *nu = json_object_new_array(), *mb = json_object_new_array();
    for (int n = 0; n < nn; n++) {
        json_object *a = json_object_new_array(), *b = json_object_new_array(),
                    *c = json_object_new_array(), *d = json_object_new_array();
        for (int k = 0; k < ns; k++) {
            uint64_t mem[SO_MEM_NSTATES], bus, ni, bytes;
            sim_origin_hub_sample(model, n, k, mem, &bus, &ni, &bytes);
            uint64_t span = sample_span(period, k, elapsed);
            json_object_array_add(a, jnum(span ? 1.0 - ratio(mem[SO_MEM_IDLE], span) : 0));
            json_object_array_add(b, jnum(ratio(bus, span)));
            json_object_array_add(c, jnum(ratio(ni, span)));
            json_object_array_add(d, jnum(span ? (double)bytes / ((double)span * 1e-6) : 0));
        }
        json_object_array_add(mu, a);
        json_object_array_add(bu, b);
        json_object_array_add(nu, c);
        json_object_array_add(mb, d);
    }
    put(o, "memory_utilisation", mu);
    put(o, "bus_utilisation", bu);
    put(o, "ni_utilisation", nu);
    put(o, "mb_per_s", mb);
    return o;
}

static json_object *router_samples_json(const void *model, uint64_t elapsed)
{
    json_object *o = json_object_new_object();
    uint64_t period = sim_origin_router_period_ps(model);
    int ns = sim_origin_router_samples(model), nl = sim_origin_links(model);
    put(o, "period_ns", jnum((double)period / 1000.0));
    json_object *times = json_object_new_array();
    for (int k = 0; k < ns; k++)
        json_object_array_add(times, jnum((double)period * k / 1000.0));
    put(o, "times_ns", times);
    json_object *ids = json_object_new_array(), *u = json_object_new_array(),
                *w = json_object_new_array();
    for (int l = 0; l < nl; l++) {
        sim_origin_link s;
        sim_origin_link_stats(model, l, &s);
        if (!s.packets)
            continue;
        json_object *a = json_object_new_array(), *b = json_object_new_array();
        for (int k = 0; k < ns; k++) {
            uint64_t busy, wait;
            sim_origin_router_sample(model, l, k, &busy, &wait);
            json_object_array_add(a, jnum(ratio(busy, sample_span(period, k, elapsed))));
            json_object_array_add(b, jnum((double)wait / 1000.0));
        }
        json_object_array_add(ids, json_object_new_int(l));
        json_object_array_add(u, a);
        json_object_array_add(w, b);
    }
    put(o, "links", ids);
    put(o, "utilisation", u);
    put(o, "contention_ns", w);
    return o;
}

json_object *origin_to_json(const void *model)
{
    json_object *o = json_object_new_object();
    if (!o)
        return NULL;
    uint64_t elapsed = sim_origin_elapsed_ps(model);
    put(o, "schema", json_object_new_string(ORIGIN_SCHEMA));
    put(o, "cpu_mhz", json_object_new_int((int)sim_origin_cpu_mhz(model)));
    put(o, "node_count", json_object_new_int(sim_origin_nodes(model)));
    put(o, "router_count", json_object_new_int(sim_origin_routers(model)));
    put(o, "elapsed_ns", jnum((double)elapsed / 1000.0));
    json_object *threads = json_object_new_array();
    int nprocs = 2 * sim_origin_nodes(model);
    for (int p = 0; p < nprocs; p++)
        if (sim_origin_node_of(model, p) >= 0)
            json_object_array_add(threads, thread_json(model, p));
    put(o, "threads", threads);
    json_object *nodes = json_object_new_array();
    for (int n = 0; n < sim_origin_nodes(model); n++)
        json_object_array_add(nodes, node_json(model, n, elapsed));
    put(o, "nodes", nodes);
    json_object *links = json_object_new_array();
    for (int l = 0; l < sim_origin_links(model); l++) {
        sim_origin_link s;
        sim_origin_link_stats(model, l, &s);
        if (!s.packets)
            continue;
        json_object *x = json_object_new_object();
        put(x, "link", json_object_new_int(l));
        put(x, "from", end_name(s.from_kind, s.from));
        put(x, "to", end_name(s.to_kind, s.to));
        put(x, "utilisation", jnum(ratio(s.busy_ps, elapsed)));
        put(x, "packets", ju64(s.packets));
        json_object *c = json_object_new_object();
        put(c, "waited_packets", ju64(s.waited_packets));
        put(c, "wait_ns", jnum((double)s.wait_ps / 1000.0));
        put(c, "share", jnum(ratio(s.waited_packets, s.packets)));
        put(x, "contention", c);
        json_object_array_add(links, x);
    }
    put(o, "links", links);
    put(o, "hub_samples", hub_samples_json(model, elapsed));
    put(o, "router_samples", router_samples_json(model, elapsed));
    return o;
}
