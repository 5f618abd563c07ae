#!/bin/sh
# mn_litmus_sb.sh - store-buffering (Dekker) litmus test (SC), 10^4 iterations, both layouts.
exec sh "${srcdir:-.}/tests/run_mn.sh" tests/mn_litmus -t sb -i 10000
