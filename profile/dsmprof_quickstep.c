/* dsmprof_quickstep.c - `dsmprof quickstep RAW`: QuickStep's displays
 * (QuickStep, Chapter 2 and section 3.4) of the raw data file dsmrun
 * --quickstep writes for the simulated Alewife (dsm/tools/
 * dsmrun_quickstep.c has the format): per statistic a table of the
 * processors (Index) with the mean over them, or with timeslices one
 * processor x timeslice table per result; per histogram the processors by
 * bin (hops, or checkpoint index) with the totals per bin, as Figs. 2.5,
 * 2.8, 4.2 and 4.3 show them.  A malformed file gets "FILE:LINE: why". */
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
        snprintf(t->name + strlen(t->name), sizeof t->name - strlen(t->name), "%s", "");
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

static void usage(FILE *f)
{
    dsmprof_usage(f, "quickstep");
    fprintf(f,
            "QuickStep's tables and histograms (Mitra, \"QuickStep: A System for Performance\n"
            "Monitoring and Debugging Parallel Applications on the Alewife Multiprocessor\")\n"
            "of the raw data file that dsmrun --machine=alewife --quickstep=CONFIG writes.\n"
            "  --stat NAME   only the statistic NAME\n");
}

int dsmprof_quickstep(int argc, char **argv)
{
    static const struct option opts[] = {
        {"stat", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *only = NULL;
    optind = 0;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 's':
            only = optarg;
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
    free_file(&f);
    if (only && !shown) {
        fprintf(stderr, "dsmprof quickstep: no statistic named '%s' in %s\n", ptext_term(only),
                ptext_term(argv[optind]));
        return DSMPROF_BAD_INPUT;
    }
    return DSMPROF_OK;
}
