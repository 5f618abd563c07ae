# protocol/sim/: simulated machines driven by the coherence engine.  Pure
# like protocol/: caches, networks, timing models, statistics collectors.
#   machines.c   the registry of machine models (one line per model)
#   fixed.c      uniform and numa (fixed latencies, MemSpy)
#   flash.c      FLASH: MAGIC handler latency and occupancy, 2-D mesh,
#                FlashPoint's mode costs
#   memspy.c, flashpoint.c  the MemSpy and FlashPoint collectors
#   alewife.c    MIT Alewife: LimitLESS directory, Fig. 4.1 mesh, packet classes
#   quickstep.c, quickstep_config.c  the CMMU's counters; QuickStep's
#                configuration language, resource allocator, operations
#   origin.c     SGI Origin 2000: Hubs, SysAD, bristled hypercube, the
#                ccNUMA profiler's counters
# libdsmsim.la needs libdsmproto.la (link both: not merged here, so libdsm
# can take both without duplicate objects).
noinst_LTLIBRARIES += libdsmsim.la
libdsmsim_la_SOURCES = \
	protocol/sim/sim.h protocol/sim/timing.h \
	protocol/sim/sim.c protocol/sim/machines.c protocol/sim/fixed.c protocol/sim/net.c \
	protocol/sim/evq.h protocol/sim/evq.c \
	protocol/sim/cache.h protocol/sim/cache.c \
	protocol/sim/flash.h protocol/sim/flash.c \
	protocol/sim/flashpoint.h protocol/sim/flashpoint.c \
	protocol/sim/memspy.h protocol/sim/memspy.c \
	protocol/sim/alewife.h protocol/sim/alewife.c \
	protocol/sim/quickstep.h protocol/sim/quickstep.c protocol/sim/quickstep_config.c \
	protocol/sim/origin.h protocol/sim/origin.c
