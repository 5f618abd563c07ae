#!/bin/sh
# tcp_profile.sh - what the runtime counts and profiles, across hosts on
# TCP: 3 hosts of the network test bed (tests/netns.sh; ranks round robin)
#   counts   tests/mn_counts.sh: the exact event counts of the DSM_STATS
#            file on 2 and 4 nodes
#   profile  tests/mn_profile.sh: the profile file and dsmprof on it
#   advice   the profile of tests/mn_profile across hosts: dsmprof advice
#            finds the false sharing of its "pair" (as on one host; with no
#            thresholds on the shares of memory blocking time, which depend
#            on how busy the machine was)
# and no process is left in any host at the end.  (Apart from
# tests/tcp_cluster.sh so that each stays within the suite's time limit on
# a crowded machine.)  The timeslices run across hosts in tests/tcp_clock.sh,
# on clocks forced apart.
srcdir=${srcdir:-.}
top=${top_builddir:-.}
. "$srcdir/tests/netns.sh"
netns_setup 3
fail=0
sh "$srcdir/tests/mn_counts.sh" || fail=1
sh "$srcdir/tests/mn_profile.sh" || fail=1

dir=$(mktemp -d "${TMPDIR:-/tmp}/tcp_profile.XXXXXX") || exit 99
trap 'rm -rf "$dir"; netns_cleanup' EXIT
trap 'rm -rf "$dir"; netns_cleanup; exit 143' TERM
echo "=== advice: tests/mn_profile on 2 hosts, its profile"
src=$(cd "$srcdir" && pwd) build=$(cd "$top" && pwd)
if (cd "$dir" && DSM_PROFILE="$dir/p.json" DSM_PROFILE_SUMMARY=off sh "$src/tests/mpirun_dsm.sh" -n 2 \
        --timeout 60 "$build/tests/mn_profile") > "$dir/out" 2>&1 &&
    "$top/dsmprof" advice "$dir/p.json" --threshold-memory-blocking=0 --threshold-refine=0 \
        --threshold-structure-min=0 > "$dir/advice" 2>&1 &&
    grep -q '^[0-9]*\. FalseSharing (structure pair)' "$dir/advice"; then
    echo "ok   advice: $(grep 'FalseSharing (structure pair)' "$dir/advice" | cut -c1-100)"
else
    echo "FAIL advice:"; cat "$dir/out" "$dir/advice" 2>/dev/null; fail=1
fi
left=$(netns_pids)
[ -z "$left" ] || { echo "FAIL: processes left in the hosts: $left"; fail=1; }
[ $fail = 0 ] && echo "tcp_profile.sh: OK"
exit $fail
