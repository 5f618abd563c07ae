/* dsmrun_quickstep.h - dsmrun --quickstep (dsmrun_quickstep.c): the
 * statistics of a QuickStep configuration file on the simulated Alewife,
 * one run of the program per run the resource allocator plans, merged into
 * a raw data file. */
#ifndef DSMRUN_QUICKSTEP_H
#define DSMRUN_QUICKSTEP_H

/* spec: CONFIG[:NAME,...]; slice: timeslice in cycles (NULL: overall).
 * Returns dsmrun's exit status. */
int dsmrun_quickstep(const char *prog_name, const char *machine, int nprocs,
                     const char *quantum, double timeout_s, char **cmd, const char *spec,
                     const char *out_path, const char *slice);

#endif
