# protocol/: the coherence engine (pure C: no I/O, no threads, no clocks).
#   sharers*.c  the sharer-set representations: bit vector, and the linked
#               pointer lists of FLASH's dynamic pointer allocation, and
#               Alewife's LimitLESS pointers with their software extension
noinst_LTLIBRARIES += libdsmproto.la
libdsmproto_la_SOURCES = \
	protocol/proto.h \
	protocol/sharers.h protocol/sharers.c \
	protocol/sharers_list.h protocol/sharers_list.c \
	protocol/sharers_limitless.h protocol/sharers_limitless.c \
	protocol/engine.c protocol/table.c protocol/names.c protocol/augment.c \
	protocol/engine_internal.h \
	protocol/counters.h protocol/counters.c \
	protocol/growable.h

include protocol/sim/local.mk
