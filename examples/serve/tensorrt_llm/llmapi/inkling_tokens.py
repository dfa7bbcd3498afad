"""Placeholder for tensorrt_llm.llmapi.inkling_tokens (not recorded; imported by the model): defines only the names the model imports from it."""


INKLING_CONTROL_TOKENS = 'INKLING_CONTROL_TOKENS'  # placeholder


INKLING_END_MESSAGE = 'INKLING_END_MESSAGE'  # placeholder


INKLING_INVOKE_TOOL_JSON = 'INKLING_INVOKE_TOOL_JSON'  # placeholder


INKLING_MESSAGE_MODEL = 'INKLING_MESSAGE_MODEL'  # placeholder
