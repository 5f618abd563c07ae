# dsm/tools/: the launcher dsmrun (dsmrun.1) and the compiler wrapper dsmcc
# (dsmcc.1).
bin_PROGRAMS += dsmrun
dsmrun_SOURCES = dsm/tools/dsmrun.c dsm/tools/dsmrun_quickstep.c dsm/tools/dsmrun_quickstep.h dsm/settings.h dsm/settings.c dsm/settings_table.c \
	dsm/transport/shm_layout.h
# dsmrun --machine=list and the check of machine names before the run
dsmrun_LDADD = libdsmsim.la libdsmproto.la $(PTHREAD_LIBS)
# per-target flags give dsmrun its own objects of the files it shares with libdsm
dsmrun_CFLAGS = $(AM_CFLAGS)

# dsmcc: the install paths are filled in by make (they may change at
# `make install prefix=...`); DSMCC_CC, DSMCC_INCLUDEDIR and DSMCC_LIBDIR
# override them at run time (the tests use the build tree that way).
bin_SCRIPTS = dsmcc
CLEANFILES += dsmcc
EXTRA_DIST += dsm/tools/dsmcc.in
dsmcc: $(top_srcdir)/dsm/tools/dsmcc.in Makefile
	$(AM_V_GEN)sed -e 's|@CC[@]|$(CC)|g' -e 's|@includedir[@]|$(includedir)|g' \
	  -e 's|@libdir[@]|$(libdir)|g' -e 's|@DSMCC_CFLAGS[@]|$(DSMCC_CFLAGS)|g' \
	  -e 's|@PACKAGE_VERSION[@]|$(PACKAGE_VERSION)|g' -e 's|@LLVM_CLANG[@]|$(LLVM_CLANG)|g' \
	  -e 's|@pkglibdir[@]|$(pkglibdir)|g' $(top_srcdir)/dsm/tools/dsmcc.in > $@.tmp && \
	chmod +x $@.tmp && mv $@.tmp $@

include dsm/tools/checkpass/local.mk
# dsm-parmacs: the PARMACS (SPLASH) macros for m4, installed as data;
# `pkg-config --variable=parmacs dsm` names it (dsm.pc), doc/dsm-parmacs.7
dsmdatadir = $(datadir)/dsm
dist_dsmdata_DATA = dsm/tools/dsm-parmacs
