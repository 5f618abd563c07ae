# bench/: benchmarks that print tables; not run by make check.
#   make bench        build them
#   make run-bench    run them and print their tables
EXTRA_PROGRAMS = bench/bench_core
bench_bench_core_SOURCES = bench/bench_core.c
bench_bench_core_LDADD = libdsm.la
CLEANFILES += $(EXTRA_PROGRAMS)

bench: $(EXTRA_PROGRAMS)
run-bench: bench dsmrun
	$(top_builddir)/dsmrun -n 2 $(top_builddir)/bench/bench_core
.PHONY: bench run-bench
