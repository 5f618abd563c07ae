#!/bin/sh
# mn_settings.sh - settings checked before the program runs, under dsmrun:
#  - a setting every node must agree on, changed on one node only (dsmrun
#    gives every node its own environment, so a wrapper changes it where
#    DSM_NODE says), ends the job at dsm_init within seconds, with a line from
#    that node naming the variable and both values; no node gets past
#    dsm_init; a setting that need not agree (DSM_SPIN_US) runs;
#  - DSM_REGION_ADDR=0 (which as root used to map the region at 0 and make
#    the first dsm_alloc return NULL) and a region reaching past user space
#    are refused;
#  - an output file that cannot be written (DSM_PROFILE, DSM_STATS,
#    DSM_SIM_PROFILE) is refused at once by dsmrun and by dsm_init, not after
#    the run.
top=$(cd "${top_builddir:-.}" && pwd) || exit 99 # the runs happen in a scratch directory
dsmrun=${DSMRUN:-$top/dsmrun}
case $dsmrun in /*) ;; *) dsmrun=$PWD/$dsmrun ;; esac
prog=$top/apps/hello
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
for f in "$dsmrun" "$prog"; do
    [ -x "$f" ] || { echo "mn_settings.sh: $f is not built" >&2; exit 99; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mn_settings.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 99
export DSM_PROFILE=off
fail=0

# expect NAME STATUS PATTERN COMMAND...: STATUS is a number or "fail" (any
# non-zero status but a timeout); the output must match the grep -E PATTERN
# within 10 seconds; a failing run must not have passed dsm_init.
expect() {
    name=$1 want=$2 pattern=$3; shift 3
    start=$(date +%s)
    out=$(${to:+$to 60} "$@" 2>&1)
    rc=$?
    took=$(( $(date +%s) - start ))
    first=$(printf '%s\n' "$out" | grep -E "$pattern" | head -1)
    if [ "$want" = fail ] && { [ $rc = 0 ] || [ $rc = 124 ]; }; then
        echo "FAIL $name: status $rc, expected a failure:"; printf '%s\n' "$out" | sed 's/^/    /'
        fail=1
    elif [ "$want" != fail ] && [ $rc != "$want" ]; then
        echo "FAIL $name: status $rc, expected $want:"; printf '%s\n' "$out" | sed 's/^/    /'
        fail=1
    elif [ $took -gt 10 ]; then
        echo "FAIL $name: took $took s"; fail=1
    elif [ -z "$first" ]; then
        echo "FAIL $name: the output lacks /$pattern/:"; printf '%s\n' "$out" | sed 's/^/    /'
        fail=1
    elif [ $rc != 0 ] && printf '%s\n' "$out" | grep -q '^hello:'; then
        echo "FAIL $name: a node ran past dsm_init:"; printf '%s\n' "$out" | sed 's/^/    /'
        fail=1
    else
        echo "ok   $name (status $rc, ${took}s): $first"
    fi
}

# on_node N 'VAR=value ...': the command line of a job whose node N runs
# with these settings added
on_node() {
    node=$1 vars=$2; shift 2
    echo "if [ \"\$DSM_NODE\" = $node ]; then export $vars; fi; exec \"$prog\""
}

hint='\(every node needs the same value: forward DSM_\* settings to every node, e\.g\. mpirun'

# --- must-agree settings, one node differing ---
expect "DSM_LOCKS on node 1" fail \
    "^dsm: node 1: dsm_init: DSM_LOCKS is 64 here but 1024 on node 0 $hint -x DSM_LOCKS\)$" \
    "$dsmrun" -n 2 --timeout 30 sh -c "$(on_node 1 DSM_LOCKS=64)"
expect "two settings on node 3 of 4" fail \
    "^dsm: node 3: dsm_init: DSM_HOMES is 'cyclic' here but 'blocked' on node 0; DSM_TIMESLICE_MS is 7 here but 100 on node 0 $hint -x DSM_HOMES -x DSM_TIMESLICE_MS\)$" \
    "$dsmrun" -n 4 --timeout 30 sh -c "$(on_node 3 'DSM_HOMES=cyclic DSM_TIMESLICE_MS=7')"
expect "DSM_BLOCK_SIZE on node 1" fail \
    "^dsm: node 1: dsm_init: DSM_BLOCK_SIZE is 4K here but 8K on node 0 " \
    env DSM_BLOCK_SIZE=8K "$dsmrun" -n 2 --timeout 30 sh -c "$(on_node 1 DSM_BLOCK_SIZE=4K)"
expect "region and patterns on node 1" fail \
    "^dsm: node 1: dsm_init: DSM_REGION_SIZE is 2G here but 1G on node 0; DSM_REGION_ADDR is 0x500000000000 here but 0x5a0000000000 on node 0; DSM_PATTERNS is 'off' here but 'on' on node 0 " \
    "$dsmrun" -n 2 --timeout 30 sh -c \
    "$(on_node 1 'DSM_REGION_SIZE=2G DSM_REGION_ADDR=0x500000000000 DSM_PATTERNS=off')"
expect "DSM_PROFILE on node 1 only" fail \
    "^dsm: node 1: dsm_init: DSM_PROFILE is a file here but 'off' on node 0 " \
    "$dsmrun" -n 2 --timeout 30 sh -c "$(on_node 1 DSM_PROFILE=p.json)"
expect "DSM_STATS on node 0 only" fail \
    "^dsm: node 1: dsm_init: DSM_STATS is unset here but a file on node 0 " \
    "$dsmrun" -n 2 --timeout 30 sh -c "$(on_node 0 DSM_STATS=st)"
# settings that need not agree, and a default written out
expect "DSM_SPIN_US, DSM_HOLD_US on node 1" 0 "^hello: result OK" \
    "$dsmrun" -n 2 --timeout 30 sh -c "$(on_node 1 'DSM_SPIN_US=0 DSM_HOLD_US=1 DSM_LOCKS=1024')"

# --- the region's address ---
expect "DSM_REGION_ADDR=0, dsmrun" 2 \
    "^dsmrun: DSM_REGION_ADDR=0 is below 0x[0-9a-f]+, the lowest address a program may map" \
    env DSM_REGION_ADDR=0 "$dsmrun" -n 2 --timeout 30 "$prog"
expect "DSM_REGION_ADDR=0, dsm_init" fail \
    "^dsm: node \?: dsm_init: DSM_REGION_ADDR=0 is below 0x[0-9a-f]+, the lowest address" \
    env DSM_REGION_ADDR=0 "$prog"
expect "DSM_REGION_ADDR=0 on node 1, dsm_init" fail \
    "^dsm: node \?: dsm_init: DSM_REGION_ADDR=0 is below" \
    "$dsmrun" -n 2 --timeout 30 sh -c "$(on_node 1 DSM_REGION_ADDR=0)"
expect "region past user space" 2 \
    "^dsmrun: DSM_REGION_ADDR=0x7fffc0000000 with DSM_REGION_SIZE=1G \(0x40000000 bytes, the default\) reaches past 0x[0-9a-f]+, the end of user space" \
    env DSM_REGION_ADDR=0x7fffc0000000 "$dsmrun" -n 2 --timeout 30 "$prog"
expect "region wrapping around" fail \
    "^dsm: node \?: dsm_init: DSM_REGION_ADDR=0xfffffffffff00000 with DSM_REGION_SIZE=1M \(0x100000 bytes\) reaches past" \
    env DSM_REGION_ADDR=0xfffffffffff00000 DSM_REGION_SIZE=1M "$prog"

# --- files that cannot be written, said before the run ---
expect "DSM_PROFILE in a missing directory, dsmrun" 2 \
    "^dsmrun: DSM_PROFILE=/nonexistent/dir/p.json cannot be written: directory /nonexistent/dir does not exist" \
    env DSM_PROFILE=/nonexistent/dir/p.json "$dsmrun" -n 2 --timeout 30 "$prog"
expect "DSM_STATS is a directory, dsmrun" 2 \
    "^dsmrun: DSM_STATS=$tmp cannot be written: it is a directory" \
    env DSM_STATS="$tmp" "$dsmrun" -n 2 --timeout 30 "$prog"
expect "DSM_PROFILE in a missing directory, dsm_init" fail \
    "^dsm: node 0: dsm_init: DSM_PROFILE=/nonexistent/dir/p.json cannot be written: directory /nonexistent/dir does not exist" \
    env DSM_PROFILE=/nonexistent/dir/p.json "$prog"
# past dsmrun's check (node 0 alone gets the path; both have a profile on)
expect "DSM_PROFILE at node 0, dsm_init of a job" fail \
    "^dsm: node 0: dsm_init: DSM_PROFILE=/nonexistent/dir/p.json cannot be written" \
    env DSM_PROFILE=p.json "$dsmrun" -n 2 --timeout 30 sh -c \
    "$(on_node 0 DSM_PROFILE=/nonexistent/dir/p.json)"
expect "DSM_STATS under a file, dsm_init" fail \
    "^dsm: node 0: dsm_init: DSM_STATS=/etc/passwd/st cannot be written: " \
    env DSM_STATS=/etc/passwd/st "$prog"
expect "DSM_SIM_PROFILE in a missing directory, simulated" fail \
    "^dsm: dsm_init: DSM_SIM_PROFILE=/nonexistent/dir/s.json cannot be written: directory /nonexistent/dir does not exist" \
    env DSM_SIM_PROFILE=/nonexistent/dir/s.json "$dsmrun" --machine=uniform -n 2 --timeout 30 "$prog"
[ ! -e p.json ] || { echo "FAIL: a refused run wrote a profile"; fail=1; }
exit $fail
