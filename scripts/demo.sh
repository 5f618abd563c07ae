#!/bin/sh
# demo.sh - the main job on a fresh machine: install what is missing, build,
# then run the Jacobi example on 4 local nodes.
#   ./scripts/demo.sh
#   NODES=8 ./scripts/demo.sh       another node count
# Builds in the source tree; the first run configures it (autoreconf -fi,
# ./configure), later runs only `make`.
set -eu

cd "$(dirname "$0")/.."
nodes=${NODES:-4}
jobs=$(nproc 2>/dev/null || echo 2)

./scripts/setup.sh

if [ ! -x ./configure ] || [ ! -f Makefile ]; then
    echo "demo: configuring"
    autoreconf -fi
    ./configure
fi
echo "demo: building"
make -j"$jobs"

echo "demo: ./dsmrun -n $nodes apps/jacobi"
exec ./dsmrun -n "$nodes" apps/jacobi
