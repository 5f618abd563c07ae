# doc/: manual pages (installed) and the Markdown documents (distributed).
#   dsmrun.1   the launcher
#   dsm.3      the C API (dsm.h)
#   dsmprof.1  reports from a profile file
#   dsmcc.1    the compiler wrapper of the simulated machines
#   dsm-parmacs.7  the PARMACS (SPLASH) macro file
dist_man_MANS += doc/dsmrun.1 doc/dsm.3 doc/dsmprof.1 doc/dsmcc.1 doc/dsm-parmacs.7
# the PARMACS macro file, and how to port shared-memory programs
EXTRA_DIST += doc/porting.md
EXTRA_DIST += doc/references.md doc/user-guide.md doc/protocol.md doc/patterns.md doc/metrics.md doc/advice.md doc/profile-format.md
# simulated machines, their statistics file, the applications
EXTRA_DIST += doc/simulation.md doc/sim-format.md doc/apps.md
# the thread model (dsm_init_master, dsm_create, DSM_SHARED)
EXTRA_DIST += doc/thread-model.md
# running on a cluster (hostfiles, settings, network, faults, the test bed)
EXTRA_DIST += doc/cluster.md
# the map of the source (doc/internals.md) and the tree agree
EXTRA_DIST += doc/internals.md tests/internals_doc.sh
TESTS += tests/internals_doc.sh
# QuickStep's configuration file for the simulated Alewife (dsmrun --quickstep)
quickstepdir = $(pkgdatadir)/quickstep
dist_quickstep_DATA = doc/quickstep/alewife.qs
