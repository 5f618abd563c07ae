#!/bin/sh
# mn_litmus_iriw.sh - IRIW litmus test (SC, needs 4 nodes), 10^4 iterations, both layouts.
exec sh "${srcdir:-.}/tests/run_mn.sh" -n "4 8" tests/mn_litmus -t iriw -i 10000
