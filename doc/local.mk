# doc/: see the top-level Makefile.am
