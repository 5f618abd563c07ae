#!/bin/sh
# mpi_abort_load.sh - a fatal error of a node under mpirun (dsm_fatal, then
# MPI_Abort) ends the job within seconds also when mpirun is slow to act:
#   stopped mpirun  mpirun is stopped (SIGSTOP) just before node 0's error,
#                   the extreme of a crowded machine: MPI_Abort waits for
#                   mpirun's answer, so the ranks must leave by themselves
#                   (dsm/transport/mpi.c: the abort's 2 s bound, the ranks
#                   watching their local peers); all must be gone within 8 s,
#                   and once mpirun runs again the job ends with the error
#   busy loops      two CPU-bound loops run beside the job (at most 20 s):
#                   from the error's line to the end of mpirun at most 8 s
# tests/mpi_abort.c is the job.  Skipped without mpirun or the mpi transport.
top=${top_builddir:-.}
prog=$top/tests/mpi_abort
[ -x "$prog" ] || { echo "mpi_abort_load.sh: $prog is not built" >&2; exit 99; }
mpirun=${MPIRUN:-mpirun}
command -v "$mpirun" >/dev/null 2>&1 || { echo "no mpirun: skipped"; exit 77; }
case $(DSM_TRANSPORT=bogus "$prog" x 2>&1) in
    *"it has: "*mpi*) ;;
    *) echo "libdsm has no mpi transport: skipped"; exit 77 ;;
esac
root=
[ "$(id -u)" = 0 ] && root=--allow-run-as-root
export DSM_PROFILE=off DSM_TRANSPORT=mpi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mpi_abort_load.XXXXXX") || exit 99
hogs=
job=
cleanup() {
    [ -n "$hogs" ] && kill $hogs 2>/dev/null
    [ -n "$mpirun_pid" ] && kill -CONT "$mpirun_pid" 2>/dev/null
    [ -n "$job" ] && kill "$job" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
fail=0
ms() { echo $(( $(date +%s%N) / 1000000 )); }
ended() { # pid: gone, or a zombie
    [ ! -r "/proc/$1/stat" ] && return 0
    st=$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)
    [ -z "$st" ] || [ "$st" = Z ] || [ "$st" = X ]
}
pattern='dsm: node 0: dsm_lock: lock id [0-9]+ is out of range'

# --- stopped mpirun -----------------------------------------------------------
timeout -k 5 90 "$mpirun" $root --oversubscribe -np 2 "$prog" "$tmp" >"$tmp/out" 2>&1 &
job=$!
i=0
while [ ! -s "$tmp/pid.0" ] || [ ! -s "$tmp/pid.1" ]; do
    i=$((i + 1))
    if [ $i -gt 1200 ] || ! kill -0 $job 2>/dev/null; then
        echo "FAIL stopped mpirun: the nodes did not start:"; cat "$tmp/out"; exit 1
    fi
    sleep 0.05
done
sleep 0.2 # the pid files are written before a barrier: let both reach it
p0=$(cat "$tmp/pid.0") p1=$(cat "$tmp/pid.1")
mpirun_pid=$(sed 's/.*) //' "/proc/$p0/stat" | cut -d' ' -f2) # node 0's parent
kill -STOP "$mpirun_pid"
t0=$(ms)
touch "$tmp/go"
while ! { ended "$p0" && ended "$p1"; } && [ $(( $(ms) - t0 )) -lt 15000 ]; do
    sleep 0.05
done
dt=$(( $(ms) - t0 ))
left=no
ended "$p0" && ended "$p1" && left=yes
kill -CONT "$mpirun_pid"
t1=$(ms)
wait $job
rc=$?
job=
dt_end=$(( $(ms) - t1 ))
mpirun_pid=
if [ $left = no ]; then
    echo "FAIL stopped mpirun: the nodes were still there $dt ms after node 0's error"; fail=1
elif [ $dt -gt 8000 ]; then
    echo "FAIL stopped mpirun: the nodes left $dt ms after node 0's error (limit 8000)"; fail=1
elif [ $rc -eq 0 ] || [ $rc -eq 124 ]; then
    echo "FAIL stopped mpirun: status $rc:"; sed 's/^/    /' "$tmp/out"; fail=1
elif ! grep -Eq "$pattern" "$tmp/out"; then
    echo "FAIL stopped mpirun: no line matching /$pattern/:"; sed 's/^/    /' "$tmp/out"; fail=1
elif [ $dt_end -gt 10000 ]; then
    echo "FAIL stopped mpirun: mpirun ended $dt_end ms after it ran again"; fail=1
else
    echo "ok   stopped mpirun: the nodes left $dt ms after node 0's error, mpirun ended" \
         "$dt_end ms after it ran again, status $rc"
    grep '^dsm: node' "$tmp/out" | sed 's/^/    /'
fi

# --- busy loops beside the job ----------------------------------------------------
rm -f "$tmp"/pid.* "$tmp/out"
touch "$tmp/go"
timeout 20 sh -c 'while :; do :; done' &
hogs=$!
timeout 20 sh -c 'while :; do :; done' &
hogs="$hogs $!"
t0=$(ms)
timeout -k 5 60 "$mpirun" $root --oversubscribe -np 2 "$prog" "$tmp" 2>&1 |
    while IFS= read -r line; do echo "$(( $(ms) - t0 )) $line"; done >"$tmp/out"
t_end=$(( $(ms) - t0 ))
kill $hogs 2>/dev/null
hogs=
t_line=$(grep -E "$pattern" "$tmp/out" | head -1 | cut -d' ' -f1)
if [ -z "$t_line" ]; then
    echo "FAIL busy loops: no line matching /$pattern/:"; sed 's/^/    /' "$tmp/out"; fail=1
elif [ $(( t_end - t_line )) -gt 8000 ]; then
    echo "FAIL busy loops: the job ended $(( t_end - t_line )) ms after the error's line" \
         "(limit 8000):"; sed 's/^/    /' "$tmp/out"; fail=1
else
    echo "ok   busy loops: the job ended $(( t_end - t_line )) ms after the error's line" \
         "(started ${t_line} ms before it)"
fi
exit $fail
