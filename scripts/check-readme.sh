#!/bin/sh
# check-readme.sh - a test of `make check`: the example program shown in
# README.md (between the BEGIN/END apps/hello.c markers) is apps/hello.c,
# character for character.  Run from the build directory by the harness,
# which exports srcdir; by hand: srcdir=. scripts/check-readme.sh
set -u
top=${srcdir:-.}
readme="$top/README.md"
prog="$top/apps/hello.c"
for f in "$readme" "$prog"; do
    [ -r "$f" ] || { echo "check-readme: cannot read $f"; exit 99; }
done

shown=$(sed -n '/^<!-- BEGIN apps\/hello.c/,/^<!-- END apps\/hello.c/p' "$readme" | sed -e '1,2d' -e '$d' | sed -e '$d')
if [ -z "$shown" ]; then
    echo "check-readme: no program between the BEGIN/END apps/hello.c markers of $readme"
    exit 1
fi
if [ "$shown" = "$(cat "$prog")" ]; then
    echo "check-readme: README.md shows apps/hello.c as it is"
    exit 0
fi
echo "check-readme: README.md shows another program than apps/hello.c; differences:"
printf '%s\n' "$shown" | diff -u - "$prog" | sed -e "s|^--- -.*|--- README.md|"
exit 1
