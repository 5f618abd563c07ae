# tests/multinode.mk
