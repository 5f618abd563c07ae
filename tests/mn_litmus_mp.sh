#!/bin/sh
# mn_litmus_mp.sh - message-passing litmus test (SC), 10^4 iterations, x/y in different and in the same block.
exec sh "${srcdir:-.}/tests/run_mn.sh" tests/mn_litmus -t mp -i 10000
