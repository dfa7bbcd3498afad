"""The engine: reads the configuration, gathers evidence, and decides each contract."""
