/* origin_html.c - `dsmprof origin --html OUT FILE`: one self-contained page
 * (inline CSS and SVG, nothing fetched) with the Origin profiler's traces
 * over simulated time, as the paper plots them: memory utilisation of every
 * node (one small chart per node, stacked, as Figs. 4-9), SysAD and network
 * interface utilisation, link utilisation from the router samples, then
 * the per-node and per-link totals.  Reads only the "origin" section of a
 * dsm-sim/1 file that dsmprof_load has checked. */
#include "origin_html.h"

#include <stdio.h>
#include <string.h>

#include "pjson.h"

enum { W = 760, H = 90, LEFT = 48, RIGHT = 12, TOP = 8, BOTTOM = 20 };

static void esc(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        default:
            if ((unsigned char)*s >= 0x20)
                fputc(*s, f);
        }
}

static double clamp01(double v) { return v < 0 ? 0 : v > 1 ? 1 : v; }

/* One chart: series (an array of samples 0..1) against times_ns. */
static void chart(FILE *f, const char *title, json_object *times, json_object *series,
                  double t_end, const char *colour)
{
    size_t n = pj_len(times);
    double x0 = LEFT, x1 = W - RIGHT, y0 = TOP, y1 = H - BOTTOM;
    fprintf(f, "<div class=\"chart\"><div class=\"t\">");
    esc(f, title);
    fprintf(f, "</div><svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" width=\"%d\" "
               "height=\"%d\" role=\"img\" aria-label=\"",
            W, H, W, H);
    esc(f, title);
    fputs("\">\n", f);
    for (int pct = 0; pct <= 100; pct += 50) {
        double y = y1 - (y1 - y0) * pct / 100.0;
        fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#dde3ea\"/>"
                   "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%d%%</text>\n",
                x0, y, x1, y, x0 - 4, y + 4, pct);
    }
    fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" text-anchor=\"end\">%.3f ms</text>\n",
            x1, H - 4, t_end / 1e6);
    if (n && t_end > 0) {
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", colour);
        double period = n > 1 ? json_object_get_double(pj_at(times, 1)) -
                                    json_object_get_double(pj_at(times, 0))
                              : t_end;
        for (size_t k = 0; k < n; k++) {
            double t = json_object_get_double(pj_at(times, k)) + period / 2;
            double v = clamp01(json_object_get_double(pj_at(series, k)));
            double x = x0 + (x1 - x0) * (t > t_end ? 1.0 : t / t_end);
            fprintf(f, "%.1f,%.1f ", x, y1 - (y1 - y0) * v);
        }
        fputs("\"/>\n", f);
    }
    fputs("</svg></div>\n", f);
}

int origin_html_write(json_object *root, const char *name, FILE *f)
{
    json_object *o = pj_get(root, "origin");
    json_object *hs = pj_get(o, "hub_samples"), *rs = pj_get(o, "router_samples");
    double t_end = pj_double(o, "elapsed_ns");
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Origin 2000 profile",
          f);
    fputs("</title>\n<style>body{font-family:sans-serif;color:#1f2933;margin:24px}"
          ".chart{margin:4px 0}.t{font-size:13px;margin-left:48px}"
          "table{border-collapse:collapse;font-size:13px}td,th{padding:2px 8px;"
          "border-bottom:1px solid #dde3ea;text-align:right}</style></head><body>\n",
          f);
    fputs("<h1>Origin 2000 profile of ", f);
    esc(f, name);
    fprintf(f, "</h1>\n<p>%d nodes, %d routers, %.3f ms of simulated time; Hub samples every "
               "%.3f ms, router samples every %.3f ms.</p>\n",
            (int)pj_double(o, "node_count"), (int)pj_double(o, "router_count"), t_end / 1e6,
            pj_double(hs, "period_ns") / 1e6, pj_double(rs, "period_ns") / 1e6);

    fputs("<h2>Memory utilisation per node</h2>\n", f);
    json_object *times = pj_arr(hs, "times_ns"), *mu = pj_arr(hs, "memory_utilisation"),
                *bu = pj_arr(hs, "bus_utilisation"), *nu = pj_arr(hs, "ni_utilisation");
    char title[96];
    for (size_t n = 0; n < pj_len(mu); n++) {
        snprintf(title, sizeof title, "node %zu memory", n);
        chart(f, title, times, pj_at(mu, n), t_end, "#3366cc");
    }
    fputs("<h2>SysAD bus and network interface per node</h2>\n", f);
    for (size_t n = 0; n < pj_len(bu); n++) {
        snprintf(title, sizeof title, "node %zu SysAD", n);
        chart(f, title, times, pj_at(bu, n), t_end, "#2ca02c");
        snprintf(title, sizeof title, "node %zu network interface (out)", n);
        chart(f, title, times, pj_at(nu, n), t_end, "#d62728");
    }
    fputs("<h2>Links (router samples)</h2>\n", f);
    json_object *rt = pj_arr(rs, "times_ns"), *ids = pj_arr(rs, "links"),
                *ru = pj_arr(rs, "utilisation"), *links = pj_arr(o, "links");
    for (size_t i = 0; i < pj_len(ids); i++) {
        int id = json_object_get_int(pj_at(ids, i));
        const char *from = "", *to = "";
        for (size_t j = 0; j < pj_len(links); j++)
            if ((int)pj_double(pj_at(links, j), "link") == id) {
                from = pj_str(pj_at(links, j), "from");
                to = pj_str(pj_at(links, j), "to");
            }
        snprintf(title, sizeof title, "link %d: %.30s -> %.30s", id, from, to);
        chart(f, title, rt, pj_at(ru, i), t_end, "#9467bd");
    }

    fputs("<h2>Nodes</h2>\n<table><tr><th>node</th><th>memory</th><th>busy</th><th>blocked</th>"
          "<th>refresh</th><th>MB/s</th><th>SysAD</th><th>NI out</th><th>NI in</th></tr>\n",
          f);
    json_object *nodes = pj_arr(o, "nodes");
    for (size_t i = 0; i < pj_len(nodes); i++) {
        json_object *n = pj_at(nodes, i), *m = pj_get(n, "memory");
        fprintf(f, "<tr><td>%d</td><td>%.1f%%</td><td>%.1f%%</td><td>%.1f%%</td><td>%.1f%%</td>"
                   "<td>%.1f</td><td>%.1f%%</td><td>%.1f%%</td><td>%.1f%%</td></tr>\n",
                (int)pj_double(n, "node"), 100 * pj_double(m, "utilisation"),
                100 * pj_double(m, "busy"), 100 * pj_double(m, "blocked"),
                100 * pj_double(m, "refresh"), pj_double(m, "mb_per_s"),
                100 * pj_double(n, "bus_utilisation"), 100 * pj_double(n, "ni_out_utilisation"),
                100 * pj_double(n, "ni_in_utilisation"));
    }
    fputs("</table>\n<h2>Threads</h2>\n<table><tr><th>proc</th><th>node</th><th>misses</th>"
          "<th>local</th><th>unowned</th><th>invalidate</th><th>clean-excl.</th>"
          "<th>dirty-excl.</th><th>latency ns</th></tr>\n",
          f);
    json_object *th = pj_arr(o, "threads");
    for (size_t i = 0; i < pj_len(th); i++) {
        json_object *t = pj_at(th, i), *x = pj_get(t, "transactions");
        fprintf(f, "<tr><td>%d</td><td>%d</td><td>%llu</td><td>%.1f%%</td><td>%llu</td>"
                   "<td>%llu</td><td>%llu</td><td>%llu</td><td>%.0f</td></tr>\n",
                (int)pj_double(t, "proc"), (int)pj_double(t, "node"),
                (unsigned long long)pj_u64(t, "misses"), 100 * pj_double(t, "local_ratio"),
                (unsigned long long)pj_u64(x, "unowned"),
                (unsigned long long)pj_u64(x, "invalidate"),
                (unsigned long long)pj_u64(x, "clean_exclusive"),
                (unsigned long long)pj_u64(x, "dirty_exclusive"),
                pj_double(t, "mean_latency_ns"));
    }
    fputs("</table>\n</body></html>\n", f);
    return ferror(f) ? -1 : 0;
}
