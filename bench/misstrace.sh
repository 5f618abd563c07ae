#!/bin/sh
# misstrace.sh - the step-by-step medians of a remote read miss, from the
# traces of a build with -DDSM_MISS_TRACE (dsm/misstrace.h): node 1 reads
# blocks whose home, node 0, wrote them last (bench/bench_core's and
# bench/bench_transport's read-miss phase).  Both traces carry the same
# clock (CLOCK_MONOTONIC of one machine: dsmrun's nodes, or the network
# namespaces of the test bed), so the home's steps fall between the
# requester's.
#   misstrace.sh [HOME_TRACE REQUESTER_TRACE]   (default /tmp/dsm-misstrace.0 .1)
# Prints, per step, the median and the 25th/75th percentiles in us over the
# misses that went through it, how many did, and who served the messages.
home=${1:-/tmp/dsm-misstrace.0}
req=${2:-/tmp/dsm-misstrace.1}
for f in "$home" "$req"; do
    [ -r "$f" ] || { echo "misstrace: cannot read $f (run a build made with -DDSM_MISS_TRACE)"; exit 1; }
done
{ awk '{ print $0, "H" }' "$home"; awk '{ print $0, "R" }' "$req"; } | sort -n -k1,1 |
awk '
# fields: t event block detail progress side
BEGIN {
    split("FAULT_IN ACCESS SEND_IN SEND_OUT WAIT_IN SLEEP WOKE RECV LOCKED PROT_IN PROT_OUT COPY_IN COPY_OUT SIGNAL HANDLED WAIT_OUT FAULT_OUT", nm, " ")
    for (i = 1; i <= 17; i++) ev[i - 1] = nm[i]
    # the steps, in order: name, from-key, to-key
    n = split("fault_entry R.FAULT_IN R.ACCESS|" \
              "engine_request R.ACCESS R.SEND_IN.1|" \
              "send_GETS R.SEND_IN.1 R.SEND_OUT.1|" \
              "GETS_in_flight R.SEND_OUT.1 H.RECV.1|" \
              "home_lock H.RECV.1 H.LOCKED.1|" \
              "home_engine H.LOCKED.1 H.PROT_IN|" \
              "home_downgrade H.PROT_IN H.PROT_OUT|" \
              "home_to_send H.PROT_OUT H.SEND_IN.4|" \
              "send_DATA_S H.SEND_IN.4 H.SEND_OUT.4|" \
              "DATA_S_in_flight H.SEND_OUT.4 R.RECV.4|" \
              "req_lock R.RECV.4 R.LOCKED.4|" \
              "req_engine R.LOCKED.4 R.COPY_IN|" \
              "req_copy R.COPY_IN R.COPY_OUT|" \
              "req_to_protect R.COPY_OUT R.PROT_IN|" \
              "req_install_mprotect R.PROT_IN R.PROT_OUT|" \
              "req_to_signal R.PROT_OUT R.SIGNAL|" \
              "req_signal_to_handled R.SIGNAL R.HANDLED.4|" \
              "waiter_back R.SIGNAL R.WAIT_OUT|" \
              "fault_exit R.WAIT_OUT R.FAULT_OUT|" \
              "home_handler_total H.RECV.1 H.HANDLED.1|" \
              "req_handler_total R.RECV.4 R.HANDLED.4|" \
              "total_in_handler R.FAULT_IN R.FAULT_OUT", st, "|")
    nsteps = n
}
function key(side, e, d) { return side "." ev[e] ((e == 2 || e == 3 || e == 7 || e == 8 || e == 14) ? "." d : "") }
$6 == "R" && $2 == 0 && $5 == 0 { fin = $1; next }
$6 == "R" && $2 == 1 && $5 == 0 {
    active = ($4 == 0); blk = $3; delete m; m["R.FAULT_IN"] = fin; m["R.ACCESS"] = $1
    slept = 0; next
}
!active { next }
$6 == "R" && $2 == 5 && $5 == 0 { slept = 1 }
$3 != blk { next }
{
    k = key($6, $2, $4)
    if (!(k in m)) { m[k] = $1; who[k] = $5 }
}
$6 == "R" && $2 == 16 {
    active = 0
    if (!("H.RECV.1" in m) || !("R.RECV.4" in m)) next
    misses++
    for (i = 1; i <= nsteps; i++) {
        split(st[i], s, " ")
        if ((s[2] in m) && (s[3] in m))
            print i, s[1], (m[s[3]] - m[s[2]]) / 1000.0
    }
    print 90, "home_served_by_progress_thread", who["H.RECV.1"]
    print 91, "reply_taken_by_progress_thread", who["R.RECV.4"]
    print 92, "requester_slept", slept
}
' | sort -k1,1n -k3,3g | awk '
function flush() {
    if (!cnt) return
    if (id >= 90) printf "%-32s %6.2f of %d misses\n", name, sum / cnt, cnt
    else printf "%-32s %9.2f %9.2f %9.2f %7d\n", name, v[int((cnt + 1) / 2)], v[int((cnt + 3) / 4)], v[int((3 * cnt + 3) / 4)], cnt
}
BEGIN { printf "%-32s %9s %9s %9s %7s\n", "step (us)", "median", "p25", "p75", "misses" }
$1 != id { flush(); id = $1; name = $2; cnt = 0; sum = 0 }
{ v[++cnt] = $3; sum += $3 }
END { flush() }'
