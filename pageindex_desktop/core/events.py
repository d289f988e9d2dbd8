"""Events the agent loop yields; UI workers turn them into Qt signals, the CLI folds them into JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pageindex_desktop.core.citations import Citation
from pageindex_desktop.core.llm_errors import ModelError


@dataclass
class TextDelta:
    """A piece of streamed answer text (`turn` restarts at each model call; the last turn is the answer)."""

    text: str
    turn: int


@dataclass
class ToolCallStarted:
    """The model asked for a tool; `label` is the reading-trail line ("Read pages 12-14 of …")."""

    call_id: str
    name: str
    arguments: Any
    label: str


@dataclass
class ToolResult:
    """What a tool returned to the model (the JSON envelope) and whether it succeeded."""

    call_id: str
    name: str
    ok: bool
    label: str
    content: str


@dataclass
class Usage:
    """Tokens one model call used, and the running totals for this question (`estimated`: counted locally
    because the server reported none)."""

    prompt_tokens: int
    completion_tokens: int
    total_prompt_tokens: int
    total_completion_tokens: int
    estimated: bool = False


@dataclass
class Finished:
    """The final answer with its verified citations, the tools used and the tokens spent."""

    answer: str
    citations: list[Citation]
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0


@dataclass
class Failed:
    """The run ended without an answer; `message` is one sentence for the user."""

    message: str
    error: ModelError | None = None
    cancelled: bool = False
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0


Event = TextDelta | ToolCallStarted | ToolResult | Usage | Finished | Failed
