#!/bin/sh
# mn_threads.sh - several faulting threads per node, on 2, 4 and 8 nodes.
exec "${srcdir:-.}/tests/run_mn.sh" -n "1 2 4 8" -e "mn_threads: .*: OK" tests/mn_threads 1000
