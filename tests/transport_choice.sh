#!/bin/sh
# transport_choice.sh - which transport dsm_init takes (dsm/transport/registry.c):
# DSM_TRANSPORT names one, else the launcher that started the process says,
# else one node.  A name that is unknown or not built, or a transport whose
# launcher did not start the process while another's did, fails dsm_init
# with one line (from the launcher's node 0) and the job exits non-zero:
# DSM_TRANSPORT=mpi under dsmrun used to run N separate one-node jobs, each
# exiting 0.  apps/hello is the program.
top=${top_builddir:-.}
DSMRUN=${DSMRUN:-$top/dsmrun}
prog=$top/apps/hello
for f in "$DSMRUN" "$prog"; do
    [ -x "$f" ] || { echo "transport_choice.sh: $f is not built" >&2; exit 99; }
done
export DSM_PROFILE=off
unset DSM_TRANSPORT DSM_MACHINE
fail=0
# refused NAME PATTERN COMMAND...: non-zero status, exactly one line from
# the library, matching PATTERN, and no node ran the program
refused() {
    name=$1 pattern=$2
    shift 2
    out=$(timeout -k 5 60 "$@" 2>&1)
    rc=$?
    lines=$(printf '%s\n' "$out" | grep -c '^dsm: node')
    if [ $rc -eq 0 ] || [ $rc -eq 124 ]; then
        echo "FAIL $name: status $rc:"; printf '%s\n' "$out" | sed 's/^/    /'; fail=1
    elif ! printf '%s\n' "$out" | grep -Eq "$pattern"; then
        echo "FAIL $name: no line matching /$pattern/:"; printf '%s\n' "$out" | sed 's/^/    /'
        fail=1
    elif [ "$lines" != 1 ]; then
        echo "FAIL $name: $lines lines from the library, expected one:"
        printf '%s\n' "$out" | sed 's/^/    /'; fail=1
    elif printf '%s\n' "$out" | grep -q '^hello:'; then
        echo "FAIL $name: the program ran:"; printf '%s\n' "$out" | sed 's/^/    /'; fail=1
    else
        echo "ok   $name (status $rc): $(printf '%s\n' "$out" | grep -E "$pattern" | head -1)"
    fi
}
# ran NAME NODES COMMAND...: status 0 and hello's result on NODES nodes
ran() {
    name=$1 nodes=$2
    shift 2
    out=$(timeout -k 5 60 "$@" 2>&1)
    rc=$?
    if [ $rc -ne 0 ] || ! printf '%s\n' "$out" | grep -q "^hello: $nodes nodes"; then
        echo "FAIL $name: status $rc, expected hello on $nodes nodes:"
        printf '%s\n' "$out" | sed 's/^/    /'; fail=1
    else
        echo "ok   $name: $nodes nodes"
    fi
}

ran "no launcher, no DSM_TRANSPORT: one node" 1 "$prog"
ran "dsmrun: shm chosen by its launcher" 2 "$DSMRUN" -n 2 "$prog"
ran "DSM_TRANSPORT=shm under dsmrun" 3 env DSM_TRANSPORT=shm "$DSMRUN" -n 3 "$prog"
refused "unknown name" \
    '^dsm: node \?: dsm_init: DSM_TRANSPORT=bogus is not a transport of this libdsm \(it has: shm(, [a-z]+)*\)$' \
    env DSM_TRANSPORT=bogus "$prog"
refused "unknown name under dsmrun" 'DSM_TRANSPORT=bogus is not a transport of this libdsm' \
    env DSM_TRANSPORT=bogus "$DSMRUN" -n 2 "$prog"
refused "shm without dsmrun" \
    '^dsm: node \?: dsm_init: DSM_TRANSPORT=shm but this process was not started by dsmrun -n N prog$' \
    env DSM_TRANSPORT=shm "$prog"
# mpi (and verbs) under dsmrun: refused whether or not they are built
refused "mpi under dsmrun, 2 nodes" \
    '^dsm: node \?: dsm_init: DSM_TRANSPORT=mpi (but this process was started by dsmrun -n N \(the shm transport.s launcher\), which mpi does not join: start it with mpirun -np N prog, or unset DSM_TRANSPORT|but this libdsm was built without MPI.*)$' \
    env DSM_TRANSPORT=mpi "$DSMRUN" -n 2 "$prog"
refused "mpi under dsmrun, 1 node" 'DSM_TRANSPORT=mpi but this' \
    env DSM_TRANSPORT=mpi "$DSMRUN" -n 1 "$prog"
refused "verbs under dsmrun" \
    '^dsm: node \?: dsm_init: DSM_TRANSPORT=verbs but this (process was started by dsmrun -n N|libdsm was built without the verbs transport)' \
    env DSM_TRANSPORT=verbs "$DSMRUN" -n 2 "$prog"
# the transports built, as the library lists them
has=$(DSM_TRANSPORT=bogus "$prog" 2>&1 | sed -n 's/.*(it has: \(.*\))$/\1/p')
echo "built: $has"
case ", $has," in
    *", mpi,"*) have_mpi=1 ;;
    *) have_mpi=0 ;;
esac
if [ $have_mpi = 0 ]; then
    echo "skip shm under mpirun: libdsm has no mpi transport"
elif command -v "${MPIRUN:-mpirun}" >/dev/null 2>&1; then
    root=
    [ "$(id -u)" = 0 ] && root=--allow-run-as-root
    refused "shm under mpirun" \
        '^dsm: node \?: dsm_init: DSM_TRANSPORT=shm but this process was started by mpirun -np N \(the mpi transport.s launcher\), which shm does not join: start it with dsmrun -n N prog, or unset DSM_TRANSPORT$' \
        "${MPIRUN:-mpirun}" $root --oversubscribe -np 2 -x DSM_TRANSPORT=shm "$prog"
else
    echo "skip shm under mpirun: no mpirun"
fi
exit $fail
