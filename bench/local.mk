# bench/: benchmarks that print tables; not run by make check.
#   make bench        build them
#   make run-bench    run them and print their tables
EXTRA_PROGRAMS = bench/bench_core bench/bench_patterns bench/bench_profile bench/bench_profile_miss
# bench_sim: simulated machines against the native run, the apps as child jobs
EXTRA_PROGRAMS += bench/bench_sim
bench_bench_sim_SOURCES = bench/bench_sim.c bench/bench_util.h bench/bench_util.c
# ... whose native reference is the plain -O2 program: the apps without dsmcc's hooks
EXTRA_PROGRAMS += bench/plain_fft bench/plain_lu bench/plain_radix bench/plain_ocean bench/plain_mm
bench_plain_fft_SOURCES = apps/fft.c apps/app_util.h
bench_plain_fft_CFLAGS = $(AM_CFLAGS)
bench_plain_fft_LDADD = libdsm.la -lm
bench_plain_lu_SOURCES = apps/lu.c apps/app_util.h
bench_plain_lu_CFLAGS = $(AM_CFLAGS)
bench_plain_lu_LDADD = libdsm.la -lm
bench_plain_radix_SOURCES = apps/radix.c apps/app_util.h
bench_plain_radix_CFLAGS = $(AM_CFLAGS)
bench_plain_radix_LDADD = libdsm.la
bench_plain_ocean_SOURCES = apps/ocean.c apps/app_util.h
bench_plain_ocean_CFLAGS = $(AM_CFLAGS)
bench_plain_ocean_LDADD = libdsm.la -lm
bench_plain_mm_SOURCES = apps/mm.c apps/app_util.h
bench_plain_mm_CFLAGS = $(AM_CFLAGS)
bench_plain_mm_LDADD = libdsm.la -lm
# sim_inline_bench.sh: slowdowns of full and sampled runs against the plain
# programs, the hooks against dsmcc --sim's inline checks (needs LLVM)
EXTRA_DIST += bench/sim_inline_bench.sh
run-sim-inline-bench: bench dsmrun dsmcc apps/fft apps/lu apps/mm
	top_builddir=$(top_builddir) top_srcdir=$(top_srcdir) $(SHELL) $(srcdir)/bench/sim_inline_bench.sh
.PHONY: run-sim-inline-bench
# bench_hooks: the native cost of dsmcc's hooks (built with the instrumentation)
EXTRA_PROGRAMS += bench/bench_hooks
bench_bench_hooks_SOURCES = bench/bench_hooks.c
bench_bench_hooks_CFLAGS = $(AM_CFLAGS) $(DSMCC_CFLAGS)
bench_bench_hooks_LINK = $(DSMCC_LINK)
bench_bench_hooks_LDADD = libdsm.la
bench_bench_core_SOURCES = bench/bench_core.c bench/core_ops.h bench/core_ops.c bench/bench_util.h bench/bench_util.c
bench_bench_core_LDADD = libdsm_internal.la
bench_bench_patterns_SOURCES = bench/bench_patterns.c
bench_bench_patterns_LDADD = libdsm_internal.la
# bench_adapt: the adaptive protocol against the plain one, alternated in one run
EXTRA_PROGRAMS += bench/bench_adapt
bench_bench_adapt_SOURCES = bench/bench_adapt.c bench/core_ops.h bench/core_ops.c \
	bench/bench_util.h bench/bench_util.c
bench_bench_adapt_LDADD = libdsm_internal.la
# bench_lock: a contended lock's critical section, empty and with a page
EXTRA_PROGRAMS += bench/bench_lock
bench_bench_lock_SOURCES = bench/bench_lock.c
bench_bench_lock_LDADD = libdsm.la

# bench_handoff: the spin handoff's time and what it takes, settings alternated in one run
EXTRA_PROGRAMS += bench/bench_handoff
bench_bench_handoff_SOURCES = bench/bench_handoff.c bench/bench_util.h bench/bench_util.c
bench_bench_handoff_LDADD = libdsm_internal.la
# bench_profile_miss: the profile's cost per miss, recording alternated in one run
bench_bench_profile_miss_SOURCES = bench/bench_profile_miss.c bench/core_ops.h bench/core_ops.c \
	bench/bench_util.h bench/bench_util.c
bench_bench_profile_miss_LDADD = libdsm_internal.la
# bench_profile: the profile on vs DSM_PROFILE=off on the apps, as child jobs
bench_bench_profile_SOURCES = bench/bench_profile.c bench/bench_util.h bench/bench_util.c
CLEANFILES += $(EXTRA_PROGRAMS)
# bench_core as 7 whole runs: medians and the spread between runs
EXTRA_DIST += bench/bench_core_runs.sh
# misstrace.sh: per-step medians of a read miss from a -DDSM_MISS_TRACE build's traces
EXTRA_DIST += bench/misstrace.sh
# adapt_apps.sh: DSM_ADAPT=on against off (or any two settings) over apps/, paired
EXTRA_DIST += bench/adapt_apps.sh

bench: $(EXTRA_PROGRAMS)
run-bench: bench dsmrun apps/jacobi apps/matmul apps/particles apps/fft apps/lu apps/radix apps/ocean apps/mm \
	apps/slots apps/sor apps/mp3d
	$(top_builddir)/dsmrun -n 2 $(top_builddir)/bench/bench_core
	$(SHELL) $(srcdir)/bench/bench_core_runs.sh $(top_builddir)
	$(SHELL) $(srcdir)/bench/adapt_apps.sh $(top_builddir)
	$(top_builddir)/dsmrun -n 2 $(top_builddir)/bench/bench_patterns
	$(top_builddir)/dsmrun -n 2 $(top_builddir)/bench/bench_adapt
	$(top_builddir)/dsmrun -n 3 $(top_builddir)/bench/bench_adapt
	DSM_PROFILE=/dev/null $(top_builddir)/dsmrun -n 2 $(top_builddir)/bench/bench_profile_miss
	$(top_builddir)/bench/bench_profile
	$(top_builddir)/bench/bench_hooks
	$(top_builddir)/bench/bench_sim
.PHONY: bench run-bench

# bench_transport: shm and mpi side by side (bench/bench_transport.sh), with a plain
# MPI round trip of one block; needs MPI for the mpi column.
EXTRA_DIST += bench/bench_transport.sh bench/bench_transport.c
if HAVE_MPI
EXTRA_PROGRAMS += bench/bench_transport
bench_bench_transport_SOURCES = bench/bench_transport.c bench/core_ops.h bench/core_ops.c \
	bench/bench_util.h bench/bench_util.c
bench_bench_transport_CPPFLAGS = $(AM_CPPFLAGS) $(MPI_CFLAGS)
bench_bench_transport_LDADD = libdsm_internal.la $(MPI_LIBS)
run-bench-transport: bench/bench_transport dsmrun
	$(SHELL) $(srcdir)/bench/bench_transport.sh $(top_builddir)
else
run-bench-transport:
	@echo "bench_transport: configure found no MPI: the shm/mpi table is skipped"
endif
run-bench: run-bench-transport
.PHONY: run-bench-transport

# bench_tcp: the mpi transport over TCP across two hosts of the network test bed
# (tests/netns.sh; root), its probes beside, matmul and jacobi across hosts and on one
# (doc/cluster.md).  Not part of run-bench: it needs root and takes minutes.
EXTRA_DIST += bench/bench_tcp.sh
if HAVE_MPI
run-bench-tcp: bench/bench_transport apps/matmul apps/jacobi
	srcdir=$(srcdir) $(SHELL) $(srcdir)/bench/bench_tcp.sh $(top_builddir)
else
run-bench-tcp:
	@echo "bench_tcp: configure found no MPI: skipped"
endif
.PHONY: run-bench-tcp

# block mode: the inline checks' overhead and miss latency (bench/block_bench.sh)
EXTRA_DIST += bench/block_bench.sh bench/blk_miss.c bench/blk_register.c
run-block-bench: dsmrun dsmcc libdsm.la dsm/tools/checkpass/dsmcheck.so
	top_builddir=$(top_builddir) top_srcdir=$(top_srcdir) $(SHELL) $(top_srcdir)/bench/block_bench.sh
# ArgoDSM side by side (doc/cluster.md): sources built by the script against
# an ArgoDSM build beside the project (never part of it); skips without one
EXTRA_DIST += bench/argo/run.sh bench/argo/argo_core.cpp bench/argo/argo_matmul.cpp bench/argo/matmul_native.c
