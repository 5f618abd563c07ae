# tests for issue 6 (apps_sim)
