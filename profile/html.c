/* html.c - `dsmprof html`: the profile as one self-contained page (html.h).
 *
 * Everything is inline (CSS, SVG, a few lines of JavaScript) because the
 * page must open from a mail attachment or a CI artifact with no network.
 * The charts are drawn here, in C, as static SVG: they show without
 * JavaScript and a test can find them in the DOM by id (chart-structures,
 * chart-structure-nodes, chart-nodes, chart-procedures, blockmap, timeline).
 * Only the block map's selection (Figure 9: click a block, its group is
 * marked with an X) and the choice of structure need script. */
#include "html.h"
#include "pjson.h"
#include "ptext.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Sharing-pattern colours follow the paper's Figure 9 where it has one:
 * blue migratory, green producer-consumer, yellow unknown ("none").  Group
 * is not a sharing pattern: the map marks a block's group with an X. */
static const char *const pattern_names[] = { "migratory", "producer_consumer", "read_only",
                                             "private", "write_shared", "none" };
static const char *const pattern_colours[] = { "#3366cc", "#2ca02c", "#b8c0cc", "#8fd3c7",
                                               "#e07b39", "#f2d45c" };
#define NPATTERNS 6

static const char *pattern_colour(const char *p)
{
    for (int i = 0; i < NPATTERNS; i++)
        if (!strcmp(p, pattern_names[i]))
            return pattern_colours[i];
    return pattern_colours[NPATTERNS - 1];
}

static int pattern_index(const char *p)
{
    for (int i = 0; i < NPATTERNS; i++)
        if (!strcmp(p, pattern_names[i]))
            return i;
    return NPATTERNS - 1;
}

/* Text into HTML (also inside attribute values, which are always quoted).
 * Names come from the program: control bytes and invalid UTF-8 show as
 * \xNN (ptext.h), as in dsmprof's text output. */
static void esc(FILE *f, const char *s)
{
    for (s = ptext_term(s); *s; s++) {
        switch (*s) {
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '&': fputs("&amp;", f); break;
        case '"': fputs("&quot;", f); break;
        case '\'': fputs("&#39;", f); break;
        default: fputc(*s, f);
        }
    }
}

/* Milliseconds with the precision the size needs. */
static void fmt_ms(char *b, size_t len, double ns)
{
    double v = ns / 1e6;
    if (v >= 100)
        snprintf(b, len, "%.0f ms", v);
    else if (v >= 1)
        snprintf(b, len, "%.1f ms", v);
    else
        snprintf(b, len, "%.3f ms", v);
}

static const char css[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,'DejaVu Sans',sans-serif;"
    "margin:0;background:#f4f5f7;color:#1f2933}"
    "main{max-width:1100px;margin:0 auto;padding:20px 24px 40px}"
    "h1{font-size:24px;margin:4px 0 2px}h2{font-size:18px;margin:0 0 4px}"
    ".sub{color:#52606d;margin:0 0 14px}"
    "section{background:#fff;border:1px solid #dde1e6;border-radius:8px;padding:16px 18px;"
    "margin:14px 0}"
    ".note{color:#52606d;font-size:13px;margin:2px 0 10px}"
    "table{border-collapse:collapse;font-size:13px}th,td{border-bottom:1px solid #dde1e6;"
    "padding:3px 10px;text-align:left}"
    ".cards{display:flex;gap:12px;flex-wrap:wrap}"
    ".card{flex:1 1 150px;background:#fff;border:1px solid #dde1e6;border-radius:8px;"
    "padding:10px 14px}.card b{display:block;font-size:22px}.card span{color:#52606d;font-size:12px}"
    ".finding{border-left:5px solid #999;padding:6px 12px;margin:10px 0;background:#fafbfc}"
    ".finding h3{font-size:15px;margin:0 0 2px}.finding .hyp{font-weight:600}"
    ".finding pre{font:12.5px/1.4 ui-monospace,'DejaVu Sans Mono',monospace;margin:4px 0;"
    "white-space:pre-wrap;color:#3e4c59}"
    ".finding .adv{margin:4px 0 0;font-weight:500}.finding .adv:before{content:'\\2192  ';}"
    ".finding ul{margin:4px 0 0 0;padding-left:18px}"
    ".k0{border-color:#d94801}.k1{border-color:#c0392b}.k2{border-color:#2ca02c}"
    ".k3{border-color:#3366cc}.k4{border-color:#8e44ad}"
    "svg{display:block;max-width:100%;height:auto}svg text{font-family:inherit}"
    ".legend{display:flex;gap:14px;flex-wrap:wrap;font-size:13px;margin:4px 0 8px}"
    ".legend i{display:inline-block;width:12px;height:12px;border-radius:2px;margin-right:5px;"
    "vertical-align:-1px}"
    "#blockmap rect.b{cursor:pointer}#blockmap rect.b:hover{stroke:#111;stroke-width:1}"
    ".bmrow{display:flex;gap:18px;align-items:flex-start}.bmrow>div:first-child{flex:1}"
    "#blockinfo{width:260px;font:12.5px/1.5 ui-monospace,'DejaVu Sans Mono',monospace;"
    "background:#f7f8fa;border:1px solid #dde1e6;border-radius:6px;padding:8px 10px;"
    "white-space:pre-wrap;min-height:120px}"
    "select{font:inherit;padding:2px 6px}"
    "footer{color:#7b8794;font-size:12px;margin-top:20px}";

/* ---- helpers over the profile ---- */

static uint64_t smbt(json_object *s) { return pj_u64(pj_get(s, "metrics"), "memoryBlockTime"); }

static void svg_open(FILE *f, const char *id, int w, int h, const char *label)
{
    fprintf(f, "<svg id=\"%s\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
               "width=\"%d\" height=\"%d\" role=\"img\" aria-label=\"",
            id, w, h, w, h);
    esc(f, label);
    fputs("\">\n", f);
}

static void legend(FILE *f, const char *const *names, const char *const *colours, int n)
{
    fputs("<div class=\"legend\">", f);
    for (int i = 0; i < n; i++) {
        fprintf(f, "<span><i style=\"background:%s\"></i>", colours[i]);
        esc(f, names[i]);
        fputs("</span>", f);
    }
    fputs("</div>\n", f);
}

/* A label cut to fit, as SVG text (the full name in a tooltip). */
static void svg_label(FILE *f, double x, double y, const char *anchor, const char *s, size_t max)
{
    fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"13\" fill=\"#1f2933\">"
               "<title>",
            x, y, anchor);
    esc(f, s);
    fputs("</title>", f);
    s = ptext_term(s);
    size_t n = strlen(s);
    if (n <= max) {
        esc(f, s);
    } else {
        /* cut between characters, not inside one */
        size_t cut = max - 1;
        while (cut > 0 && ((unsigned char)s[cut] & 0xc0) == 0x80)
            cut--;
        char *c = strndup(s, cut);
        esc(f, c ? c : "");
        free(c);
        fputs("\xe2\x80\xa6", f); /* ellipsis */
    }
    fputs("</text>\n", f);
}

/* Axis ticks: a round step (1, 2 or 5 times a power of ten) giving about
 * 5 ticks up to max.  The loops are bounded: near the ends of the double
 * range a power of ten overflows to infinity or underflows to 0. */
static double nice_step(double max)
{
    if (!(max > 0) || !isfinite(max))
        return 1;
    double raw = max / 5, p = 1;
    for (int i = 0; i < 400 && p > raw; i++)
        p /= 10;
    for (int i = 0; i < 400 && p * 10 <= raw; i++)
        p *= 10;
    if (!(p > 0) || !isfinite(p))
        return raw;
    double m = raw / p;
    return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* The last tick's index for ticks 0, step, 2 step, ... up to max: counted,
 * not summed, so that a step below max's precision (v + step == v) or a
 * max near DBL_MAX (max * 1.0001 == inf) cannot loop forever. */
static int last_tick(double max, double step)
{
    double k = max / step * 1.0001;
    return k >= 0 && k < 20 ? (int)k : k >= 20 ? 20 : 0;
}

static void x_axis(FILE *f, double x0, double x1, double ytop, double ybot, double max, const char *unit,
                   double scale)
{
    double step = nice_step(max);
    for (int i = 0, n = last_tick(max, step); i <= n; i++) {
        double v = step * i;
        double x = x0 + (x1 - x0) * v / max;
        fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e7eb\"/>"
                   "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#7b8794\" "
                   "text-anchor=\"middle\">%g%s</text>\n",
                x, x, ytop, ybot, x, ybot + 13, v * scale, unit);
    }
}

/* ---- sections ---- */

static void section_advice(FILE *f, const advice_finding *v, size_t n, const advice_thresholds *t)
{
    fputs("<section id=\"advice\"><h2>Advice</h2>\n<p class=\"note\">The Performance Consultant's "
          "hypotheses (section 5 of the paper), each a share of a metric tested against a threshold "
          "(thresholds:",
          f);
    advice_thresholds tt = *t;
    double *vals[ADVICE_NTHRESHOLDS] = { &tt.memory_blocking, &tt.refine, &tt.min_share,
                                         &tt.false_sharing, &tt.producer_consumer, &tt.migratory,
                                         &tt.imbalance, &tt.read_only, &tt.group };
    for (int i = 0; i < ADVICE_NTHRESHOLDS; i++)
        fprintf(f, "%s %s %.4g%%", i ? "," : "", advice_threshold_names[i], *vals[i] * 100);
    fputs("; <code>dsmprof advice</code> prints the same).</p>\n", f);
    if (!n)
        fputs("<p>No hypothesis holds: no bottleneck above the thresholds.</p>\n", f);
    for (size_t i = 0; i < n; i++) {
        const advice_finding *x = &v[i];
        if (x->depth)
            continue;
        fprintf(f, "<div class=\"finding k%d\"><h3><span class=\"hyp\">", (int)x->kind);
        esc(f, x->hypothesis);
        fputs("</span> (", f);
        esc(f, x->focus);
        fputs("): ", f);
        esc(f, x->headline);
        fputs("</h3>\n", f);
        if (*x->evidence) {
            fputs("<pre>", f);
            esc(f, x->evidence);
            fputs("</pre>\n", f);
        }
        int subs = 0;
        for (size_t k = i + 1; k < n && v[k].depth; k++) {
            fputs(subs++ ? "" : "<ul>", f);
            fputs("<li>", f);
            esc(f, v[k].headline);
            fputs(" <span class=\"note\">(", f);
            esc(f, v[k].evidence);
            fputs(")</span></li>\n", f);
        }
        if (subs)
            fputs("</ul>\n", f);
        if (x->kind != ADVICE_MEMORY_BLOCKING && *x->suggestion) {
            fputs("<p class=\"adv\">", f);
            esc(f, x->suggestion);
            fputs("</p>\n", f);
        }
        fputs("</div>\n", f);
    }
    fputs("</section>\n", f);
}

#define MAX_ROWS 15

/* The groups of blocks fetched together (Figure 2), what a bulk fetch of
 * each would save; apart from the sharing patterns (doc/patterns.md). */
static void section_groups(FILE *f, json_object *groups)
{
    size_t n = pj_len(groups);
    if (!n)
        return;
    fputs("<section id=\"groups\"><h2>Groups of blocks fetched together</h2>\n<p class=\"note\">"
          "Blocks a node requests one after another, every time (the paper's Figure 2): a bulk "
          "fetch of the group would save the misses of the blocks that followed. This says "
          "which blocks travel together, not who shares them.</p>\n<table><tr><th>group</th>"
          "<th>blocks</th><th>misses saved</th><th>gain</th><th>members</th></tr>\n",
          f);
    for (size_t i = 0; i < n && i < MAX_ROWS; i++) {
        json_object *g = pj_at(groups, i), *mem = pj_arr(g, "members");
        char b[32];
        fmt_ms(b, sizeof b, (double)pj_u64(g, "gain"));
        fprintf(f, "<tr><td>%lld</td><td>%llu</td><td>%llu</td><td>%s</td><td>",
                (long long)json_object_get_int64(pj_get(g, "id")),
                (unsigned long long)pj_u64(g, "blocks"),
                (unsigned long long)pj_u64(g, "misses_saved"), b);
        for (size_t k = 0; k < pj_len(mem); k++) {
            json_object *x = pj_at(mem, k);
            fputs(k ? ", " : "", f);
            esc(f, pj_str(x, "structure"));
            fprintf(f, "+%llu (%llu)", (unsigned long long)pj_u64(x, "offset"),
                    (unsigned long long)pj_u64(x, "blocks"));
        }
        if (pj_u64(g, "members_total") > pj_len(mem))
            fprintf(f, " ... (%llu runs)", (unsigned long long)pj_u64(g, "members_total"));
        fputs("</td></tr>\n", f);
    }
    fputs("</table></section>\n", f);
}

/* Figure 7: memory blocking time per structure, split by miss cause. */
static void chart_structures(FILE *f, json_object *structures)
{
    static const char *const names[] = { "coherence: invalidation", "coherence: upgrade",
                                         "cold (first touch by the node)", "other (joins)" };
    static const char *const colours[] = { "#d94801", "#fd8d3c", "#9ecae1", "#cbd2d9" };
    size_t n = pj_len(structures);
    size_t rows = n < MAX_ROWS ? n : MAX_ROWS;
    fputs("<section><h2>Memory blocking time per structure</h2>\n<p class=\"note\">Time the nodes "
          "spent blocked in misses on each data structure, summed over nodes, by miss cause (the "
          "paper's Figure 7). The pattern is the sharing pattern most of its blocks have.",
          f);
    if (n > rows)
        fprintf(f, " The %zu largest of %zu structures.", rows, n);
    fputs("</p>\n", f);
    legend(f, names, colours, 4);
    int h = (int)rows * 28 + 34;
    svg_open(f, "chart-structures", 1000, h, "memory blocking time per structure");
    double max = 0;
    for (size_t i = 0; i < rows; i++) {
        double v = (double)smbt(pj_at(structures, i));
        json_object *c = pj_get(pj_at(structures, i), "causes");
        double sum = (double)(pj_u64(c, "invalidation_wall") + pj_u64(c, "upgrade_wall") +
                              pj_u64(c, "cold_wall"));
        if (v < sum)
            v = sum;
        if (v > max)
            max = v;
    }
    if (max <= 0)
        max = 1;
    double x0 = 230, x1 = 770;
    x_axis(f, x0, x1, 4, h - 18, max / 1e6, " ms", 1);
    for (size_t i = 0; i < rows; i++) {
        json_object *s = pj_at(structures, i);
        json_object *c = pj_get(s, "causes");
        double seg[4] = { (double)pj_u64(c, "invalidation_wall"), (double)pj_u64(c, "upgrade_wall"),
                          (double)pj_u64(c, "cold_wall"), 0 };
        double total = (double)smbt(s);
        if (total > seg[0] + seg[1] + seg[2])
            seg[3] = total - seg[0] - seg[1] - seg[2];
        else
            total = seg[0] + seg[1] + seg[2];
        double y = 8 + 28.0 * (double)i;
        svg_label(f, x0 - 8, y + 15, "end", pj_str(s, "name"), 30);
        double x = x0;
        for (int k = 0; k < 4; k++) {
            double w = (x1 - x0) * seg[k] / max;
            if (w <= 0)
                continue;
            char b[32];
            fmt_ms(b, sizeof b, seg[k]);
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"20\" fill=\"%s\">"
                       "<title>%s: %s</title></rect>\n",
                    x, y, w, colours[k], names[k], b);
            x += w;
        }
        char b[32];
        fmt_ms(b, sizeof b, total);
        const char *dom = pj_str(s, "sharing_pattern");
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"#3e4c59\">%s</text>"
                   "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" rx=\"2\" fill=\"%s\"/>"
                   "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"#52606d\">",
                x + 6, y + 15, b, 838.0, y + 6, pattern_colour(*dom ? dom : "none"), 852.0, y + 15);
        esc(f, *dom ? dom : "none");
        fputs("</text>\n", f);
        if (pj_u64(pj_get(s, "false_sharing"), "count"))
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#c0392b\" "
                       "font-weight=\"600\">FS<title>false sharing</title></text>\n", 972.0, y + 15);
    }
    fputs("</svg>\n</section>\n", f);
}

/* Figure 7's per-node view: which node blocks on which structure. */
static void chart_structure_nodes(FILE *f, json_object *structures, int nodes)
{
    size_t n = pj_len(structures);
    size_t rows = n < 12 ? n : 12;
    int cols = nodes < 64 ? nodes : 64;
    double x0 = 230, cw = (1000 - x0 - 10) / (cols ? cols : 1);
    if (cw > 90)
        cw = 90;
    int h = (int)rows * 26 + 30;
    fputs("<section><h2>Memory blocking time per structure and node</h2>\n<p class=\"note\">Darker: "
          "more time. A structure that bounces between node 0 and the others shows as node 0 "
          "blocking on every part while each other node blocks on its own (Figure 7).</p>\n",
          f);
    svg_open(f, "chart-structure-nodes", 1000, h, "memory blocking time per structure and node");
    double max = 0;
    for (size_t i = 0; i < rows; i++) {
        json_object *pn = pj_arr(pj_get(pj_at(structures, i), "metrics"), "per_node");
        for (int k = 0; k < cols; k++)
            if ((double)pj_u64(pj_at(pn, (size_t)k), "memoryBlockTime") > max)
                max = (double)pj_u64(pj_at(pn, (size_t)k), "memoryBlockTime");
    }
    if (max <= 0)
        max = 1;
    for (int k = 0; k < cols; k++)
        fprintf(f, "<text x=\"%.1f\" y=\"14\" font-size=\"12\" text-anchor=\"middle\" "
                   "fill=\"#52606d\">%s%d</text>\n",
                x0 + cw * (k + 0.5), cw >= 40 ? "node " : "", k);
    for (size_t i = 0; i < rows; i++) {
        json_object *s = pj_at(structures, i);
        json_object *pn = pj_arr(pj_get(s, "metrics"), "per_node");
        double y = 22 + 26.0 * (double)i;
        svg_label(f, x0 - 8, y + 16, "end", pj_str(s, "name"), 30);
        for (int k = 0; k < cols; k++) {
            double v = (double)pj_u64(pj_at(pn, (size_t)k), "memoryBlockTime");
            double a = v / max;
            /* white to the memory-blocking orange */
            int r = (int)(255 - a * (255 - 0xd9)), g = (int)(255 - a * (255 - 0x48)),
                b = (int)(255 - a * (255 - 0x01));
            char t[32];
            fmt_ms(t, sizeof t, v);
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"22\" "
                       "fill=\"rgb(%d,%d,%d)\" stroke=\"#e4e7eb\"><title>node %d: %s</title></rect>\n",
                    x0 + cw * k + 1, y, cw - 2, r, g, b, k, t);
            if (cw >= 64)
                fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\" "
                           "fill=\"%s\">%s</text>\n",
                        x0 + cw * (k + 0.5), y + 15, a > 0.55 ? "#fff" : "#3e4c59", t);
        }
    }
    fputs("</svg>\n</section>\n", f);
}

/* Figure 8: per node, wall time split into memory blocking, barrier and
 * lock wait, and the rest. */
static void chart_nodes(FILE *f, json_object *per_node, double wall)
{
    static const char *const names[] = { "memory blocking", "barrier wait", "lock wait",
                                         "other (computing)" };
    static const char *const colours[] = { "#d94801", "#3182bd", "#756bb1", "#e4e7eb" };
    size_t n = pj_len(per_node);
    fputs("<section><h2>Memory blocking and barrier wait per node</h2>\n<p class=\"note\">Each node's "
          "wall time (the paper's Figure 8: memoryBlockingTime and targetBarrierWall). Uneven "
          "barrier wait means uneven work.</p>\n",
          f);
    legend(f, names, colours, 4);
    int h = (int)n * 26 + 34;
    svg_open(f, "chart-nodes", 1000, h, "memory blocking and barrier wait per node");
    double x0 = 90, x1 = 880, wall_ns = wall * 1e9;
    double max = wall_ns;
    for (size_t i = 0; i < n; i++) {
        json_object *o = pj_at(per_node, i);
        double s = (double)(pj_u64(o, "memoryBlockTime") + pj_u64(o, "barrier_wait") +
                            pj_u64(o, "lock_wait"));
        if (s > max) /* threads of a node can block at once: time can exceed wall */
            max = s;
    }
    if (max <= 0)
        max = 1;
    x_axis(f, x0, x1, 4, h - 18, max / 1e9, " s", 1);
    for (size_t i = 0; i < n; i++) {
        json_object *o = pj_at(per_node, i);
        double seg[4] = { (double)pj_u64(o, "memoryBlockTime"), (double)pj_u64(o, "barrier_wait"),
                          (double)pj_u64(o, "lock_wait"), 0 };
        double used = seg[0] + seg[1] + seg[2];
        seg[3] = wall_ns > used ? wall_ns - used : 0;
        double y = 8 + 26.0 * (double)i;
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"end\" font-size=\"13\">node %llu</text>\n",
                x0 - 8, y + 14,
                (unsigned long long)(pj_get(o, "node") ? pj_u64(o, "node") : (uint64_t)i));
        double x = x0;
        for (int k = 0; k < 4; k++) {
            double w = (x1 - x0) * seg[k] / max;
            if (w <= 0)
                continue;
            char b[32];
            fmt_ms(b, sizeof b, seg[k]);
            fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"18\" fill=\"%s\">"
                       "<title>%s: %s (%.1f%% of wall)</title></rect>\n",
                    x, y, w, colours[k], names[k], b, wall_ns > 0 ? 100 * seg[k] / wall_ns : 0.0);
            if (k < 3 && w > 46)
                fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#fff\" "
                           "text-anchor=\"middle\">%.0f%%</text>\n",
                        x + w / 2, y + 13, wall_ns > 0 ? 100 * seg[k] / wall_ns : 0.0);
            x += w;
        }
    }
    fputs("</svg>\n</section>\n", f);
}

/* Figure 6: blocking time per procedure (code-centric view). */
static void chart_procedures(FILE *f, json_object *procs)
{
    size_t n = pj_len(procs), rows = n < 12 ? n : 12;
    fputs("<section><h2>Memory blocking time per procedure</h2>\n<p class=\"note\">By the faulting "
          "instruction's procedure (Figure 6's code-centric view), summed over nodes.</p>\n",
          f);
    if (!rows) {
        fputs("<p>No procedures in this profile (code attribution off, or no misses).</p>\n"
              "<svg id=\"chart-procedures\" width=\"0\" height=\"0\"></svg>\n</section>\n",
              f);
        return;
    }
    int h = (int)rows * 26 + 30;
    svg_open(f, "chart-procedures", 1000, h, "memory blocking time per procedure");
    double max = 0;
    for (size_t i = 0; i < rows; i++)
        if ((double)pj_u64(pj_at(procs, i), "wall") > max)
            max = (double)pj_u64(pj_at(procs, i), "wall");
    if (max <= 0)
        max = 1;
    double x0 = 300, x1 = 860;
    x_axis(f, x0, x1, 4, h - 18, max / 1e6, " ms", 1);
    for (size_t i = 0; i < rows; i++) {
        json_object *p = pj_at(procs, i);
        char lab[512];
        const char *file = pj_str(p, "file");
        if (*file)
            snprintf(lab, sizeof lab, "%s (%s:%llu)", pj_str(p, "name"), file,
                     (unsigned long long)pj_u64(p, "line"));
        else
            snprintf(lab, sizeof lab, "%s", pj_str(p, "name"));
        double y = 8 + 26.0 * (double)i;
        svg_label(f, x0 - 8, y + 14, "end", lab, 42);
        double w = (x1 - x0) * (double)pj_u64(p, "wall") / max;
        char b[32];
        fmt_ms(b, sizeof b, (double)pj_u64(p, "wall"));
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"18\" fill=\"#e6550d\">"
                   "<title>%s, %llu misses</title></rect>"
                   "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" fill=\"#3e4c59\">%s, %llu misses</text>\n",
                x0, y, w, b, (unsigned long long)pj_u64(p, "misses"), x0 + w + 6, y + 14, b,
                (unsigned long long)pj_u64(p, "misses"));
    }
    fputs("</svg>\n</section>\n", f);
}

/* Figure 9: the block map.  One <g> per structure that lists its blocks,
 * one square per block coloured by its sharing pattern; the script marks the
 * selected block's group with an X. */
#define BM_WIDTH 784
/* Bigger squares for small structures, so a few blocks are easy to click. */
static int bm_cell(size_t nblocks) { return nblocks <= 300 ? 28 : nblocks <= 1200 ? 20 : 14; }
static int bm_cols(size_t nblocks) { return (BM_WIDTH - 4) / bm_cell(nblocks); }
static int bm_height(size_t nblocks)
{
    return (int)((nblocks + (size_t)bm_cols(nblocks) - 1) / (size_t)bm_cols(nblocks)) * bm_cell(nblocks) + 4;
}
static int blockmap(FILE *f, json_object *structures, uint64_t block_size)
{
    size_t n = pj_len(structures), listed = 0;
    int groups = 0; /* does the profile carry group ids per block? */
    for (size_t i = 0; i < n; i++) {
        json_object *bl = pj_arr(pj_at(structures, i), "block_list");
        if (pj_len(bl))
            listed++;
        int64_t g;
        for (size_t k = 0; k < pj_len(bl) && !groups; k++)
            if (pj_int_opt(pj_at(bl, k), "group_id", &g))
                groups = 1;
    }
    fputs("<section><h2>Block map</h2>\n", f);
    if (!listed) {
        fputs("<p>No structure of this profile lists its blocks (larger than the profile's "
              "block_list_limit).</p><svg id=\"blockmap\" width=\"0\" height=\"0\"></svg>\n"
              "</section>\n",
              f);
        return 0;
    }
    fprintf(f, "<p class=\"note\">One square per block (%llu bytes) of the structure, coloured by its "
               "sharing pattern (the paper's Figure 9). Click a block: its details show on "
               "the right and the blocks of its group are marked with an X.",
            (unsigned long long)block_size);
    if (!groups)
        fputs(" <b>This profile has no group ids per block</b> (<code>block_list[].group_id</code>), "
              "so the marked blocks are those with the selected block's sharing pattern.",
              f);
    fputs("</p>\n<p>Structure: <select id=\"bm-select\">", f);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        json_object *s = pj_at(structures, i);
        if (!pj_len(pj_arr(s, "block_list")))
            continue;
        fprintf(f, "<option value=\"%zu\">", k++);
        esc(f, pj_str(s, "name"));
        fprintf(f, " (%zu blocks)</option>", pj_len(pj_arr(s, "block_list")));
    }
    fputs("</select></p>\n", f);
    const char *const lnames[] = { "migratory", "producer_consumer", "read_only", "private",
                                   "write_shared", "none (unknown)" };
    legend(f, lnames, pattern_colours, NPATTERNS);
    fputs("<div class=\"bmrow\"><div>\n", f);
    /* the svg's height is that of the first map; the script resizes it */
    size_t first = 0;
    for (size_t i = 0; i < n; i++)
        if ((first = pj_len(pj_arr(pj_at(structures, i), "block_list"))))
            break;
    int h0 = bm_height(first);
    fprintf(f, "<svg id=\"blockmap\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
               "width=\"%d\" height=\"%d\" data-groups=\"%d\">\n",
            BM_WIDTH, h0, BM_WIDTH, h0, groups);
    k = 0;
    for (size_t i = 0; i < n; i++) {
        json_object *s = pj_at(structures, i);
        json_object *bl = pj_arr(s, "block_list");
        size_t nb = pj_len(bl);
        if (!nb)
            continue;
        int h = bm_height(nb), cell = bm_cell(nb);
        size_t cols = (size_t)bm_cols(nb);
        fprintf(f, "<g id=\"bm-s%zu\" data-h=\"%d\" data-name=\"", k, h);
        esc(f, pj_str(s, "name"));
        fprintf(f, "\"%s>\n", k ? " style=\"display:none\"" : "");
        for (size_t b = 0; b < nb; b++) {
            json_object *x = pj_at(bl, b);
            const char *p = pj_str(x, "pattern");
            json_object *d = pj_get(x, "detections");
            fprintf(f, "<rect class=\"b\" x=\"%zu\" y=\"%zu\" width=\"%d\" height=\"%d\" rx=\"2\" "
                       "fill=\"%s\" data-i=\"%llu\" data-o=\"%llu\" data-p=\"%d\" data-m=\"%llu\" "
                       "data-t=\"%llu\" data-f=\"%llu\" data-c=\"%llu,%llu,%llu\" "
                       "data-d=\"%llu,%llu,%llu,%llu\"",
                    2 + (b % cols) * (size_t)cell, 2 + (b / cols) * (size_t)cell, cell - 2,
                    cell - 2, pattern_colour(p), (unsigned long long)pj_u64(x, "index"),
                    (unsigned long long)pj_u64(x, "offset"), pattern_index(p),
                    (unsigned long long)pj_u64(x, "misses"),
                    (unsigned long long)pj_u64(x, "memoryBlockTime"),
                    (unsigned long long)pj_u64(x, "false_sharing"),
                    (unsigned long long)pj_u64(x, "cold"), (unsigned long long)pj_u64(x, "invalidation"),
                    (unsigned long long)pj_u64(x, "upgrade"),
                    (unsigned long long)pj_u64(d, "migratory"),
                    (unsigned long long)pj_u64(d, "producer_consumer"),
                    (unsigned long long)pj_u64(d, "fetched_together"),
                    (unsigned long long)pj_u64(d, "read_only"));
            int64_t g;
            if (pj_int_opt(x, "group_id", &g))
                fprintf(f, " data-g=\"%lld\"", (long long)g);
            fputs("/>\n", f);
        }
        fputs("</g>\n", f);
        k++;
    }
    fputs("<g id=\"bm-marks\" pointer-events=\"none\"></g>\n</svg>\n</div>\n"
          "<div id=\"blockinfo\">Click a block.</div></div>\n</section>\n",
          f);
    return 1;
}

/* The timeslices, if the profile has them: an object with an interval and
 * a list of slices, or the list itself (doc/user-guide.md says what is read). */
static json_object *timeslice_list(json_object *p, double *interval)
{
    json_object *ts = pj_get(p, "timeslices");
    *interval = 0.1;
    if (!ts)
        return NULL;
    if (json_object_is_type(ts, json_type_array))
        return pj_len(ts) ? ts : NULL;
    if (pj_is_number(pj_get(ts, "interval_seconds")))
        *interval = pj_double(ts, "interval_seconds");
    else if (pj_is_number(pj_get(ts, "interval_ms")))
        *interval = pj_double(ts, "interval_ms") / 1e3;
    else if (pj_is_number(pj_get(ts, "interval_ns")))
        *interval = pj_double(ts, "interval_ns") / 1e9;
    json_object *l = pj_arr(ts, "slices");
    return pj_len(l) ? l : NULL;
}

/* A slice's value: its own key, else the sum over its per_node entries. */
static double slice_value(json_object *s, const char *key)
{
    if (pj_get(s, key))
        return (double)pj_u64(s, key);
    json_object *pn = pj_arr(s, "per_node");
    double v = 0;
    for (size_t i = 0; i < pj_len(pn); i++)
        v += (double)pj_u64(pj_at(pn, i), key);
    return v;
}

static double slice_misses(json_object *s)
{
    if (pj_get(s, "misses") || pj_arr(s, "per_node"))
        if (slice_value(s, "misses") > 0)
            return slice_value(s, "misses");
    double v = slice_value(s, "read_misses") + slice_value(s, "write_misses") +
               slice_value(s, "upgrades");
    if (v == 0)
        v = slice_value(s, "cold") + slice_value(s, "invalidation") + slice_value(s, "upgrade");
    return v;
}

static void timeline(FILE *f, json_object *p, json_object *per_node)
{
    double interval;
    json_object *sl = timeslice_list(p, &interval);
    fputs("<section><h2>Timeline of misses and barrier wait</h2>\n", f);
    if (!sl) {
        /* no timeslices: the per-node comparison the timeline would sum up */
        size_t n = pj_len(per_node);
        fputs("<p class=\"note\">This profile has no <code>timeslices</code>: shown instead, per "
              "node, the time blocked in coherence misses against the time waiting at barriers "
              "(totals over the run).</p>\n",
              f);
        static const char *const names[] = { "memory blocking", "barrier wait" };
        static const char *const colours[] = { "#d94801", "#3182bd" };
        legend(f, names, colours, 2);
        int h = 230;
        svg_open(f, "timeline", 1000, h, "memory blocking and barrier wait per node");
        double max = 0;
        for (size_t i = 0; i < n; i++) {
            json_object *o = pj_at(per_node, i);
            if ((double)pj_u64(o, "memoryBlockTime") > max)
                max = (double)pj_u64(o, "memoryBlockTime");
            if ((double)pj_u64(o, "barrier_wait") > max)
                max = (double)pj_u64(o, "barrier_wait");
        }
        if (max <= 0)
            max = 1;
        double y0 = 190, y1 = 16, x0 = 60, gw = (960 - x0) / (double)(n ? n : 1);
        double step = nice_step(max / 1e6);
        for (int i = 0, n = last_tick(max / 1e6, step); i <= n; i++) {
            double v = step * i;
            double y = y0 - (y0 - y1) * v * 1e6 / max;
            fprintf(f, "<line x1=\"%.1f\" x2=\"960\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e7eb\"/>"
                       "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#7b8794\" "
                       "text-anchor=\"end\">%g ms</text>\n",
                    x0, y, y, x0 - 4, y + 4, v);
        }
        double bw = gw * 0.3 < 40 ? gw * 0.3 : 40;
        for (size_t i = 0; i < n; i++) {
            json_object *o = pj_at(per_node, i);
            double v[2] = { (double)pj_u64(o, "memoryBlockTime"), (double)pj_u64(o, "barrier_wait") };
            double cx = x0 + gw * ((double)i + 0.5);
            for (int k = 0; k < 2; k++) {
                double hh = (y0 - y1) * v[k] / max;
                char b[32];
                fmt_ms(b, sizeof b, v[k]);
                fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\">"
                           "<title>node %zu %s: %s</title></rect>\n",
                        cx - bw - 2 + k * (bw + 4), y0 - hh, bw, hh, colours[k], i, names[k], b);
            }
            fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"12\" text-anchor=\"middle\">node "
                       "%zu</text>\n",
                    cx, y0 + 16, i);
        }
        fputs("</svg>\n</section>\n", f);
        return;
    }
    size_t n = pj_len(sl);
    double maxm = 0, maxt = 0;
    for (size_t i = 0; i < n; i++) {
        json_object *s = pj_at(sl, i);
        if (slice_misses(s) > maxm)
            maxm = slice_misses(s);
        if (slice_value(s, "memoryBlockTime") > maxt)
            maxt = slice_value(s, "memoryBlockTime");
        if (slice_value(s, "barrier_wait") > maxt)
            maxt = slice_value(s, "barrier_wait");
    }
    if (maxm <= 0)
        maxm = 1;
    if (maxt <= 0)
        maxt = 1;
    fprintf(f, "<p class=\"note\">Counts per interval of %.0f ms, all nodes: misses (top), time blocked "
               "in misses and waiting at barriers (bottom).</p>\n",
            interval * 1e3);
    static const char *const names[] = { "misses", "memory blocking", "barrier wait" };
    static const char *const colours[] = { "#6b7280", "#d94801", "#3182bd" };
    legend(f, names, colours, 3);
    svg_open(f, "timeline", 1000, 330, "timeline of misses and barrier wait");
    double x0 = 70, x1 = 970, w = (x1 - x0) / (double)n;
    /* panel 1: misses as bars */
    double t0 = 10, b0 = 130;
    double step = nice_step(maxm);
    for (int i = 0, last = last_tick(maxm, step); i <= last; i++) {
        double v = step * i;
        double y = b0 - (b0 - t0) * v / maxm;
        fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e7eb\"/><text "
                   "x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#7b8794\" text-anchor=\"end\">%g</text>\n",
                x0, x1, y, y, x0 - 4, y + 4, v);
    }
    for (size_t i = 0; i < n; i++) {
        double v = slice_misses(pj_at(sl, i)), hh = (b0 - t0) * v / maxm;
        fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#6b7280\">"
                   "<title>%.2f s: %.0f misses</title></rect>\n",
                x0 + w * (double)i + (w > 4 ? 0.5 : 0), b0 - hh, w > 4 ? w - 1 : w, hh,
                interval * (double)i, v);
    }
    /* panel 2: memory blocking and barrier wait as lines */
    double t1 = 160, b1 = 300;
    step = nice_step(maxt / 1e6);
    for (int i = 0, last = last_tick(maxt / 1e6, step); i <= last; i++) {
        double v = step * i;
        double y = b1 - (b1 - t1) * v * 1e6 / maxt;
        fprintf(f, "<line x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"#e4e7eb\"/><text "
                   "x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#7b8794\" text-anchor=\"end\">%g ms"
                   "</text>\n",
                x0, x1, y, y, x0 - 4, y + 4, v);
    }
    const char *keys[2] = { "memoryBlockTime", "barrier_wait" };
    for (int k = 0; k < 2; k++) {
        fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"", colours[k + 1]);
        for (size_t i = 0; i < n; i++)
            fprintf(f, "%.1f,%.1f ", x0 + w * ((double)i + 0.5),
                    b1 - (b1 - t1) * slice_value(pj_at(sl, i), keys[k]) / maxt);
        fputs("\"/>\n", f);
    }
    double total = interval * (double)n;
    if (!(total > 0))
        total = 1;
    step = nice_step(total);
    for (int i = 0, last = last_tick(total, step); i <= last; i++) {
        double v = step * i;
        fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" fill=\"#7b8794\" "
                   "text-anchor=\"middle\">%g s</text>\n",
                x0 + (x1 - x0) * v / total, b1 + 16, v);
    }
    fputs("</svg>\n</section>\n", f);
}

/* The selection script: kept small, no library, works from file://. */
static const char script[] =
    "(function(){\n"
    "var svg=document.getElementById('blockmap');if(!svg||!svg.querySelector)return;\n"
    "var sel=document.getElementById('bm-select'),marks=document.getElementById('bm-marks');\n"
    "var info=document.getElementById('blockinfo'),NS='http://www.w3.org/2000/svg';\n"
    "var PN=['migratory','producer_consumer','read_only','private','write_shared','none'];\n"
    "var groups=svg.getAttribute('data-groups')==='1',cur=null;\n"
    "function g(k){return document.getElementById('bm-s'+k);}\n"
    "function X(r,c){var x=+r.getAttribute('x'),y=+r.getAttribute('y'),w=+r.getAttribute('width');\n"
    " var p=document.createElementNS(NS,'path');\n"
    " p.setAttribute('d','M'+(x+2)+' '+(y+2)+'L'+(x+w-2)+' '+(y+w-2)+'M'+(x+w-2)+' '+(y+2)+'L'+(x+2)+' '+(y+w-2));\n"
    " p.setAttribute('stroke',c);p.setAttribute('stroke-width',c==='#000'?'2.4':'1.6');\n"
    " p.setAttribute('class','mark');marks.appendChild(p);}\n"
    "function ms(ns){var v=ns/1e6;return (v>=100?v.toFixed(0):v>=1?v.toFixed(1):v.toFixed(3))+' ms';}\n"
    "function pick(r){while(marks.firstChild)marks.removeChild(marks.firstChild);\n"
    " var same=[],all=r.parentNode.querySelectorAll('rect.b'),key,i;\n"
    " if(groups){key=r.getAttribute('data-g');for(i=0;i<all.length;i++)\n"
    "  if(key!==null&&key!=='-1'&&all[i].getAttribute('data-g')===key)same.push(all[i]);}\n"
    " else{key=r.getAttribute('data-p');for(i=0;i<all.length;i++)\n"
    "  if(all[i].getAttribute('data-p')===key)same.push(all[i]);}\n"
    " for(i=0;i<same.length;i++)if(same[i]!==r)X(same[i],'#fff');X(r,'#000');\n"
    " var d=r.getAttribute('data-d').split(','),c=r.getAttribute('data-c').split(',');\n"
    " info.textContent=r.parentNode.getAttribute('data-name')+'\\nblock '+r.getAttribute('data-i')+\n"
    "  ' (offset '+r.getAttribute('data-o')+')\\npattern '+PN[+r.getAttribute('data-p')]+\n"
    "  '\\nmisses '+r.getAttribute('data-m')+' ('+c[0]+' cold, '+c[1]+' inval., '+c[2]+' upgr.)'+\n"
    "  '\\nblocked '+ms(+r.getAttribute('data-t'))+'\\nfalse-sharing transfers '+r.getAttribute('data-f')+\n"
    "  '\\ndetections: migratory '+d[0]+', producer_consumer '+d[1]+', read_only '+d[3]+', fetched together '+d[2]+\n"
    "  '\\n\\nmarked: '+same.length+' block(s) '+(groups?(key!==null&&key!=='-1'?'of group '+key:'(no group)'):\n"
    "  'with this pattern (no group ids in the profile)');cur=r;}\n"
    "svg.addEventListener('click',function(e){var t=e.target;if(t&&t.classList&&t.classList.contains('b'))pick(t);});\n"
    "function show(k){var i=0,x;while((x=g(i))){x.style.display=i===+k?'':'none';i++;}\n"
    " var h=g(k).getAttribute('data-h'),w=svg.getAttribute('width');svg.setAttribute('height',h);\n"
    " svg.setAttribute('viewBox','0 0 '+w+' '+h);\n"
    " var best=null,all=g(k).querySelectorAll('rect.b');for(var i2=0;i2<all.length;i2++)\n"
    "  if(!best||+all[i2].getAttribute('data-t')>+best.getAttribute('data-t'))best=all[i2];\n"
    " if(best)pick(best);}\n"
    "if(sel)sel.addEventListener('change',function(){show(sel.value);});\n"
    "show(0);\n"
    "})();\n";

int html_write_with(json_object *p, const advice_thresholds *t, const char *title, FILE *f,
                    char *err, size_t errlen)
{
    if (pjson_check(p, err, errlen))
        return -1;
    advice_finding *fv = NULL;
    size_t fn = 0;
    if (advice_run(p, t, &fv, &fn, err, errlen))
        return -1;
    int nodes = json_object_get_int(pj_get(p, "nodes"));
    double wall = pj_double(p, "wall_seconds");
    uint64_t block_size = pj_u64(p, "block_size");
    json_object *per_node = pj_arr(p, "per_node");
    json_object *structures = pj_arr(p, "structures");
    uint64_t mbt = 0, bw = 0, fs = 0, coh = 0, misses = 0;
    for (size_t i = 0; i < pj_len(per_node); i++) {
        mbt += pj_u64(pj_at(per_node, i), "memoryBlockTime");
        bw += pj_u64(pj_at(per_node, i), "barrier_wait");
    }
    for (size_t i = 0; i < pj_len(structures); i++) {
        json_object *s = pj_at(structures, i), *c = pj_get(s, "causes");
        fs += pj_u64(pj_get(s, "false_sharing"), "count");
        coh += pj_u64(c, "invalidation") + pj_u64(c, "upgrade");
        misses += pj_u64(c, "cold") + pj_u64(c, "invalidation") + pj_u64(c, "upgrade");
    }
    double job = (double)nodes * wall * 1e9;

    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>dsm profile",
          f);
    if (title) {
        fputs(": ", f);
        esc(f, title);
    }
    fprintf(f, "</title>\n<style>%s</style>\n</head><body><main>\n<h1>dsm profile", css);
    if (title) {
        fputs(" <small style=\"font-weight:400;color:#52606d\">", f);
        esc(f, title);
        fputs("</small>", f);
    }
    fprintf(f, "</h1>\n<p class=\"sub\">%d node%s, %.3f s wall time, blocks of %llu bytes, %zu "
               "structures",
            nodes, nodes == 1 ? "" : "s", wall, (unsigned long long)block_size, pj_len(structures));
    if (pj_get(p, "patterns_detection") && !json_object_get_boolean(pj_get(p, "patterns_detection")))
        fputs(" (pattern detection was off)", f);
    fputs("</p>\n<div class=\"cards\">\n", f);
    char b[32];
    fmt_ms(b, sizeof b, (double)mbt);
    fprintf(f, "<div class=\"card\"><b>%.1f%%</b><span>of wall time blocked in misses (%s, all "
               "nodes)</span></div>\n",
            job > 0 ? 100.0 * (double)mbt / job : 0.0, b);
    fmt_ms(b, sizeof b, (double)bw);
    fprintf(f, "<div class=\"card\"><b>%.1f%%</b><span>of wall time waiting at barriers (%s)"
               "</span></div>\n",
            job > 0 ? 100.0 * (double)bw / job : 0.0, b);
    fprintf(f, "<div class=\"card\"><b>%llu</b><span>misses, %llu of them coherence misses "
               "(invalidation, upgrade)</span></div>\n",
            (unsigned long long)misses, (unsigned long long)coh);
    fprintf(f, "<div class=\"card\"><b>%llu</b><span>false-sharing transfers (writers of disjoint "
               "bytes)</span></div>\n</div>\n",
            (unsigned long long)fs);

    section_advice(f, fv, fn, t);
    chart_structures(f, structures);
    chart_nodes(f, per_node, wall);
    chart_structure_nodes(f, structures, nodes);
    chart_procedures(f, pj_arr(p, "procedures"));
    int js = blockmap(f, structures, block_size);
    section_groups(f, pj_arr(p, "groups"));
    timeline(f, p, per_node);
    fputs("<footer>Written by <code>dsmprof html</code> from a " PROFILE_SCHEMA " file; self-contained "
          "(no network). Times are sums over nodes unless a chart says per node.</footer>\n</main>\n",
          f);
    if (js)
        fprintf(f, "<script>\n%s</script>\n", script);
    fputs("</body></html>\n", f);
    advice_free(fv, fn);
    free(fv);
    if (fflush(f) || ferror(f)) {
        snprintf(err, errlen, "write error: %s", strerror(errno ? errno : EIO));
        return -1;
    }
    return 0;
}

int html_write(json_object *p, FILE *out, char *err, size_t errlen)
{
    advice_thresholds t;
    advice_thresholds_default(&t);
    if (advice_thresholds_from_env(&t, err, errlen))
        return -1;
    return html_write_with(p, &t, NULL, out, err, errlen);
}
