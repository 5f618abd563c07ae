# dsm/: the runtime library (libdsm) and the launcher dsmrun.
lib_LTLIBRARIES += libdsm.la
libdsm_la_SOURCES = \
	dsm/settings.h dsm/settings.c \
	dsm/error.h dsm/error.c \
	dsm/futex.h dsm/futex.c \
	dsm/transport.h dsm/shm_layout.h dsm/transport_shm.c \
	dsm/region.h dsm/region.c \
	dsm/node.h dsm/node.c \
	dsm/fault.c \
	dsm/alloc.c \
	dsm/sync.c \
	dsm/stats.h dsm/stats.c \
	dsm/api.c
libdsm_la_LIBADD = libdsmproto.la $(SIGSEGV_LIBS) $(PTHREAD_LIBS)
libdsm_la_LDFLAGS = -version-info 0:0:0
# the mpi transport (issue 5), when configure found MPI
libdsm_la_SOURCES += dsm/transport_mpi.h dsm/msg.h dsm/msg.c
if HAVE_MPI
libdsm_la_SOURCES += dsm/transport_mpi.c
libdsm_la_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CFLAGS)
libdsm_la_LIBADD += $(MPI_LIBS)
endif
# the verbs (RDMA) transport (issue 5), when configure found libibverbs; its
# bootstrap is MPI, so it needs MPI too.  The device-free parts are always in.
libdsm_la_SOURCES += dsm/transport_verbs.h dsm/verbs_plan.h dsm/verbs_plan.c
if HAVE_IBVERBS
if HAVE_MPI
libdsm_la_SOURCES += dsm/transport_verbs.c
libdsm_la_LIBADD += $(IBVERBS_LIBS)
endif
endif

bin_PROGRAMS += dsmrun
dsmrun_SOURCES = dsm/dsmrun.c dsm/settings.h dsm/settings.c dsm/shm_layout.h
dsmrun_LDADD = $(PTHREAD_LIBS)
# per-target flags give dsmrun its own objects of the files it shares with libdsm
dsmrun_CFLAGS = $(AM_CFLAGS)
