# protocol/sim/: simulated machines driven by the coherence engine (issue 6).
# Pure like protocol/: caches, networks, timing, statistics collectors.
