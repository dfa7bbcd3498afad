"""Renderers of a run's report: text for people, JSON, GitHub annotations and SARIF for
machines."""
