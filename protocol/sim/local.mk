# protocol/sim/: simulated machines driven by the coherence engine (issue 6).
# Pure like protocol/: caches, networks, timing, statistics collectors.
# libdsmsim.la needs libdsmproto.la (link both: not merged here, so libdsm
# can take both without duplicate objects).  The FLASH model and FlashPoint
# are added by flash.mk.
noinst_LTLIBRARIES += libdsmsim.la
libdsmsim_la_SOURCES = \
	protocol/sim/sim.h protocol/sim/timing.h \
	protocol/sim/sim.c protocol/sim/machines.c protocol/sim/fixed.c protocol/sim/net.c \
	protocol/sim/evq.h protocol/sim/evq.c \
	protocol/sim/cache.h protocol/sim/cache.c

