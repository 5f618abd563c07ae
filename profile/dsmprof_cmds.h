/* dsmprof_cmds.h - the `dsmprof html` and `dsmprof advice` commands, kept
 * apart from dsmprof.c's main so that they can be written and tested on
 * their own.  Each is called with argv[0] the command's name ("html",
 * "advice") and the rest of the command line after it; each loads and
 * checks the profile itself.  Exit status as dsmprof's other commands: 0,
 * 1 on bad usage (options, DSM_ADVICE_* values) or a write error, 2 on bad
 * input (a file that cannot be read, is not JSON or not dsm-profile/1). */
#ifndef DSM_DSMPROF_CMDS_H
#define DSM_DSMPROF_CMDS_H

int dsmprof_cmd_html(int argc, char **argv);
int dsmprof_cmd_advice(int argc, char **argv);

#endif
