# dsm/tools/checkpass/: dsmcheck.so, the LLVM pass plugin of block mode
# (dsmcc --dsm; dsmcheck.cpp says what it emits, loops.cpp and globals.cpp
# its loop-level checks and the region globals kept in registers), built
# with the clang++ of the LLVM configure found (m4/dsm_llvm.m4) and
# installed as $(pkglibdir)/dsmcheck.so.  A plain rule, not libtool: the
# plugin is loaded by clang, never linked.
EXTRA_DIST += dsm/tools/checkpass/dsmcheck.cpp dsm/tools/checkpass/loops.cpp \
	dsm/tools/checkpass/globals.cpp dsm/tools/checkpass/dsmcheck.h \
	dsm/tools/checkpass/simpass.cpp dsm/simfront/sim_inline.c
if HAVE_LLVM
dsmplugindir = $(pkglibdir)
dsmplugin_DATA = dsm/tools/checkpass/dsmcheck.so
CLEANFILES += dsm/tools/checkpass/dsmcheck.so
DSMCHECK_CXXFLAGS = -isystem $(LLVM_INCLUDEDIR) -std=c++17 -fno-rtti -fno-exceptions -fPIC \
	-D_GNU_SOURCE -D__STDC_CONSTANT_MACROS -D__STDC_FORMAT_MACROS -D__STDC_LIMIT_MACROS \
	-O2 -Wall -Wextra -Werror
DSMCHECK_SRC = $(top_srcdir)/dsm/tools/checkpass/dsmcheck.cpp \
	$(top_srcdir)/dsm/tools/checkpass/loops.cpp $(top_srcdir)/dsm/tools/checkpass/globals.cpp \
	$(top_srcdir)/dsm/tools/checkpass/simpass.cpp
dsm/tools/checkpass/dsmcheck.so: $(DSMCHECK_SRC) $(top_srcdir)/dsm/tools/checkpass/dsmcheck.h
	$(AM_V_GEN)$(MKDIR_P) dsm/tools/checkpass && \
	$(LLVM_CLANGXX) $(DSMCHECK_CXXFLAGS) -I$(top_srcdir)/dsm/tools/checkpass -shared -o $@ \
	  $(DSMCHECK_SRC)
# dsmsim.bc: the hooks' test of a simulated reference (sim_inline.c), which
# the simulation flavour of the pass inlines into programs (dsmcc --sim)
dsmplugin_DATA += dsm/tools/checkpass/dsmsim.bc
CLEANFILES += dsm/tools/checkpass/dsmsim.bc
dsm/tools/checkpass/dsmsim.bc: $(top_srcdir)/dsm/simfront/sim_inline.c \
	  $(top_srcdir)/dsm/simfront/hook_path.h $(top_srcdir)/dsm/simfront/simfront.h \
	  $(top_srcdir)/protocol/sim/sim.h
	$(AM_V_GEN)$(MKDIR_P) dsm/tools/checkpass && \
	$(LLVM_CLANG) -O2 -fPIC -emit-llvm -I$(top_srcdir)/dsm/simfront -I$(top_srcdir)/protocol \
	  -c -o $@ $(top_srcdir)/dsm/simfront/sim_inline.c
endif
