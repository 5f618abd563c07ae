# protocol/sim/flash.mk - the FLASH machine and FlashPoint (issue 6).
#   protocol/sharers_list.c     dynamic pointer allocation sharer lists (the
#                               FLASH directory), one of the engine's sharer-set
#                               representations
#   protocol/sim/flash.c        FLASH timing model (timing.h): MAGIC handler
#                               classes, latency and occupancy, 2-D mesh,
#                               FlashPoint mode costs
#   protocol/sim/flashpoint.c   FlashPoint's per (procedure, bin) collector
# The JSON section and `dsmprof flashpoint` (profile/flashpoint_json.c,
# profile/dsmprof_flashpoint.c) are listed in profile/sim.mk.
libdsmproto_la_SOURCES += protocol/sharers_list.h protocol/sharers_list.c
libdsmsim_la_SOURCES += protocol/sim/flash.h protocol/sim/flash.c \
	protocol/sim/flashpoint.h protocol/sim/flashpoint.c
