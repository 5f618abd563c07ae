# bench/: benchmarks that print tables; not run by make check.
#   make bench        build them
#   make run-bench    run them and print their tables
EXTRA_PROGRAMS = bench/bench_core bench/bench_patterns
bench_bench_core_SOURCES = bench/bench_core.c
bench_bench_core_LDADD = libdsm.la
bench_bench_patterns_SOURCES = bench/bench_patterns.c
bench_bench_patterns_LDADD = libdsm.la
CLEANFILES += $(EXTRA_PROGRAMS)

bench: $(EXTRA_PROGRAMS)
run-bench: bench dsmrun
	$(top_builddir)/dsmrun -n 2 $(top_builddir)/bench/bench_core
	$(top_builddir)/dsmrun -n 2 $(top_builddir)/bench/bench_patterns
.PHONY: bench run-bench
