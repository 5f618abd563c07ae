#!/bin/sh
# mn_syscall.sh - read()/write() on shared blocks the node does not hold
# fail with EFAULT, and the workarounds of doc/dsm.3 work (tests/mn_syscall.c).
exec sh "${srcdir:-.}/tests/run_mn.sh" -n "2" -t 60 -e "mn_syscall: node 1: OK" tests/mn_syscall
