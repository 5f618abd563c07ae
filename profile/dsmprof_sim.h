/* dsmprof_sim.h - the dsmprof commands that read the statistics of a
 * simulated run (a dsm-sim/1 file, doc/sim-format.md):
 *   dsmprof memspy FILE [--bin NAME] [--top N]   MemSpy's displays
 *                                                (profile/dsmprof_sim.c)
 *   dsmprof flashpoint RUN CONTROL               FlashPoint's Tables 1-3 of a
 *                                                run against its control run
 *                                                (profile/dsmprof_flashpoint.c)
 * Each is called with argv[0] the command's name and the rest of the
 * command line after it.  Exit status as dsmprof's other commands: 0, 1 on
 * bad usage, 2 on bad input (a file that cannot be read, is not JSON, not
 * dsm-sim/1, or an unknown bin). */
#ifndef DSM_DSMPROF_SIM_H
#define DSM_DSMPROF_SIM_H

int dsmprof_memspy(int argc, char **argv);
int dsmprof_flashpoint(int argc, char **argv);

#endif
