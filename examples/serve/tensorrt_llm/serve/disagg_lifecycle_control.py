"""Import-only model of tensorrt_llm/serve/disagg_lifecycle_control.py: its import statements, plus placeholders for the names the model imports from it."""
from __future__ import annotations

import asyncio
import contextlib
import time
from dataclasses import dataclass, field
from enum import Enum
from typing import Callable, Literal, Optional
from urllib.parse import urljoin
from uuid import UUID, uuid4

import aiohttp
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from tensorrt_llm._torch.disaggregation.control_plane import (
    ArtifactObligationRegistry,
    GenerationAdmissionRegistry,
    TerminalIdentityFilter,
)
from tensorrt_llm._torch.disaggregation.handoff import HandoffEventState, HandoffLifecycleEvent
from tensorrt_llm._torch.disaggregation.obligations import (
    ArtifactObligationIdentity,
    ArtifactObligationState,
    GenerationGrantIdentity,
    GenerationGrantState,
    ObligationConflictError,
    ReceiveCommitGate,
    ReceiveCommitState,
)
from tensorrt_llm._torch.disaggregation.protocol import (
    AttemptIdentity,
    EndpointIdentity,
    TransferProtocolIdentity,
)
from tensorrt_llm.disaggregated_params import DisaggScheduleStyle, TransceiverLifecycleAdvertisement
from tensorrt_llm.llmapi.disagg_utils import ServerRole
from tensorrt_llm.logger import logger
