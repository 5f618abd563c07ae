# dsm/: the runtime core (doc/internals.md has the map).  Everything the
# library holds is first gathered in the convenience library
# libdsm_internal.la (the rooms below dsm/ and profile/ add their files to
# it); libdsm.la, the installed library, is that with only the API of dsm.h
# and the compiler hooks exported (-fvisibility=hidden, DSM_API).  Tests and
# benchmarks that need the internals link libdsm_internal.la; programs that
# use only dsm.h link libdsm.la, as a user's program does.
noinst_LTLIBRARIES += libdsm_internal.la
libdsm_internal_la_SOURCES = \
	dsm/settings.h dsm/settings.c dsm/settings_table.c \
	dsm/error.h dsm/error.c \
	dsm/futex.h dsm/futex.c \
	dsm/region.h dsm/region.c \
	dsm/node.h dsm/node.c \
	dsm/protect.h dsm/protect.c \
	dsm/park.h dsm/park.c \
	dsm/progress_place.h dsm/progress_place.c \
	dsm/misstrace.h dsm/misstrace.c \
	dsm/msg.h dsm/msg.c \
	dsm/fault.c \
	dsm/decode.h dsm/decode.c \
	dsm/access.h dsm/access.c dsm/blk_signal.c dsm/sig_gate.h dsm/sig_gate.c \
	dsm/alloc.c \
	dsm/jobsync.h dsm/jobsync.c \
	dsm/sync.c dsm/syncid.h dsm/idmap.h dsm/idmap.c \
	dsm/stats.h dsm/stats.c \
	dsm/symbols.h dsm/symbols.c \
	dsm/backend.h dsm/backend.c \
	dsm/api.c \
	dsm/tasks.h dsm/tasks.c dsm/image.c dsm/shared_globals.c dsm/stdin_copy.c dsm/aslr.c
libdsm_internal_la_LIBADD = libdsmproto.la libdsmsim.la libdsmprofile.la \
	$(SIGSEGV_LIBS) $(PTHREAD_LIBS) $(CAPSTONE_LIBS)

lib_LTLIBRARIES += libdsm.la
libdsm_la_SOURCES =
# an empty C source list: tell automake to link with the C compiler
nodist_EXTRA_libdsm_la_SOURCES = dummy.c
libdsm_la_LIBADD = libdsm_internal.la
libdsm_la_LDFLAGS = -version-info 1:0:1

include dsm/transport/local.mk
include dsm/prof/local.mk
include dsm/simfront/local.mk
include dsm/tools/local.mk

# The linker script of DSM_SHARED globals (dsm.pc's Libs and dsmcc use it).
dsmldscriptdir = $(pkglibdir)
dist_dsmldscript_DATA = dsm/dsm_shared.ld
