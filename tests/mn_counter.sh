#!/bin/sh
# mn_counter.sh - lock-protected counters, 10^4 increments per node, on 2, 4, 8 nodes.
exec sh "${srcdir:-.}/tests/run_mn.sh" tests/mn_counter 10000
