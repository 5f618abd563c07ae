# dsm/: the simulation front end (issue 6): dsmcc, instrumentation hooks,
# scheduling of simulated processors, dsmrun --machine.
