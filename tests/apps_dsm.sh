#!/bin/sh
# apps_dsm.sh - the issue-6 applications (apps/fft, lu, radix, ocean, mm,
# slots; doc/apps.md) on the DSM with 1, 2 and 4 nodes: each run must exit 0
# and print "NAME: result OK" (the apps check their own results and exit 1
# with a line naming what differs).  Sizes are below the defaults where the
# DSM's page-sized blocks make a run slow (radix's scattered writes), so the
# whole script stays well under 20 s.  Uses tests/run_mn.sh.
status=0
check() {
    app=$1
    shift
    sh "${srcdir:-.}/tests/run_mn.sh" -n "1 2 4" -t 60 -e "^(\[0\] )?$app: result OK" "apps/$app" "$@" || status=1
}
check fft --m=10
check lu --n=96 --b=16
check radix --keys=4096 --radix=16 --bits=12
check ocean --n=48 --iters=10
check mm --n=60 --b=16
check slots --iters=500
exit $status
