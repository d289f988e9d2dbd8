"""What the transcript shows: one `Exchange` per question, built live from agent events or from stored messages.

These are plain data (no Qt), made on the worker thread and handed to the pane through queued signals.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pageindex_desktop.core.assistant.ask import NO_MODEL_NOTE
from pageindex_desktop.core.library.chats import Message
from pageindex_desktop.core.assistant.events import Finished
from pageindex_desktop.core.assistant.tools import describe

STOPPED = "Stopped."


@dataclass
class TrailStep:
    """One line of the reading trail ("Read pages 12-14 of …"); `ok` is None while the tool runs."""

    label: str
    ok: bool | None = True


@dataclass
class Exchange:
    """A question and what came back: the answer (or an error sentence), its citations, trail and tokens."""

    question: str
    answer: str = ""
    citations: list[dict[str, Any]] = field(default_factory=list)
    uncited: list[dict[str, Any]] = field(default_factory=list)  # sentences stating figures without a citation
    judge_note: str = ""  # why the model judge could not help
    grounded: bool = True  # False: answered without reading any page or search result
    offered: list[dict[str, Any]] = field(default_factory=list)  # pages offered when the answer read nothing
    trail: list[TrailStep] = field(default_factory=list)
    prompt_tokens: int = 0
    completion_tokens: int = 0
    estimated: bool = False
    error: str = ""
    cancelled: bool = False
    running: bool = False
    expanded: bool = False
    turn: int = 0  # the model turn whose streamed text is shown

    @property
    def search_results(self) -> bool:
        """True for the no-model answer: search hits, not an answer written by a model."""
        return self.answer.startswith(NO_MODEL_NOTE)

    @property
    def body(self) -> str:
        """The answer text to render (the CLI's no-model note is replaced by the pane's own heading)."""
        return self.answer[len(NO_MODEL_NOTE):].lstrip("\n") if self.search_results else self.answer


def trail_from_calls(tool_calls: list[Any], titles: dict[str, str]) -> list[TrailStep]:
    """The reading trail of a stored answer, rebuilt from its recorded tool calls."""
    steps = []
    for call in tool_calls:
        if isinstance(call, dict) and call.get("name"):
            steps.append(TrailStep(describe(str(call["name"]), call.get("arguments"), titles)))
    return steps


def exchanges_from_messages(messages: list[Message], titles: dict[str, str]) -> list[Exchange]:
    """Pair stored user/assistant messages into exchanges (a question without a reply shows as interrupted)."""
    out: list[Exchange] = []
    for message in messages:
        if message.role == "user":
            out.append(Exchange(message.content))
            continue
        if message.role != "assistant" or not out or out[-1].answer or out[-1].error:
            continue
        current = out[-1]
        usage = message.usage or {}
        current.prompt_tokens = int(usage.get("prompt_tokens") or 0)
        current.completion_tokens = int(usage.get("completion_tokens") or 0)
        current.trail = trail_from_calls(message.tool_calls, titles)
        if usage.get("failed"):
            sentence = message.content.removeprefix("⚠").strip()
            current.cancelled = sentence == STOPPED
            current.error = "" if current.cancelled else sentence
        else:
            current.answer = message.content
            current.citations = [c for c in message.citations if isinstance(c, dict)]
            current.uncited = [u for u in message.uncited if isinstance(u, dict)]
            current.judge_note = message.judge_note
            current.grounded, current.offered = message.grounded, list(message.search_results)
    for exchange in out:
        if not (exchange.answer or exchange.error or exchange.cancelled):
            exchange.error = "This question was not answered (the app closed while it ran)."
    return out


def exchange_from_answer(question: str, answer: Finished, titles: dict[str, str]) -> Exchange:
    """The exchange for a finished answer, straight from the session's event (the same records it stored)."""
    records = answer.citation_records()
    return Exchange(question, answer.answer, records["citations"], records["uncited"], answer.judge_note,
                    answer.grounded, records["search_results"], trail_from_calls(answer.tool_calls, titles),
                    answer.prompt_tokens, answer.completion_tokens)
