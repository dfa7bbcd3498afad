"""Import-only model of tensorrt_llm/serve/rl_control_auth.py: its import statements, plus placeholders for the names the model imports from it."""

import hashlib
import hmac
from typing import Mapping, Optional
