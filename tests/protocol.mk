# tests/protocol.mk
