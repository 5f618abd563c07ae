#!/bin/sh
# mn_litmus_2p2w.sh - 2+2W litmus test (SC), 10^4 iterations, both layouts.
exec sh "${srcdir:-.}/tests/run_mn.sh" tests/mn_litmus -t 2+2w -i 10000
