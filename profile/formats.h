/* formats.h - the schema strings of the files profile/ writes and dsmprof
 * reads, in one place so that a writer and its reader cannot disagree.
 * Bump a string on an incompatible change (doc/profile-format.md,
 * doc/sim-format.md say what counts as one). */
#ifndef DSM_FORMATS_H
#define DSM_FORMATS_H

/* the data-centric profile of a run (doc/profile-format.md) */
#define PROFILE_SCHEMA "dsm-profile/2"
/* the statistics of a simulated run (doc/sim-format.md) */
#define SIM_SCHEMA "dsm-sim/1"
/* the "flashpoint" section of a dsm-sim/1 file (flashpoint_json.h) */
#define FLASHPOINT_SCHEMA "flashpoint/1"
/* the "origin" section of dsm-sim/1 on the Origin 2000 (origin_json.h) */
#define ORIGIN_SCHEMA "origin/1"

#endif
