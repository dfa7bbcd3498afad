"""Placeholder for tensorrt_llm._utils (not recorded; imported by the model): defines only the names the model imports from it."""


class AdjustedSteadyClock:
    """Placeholder."""


class KVCacheEventSerializer:
    """Placeholder."""


def default_gpus_per_node(*args, **kwargs):
    """Placeholder."""


def get_steady_clock_now_in_seconds(*args, **kwargs):
    """Placeholder."""


def local_mpi_rank(*args, **kwargs):
    """Placeholder."""


def local_mpi_size(*args, **kwargs):
    """Placeholder."""


def mpi_barrier(*args, **kwargs):
    """Placeholder."""


def mpi_comm(*args, **kwargs):
    """Placeholder."""


def mpi_rank(*args, **kwargs):
    """Placeholder."""


def mpi_world_size(*args, **kwargs):
    """Placeholder."""


def nvtx_mark(*args, **kwargs):
    """Placeholder."""


def nvtx_range_debug(*args, **kwargs):
    """Placeholder."""


def set_mpi_comm(*args, **kwargs):
    """Placeholder."""


def set_prometheus_multiproc_dir(*args, **kwargs):
    """Placeholder."""


def str_dtype_to_torch(*args, **kwargs):
    """Placeholder."""
