# dsm/simfront/: the front end that runs a program on a simulated machine
# (protocol/sim/): the instrumentation hooks (__tsan_*, __cyg_profile_*),
# procedure stacks, the simulated processors and their scheduler, and the
# dsm.h calls in simulation mode (simfront.h says which file does what).
# DSMCC_CFLAGS is the instrumentation of programs built in this tree:
# prog_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS) with a link line without them
# (DSMCC_LINK below), so gcc never links libtsan: libdsm is
# the runtime of the hooks.
libdsm_internal_la_SOURCES += dsm/simfront/simfront.h dsm/simfront/hooks.c dsm/simfront/hook_path.h \
	dsm/simfront/procs.c dsm/simfront/sched.c dsm/simfront/run.c dsm/simfront/api.c \
	dsm/simfront/quickstep.c \
	dsm/simfront/tasks.c
DSMCC_CFLAGS = -fsanitize=thread -finstrument-functions
# A program built with the instrumentation links without it, so gcc does not
# link libtsan (libdsm is the hooks' runtime): prog_LINK = $(DSMCC_LINK).
DSMCC_LINK = $(LIBTOOL) $(AM_V_lt) --tag=CC $(AM_LIBTOOLFLAGS) $(LIBTOOLFLAGS) --mode=link \
	$(CCLD) $(AM_CFLAGS) $(CFLAGS) $(AM_LDFLAGS) $(LDFLAGS) -o $@
