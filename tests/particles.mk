# tests/particles.mk - the case study of section 4 (doc/case-study.md):
#   mn_particles.sh  apps/particles versions 1-3 correct on 1, 2, 4, 8 nodes;
#                    on 4 nodes, from the DSM_STATS file: version 1's part and
#                    rxncor migratory / producer-consumer, version 3 <= 10% of
#                    version 2's particle-array coherence misses and faster
TESTS += tests/mn_particles.sh
EXTRA_DIST += tests/mn_particles.sh
