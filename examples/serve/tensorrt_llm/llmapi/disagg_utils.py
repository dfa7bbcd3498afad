"""Placeholder for tensorrt_llm.llmapi.disagg_utils (not recorded; imported by the model): defines only the names the model imports from it."""


class ConditionalDisaggConfig:
    """Placeholder."""


class DisaggClusterConfig:
    """Placeholder."""


class DisaggServerConfig:
    """Placeholder."""


class MetadataServerConfig:
    """Placeholder."""


class RouterConfig:
    """Placeholder."""


class ServerRole:
    """Placeholder."""


def get_ctx_gen_server_addrs(*args, **kwargs):
    """Placeholder."""


def get_global_disagg_request_id(*args, **kwargs):
    """Placeholder."""


def get_usage_tokens_from_ctx(*args, **kwargs):
    """Placeholder."""


def parse_disagg_config_file(*args, **kwargs):
    """Placeholder."""


def parse_metadata_server_config_file(*args, **kwargs):
    """Placeholder."""


def rewrite_usage_info_from_ctx(*args, **kwargs):
    """Placeholder."""


def rewrite_usage_response_from_ctx(*args, **kwargs):
    """Placeholder."""


def worker_local_process_id(*args, **kwargs):
    """Placeholder."""
