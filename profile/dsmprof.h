/* dsmprof.h - what dsmprof's commands share.
 *
 * dsmprof (doc/dsmprof.1) renders reports from the files a run leaves:
 * the data-centric profile (dsm-profile/2) and a simulated run's
 * statistics (dsm-sim/1).  profile/dsmprof.c holds the command table, the
 * dispatch and --help; each command is a function of its command line
 * (argv[0] its name) returning the exit status:
 *   report, csv, diff   profile/dsmprof_report.c
 *   html, advice        profile/dsmprof_cmds.c (html.c, advice.c render)
 *   memspy              profile/dsmprof_sim.c
 *   flashpoint          profile/dsmprof_flashpoint.c
 *   quickstep           profile/dsmprof_quickstep.c
 * Every command reads its files through dsmprof_load (pschema.h), so a
 * renderer sees only documents that passed their schema, and prints names
 * from the files through ptext_term, so a name cannot drive the terminal.
 * No command exits or keeps state between calls: the tests run many
 * command lines in one process (tests/dsmprof_mutate.c, fuzz_dsmprof.c). */
#ifndef DSM_DSMPROF_H
#define DSM_DSMPROF_H

#include <json.h>
#include <stdio.h>

#include "pschema.h"
#include "ptext.h"

/* exit statuses (flashpoint --check adds 3) */
enum {
    DSMPROF_OK = 0,
    DSMPROF_USAGE = 1,     /* bad command line, or output that could not be written */
    DSMPROF_BAD_INPUT = 2, /* a file that cannot be read, is not JSON or breaks its schema */
};

/* A command line, argv[0] being "dsmprof": the exit status.  Standard
 * output is left to the caller (dsmprof_main.c flushes, checks and closes
 * it). */
int dsmprof_run(int argc, char **argv);

/* Flush and close standard output at exit: rc, or DSMPROF_USAGE after a
 * line on stderr when rc was 0 and the output could not be written (a full
 * disk, /dev/full, a closed descriptor). */
int dsmprof_close_stdout(int rc);

/* The commands. */
int dsmprof_report(int argc, char **argv);
int dsmprof_csv(int argc, char **argv);
int dsmprof_diff(int argc, char **argv);
int dsmprof_html(int argc, char **argv);
int dsmprof_advice(int argc, char **argv);
int dsmprof_memspy(int argc, char **argv);
int dsmprof_flashpoint(int argc, char **argv);
int dsmprof_quickstep(int argc, char **argv);
int dsmprof_origin(int argc, char **argv);

/* "Usage: dsmprof NAME ARGS" from the command table, one line; with
 * dsmprof_command_help, the table's help lines for it after it. */
void dsmprof_usage(FILE *f, const char *name);
void dsmprof_command_help(FILE *f, const char *name);

/* Read and validate a file: the document (the caller puts it), or NULL
 * after one line "dsmprof: FILE: why" on stderr. */
json_object *dsmprof_load(const char *file, const pschema *schema, const pschema_need *need);

/* --top N: 0 and *top, or DSMPROF_USAGE after a line naming the command. */
int dsmprof_parse_top(const char *cmd, const char *arg, int *top);

#endif
