# tests/verbs.mk - the verbs (RDMA) transport.
#   verbs_unit        Check unit tests of the device-free parts
#                     (dsm/transport/verbs_plan.c): connection records and their
#                     validation, the QP state machine and its attributes,
#                     message framing and RDMA work-request planning; runs
#                     everywhere
#   *.verbs.*.mn      the multi-node tests under mpirun with
#                     DSM_TRANSPORT=verbs: the test matrix (tests/matrix.list)
#                     makes tests/matrix/NAME.verbs.MODE.mn of each; skipped (77)
#                     with the reason where no RDMA device exists
#                     (tests/verbs_env.sh)
#   verbs_nodevice.sh without a device, DSM_TRANSPORT=verbs fails dsm_init
#                     with one line on a 2-node job
#   verbs_probe       lists the RDMA devices (ibv_devices without
#                     ibverbs-utils); the scripts use it to decide
if HAVE_CHECK
check_PROGRAMS += tests/verbs_unit
tests_verbs_unit_SOURCES = tests/verbs_unit.c dsm/transport/verbs_plan.c dsm/msg.c
tests_verbs_unit_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_verbs_unit_LDADD = libdsmproto.la $(CHECK_MAIN)
UNIT_TESTS += tests/verbs_unit
endif

VERBS_TESTS = tests/verbs_nodevice.sh
EXTRA_DIST += $(VERBS_TESTS) tests/verbs_env.sh
if HAVE_IBVERBS
if HAVE_MPI
check_PROGRAMS += tests/verbs_probe
tests_verbs_probe_SOURCES = tests/verbs_probe.c
tests_verbs_probe_LDADD = $(IBVERBS_LIBS)
TESTS += $(VERBS_TESTS)
endif
endif
