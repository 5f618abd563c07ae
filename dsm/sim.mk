# dsm/: the simulation front end (issue 6): dsmcc, instrumentation hooks,
# scheduling of simulated processors, dsmrun --machine (dsm/sim_front.h
# says which file does what).
#   libdsm     gets the hooks (__tsan_*, __cyg_profile_*), the scheduler and
#              the dsm.h calls of simulation mode, and links the machines
#              (libdsmsim.la, protocol/sim/local.mk)
#   dsmcc      the compiler wrapper (installed), made from dsm/dsmcc.in
#   DSMCC_CFLAGS  the same instrumentation for programs built in this tree:
#              prog_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS) and a prog_LINK
#              without them (see tests/sim_frontend.mk), so gcc never links
#              libtsan: libdsm is the runtime of the hooks
libdsm_la_SOURCES += dsm/sim_front.h dsm/sim_hooks.c dsm/sim_procs.c dsm/sim_sched.c \
	dsm/sim_run.c dsm/sim_api.c dsm/symbols.h dsm/symbols.c
libdsm_la_LIBADD += libdsmsim.la

DSMCC_CFLAGS = -fsanitize=thread -finstrument-functions

# dsmrun --machine=list and the check of machine names before the run
dsmrun_LDADD += libdsmsim.la libdsmproto.la

# dsmcc: the install paths are filled in by make (they may change at
# `make install prefix=...`); DSMCC_CC, DSMCC_INCLUDEDIR and DSMCC_LIBDIR
# override them at run time (the tests use the build tree that way).
bin_SCRIPTS = dsmcc
CLEANFILES += dsmcc
EXTRA_DIST += dsm/dsmcc.in
dsmcc: $(top_srcdir)/dsm/dsmcc.in Makefile
	$(AM_V_GEN)sed -e 's|@CC[@]|$(CC)|g' -e 's|@includedir[@]|$(includedir)|g' \
	  -e 's|@libdir[@]|$(libdir)|g' -e 's|@DSMCC_CFLAGS[@]|$(DSMCC_CFLAGS)|g' \
	  -e 's|@PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g' $(top_srcdir)/dsm/dsmcc.in > $@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@
