# apps/: see the top-level Makefile.am
