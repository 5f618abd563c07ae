#!/bin/sh
# explore_quick.sh - the quick tier's check of the coherence engine (make
# check-quick): one configuration of the exhaustive exploration, the default
# one (3 nodes, 2 blocks homed at nodes 0 and 1, 2 accesses per node, one
# thread each: about 230000 states, half a second of CPU): coherence, latest
# value, no deadlock or livelock, no rejected pair, the augmentation inert.
# make check runs the whole exploration (tests/explore without options:
# every configuration, table coverage, the self-check by fault injection).
explore=${top_builddir:-.}/tests/explore
[ -x "$explore" ] || { echo "explore_quick.sh: $explore is not built" >&2; exit 99; }
exec "$explore" --budget 2
