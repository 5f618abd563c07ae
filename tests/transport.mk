# tests/transport.mk
