# apps/: example applications, each verifying its own result ("NAME: result OK").
# Run with ./dsmrun -n N apps/NAME [args]; the test matrix runs them on 1-8 nodes
# (tests/matrix.list: apps).
noinst_PROGRAMS += apps/hello apps/jacobi apps/matmul
apps_hello_SOURCES = apps/hello.c
apps_hello_LDADD = libdsm.la
apps_jacobi_SOURCES = apps/jacobi.c
apps_jacobi_LDADD = libdsm.la
apps_matmul_SOURCES = apps/matmul.c
apps_matmul_LDADD = libdsm.la
# particles: the case study of section 4 (doc/case-study.md), --version 1|2|3
noinst_PROGRAMS += apps/particles
apps_particles_SOURCES = apps/particles.c
apps_particles_LDADD = libdsm.la -lm
EXTRA_DIST += doc/case-study.md
# pageslots: block mode's demonstration (slots in 64-byte lines of one page;
# tests/block_demo.sh runs it in page mode and, as apps/blk_pageslots, at 64 B)
noinst_PROGRAMS += apps/pageslots
apps_pageslots_SOURCES = apps/pageslots.c apps/app_util.h
apps_pageslots_LDADD = libdsm.la
# The simulated-machine applications (doc/apps.md): SPLASH-2-style kernels and the MemSpy
# examples; shared helpers in apps/app_util.h.  Built with dsmcc's
# instrumentation (DSMCC_CFLAGS, dsm/simfront/local.mk: load/store and procedure
# entry/exit hooks served by libdsm), so one binary runs natively, on the
# DSM (dsmrun -n N) and simulated (dsmrun --machine=NAME).  The link line
# leaves DSMCC_CFLAGS out, or gcc would link libtsan in place of libdsm's
# hooks.
noinst_PROGRAMS += apps/fft apps/lu apps/radix apps/ocean apps/mm apps/slots
apps_fft_SOURCES = apps/fft.c apps/app_util.h
apps_fft_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS)
apps_fft_LINK = $(DSMCC_LINK)
apps_fft_LDADD = libdsm.la -lm
apps_lu_SOURCES = apps/lu.c apps/app_util.h
apps_lu_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS)
apps_lu_LINK = $(DSMCC_LINK)
apps_lu_LDADD = libdsm.la -lm
apps_radix_SOURCES = apps/radix.c apps/app_util.h
apps_radix_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS)
apps_radix_LINK = $(DSMCC_LINK)
apps_radix_LDADD = libdsm.la
apps_ocean_SOURCES = apps/ocean.c apps/app_util.h
apps_ocean_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS)
apps_ocean_LINK = $(DSMCC_LINK)
apps_ocean_LDADD = libdsm.la -lm
apps_mm_SOURCES = apps/mm.c apps/app_util.h
apps_mm_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS)
apps_mm_LINK = $(DSMCC_LINK)
apps_mm_LDADD = libdsm.la
apps_slots_SOURCES = apps/slots.c apps/app_util.h
apps_slots_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS)
apps_slots_LINK = $(DSMCC_LINK)
apps_slots_LDADD = libdsm.la
EXTRA_DIST += doc/apps.md
# sor: QuickStep's second case study (zgrid, mgrid, cgrid), for the simulated
# Alewife (tests/quickstep_apps.sh)
noinst_PROGRAMS += apps/sor
apps_sor_SOURCES = apps/sor.c
apps_sor_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS)
apps_sor_LINK = $(DSMCC_LINK)
apps_sor_LDADD = libdsm.la
# mp3d: QuickStep's first case study (orig, mp3d, mmp3d), a particle-in-cell
# wind tunnel after SPLASH's MP3D (tests/quickstep_apps.sh)
noinst_PROGRAMS += apps/mp3d
apps_mp3d_SOURCES = apps/mp3d.c
apps_mp3d_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS)
apps_mp3d_LINK = $(DSMCC_LINK)
apps_mp3d_LDADD = libdsm.la
# PARMACS programs (SPLASH style: MAIN_ENV, G_MALLOC, CREATE, LOCK, BARRIER,
# PAUSE, CONDVAR, CLOCK; doc/dsm-parmacs.7): apps/pm_*.C become C through
# the macro file dsm-parmacs at build time, then build like the simulated
# machines' apps (DSMCC_CFLAGS), so one binary runs natively, on the DSM
# and simulated (tests/parmacs_apps.sh runs them all three ways).
PARMACS_M4 = $(top_srcdir)/dsm/tools/dsm-parmacs
PARMACS_GEN = $(AM_V_GEN)m4 $(PARMACS_M4)
noinst_PROGRAMS += apps/pm_lu apps/pm_radix apps/pm_nbody apps/pm_globals
EXTRA_DIST += apps/pm_lu.C apps/pm_radix.C apps/pm_nbody.C apps/pm_globals.C
CLEANFILES += apps/pm_lu.c apps/pm_radix.c apps/pm_nbody.c apps/pm_globals.c
apps/pm_lu.c: $(srcdir)/apps/pm_lu.C $(PARMACS_M4)
	$(PARMACS_GEN) $(srcdir)/apps/pm_lu.C > $@.tmp && mv $@.tmp $@
apps/pm_radix.c: $(srcdir)/apps/pm_radix.C $(PARMACS_M4)
	$(PARMACS_GEN) $(srcdir)/apps/pm_radix.C > $@.tmp && mv $@.tmp $@
apps/pm_nbody.c: $(srcdir)/apps/pm_nbody.C $(PARMACS_M4)
	$(PARMACS_GEN) $(srcdir)/apps/pm_nbody.C > $@.tmp && mv $@.tmp $@
apps/pm_globals.c: $(srcdir)/apps/pm_globals.C $(PARMACS_M4)
	$(PARMACS_GEN) $(srcdir)/apps/pm_globals.C > $@.tmp && mv $@.tmp $@
nodist_apps_pm_lu_SOURCES = apps/pm_lu.c
apps_pm_lu_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS)
apps_pm_lu_LINK = $(DSMCC_LINK)
apps_pm_lu_LDADD = libdsm.la -lm
nodist_apps_pm_radix_SOURCES = apps/pm_radix.c
apps_pm_radix_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS)
apps_pm_radix_LINK = $(DSMCC_LINK)
apps_pm_radix_LDADD = libdsm.la
nodist_apps_pm_nbody_SOURCES = apps/pm_nbody.c
apps_pm_nbody_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS)
apps_pm_nbody_LINK = $(DSMCC_LINK)
apps_pm_nbody_LDADD = libdsm.la -lm
nodist_apps_pm_globals_SOURCES = apps/pm_globals.c
apps_pm_globals_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS)
# DSM_SHARED globals need the section's pages to themselves: the linker
# script that `pkg-config --libs dsm` and dsmcc give a user's program
apps_pm_globals_LINK = $(DSMCC_LINK) -Wl,-T,$(top_srcdir)/dsm/dsm_shared.ld
apps_pm_globals_LDADD = libdsm.la
