# protocol/: the coherence engine (pure C: no I/O, no threads, no clocks).
noinst_LTLIBRARIES += libdsmproto.la
libdsmproto_la_SOURCES = \
	protocol/proto.h \
	protocol/sharers.h protocol/sharers.c \
	protocol/engine.c protocol/table.c protocol/names.c protocol/augment.c \
	protocol/engine_internal.h \
	protocol/counters.h protocol/counters.c
