"""Placeholder for tensorrt_llm.llmapi.mpi_session (not recorded; imported by the model): defines only the names the model imports from it."""


class MpiCommSession:
    """Placeholder."""


class MpiPoolSession:
    """Placeholder."""


class MpiSession:
    """Placeholder."""


class RemoteMpiCommSessionClient:
    """Placeholder."""


def find_free_ipc_addr(*args, **kwargs):
    """Placeholder."""


def split_mpi_env(*args, **kwargs):
    """Placeholder."""
