# profile/: statistics of simulated machines: MemSpy bins and
# sampling, the dsm-sim/1 file, dsmprof renderings (doc/sim-format.md).
#   protocol/sim/memspy.c  the MemSpy collector (pure; part of the machine
#                          library, listed here by the statistics part)
#   profile/simprof.c      attaches the collectors to a machine and writes the
#                          dsm-sim/1 file at finalize (libdsm); the rendering
#                          is profile/simprof_json.c
#   profile/dsmprof_sim.c  dsmprof memspy
#   profile/flashpoint_json.c     the "flashpoint" section of dsm-sim/1 (libdsm,
#                          next to simprof.c, which embeds it)
#   profile/dsmprof_flashpoint.c  dsmprof flashpoint RUN CONTROL: Tables 1-3
EXTRA_DIST += doc/sim-format.md

dsmprof_SOURCES += profile/dsmprof_sim.c
# libdsm writes the file at finalize (dsm/sim_run.c); the machine library
# (protocol/sim/local.mk) carries the collector.
libdsm_la_SOURCES += profile/simprof.h profile/simprof.c profile/simprof_json.c \
	profile/flashpoint_json.h profile/flashpoint_json.c
dsmprof_SOURCES += profile/dsmprof_flashpoint.c
libdsmsim_la_SOURCES += protocol/sim/memspy.h protocol/sim/memspy.c
