"""Events the agent loop yields; UI workers turn them into Qt signals, the CLI folds them into JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pageindex_desktop.core.assistant.citations.parse import Citation, Uncited
from pageindex_desktop.core.assistant.llm_errors import ModelError


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
    """The final answer with its judged citations, its uncited factual sentences, the tools used and the tokens
    spent (`judge_*`: the model judge's share, counted apart; `judge_note`: why it could not help, or '')."""

    answer: str
    citations: list[Citation]
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    uncited: list[Uncited] = field(default_factory=list)
    judge_prompt_tokens: int = 0
    judge_completion_tokens: int = 0
    judge_note: str = ""
    grounded: bool = True  # False: no page text or search hit reached the model before it answered
    search_results: list[Citation] = field(default_factory=list)  # offered instead when the answer is not grounded

    def usage_record(self) -> dict[str, int]:
        """The tokens spent, as the store keeps them and `ask --json` prints them (the judge's counted apart)."""
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens,
                "judge_prompt_tokens": self.judge_prompt_tokens,
                "judge_completion_tokens": self.judge_completion_tokens}

    def citation_records(self) -> dict[str, Any]:
        """What the store keeps and `ask --json` prints of the citations: one shape for both."""
        return {"citations": [c.to_dict() for c in self.citations], "uncited": [u.to_dict() for u in self.uncited],
                "judge_note": self.judge_note, "grounded": self.grounded,
                "search_results": [c.to_dict() for c in self.search_results]}


@dataclass
class Judged:
    """The model judge has given its second opinion: `answer` is the Finished answer with revised verdicts."""

    answer: Finished


@dataclass
class Failed:
    """The run ended without an answer; `message` is one sentence for the user."""

    message: str
    error: ModelError | None = None
    cancelled: bool = False
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0


Event = TextDelta | ToolCallStarted | ToolResult | Usage | Finished | Judged | Failed
