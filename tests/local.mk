# tests/: each part keeps its own fragment.
include tests/protocol.mk
include tests/transport.mk
include tests/multinode.mk
include tests/core.mk
include tests/stats.mk
include tests/particles.mk
