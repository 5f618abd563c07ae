# apps/: example applications, each verifying its own result ("NAME: result OK").
# Run with ./dsmrun -n N apps/NAME [args]; tests/mn_apps.sh runs them on 1-8 nodes.
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
