# profile/: statistics of simulated machines (issue 6): MemSpy bins and
# sampling, the dsm-sim/1 file, dsmprof renderings.
