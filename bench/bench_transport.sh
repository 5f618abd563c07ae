#!/bin/sh
# bench_transport.sh - bench/bench_transport on the shm transport (dsmrun)
# and on the mpi transport (mpirun) in one run, printed side by side, with a
# plain MPI round trip of one block measured in the mpi run, and each row's
# limit over mpi from those probes beside it.  Target: remote read miss over
# mpi <= 1.3 x (fault probe + MPI round trip).
#   bench_transport.sh [BUILDDIR] [BLOCKS]
top=${1:-.}
blocks=${2:-1000}
prog=$top/bench/bench_transport
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench_transport.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
export DSM_PROFILE=off
"$top/dsmrun" -n 2 "$prog" "$blocks" > "$tmp/shm" || { echo "bench_transport: shm run failed"; exit 1; }
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
mpirun $root -np 2 "$prog" "$blocks" > "$tmp/mpi" 2>"$tmp/mpi.err" ||
    { cat "$tmp/mpi.err"; echo "bench_transport: mpi run failed"; exit 1; }
v() { awk -v k="$2" '$1 == k { print $2 }' "$tmp/$1"; }
echo "bench_transport: 2 nodes, $(v shm block)-byte blocks, medians of 7 rounds of $blocks operations, us per operation"
# the limit of each row over mpi, from the probes of the mpi run: a miss is
# a fault and a block's round trip, a hand-off two of them (read, upgrade)
printf '%-30s %10s %10s %10s %8s\n' operation shm mpi "mpi limit" mpi/limit
f=$(v mpi fault) r=$(v mpi mpi_rtt)
for k in fault:"probe: protection fault":- rtt:"runtime message round trip":1 \
         read:"remote read miss":2 write:"remote write miss":2 upgrade:upgrade:2 \
         migratory:"migratory handoff":4; do
    key=${k%%:*} rest=${k#*:} name=${k#*:} name=${name%:*} how=${rest##*:}
    awk -v n="$name" -v s="$(v shm "$key")" -v m="$(v mpi "$key")" -v f="$f" -v r="$r" -v h="$how" 'BEGIN {
        lim = h == 1 ? r : h == 2 ? f + r : h == 4 ? 2 * (f + r) : 0
        if (lim > 0) printf "%-30s %10s %10s %10.2f %8.2f\n", n, s, m, lim, m / lim
        else printf "%-30s %10s %10s %10s %8s\n", n, s, m, "-", "-" }'
done
printf '%-30s %10s %10s\n' "plain MPI round trip, 1 block" - "$(v mpi mpi_rtt)"
echo "(the MPI round trip is the best of 7 batches, the rest medians of 7)"
awk -v f="$(v mpi fault)" -v r="$(v mpi mpi_rtt)" -v m="$(v mpi read)" 'BEGIN {
    s = f + r; ratio = m / s
    printf "mpi remote read miss / (fault probe + MPI round trip) = %.2f / %.2f = %.2f: target <= 1.3 %s\n",
        m, s, ratio, ratio <= 1.3 ? "met" : "NOT met" }'
