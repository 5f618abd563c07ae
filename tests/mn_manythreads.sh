#!/bin/sh
# mn_manythreads.sh - 3000 short-lived threads per node take a lock, more
# than the 1024 lock-thread slots (tests/mn_manythreads.c), on 2 nodes.
exec sh "${srcdir:-.}/tests/run_mn.sh" -n "2" -t 120 -e "mn_manythreads: node 1: .*: OK" tests/mn_manythreads 3000
