#!/bin/sh
# mn_tasks.sh - the thread model and shared globals on real nodes
# (tests/mn_tasks.c says what each mode checks), under dsmrun or, with
# DSM_TEST_TRANSPORT=mpi, mpirun (tests/run_mn.sh's choice; the test
# matrix runs it on both, tests/matrix.list: tasks):
#   - tasks on 1, 2 and 4 nodes, with fewer tasks than nodes, one per node
#     and more tasks than nodes (threads of the nodes): the master's globals
#     and heap as of the create, the argument, a function pointer stored in
#     DSM_SHARED memory, a DSM_SHARED counter that adds up, dsm_join and
#     dsm_wait_for_end;
#   - what a node allocated before dsm_init_master is not overwritten by
#     the master's image (its tasks find their own node's values there);
#   - dsm_join and dsm_wait_for_end sleep (node 0's CPU time while it
#     waits 2 s for sleeping tasks stays under 0.3 s);
#   - a function pointer stored in shared memory called on every node (and
#     DSM_ASLR=keep, randomisation on, makes that fail);
#   - stdin: every node reads all of it (100000 bytes) on 2 and 4 nodes;
#     DSM_STDIN=keep gives the nodes one shared offset again (dsmrun); a
#     pipe whose producer never closes it stalls nothing;
#   - the errors: dsm_create in the SPMD model, from a task on another
#     node, dsm_wait_for_end for more tasks than created, a task following
#     a pointer into memory the master mapped itself, DSM_SHARED globals
#     linked without the linker script: one line naming the call, non-zero
#     exit, no hang.
top=${top_builddir:-.}
case ${DSM_TEST_TRANSPORT:-shm} in
    shm) run=${DSMRUN:-$top/dsmrun} ;;
    mpi) command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1 || { echo "mn_tasks.sh: no mpirun: skipped"; exit 77; }
         run=$(dirname "$0")/mpirun_dsm.sh ;;
    *) echo "mn_tasks.sh: DSM_TEST_TRANSPORT=$DSM_TEST_TRANSPORT: only shm and mpi"; exit 77 ;;
esac
prog=$top/tests/mn_tasks
noscript=$top/tests/mn_tasks_noscript
for f in "$prog" "$noscript"; do
    [ -x "$f" ] || { echo "mn_tasks.sh: $f is not built" >&2; exit 99; }
done
to=${TIMEOUT:-timeout}
command -v "$to" >/dev/null 2>&1 || to=
dir=$(mktemp -d "${TMPDIR:-/tmp}/mn_tasks.XXXXXX") || exit 99
trap 'rm -rf "$dir"' EXIT
export DSM_PROFILE=off
fail=0

# go NODES EXPECT(regex) STATUS(0|fail) [VAR=value...] -- ARGS...: one run
go() {
    n=$1 want=$2 status=$3
    shift 3
    vars=
    while [ "$1" != -- ]; do vars="$vars $1"; shift; done
    shift
    for attempt in 1 2; do
        env $vars ${to:+$to -k 10 100} sh -c '"$@" < "$0"' "$dir/in" "$run" -n "$n" --timeout 90 "$@" >"$dir/out" 2>&1
        rc=$?
        # OpenMPI 4's mpirun itself may crash forwarding stdin to a rank
        # that is ending (open-mpi/ompi#7483, 1 run in 60 here): once more
        grep -q orte_iof_hnp_read_local_handler "$dir/out" || break
        echo "note: mpirun crashed in its stdin forwarding (open-mpi/ompi#7483); run again"
    done
    if { [ "$status" = 0 ] && [ $rc -ne 0 ]; } || { [ "$status" = fail ] && { [ $rc -eq 0 ] || [ $rc -eq 124 ] || [ $rc -eq 137 ]; }; } ||
       ! grep -Eq "$want" "$dir/out"; then
        grep -v '^dsm profile' "$dir/out" | head -20
        echo "FAIL: $* on $n nodes$vars: exit status $rc, want $status and /$want/"
        fail=1
    else
        echo "ok: $* on $n nodes$vars: $(grep -E "$want" "$dir/out" | head -n 1)"
    fi
}

: > "$dir/in"
for n in 1 2 4; do
    for t in 1 $n $((2 * n + 1)); do
        go "$n" "mn_tasks: tasks: $t tasks on $n nodes, counter $((50 * t)): OK" 0 -- "$prog" tasks "$t"
    done
done

# what each node allocated before dsm_init_master stays its own
for n in 2 4; do
    go "$n" "preinit: $((2 * n)) tasks kept their node's own early allocation: OK" 0 -- "$prog" preinit
done

# waiting for tasks sleeps: node 0 spends little CPU over 2 s of joins
go 2 "blockwait: .*: OK" 0 -- "$prog" blockwait

# a function pointer and a global's address stored in shared memory by
# node 0, used by every node (the program is PIE); with randomisation kept
# on they are another node's addresses: the job fails
for n in 2 4; do
    go "$n" "fnptr: $n nodes called node 0's function pointer: OK" 0 -- "$prog" fnptr
done
go 2 "SIGSEGV|shared function pointer|killed|signal|exited" fail DSM_ASLR=keep -- "$prog" fnptr

# stdin: 100000 bytes that every node must read whole
awk 'BEGIN { for (i = 0; i < 100000; i++) printf "%c", 65 + (i * 7) % 26 }' > "$dir/in"
set -- $(od -An -v -tu1 "$dir/in" | awk '{ for (i = 1; i <= NF; i++) { n++; s += $i } } END { print n, s }')
bytes=$1 sum=$2
for n in 2 4; do
    go "$n" "stdin: $n nodes read $bytes bytes each: OK" 0 -- "$prog" stdin "$bytes" "$sum"
done
if [ "${DSM_TEST_TRANSPORT:-shm}" = shm ]; then
    go 2 "node [01] read [0-9]+ bytes" fail DSM_STDIN=keep -- "$prog" stdin "$bytes" "$sum"
fi
# a producer that never closes the pipe: the job neither waits for its
# end at the start nor at the end (sleep outlives the job; the time counts)
mkfifo "$dir/fifo" || exit 99
sleep 60 >"$dir/fifo" &
producer=$!
start=$(date +%s)
env ${to:+$to -k 5 50} "$run" -n 2 --timeout 45 "$prog" tasks 2 <"$dir/fifo" >"$dir/out" 2>&1
rc=$?
took=$(( $(date +%s) - start ))
kill $producer 2>/dev/null
if [ $rc = 0 ] && [ "$took" -lt 30 ] && grep -q "tasks: 2 tasks on 2 nodes.*: OK" "$dir/out"; then
    echo "ok: stdin a pipe that stays open: the job ended in ${took}s"
else
    grep -v '^dsm profile' "$dir/out" | head; echo "FAIL: stdin a pipe that stays open: status $rc, ${took}s"
    fail=1
fi
: > "$dir/in"

go 2 "dsm: node [01]: dsm_create: the job was started by dsm_init \(the SPMD model\)" fail -- "$prog" spmd_create
go 2 "dsm: node 1: dsm_create: called by task 1 on node 1: only node 0" fail -- "$prog" worker_create
go 2 "dsm: node 0: dsm_wait_for_end: waits for 5 tasks, but 1 created tasks are not yet waited for" fail -- "$prog" wait_too_many
go 2 "dsm: node 1: task: task 1: segmentation fault at 0x4c0000000000: not shared memory, nor the master's data that dsm_create copies" fail -- "$prog" unshipped
go 2 "dsm: node [01]: dsm_init: the DSM_SHARED globals .* share pages with other data: link with the flags of .pkg-config --libs dsm." fail -- "$noscript" tasks 2
exit $fail
