# tests/settings.mk - the settings table (dsm/settings_table.c) and what is
# built on it.
#   settings_unit      defaults; every kind of bad value refused in one line
#                      naming the variable, the value and the range; the
#                      region inside user space; the digest of the must-agree
#                      settings and the line naming the ones that differ; the
#                      check of the files node 0 writes
#   settings_doc.sh    the DSM_* tables of README.md, doc/user-guide.md and
#                      doc/dsm.3 are tests/settings_doc's output (--update
#                      rewrites them); every DSM_* name in the sources is in
#                      the table
#   mn_settings.sh     under dsmrun: a must-agree setting changed on one node
#                      ends the job at dsm_init naming the variable and both
#                      values (one or several; not for a setting that need not
#                      agree); DSM_REGION_ADDR=0 and a region past user space
#                      refused; an output file that cannot be written refused
#                      at once (dsmrun, dsm_init, a simulated run)
#   mpi_settings.sh    the same comparison under mpirun, one setting per rank
#                      (MPMD), and an unwritable DSM_PROFILE at rank 0
check_PROGRAMS += tests/settings_unit tests/settings_doc
tests_settings_unit_SOURCES = tests/settings_unit.c
tests_settings_unit_LDADD = libdsm_internal.la
tests_settings_doc_SOURCES = tests/settings_doc.c
tests_settings_doc_LDADD = libdsm_internal.la

SETTINGS_TESTS = tests/settings_doc.sh tests/mn_settings.sh
TESTS += tests/settings_unit $(SETTINGS_TESTS)
EXTRA_DIST += $(SETTINGS_TESTS) tests/mpi_settings.sh
if HAVE_MPI
TESTS += tests/mpi_settings.sh
endif
