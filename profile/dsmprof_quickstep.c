/* dsmprof_quickstep.c - `dsmprof quickstep RAW`: QuickStep's displays
 * (QuickStep, Chapter 2 and section 3.4) of the raw data file dsmrun
 * --quickstep writes for the simulated Alewife (dsm/tools/
 * dsmrun_quickstep.c has the format): per statistic a table of the
 * processors (Index) with the mean over them, or with timeslices one
 * processor x timeslice table per result; per histogram the processors by
 * bin (hops, or checkpoint index) with the totals per bin, as Figs. 2.5,
 * 2.8, 4.2 and 4.3 show them.  With --html OUT, one self-contained page
 * (inline SVG, nothing fetched) with each table and a processor x timeslice
 * (or processor x bin) map of every timesliced result and histogram, as
 * QuickStep's Proteus displays showed them.  A malformed file gets
 * "FILE:LINE: why". */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dsmprof.h"

#define QS_MAX_COLS 32
#define QS_BINS 16

typedef struct qs_row {
    double v[QS_MAX_COLS];
    int node, slice;
} qs_row;

typedef struct qs_table {
    char name[256];
    int run, hist, ncols; /* value columns (headers, or 16 bins) */
    char header[QS_MAX_COLS][128];
    qs_row *rows;
    int nrows, cap;
} qs_table;

typedef struct qs_file {
    const char *path;
    qs_table *t;
    int n;
    int nnodes, nslices;
    char comments[8][256];
    int ncomments;
} qs_file;

static int bad(const qs_file *f, int line, const char *why)
{
    fprintf(stderr, "dsmprof: %s:%d: %s\n", ptext_term(f->path), line, why);
    return DSMPROF_BAD_INPUT;
}

/* Quoted strings then bare words of a header line into t; 0 or -1. */
static int parse_header(char *line, qs_table *t)
{
    char *p = line;
    t->ncols = 0;
    int words = 0;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == '\n')
            p++;
        if (!*p)
            break;
        if (*p == '"') {
            char *e = strchr(p + 1, '"');
            if (!e || t->ncols >= QS_MAX_COLS)
                return -1;
            snprintf(t->header[t->ncols++], sizeof t->header[0], "%.*s", (int)(e - p - 1), p + 1);
            p = e + 1;
        } else {
            char *e = p + strcspn(p, " \t\n");
            words++;
            p = e;
        }
    }
    if (t->hist) { /* "TITLE" Bin0 .. Bin15 Index Timestamp */
        if (t->ncols != 1 || words != QS_BINS + 2)
            return -1;
        t->ncols = QS_BINS;
        return 0;
    }
    return words == 2 && t->ncols ? 0 : -1;
}

static void free_file(qs_file *f)
{
    for (int i = 0; i < f->n; i++)
        free(f->t[i].rows);
    free(f->t);
}

static int load(qs_file *f)
{
    FILE *in = fopen(f->path, "r");
    if (!in) {
        fprintf(stderr, "dsmprof: %s: %s\n", ptext_term(f->path), strerror(errno));
        return DSMPROF_BAD_INPUT;
    }
    char line[8192];
    int lineno = 0, rc = 0, state = 0; /* 0 outside, 1 header next, 2 rows */
    qs_table *t = NULL;
    while (!rc && fgets(line, sizeof line, in)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(in)) {
            rc = bad(f, lineno, "line too long");
            break;
        }
        if (line[0] == '#') {
            if (f->ncomments < 8)
                snprintf(f->comments[f->ncomments++], sizeof f->comments[0], "%.*s",
                         (int)strcspn(line + 1, "\n"), line + 1);
            continue;
        }
        if (state == 0) {
            int hist = !strncmp(line, "HistRecord \"", 12);
            if (!hist && strncmp(line, "CntRecord \"", 11)) {
                rc = bad(f, lineno, "expected CntRecord or HistRecord");
                break;
            }
            char *name = strchr(line, '"') + 1, *end = strchr(name, '"');
            if (!end) {
                rc = bad(f, lineno, "the record's name is not closed");
                break;
            }
            qs_table *g = realloc(f->t, (size_t)(f->n + 1) * sizeof *g);
            if (!g) {
                rc = bad(f, lineno, "out of memory");
                break;
            }
            f->t = g;
            t = &f->t[f->n++];
            memset(t, 0, sizeof *t);
            t->hist = hist;
            snprintf(t->name, sizeof t->name, "%.*s", (int)(end - name), name);
            if (sscanf(end + 1, " run %d", &t->run) != 1)
                t->run = 0;
            state = 1;
        } else if (state == 1) {
            if (parse_header(line, t)) {
                rc = bad(f, lineno, t->hist ? "expected \"TITLE\" Bin0 .. Bin15 Index Timestamp"
                                            : "expected \"HEADER\"... Index Timestamp");
                break;
            }
            state = 2;
        } else if (!strcmp(line, "EndRecord\n") || !strcmp(line, "EndRecord")) {
            state = 0;
        } else {
            if (t->nrows == t->cap) {
                t->cap = t->cap ? 2 * t->cap : 64;
                qs_row *r = realloc(t->rows, (size_t)t->cap * sizeof *r);
                if (!r) {
                    rc = bad(f, lineno, "out of memory");
                    break;
                }
                t->rows = r;
            }
            qs_row *r = &t->rows[t->nrows];
            char *p = line, *e;
            for (int c = 0; c < t->ncols + 2; c++) {
                double v = strtod(p, &e);
                if (e == p) {
                    rc = bad(f, lineno, "a row needs a value per column, then Index and "
                                        "Timestamp");
                    break;
                }
                p = e;
                if (c < t->ncols)
                    r->v[c] = v;
                else if (v < 0 || v > 1e6 || v != floor(v)) {
                    rc = bad(f, lineno, "Index and Timestamp must be small whole numbers");
                    break;
                } else if (c == t->ncols)
                    r->node = (int)v;
                else
                    r->slice = (int)v;
            }
            if (rc)
                break;
            while (*p == ' ' || *p == '\t')
                p++;
            if (*p && *p != '\n') {
                rc = bad(f, lineno, "more columns than the header names");
                break;
            }
            if (r->node + 1 > f->nnodes)
                f->nnodes = r->node + 1;
            if (r->slice + 1 > f->nslices)
                f->nslices = r->slice + 1;
            t->nrows++;
        }
    }
    if (!rc && state)
        rc = bad(f, lineno, "the last record has no EndRecord");
    if (!rc && !f->n)
        rc = bad(f, lineno, "no CntRecord or HistRecord: not a QuickStep raw data file");
    fclose(in);
    return rc;
}

/* Column width: 12, or 7 in the timeslice tables (many columns). */
static int col_width = 12;

static void print_value(double v)
{
    if (isnan(v))
        printf(" %*s", col_width, "-");
    else if (v == floor(v) && fabs(v) < 1e12)
        printf(" %*.0f", col_width, v);
    else
        printf(" %*.2f", col_width, v);
}

/* The value of column c at (node, slice); NaN when absent. */
static double cell(const qs_table *t, int node, int slice, int c)
{
    for (int i = 0; i < t->nrows; i++)
        if (t->rows[i].node == node && t->rows[i].slice == slice)
            return t->rows[i].v[c];
    return NAN;
}

static void counters(const qs_file *f, const qs_table *t, int sliced)
{
    printf("\n%s  (run %d)\n", ptext_term(t->name), t->run);
    if (!sliced) {
        printf("%-6s", "Proc");
        for (int c = 0; c < t->ncols; c++)
            printf("  %s", ptext_term(t->header[c]));
        printf("\n");
        double sum[QS_MAX_COLS] = {0};
        int n[QS_MAX_COLS] = {0};
        for (int node = 0; node < f->nnodes; node++) {
            printf("%-6d", node);
            for (int c = 0; c < t->ncols; c++) {
                double v = cell(t, node, 0, c);
                print_value(v);
                if (!isnan(v)) {
                    sum[c] += v;
                    n[c]++;
                }
            }
            printf("\n");
        }
        printf("%-6s", "Mean");
        for (int c = 0; c < t->ncols; c++)
            print_value(n[c] ? sum[c] / n[c] : NAN);
        printf("\n");
        return;
    }
    for (int c = 0; c < t->ncols; c++) {
        printf("%s by timeslice\n%-6s", ptext_term(t->header[c]), "Proc");
        col_width = 7;
        for (int s = 0; s < f->nslices; s++)
            printf(" %7d", s);
        printf("\n");
        for (int node = 0; node < f->nnodes; node++) {
            printf("%-6d", node);
            for (int s = 0; s < f->nslices; s++)
                print_value(cell(t, node, s, c));
            printf("\n");
        }
        col_width = 12;
    }
}

static void histogram(const qs_file *f, const qs_table *t, int sliced)
{
    int last = 0;
    for (int i = 0; i < t->nrows; i++)
        for (int b = 0; b < QS_BINS; b++)
            if (t->rows[i].v[b] != 0 && b > last)
                last = b;
    printf("\n%s  (run %d)%s\n%-6s", ptext_term(t->name), t->run,
           sliced ? ", summed over the timeslices" : "", "Proc");
    for (int b = 0; b <= last; b++)
        printf(" %12d", b);
    printf(" %12s\n", "Total");
    double all[QS_BINS] = {0}, grand = 0;
    for (int node = 0; node < f->nnodes; node++) {
        double row[QS_BINS] = {0}, total = 0;
        for (int i = 0; i < t->nrows; i++)
            if (t->rows[i].node == node)
                for (int b = 0; b < QS_BINS; b++)
                    row[b] += t->rows[i].v[b];
        printf("%-6d", node);
        for (int b = 0; b <= last; b++) {
            print_value(row[b]);
            all[b] += row[b];
        }
        for (int b = 0; b < QS_BINS; b++)
            total += row[b];
        grand += total;
        print_value(total);
        printf("\n");
    }
    printf("%-6s", "All");
    for (int b = 0; b <= last; b++)
        print_value(all[b]);
    print_value(grand);
    printf("\n");
    if (!sliced)
        return;
    printf("All processors by timeslice:");
    for (int s = 0; s < f->nslices; s++) {
        double total = 0;
        for (int i = 0; i < t->nrows; i++)
            if (t->rows[i].slice == s)
                for (int b = 0; b < QS_BINS; b++)
                    total += t->rows[i].v[b];
        printf(" %.0f", total);
    }
    printf("\n");
}

/* --- the HTML page ---------------------------------------------------------- */

static void html_text(FILE *o, const char *s)
{
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '<')
            fputs("&lt;", o);
        else if (ch == '>')
            fputs("&gt;", o);
        else if (ch == '&')
            fputs("&amp;", o);
        else if (ch == '"')
            fputs("&quot;", o);
        else if (ch < 0x20)
            fputc(' ', o);
        else
            fputc(ch, o);
    }
}

/* A map of v(row, col) for rows 0..nrows-1 and cols 0..ncols-1: one square
 * per cell, darker for larger values, the value in its tooltip. */
static void html_map(FILE *o, const qs_table *t, int nrows, int ncols, int c_or_slice,
                     int by_bin, const char *xlabel)
{
    double max = 0;
    for (int i = 0; i < t->nrows; i++) {
        double v = by_bin ? 0 : t->rows[i].v[c_or_slice];
        if (by_bin)
            for (int b = 0; b < QS_BINS; b++)
                if (t->rows[i].v[b] > max)
                    max = t->rows[i].v[b];
        if (!isnan(v) && v > max)
            max = v;
    }
    int cw = ncols > 60 ? 8 : 16, ch = 14, left = 40, top = 10;
    int w = left + ncols * cw + 10, h = top + nrows * ch + 30;
    fprintf(o, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\">\n", w, h);
    for (int r = 0; r < nrows; r++) {
        fprintf(o, "<text x=\"%d\" y=\"%d\" font-size=\"10\" text-anchor=\"end\">%d</text>\n",
                left - 4, top + r * ch + 10, r);
        for (int c = 0; c < ncols; c++) {
            double v = 0;
            for (int i = 0; i < t->nrows; i++)
                if (t->rows[i].node == r) {
                    if (by_bin)
                        v += t->rows[i].v[c];
                    else if (t->rows[i].slice == c)
                        v = t->rows[i].v[c_or_slice];
                }
            double f = max > 0 && !isnan(v) ? v / max : 0;
            int shade = 255 - (int)(f * 200);
            fprintf(o,
                    "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"rgb(%d,%d,255)\" "
                    "stroke=\"#ddd\"><title>processor %d, %s %d: %.14g</title></rect>\n",
                    left + c * cw, top + r * ch, cw, ch, shade, shade, r, xlabel, c, v);
        }
    }
    fprintf(o, "<text x=\"%d\" y=\"%d\" font-size=\"10\">%s 0 .. %d (max %.14g)</text>\n", left,
            top + nrows * ch + 20, xlabel, ncols - 1, max);
    fputs("</svg>\n", o);
}

static int write_html(const qs_file *f, const char *only, FILE *o)
{
    fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>QuickStep: ", o);
    html_text(o, f->path);
    fputs("</title><style>body{font-family:sans-serif}table{border-collapse:collapse}"
          "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right}</style></head><body>\n",
          o);
    fputs("<h1>QuickStep: ", o);
    html_text(o, f->path);
    fprintf(o, "</h1>\n<p>%d processors, %d timeslice%s</p>\n", f->nnodes, f->nslices,
            f->nslices == 1 ? "" : "s");
    for (int i = 0; i < f->n; i++) {
        const qs_table *t = &f->t[i];
        if (only && strcmp(only, t->name))
            continue;
        fputs("<h2>", o);
        html_text(o, t->name);
        fprintf(o, " (run %d)</h2>\n", t->run);
        if (t->hist) {
            fputs("<p>Processors (rows) by bin (columns), summed over the timeslices</p>\n", o);
            html_map(o, t, f->nnodes, QS_BINS, 0, 1, "bin");
            continue;
        }
        if (f->nslices > 1) {
            for (int c = 0; c < t->ncols; c++) {
                fputs("<h3>", o);
                html_text(o, t->header[c]);
                fputs(": processors (rows) by timeslice (columns)</h3>\n", o);
                html_map(o, t, f->nnodes, f->nslices, c, 0, "timeslice");
            }
            continue;
        }
        fputs("<table><tr><th>Proc</th>", o);
        for (int c = 0; c < t->ncols; c++) {
            fputs("<th>", o);
            html_text(o, t->header[c]);
            fputs("</th>", o);
        }
        fputs("</tr>\n", o);
        for (int node = 0; node < f->nnodes; node++) {
            fprintf(o, "<tr><td>%d</td>", node);
            for (int c = 0; c < t->ncols; c++)
                fprintf(o, "<td>%.14g</td>", cell(t, node, 0, c));
            fputs("</tr>\n", o);
        }
        fputs("</table>\n", o);
    }
    fputs("</body></html>\n", o);
    return ferror(o) ? -1 : 0;
}

static void usage(FILE *f)
{
    dsmprof_usage(f, "quickstep");
    fprintf(f,
            "QuickStep's tables and histograms (Mitra, \"QuickStep: A System for Performance\n"
            "Monitoring and Debugging Parallel Applications on the Alewife Multiprocessor\")\n"
            "of the raw data file that dsmrun --machine=alewife --quickstep=CONFIG writes.\n"
            "  --stat NAME   only the statistic NAME\n"
            "  --html OUT    also write one HTML page with the tables and the processor x\n"
            "                timeslice (and processor x bin) maps\n");
}

int dsmprof_quickstep(int argc, char **argv)
{
    static const struct option opts[] = {
        {"stat", required_argument, NULL, 's'},
        {"html", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *only = NULL, *html = NULL;
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 's':
            only = optarg;
            break;
        case 'o':
            html = optarg;
            break;
        case 'h':
            usage(stdout);
            return DSMPROF_OK;
        case ':':
            fprintf(stderr, "dsmprof quickstep: %s needs a value\n", ptext_term(argv[optind - 1]));
            return DSMPROF_USAGE;
        default:
            fprintf(stderr, "dsmprof quickstep: unknown option %s\n",
                    ptext_term(argv[optind - 1]));
            return DSMPROF_USAGE;
        }
    }
    if (argc - optind != 1) {
        fprintf(stderr, "dsmprof quickstep: expected one raw data file\n");
        usage(stderr);
        return DSMPROF_USAGE;
    }
    qs_file f = {.path = argv[optind]};
    int rc = load(&f);
    if (rc) {
        free_file(&f);
        return rc;
    }
    int sliced = f.nslices > 1, shown = 0;
    printf("QuickStep: %s, %d processors, %d timeslice%s\n", ptext_term(f.path), f.nnodes,
           f.nslices, f.nslices == 1 ? "" : "s");
    for (int i = 0; i < f.ncomments; i++)
        printf("#%s\n", ptext_term(f.comments[i]));
    for (int i = 0; i < f.n; i++) {
        if (only && strcmp(only, f.t[i].name))
            continue;
        shown++;
        if (f.t[i].hist)
            histogram(&f, &f.t[i], sliced);
        else
            counters(&f, &f.t[i], sliced);
    }
    if (html && shown) {
        FILE *o = fopen(html, "w");
        if (!o || write_html(&f, only, o) || fclose(o)) {
            fprintf(stderr, "dsmprof quickstep: cannot write %s: %s\n", ptext_term(html),
                    strerror(errno));
            free_file(&f);
            return DSMPROF_USAGE;
        }
    }
    free_file(&f);
    if (only && !shown) {
        fprintf(stderr, "dsmprof quickstep: no statistic named '%s' in %s\n", ptext_term(only),
                ptext_term(argv[optind]));
        return DSMPROF_BAD_INPUT;
    }
    return DSMPROF_OK;
}
