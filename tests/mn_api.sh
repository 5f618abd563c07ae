#!/bin/sh
# mn_api.sh - every dsm.h call checked across 2, 4 and 8 nodes (tests/mn_api.c).
exec sh "${srcdir:-.}/tests/run_mn.sh" tests/mn_api 200
