# dsm/transport/: the transports behind dsm/transport/transport.h and their
# registry (registry.c, which lists those built).  shm is always built; mpi
# when configure found MPI; verbs (RDMA) when it found libibverbs, with MPI
# as its bootstrap.  The device-free part of verbs (verbs_plan.c) is always
# built, so its unit test runs everywhere.
libdsm_internal_la_SOURCES += \
	dsm/transport/transport.h dsm/transport/registry.c \
	dsm/transport/shm_layout.h dsm/transport/shm.c \
	dsm/transport/mpi_transport.h \
	dsm/transport/verbs_transport.h dsm/transport/verbs_plan.h dsm/transport/verbs_plan.c
if HAVE_MPI
libdsm_internal_la_SOURCES += dsm/transport/mpi.c \
	dsm/transport/mpi_lifeline.h dsm/transport/mpi_lifeline.c \
	dsm/transport/mpi_bell.h dsm/transport/mpi_bell.c \
	dsm/transport/mpi_shm.h dsm/transport/mpi_shm.c
libdsm_internal_la_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CFLAGS)
libdsm_internal_la_LIBADD += $(MPI_LIBS)
if HAVE_IBVERBS
libdsm_internal_la_SOURCES += dsm/transport/verbs.c
libdsm_internal_la_LIBADD += $(IBVERBS_LIBS)
endif
endif
