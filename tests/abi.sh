#!/bin/sh
# abi.sh - the installed library's interface: libdsm.so exports exactly the
# symbols listed in dsm/libdsm.symbols (the API of dsm.h and dsmcc's hooks),
# so a new internal function can never leak; and a program defining
# functions with internal names runs (tests/abi_collide).
#   To accept a deliberate change of the API, update the list:
#   nm -D --defined-only .libs/libdsm.so | awk '{print $3}' | LC_ALL=C sort > dsm/libdsm.symbols
top=${top_builddir:-.}
src=${srcdir:-.}
lib=$top/.libs/libdsm.so
[ -f "$lib" ] || { echo "abi.sh: $lib is not built" >&2; exit 99; }
command -v nm >/dev/null 2>&1 || { echo "abi.sh: no nm (binutils)" >&2; exit 99; }
got=$(mktemp "${TMPDIR:-/tmp}/abi.XXXXXX") || exit 99
trap 'rm -f "$got"' EXIT
nm -D --defined-only "$lib" | awk '{print $3}' | LC_ALL=C sort > "$got"
if ! diff -u "$src/dsm/libdsm.symbols" "$got"; then
    echo "abi.sh: libdsm.so exports other symbols than dsm/libdsm.symbols (+ leaked, - missing)" >&2
    exit 1
fi
echo "abi.sh: $(wc -l < "$got") symbols exported, as listed"
"$top/tests/abi_collide" || exit 1
