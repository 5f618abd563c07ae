/* dsmprof.c - dsmprof's command table, its dispatch and `dsmprof --help`,
 * generated from the table, plus the helpers the commands share
 * (dsmprof.h).  Bad input (a missing file, not JSON, a field of the wrong
 * type or out of range) is one line on stderr and exit status 2; a bad
 * command line, or output that cannot be written, exit status 1. */
#include "dsmprof.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "formats.h"

typedef struct dsmprof_cmd {
    const char *name;
    const char *args; /* what follows "dsmprof NAME" in a usage line */
    int (*run)(int argc, char **argv);
    const char *help; /* dsmprof --help's lines for it, '\n'-separated */
} dsmprof_cmd;

static const dsmprof_cmd commands[] = {
    { "report", "FILE [--structure NAME] [--top N]", dsmprof_report,
      "rankings by structure, by procedure, by (procedure, structure)\n"
      "pair, and per node; --structure NAME: that structure in detail\n"
      "(miss kinds and causes, patterns, hottest blocks, false-sharing\n"
      "offsets); --top N: rows per ranking (default 10)" },
    { "csv", "FILE [--view VIEW]", dsmprof_csv,
      "one table per view: structures, procedures, pairs, nodes, blocks,\n"
      "false_sharing; --view VIEW: only that one" },
    { "diff", "BEFORE AFTER", dsmprof_diff,
      "memory blocking time, misses and false sharing per structure,\n"
      "before and after" },
    { "html", "FILE [-o OUT.html] [--title TEXT] [--threshold-NAME=PCT]...", dsmprof_html,
      "one self-contained page with SVG charts (dsmprof html --help)" },
    { "advice", "FILE [--first] [--threshold-NAME=PCT]...", dsmprof_advice,
      "the findings of the bottleneck search (doc/advice.md)" },
    { "memspy", "FILE [--bin NAME] [--top N]", dsmprof_memspy,
      "MemSpy's displays of a simulated run (dsmprof memspy --help)" },
    { "flashpoint", "RUN CONTROL [--top N] [--check=MISS,SHARE,TIME]", dsmprof_flashpoint,
      "FlashPoint's tables of a simulated FLASH run against its control run" },
    { "quickstep", "RAW [--stat NAME] [--html OUT]", dsmprof_quickstep,
      "QuickStep's tables and hop histograms of a simulated Alewife run\n"
      "(the raw data file of dsmrun --quickstep)" },
    { "origin", "FILE [--dump] [--node N] [--html OUT]", dsmprof_origin,
      "the Origin 2000 profiler's threads, nodes and links of a simulated\n"
      "Origin run (like sninfo); --dump: its timestamped samples (like sndump);\n"
      "--html OUT: the traces plotted over time" },
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

void dsmprof_usage(FILE *f, const char *name)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(commands[i].name, name))
            fprintf(f, "Usage: dsmprof %s %s\n", name, commands[i].args);
}

/* A command's help lines, indented by `indent` after the first line. */
static void help_lines(FILE *f, const char *h, int indent)
{
    while (*h) {
        size_t n = strcspn(h, "\n");
        fprintf(f, "%.*s\n", (int)n, h);
        h += n;
        if (*h == '\n' && *++h)
            fprintf(f, "%*s", indent, "");
    }
}

void dsmprof_command_help(FILE *f, const char *name)
{
    dsmprof_usage(f, name);
    for (size_t i = 0; i < NCOMMANDS; i++)
        if (!strcmp(commands[i].name, name)) {
            fprintf(f, "  ");
            help_lines(f, commands[i].help, 2);
        }
}

static void help(FILE *f)
{
    for (size_t i = 0; i < NCOMMANDS; i++)
        fprintf(f, "%s dsmprof %s %s\n", i ? "      " : "Usage:", commands[i].name,
                commands[i].args);
    fprintf(f, "Reports from a DSM profile (%s, written by every run at dsm_finalize),\n"
               "and from a simulated run's statistics (%s, written by dsmrun --machine).\n\n",
            PROFILE_SCHEMA, SIM_SCHEMA);
    for (size_t i = 0; i < NCOMMANDS; i++) {
        fprintf(f, "  %-10s  ", commands[i].name);
        help_lines(f, commands[i].help, 14);
    }
    fprintf(f, "  -h, --help  show this help and exit\n"
               "  --version   show the version and exit\n"
               "\n"
               "Exit status: 0 ok, 1 bad usage or output that could not be written, 2 bad input\n"
               "(a missing or unreadable file, not a regular file, not JSON, another schema, a\n"
               "field of the wrong type or out of range, an unknown structure or bin).\n");
}

int dsmprof_run(int argc, char **argv)
{
    int rc;
    if (argc < 2) {
        help(stderr);
        rc = DSMPROF_USAGE;
    } else if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        help(stdout);
        rc = DSMPROF_OK;
    } else if (!strcmp(argv[1], "--version")) {
        printf("dsmprof (dsm) reads %s and %s\n", PROFILE_SCHEMA, SIM_SCHEMA);
        rc = DSMPROF_OK;
    } else {
        const dsmprof_cmd *c = NULL;
        for (size_t i = 0; i < NCOMMANDS && !c; i++)
            if (!strcmp(commands[i].name, argv[1]))
                c = &commands[i];
        if (c) {
            rc = c->run(argc - 1, argv + 1);
        } else {
            fprintf(stderr, "dsmprof: unknown command '%s' (", ptext_term(argv[1]));
            for (size_t i = 0; i < NCOMMANDS; i++)
                fprintf(stderr, "%s%s", i ? ", " : "", commands[i].name);
            fprintf(stderr, "; see dsmprof --help)\n");
            rc = DSMPROF_USAGE;
        }
    }
    ptext_release();
    return rc;
}

int dsmprof_close_stdout(int rc)
{
    /* a report cut short by a full disk must not look like a report */
    errno = 0;
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    if (fclose(stdout) != 0 && !bad) {
        bad = 1;
        e = errno;
    }
    /* a command that failed has said why in its one line already */
    if (!bad || rc)
        return rc;
    fprintf(stderr, "dsmprof: write error on standard output%s%s\n", e ? ": " : "",
            e ? strerror(e) : "");
    return DSMPROF_USAGE;
}

json_object *dsmprof_load(const char *file, const pschema *s, const pschema_need *need)
{
    json_object *doc;
    char err[512];
    if (pschema_load(file, s, need, &doc, err, sizeof err)) {
        fprintf(stderr, "dsmprof: %s: %s\n", ptext_term(file), err);
        return NULL;
    }
    return doc;
}

int dsmprof_parse_top(const char *cmd, const char *arg, int *top)
{
    char *end;
    errno = 0;
    long v = strtol(arg, &end, 10);
    if (errno || end == arg || *end || v < 1 || v > 1000000) {
        fprintf(stderr, "dsmprof %s: --top '%s': expected a number from 1 to 1000000\n", cmd,
                ptext_term(arg));
        return DSMPROF_USAGE;
    }
    *top = (int)v;
    return 0;
}
