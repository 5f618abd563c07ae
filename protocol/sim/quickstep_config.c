/* quickstep_config.c - QuickStep's configuration language (section 3.2.4,
 * Figs. 3.4-3.6), its resource allocator (3.2.3) and the operations that
 * turn counter values into statistics (Fig. 3.5).  dsmrun --quickstep reads
 * the file, plans the runs and evaluates the records after them.
 *
 * The language: records of keyword lines, each ended by EndRecord, the file
 * by EndOfFile.  Tokens are words, "strings" (which may span lines), masks
 * #xHEX and numbers; ';' starts a comment to the end of the line (not in
 * the paper: the shipped files use it for their sources).  Keywords: Name,
 * CounterMasks (1-4 masks), CounterOperation (Value c | Div c c | Sum c c...
 * | Mul c c... | Sub c c | DivMul number c c, one result per header),
 * HeaderStrings, HistogramMask, HistogramHeaderStrings, HistogramOperation
 * (Histogram), TimeFlag 0|1, Help, Accumulator 0|1, GroupNames and
 * StatisticsNames (a group of statistics by name), EndRecord, EndOfFile.
 * Pure: the caller reads the file. */
#include "quickstep.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef enum { T_END, T_WORD, T_STRING, T_MASK, T_NUMBER } tok_kind;

typedef struct lexer {
    const char *p;
    int line;
    const char *file;
    char *err;
    size_t errlen;
    /* the current token */
    tok_kind kind;
    int tline;
    char text[512];
    uint32_t mask;
    double number;
    int failed;
} lexer;

static int lex_error(lexer *lx, int line, const char *fmt, ...)
{
    if (lx->failed)
        return -1;
    int n = snprintf(lx->err, lx->errlen, "%s:%d: ", lx->file, line);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < lx->errlen)
        vsnprintf(lx->err + n, lx->errlen - (size_t)n, fmt, ap);
    va_end(ap);
    lx->failed = 1;
    return -1;
}

/* Next token into lx; -1 on a lexical error. */
static int next(lexer *lx)
{
    for (;;) {
        while (*lx->p && isspace((unsigned char)*lx->p)) {
            if (*lx->p == '\n')
                lx->line++;
            lx->p++;
        }
        if (*lx->p != ';')
            break;
        while (*lx->p && *lx->p != '\n')
            lx->p++;
    }
    lx->tline = lx->line;
    if (!*lx->p) {
        lx->kind = T_END;
        lx->text[0] = 0;
        return 0;
    }
    if (*lx->p == '"') {
        size_t n = 0;
        lx->p++;
        while (*lx->p && *lx->p != '"') {
            if (*lx->p == '\n')
                lx->line++;
            if (n + 1 < sizeof lx->text)
                lx->text[n++] = isspace((unsigned char)*lx->p) ? ' ' : *lx->p;
            lx->p++;
        }
        if (!*lx->p)
            return lex_error(lx, lx->tline, "a string is not closed (missing '\"')");
        lx->p++;
        /* a string that spans lines: its line breaks and indentation are one space */
        size_t w = 0;
        for (size_t r = 0; r < n; r++)
            if (!(lx->text[r] == ' ' && w && lx->text[w - 1] == ' '))
                lx->text[w++] = lx->text[r];
        lx->text[w] = 0;
        lx->kind = T_STRING;
        return 0;
    }
    size_t n = 0;
    while (*lx->p && !isspace((unsigned char)*lx->p) && *lx->p != '"' && *lx->p != ';') {
        if (n + 1 < sizeof lx->text)
            lx->text[n++] = *lx->p;
        lx->p++;
    }
    lx->text[n] = 0;
    if (lx->text[0] == '#' && (lx->text[1] == 'x' || lx->text[1] == 'X')) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(lx->text + 2, &end, 16);
        if (!lx->text[2] || *end || errno || v > UINT32_MAX)
            return lex_error(lx, lx->tline, "'%s' is not a 32-bit mask #xHEX", lx->text);
        lx->kind = T_MASK;
        lx->mask = (uint32_t)v;
        return 0;
    }
    char *end;
    errno = 0;
    double d = strtod(lx->text, &end);
    if (!*end && !errno && end != lx->text) {
        lx->kind = T_NUMBER;
        lx->number = d;
        return 0;
    }
    lx->kind = T_WORD;
    return 0;
}

/* The text of a token into a field, cut to fit. */
static void copy_text(char *dst, size_t size, const char *src)
{
    size_t n = strlen(src);
    if (n >= size)
        n = size - 1;
    memcpy(dst, src, n);
    dst[n] = 0;
}

static int is_op(const char *w)
{
    static const char *const ops[] = {"Value", "Div", "Sum", "Mul", "Sub", "DivMul"};
    for (int i = 0; i < 6; i++)
        if (!strcmp(w, ops[i]))
            return i;
    return -1;
}

/* A counter argument: an integer 0..3. */
static int counter_arg(lexer *lx, const char *op, int *out)
{
    if (lx->kind != T_NUMBER || lx->number != (int)lx->number || lx->number < 0 ||
        lx->number >= QS_NCOUNTERS)
        return lex_error(lx, lx->tline, "%s: '%s' is not a counter number 0 .. %d", op,
                         lx->text, QS_NCOUNTERS - 1);
    *out = (int)lx->number;
    return next(lx);
}

static int parse_ops(lexer *lx, qs_record *r)
{
    while (lx->kind == T_WORD && is_op(lx->text) >= 0) {
        if (r->nops >= QS_MAX_OPS)
            return lex_error(lx, lx->tline, "more than %d operations", QS_MAX_OPS);
        qs_op *op = &r->op[r->nops++];
        char name[16];
        copy_text(name, sizeof name, lx->text);
        op->kind = is_op(name);
        if (next(lx))
            return -1;
        int want = op->kind == QS_OP_VALUE ? 1 : op->kind == QS_OP_SUM || op->kind == QS_OP_MUL
                                                     ? -1 : 2;
        if (op->kind == QS_OP_DIVMUL) {
            if (lx->kind != T_NUMBER)
                return lex_error(lx, lx->tline, "DivMul: '%s' is not a number", lx->text);
            op->number = lx->number;
            if (next(lx))
                return -1;
        }
        if (want > 0) {
            for (int i = 0; i < want; i++)
                if (counter_arg(lx, name, &op->arg[op->nargs++]))
                    return -1;
        } else {
            while (lx->kind == T_NUMBER) {
                if (op->nargs >= QS_NCOUNTERS)
                    return lex_error(lx, lx->tline, "%s: more than %d counters", name,
                                     QS_NCOUNTERS);
                if (counter_arg(lx, name, &op->arg[op->nargs++]))
                    return -1;
            }
            if (op->nargs < 1)
                return lex_error(lx, lx->tline, "%s: no counter argument", name);
        }
    }
    if (!r->nops)
        return lex_error(lx, lx->tline, "CounterOperation: '%s' is not an operation (Value, Div, "
                                        "Sum, Mul, Sub, DivMul)", lx->text);
    return 0;
}

static int parse_strings(lexer *lx, const char *kw, char (*dst)[QS_TEXT], int *n, int max)
{
    int line = lx->tline;
    while (lx->kind == T_STRING) {
        if (*n >= max)
            return lex_error(lx, lx->tline, "%s: more than %d strings", kw, max);
        copy_text(dst[(*n)++], QS_TEXT, lx->text);
        if (next(lx))
            return -1;
    }
    if (!*n)
        return lex_error(lx, line, "%s needs at least one \"string\"", kw);
    return 0;
}

static int flag(lexer *lx, const char *kw, int *out)
{
    if (lx->kind != T_NUMBER || (lx->number != 0 && lx->number != 1))
        return lex_error(lx, lx->tline, "%s takes 0 or 1, not '%s'", kw, lx->text);
    *out = (int)lx->number;
    return next(lx);
}

static int end_record(lexer *lx, qs_record *r)
{
    if (r->is_group)
        return r->nmembers ? 0 : lex_error(lx, r->line, "group '%s' has no StatisticsNames",
                                           r->name);
    if (!r->nmasks && !r->has_hist)
        return lex_error(lx, r->line, "statistic '%s' has neither CounterMasks nor HistogramMask",
                         r->name);
    if (r->accumulator &&
        (!r->nmasks || qs_mask_major(r->mask[0]) != QS_MAJOR_TRANSACTION ||
         !(r->mask[0] & (1u << 24))))
        return lex_error(lx, r->line,
                         "statistic '%s': Accumulator 1 needs counter 0 to accumulate (a "
                         "transaction mask #x7... with bit 24)",
                         r->name);
    if (r->nops != r->nheaders)
        return lex_error(lx, r->line,
                         "statistic '%s': %d operations but %d HeaderStrings (one header per "
                         "result)",
                         r->name, r->nops, r->nheaders);
    for (int i = 0; i < r->nops; i++)
        for (int a = 0; a < r->op[i].nargs; a++)
            if (r->op[i].arg[a] >= r->nmasks)
                return lex_error(lx, r->line,
                                 "statistic '%s': an operation uses counter %d, but the record "
                                 "has %d CounterMasks",
                                 r->name, r->op[i].arg[a], r->nmasks);
    return 0;
}

int qs_config_parse(const char *text, const char *file, qs_config *out, char *err,
                    size_t errlen)
{
    lexer lx = {.p = text, .line = 1, .file = file ? file : "(config)", .err = err,
                .errlen = errlen};
    memset(out, 0, sizeof *out);
    int cap = 0, open = 0, eof = 0;
    qs_record *r = NULL;
    if (next(&lx))
        goto fail;
    while (lx.kind != T_END) {
        if (eof) {
            lex_error(&lx, lx.tline, "'%s' after EndOfFile", lx.text);
            goto fail;
        }
        if (lx.kind != T_WORD) {
            lex_error(&lx, lx.tline, "expected a keyword, found '%s'", lx.text);
            goto fail;
        }
        char kw[64];
        copy_text(kw, sizeof kw, lx.text);
        int kline = lx.tline;
        if (next(&lx))
            goto fail;
        if (!strcmp(kw, "EndOfFile")) {
            if (open) {
                lex_error(&lx, kline, "EndOfFile inside record '%s' (missing EndRecord)",
                          r->name);
                goto fail;
            }
            eof = 1;
            continue;
        }
        if (!strcmp(kw, "Name") || !strcmp(kw, "GroupNames")) {
            if (open) {
                lex_error(&lx, kline, "%s before the EndRecord of '%s' (line %d)", kw, r->name,
                          r->line);
                goto fail;
            }
            if (lx.kind != T_STRING) {
                lex_error(&lx, kline, "%s needs a \"string\"", kw);
                goto fail;
            }
            if (out->n == cap) {
                cap = cap ? 2 * cap : 16;
                qs_record *g = realloc(out->rec, (size_t)cap * sizeof *g);
                if (!g) {
                    lex_error(&lx, kline, "out of memory");
                    goto fail;
                }
                out->rec = g;
            }
            r = &out->rec[out->n++];
            memset(r, 0, sizeof *r);
            copy_text(r->name, sizeof r->name, lx.text);
            r->line = kline;
            r->is_group = !strcmp(kw, "GroupNames");
            for (int i = 0; i < out->n - 1; i++)
                if (!strcmp(out->rec[i].name, r->name)) {
                    lex_error(&lx, kline, "'%s' is defined twice (first at line %d)", r->name,
                              out->rec[i].line);
                    goto fail;
                }
            open = 1;
            if (next(&lx))
                goto fail;
            continue;
        }
        if (!open) {
            lex_error(&lx, kline, "%s outside a record (a record starts with Name or GroupNames)",
                      kw);
            goto fail;
        }
        int rc = 0;
        if (!strcmp(kw, "EndRecord")) {
            rc = end_record(&lx, r);
            open = 0;
        } else if (!strcmp(kw, "CounterMasks")) {
            while (lx.kind == T_MASK && !rc) {
                if (r->nmasks >= QS_NCOUNTERS) {
                    rc = lex_error(&lx, lx.tline, "more than %d CounterMasks", QS_NCOUNTERS);
                    break;
                }
                r->mask[r->nmasks++] = lx.mask;
                rc = next(&lx);
            }
            if (!rc && !r->nmasks)
                rc = lex_error(&lx, kline, "CounterMasks needs masks #xHEX");
        } else if (!strcmp(kw, "CounterOperation")) {
            rc = parse_ops(&lx, r);
        } else if (!strcmp(kw, "HeaderStrings")) {
            rc = parse_strings(&lx, kw, r->header, &r->nheaders, QS_MAX_OPS);
        } else if (!strcmp(kw, "HistogramMask")) {
            if (lx.kind != T_MASK)
                rc = lex_error(&lx, kline, "HistogramMask needs a mask #xHEX");
            else {
                r->has_hist = 1;
                r->hist_mask = lx.mask;
                rc = next(&lx);
            }
        } else if (!strcmp(kw, "HistogramHeaderStrings")) {
            rc = parse_strings(&lx, kw, r->hist_header, &r->nhist_headers, QS_MAX_OPS);
        } else if (!strcmp(kw, "HistogramOperation")) {
            if (lx.kind != T_WORD || strcmp(lx.text, "Histogram"))
                rc = lex_error(&lx, kline, "HistogramOperation: only Histogram is allowed, not "
                                           "'%s'", lx.text);
            else
                rc = next(&lx);
        } else if (!strcmp(kw, "TimeFlag")) {
            rc = flag(&lx, kw, &r->timeflag);
        } else if (!strcmp(kw, "Accumulator")) {
            rc = flag(&lx, kw, &r->accumulator);
        } else if (!strcmp(kw, "Help")) {
            if (lx.kind != T_STRING)
                rc = lex_error(&lx, kline, "Help needs a \"string\"");
            else {
                copy_text(r->help, sizeof r->help, lx.text);
                rc = next(&lx);
            }
        } else if (!strcmp(kw, "StatisticsNames")) {
            if (!r->is_group)
                rc = lex_error(&lx, kline, "StatisticsNames outside a GroupNames record");
            else
                rc = parse_strings(&lx, kw, r->member, &r->nmembers, QS_MAX_MEMBERS);
        } else {
            rc = lex_error(&lx, kline, "unknown keyword '%s'", kw);
        }
        if (rc)
            goto fail;
    }
    if (open) {
        lex_error(&lx, r->line, "record '%s' has no EndRecord", r->name);
        goto fail;
    }
    if (!eof) {
        lex_error(&lx, lx.line, "no EndOfFile at the end of the file");
        goto fail;
    }
    for (int i = 0; i < out->n; i++)
        for (int k = 0; out->rec[i].is_group && k < out->rec[i].nmembers; k++)
            if (!qs_config_find(out, out->rec[i].member[k])) {
                lex_error(&lx, out->rec[i].line, "group '%s': no statistic named '%s'",
                          out->rec[i].name, out->rec[i].member[k]);
                goto fail;
            }
    return 0;
fail:
    qs_config_free(out);
    return -1;
}

void qs_config_free(qs_config *c)
{
    free(c->rec);
    c->rec = NULL;
    c->n = 0;
}

const qs_record *qs_config_find(const qs_config *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (!c->rec[i].is_group && !strcmp(c->rec[i].name, name))
            return &c->rec[i];
    return NULL;
}

static const qs_record *find_any(const qs_config *c, const char *name)
{
    for (int i = 0; i < c->n; i++)
        if (!strcmp(c->rec[i].name, name))
            return &c->rec[i];
    return NULL;
}

static int select_record(qs_plan *pl, const qs_record *r, char *err, size_t errlen)
{
    for (int i = 0; i < pl->nselected; i++)
        if (pl->selected[i] == r)
            return 0; /* asked twice: once is enough */
    if (pl->nselected >= QS_MAX_SELECTED) {
        snprintf(err, errlen, "more than %d statistics requested", QS_MAX_SELECTED);
        return -1;
    }
    pl->selected[pl->nselected++] = r;
    return 0;
}

/* Place record r in run k if its masks fit (shared masks counted once). */
static int try_place(qs_plan *pl, int k, const qs_record *r, int *slot)
{
    qs_run *run = &pl->run[k];
    if (r->has_hist && run->has_hist && run->hist != r->hist_mask)
        return 0;
    uint32_t counters[QS_NCOUNTERS];
    int n = run->ncounters;
    memcpy(counters, run->counter, sizeof counters);
    for (int i = 0; i < r->nmasks; i++) {
        int j = 0;
        while (j < n && counters[j] != r->mask[i])
            j++;
        if (j == n) {
            if (n == QS_NCOUNTERS)
                return 0;
            counters[n++] = r->mask[i];
        }
        slot[i] = j;
    }
    run->ncounters = n;
    memcpy(run->counter, counters, sizeof counters);
    if (r->has_hist) {
        run->has_hist = 1;
        run->hist = r->hist_mask;
    }
    return 1;
}

int qs_plan_make(const qs_config *c, const char *names, qs_plan *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (!names || !*names || !strcmp(names, "all")) {
        for (int i = 0; i < c->n; i++)
            if (!c->rec[i].is_group && select_record(out, &c->rec[i], err, errlen))
                return -1;
    } else {
        char buf[4096];
        copy_text(buf, sizeof buf, names);
        char *save = NULL;
        for (char *nm = strtok_r(buf, ",", &save); nm; nm = strtok_r(NULL, ",", &save)) {
            const qs_record *r = find_any(c, nm);
            if (!r) {
                snprintf(err, errlen, "no statistic or group named '%s' in the configuration",
                         nm);
                return -1;
            }
            if (!r->is_group) {
                if (select_record(out, r, err, errlen))
                    return -1;
                continue;
            }
            for (int k = 0; k < r->nmembers; k++)
                if (select_record(out, qs_config_find(c, r->member[k]), err, errlen))
                    return -1;
        }
    }
    if (!out->nselected) {
        snprintf(err, errlen, "no statistic selected");
        return -1;
    }
    /* first fit in request order: the paper's example (four statistics of
     * two masks each) gives two runs of two statistics */
    for (int i = 0; i < out->nselected; i++) {
        const qs_record *r = out->selected[i];
        int k = 0;
        while (k < out->nruns && !try_place(out, k, r, out->slot[i]))
            k++;
        if (k == out->nruns) {
            if (out->nruns >= QS_MAX_RUNS) {
                snprintf(err, errlen, "the statistics need more than %d runs", QS_MAX_RUNS);
                return -1;
            }
            out->nruns++;
            try_place(out, k, r, out->slot[i]);
        }
        out->run_of[i] = k;
    }
    return 0;
}

void qs_evaluate(const qs_record *r, const uint64_t *cv, double *res)
{
    for (int i = 0; i < r->nops; i++) {
        const qs_op *op = &r->op[i];
        double a = (double)cv[op->arg[0]], b = op->nargs > 1 ? (double)cv[op->arg[1]] : 0;
        double v = 0;
        switch (op->kind) {
        case QS_OP_VALUE: v = a; break;
        case QS_OP_DIV: v = b != 0 ? a / b : NAN; break;
        case QS_OP_SUB: v = a - b; break;
        case QS_OP_SUM:
            for (int k = 0; k < op->nargs; k++)
                v += (double)cv[op->arg[k]];
            break;
        case QS_OP_MUL:
            v = 1;
            for (int k = 0; k < op->nargs; k++)
                v *= (double)cv[op->arg[k]];
            break;
        case QS_OP_DIVMUL: v = b != 0 ? op->number * a / b : NAN; break;
        }
        res[i] = v;
    }
}
