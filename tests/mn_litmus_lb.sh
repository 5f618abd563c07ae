#!/bin/sh
# mn_litmus_lb.sh - load-buffering litmus test (SC), 10^4 iterations, both layouts.
exec sh "${srcdir:-.}/tests/run_mn.sh" tests/mn_litmus -t lb -i 10000
