#!/bin/sh
# wire_bad.sh - a malformed message on the wire (tests/mn_badmsg.c) is
# reported by the receiver in one line naming the sender and what is wrong,
# and ends the whole job within 8 s of that line, on shm and (when mpirun
# exists) on mpi: dsm_msg_validate (dsm/msg.c) checks it before it touches
# state.
top=${top_builddir:-.}
prog=$top/tests/mn_badmsg
[ -x "$prog" ] || { echo "wire_bad.sh: $prog is not built" >&2; exit 99; }
fail=0
ms() { echo $(( $(date +%s%N) / 1000000 )); }
# The job's end is timed from the receiver's line, not from the start: on a
# crowded machine starting mpirun's ranks alone can take over 10 s.
check() { # launcher name mode pattern
    start=$(ms)
    out=$( (timeout -k 5 60 $1 -n 2 --timeout 50 "$prog" "$3" 2>&1; echo "status $?") |
        while IFS= read -r l; do echo "$(( $(ms) - start )) $l"; done)
    took=$(( $(ms) - start ))
    rc=$(printf '%s\n' "$out" | sed -n 's/^[0-9]* status //p' | tail -1)
    line=$(printf '%s\n' "$out" | cut -d' ' -f2- | grep -E "$4" | head -1)
    at=$(printf '%s\n' "$out" | grep -E "^[0-9]+ .*$4" | head -1 | cut -d' ' -f1)
    if [ "$rc" = 0 ] || [ "$rc" = 124 ] || [ -z "$line" ] || [ $((took - ${at:-0})) -gt 8000 ]; then
        echo "FAIL $2 $3: status $rc, the job ended $((took - ${at:-0})) ms after the line" \
             "(${took} ms in all), want /$4/:"
        printf '%s\n' "$out" | sed 's/^/    /'
        fail=1
    else
        echo "ok   $2 $3 (status $rc, ended $((took - at)) ms after the line, ${took} ms in all): $line"
    fi
}
run_all() {
    check "$1" "$2" block 'dsm: node 0: transport: malformed message from node 1: GETS for block [0-9]+, past the last block'
    check "$1" "$2" lock 'dsm: node 0: transport: malformed message from node 1: lock message for lock [0-9]+, past the last lock'
    check "$1" "$2" len 'dsm: node 0: transport: malformed message from node 1: INV carries 16 bytes, expected 0'
    check "$1" "$2" type 'dsm: node 0: transport: malformed message from node 1: unknown message type 200'
    check "$1" "$2" hw 'dsm: node 0: transport: malformed message from node 1: PUTX is a simulated-machine message'
    check "$1" "$2" flags 'dsm: node 0: transport: malformed message from node 1: type 1 with unknown flags 0x1'
    check "$1" "$2" grant-manager 'dsm: node 0: transport: malformed message from node 1: grant of lock 2 by node 1, which does not manage it \(node 0 does\)'
    check "$1" "$2" grant-unasked 'dsm: node 0: transport: grant of lock 1 from node 1 to thread slot 0, which did not ask for it'
}
run_all "${DSMRUN:-$top/dsmrun}" shm
if command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1; then
    run_all "sh ${srcdir:-.}/tests/mpirun_dsm.sh" mpi
else
    echo "skip mpi: no mpirun"
fi
exit $fail
