# tests for issue 6 (sim_frontend)
