"""Import-only model of tensorrt_llm/serve/runtime_control_auth.py: its import statements, plus placeholders for the names the model imports from it."""

import hashlib
import hmac
import re
import secrets
import time
from typing import Mapping, Optional
