# tests/abi.mk - the library's exported interface (tests/abi.sh): the symbol
# list, a program whose own functions carry internal names, the version.
check_PROGRAMS += tests/abi_collide
tests_abi_collide_SOURCES = tests/abi_collide.c
tests_abi_collide_LDADD = libdsm.la
TESTS += tests/abi.sh
EXTRA_DIST += tests/abi.sh dsm/libdsm.symbols
