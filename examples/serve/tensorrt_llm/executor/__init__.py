"""Import-only model of tensorrt_llm/executor/__init__.py: its import statements, plus placeholders for the names the model imports from it.

Imports follow the newer stored version (exports EngineDeadError, which responses_utils imports from tensorrt_llm.executor).
"""

from .executor import *
from .postproc_worker import *
from .proxy import *
from .request import *
from .result import *
from .utils import EngineDeadError, RequestError
from .worker import *
