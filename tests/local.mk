# tests/: each part keeps its own fragment.
include tests/protocol.mk
include tests/transport.mk
include tests/multinode.mk
include tests/core.mk
include tests/stats.mk
include tests/particles.mk
include tests/profile.mk
include tests/html.mk
include tests/dsmprof.mk
include tests/mpi.mk
include tests/fuzz.mk
include tests/verbs.mk
include tests/sim_machine.mk
include tests/sim_frontend.mk
include tests/sim_flash.mk
include tests/sim_stats.mk
include tests/apps_sim.mk
