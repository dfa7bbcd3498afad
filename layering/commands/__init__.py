"""The use cases: one module per command (`check`, `prune`, ...), each short, over the engine.

They sit above the contract types; the engine (`engine.config`, `engine.evidence`) below them
is what a contract reads. Front doors (`cli`, `pytest_plugin`, `api`) only call these.
"""
