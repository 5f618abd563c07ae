#!/bin/sh
# mn_apps.sh - the example applications on 1, 2, 4 and 8 nodes; each must
# print "NAME: result OK".  Sizes are below the defaults to keep
# make check short.
status=0
sh "${srcdir:-.}/tests/run_mn.sh" -n "1 2 4 8" -e "hello: result OK" apps/hello || status=1
sh "${srcdir:-.}/tests/run_mn.sh" -n "1 2 4 8" -e "jacobi: result OK" apps/jacobi 512 100 || status=1
sh "${srcdir:-.}/tests/run_mn.sh" -n "1 2 4 8" -e "matmul: result OK" apps/matmul 256 32 || status=1
exit $status
