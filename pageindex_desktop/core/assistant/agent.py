"""The question loop: stream a model turn, run the tools it asks for, repeat until it answers or hits the limit.

`Agent.run` is a generator of events (events.py) so a Qt worker or the CLI can consume it the same way. It never
raises for model or tool trouble: those end in a `Failed` event with one sentence for the user.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Generator, Iterator

from pageindex_desktop.core.assistant import compaction
from pageindex_desktop.core.assistant.citations.verify import check_answer
from pageindex_desktop.core.assistant.events import Event, Failed, Finished, TextDelta, ToolCallStarted, ToolResult, Usage
from pageindex_desktop.core.assistant.llm import Cancelled, LLMClient
from pageindex_desktop.core.assistant.limits import Limits
from pageindex_desktop.core.assistant.llm_errors import LimitReached, MalformedStream, ModelError, ToolsNotSupported
from pageindex_desktop.core.assistant.prompts import MAX_LISTED, system_prompt
from pageindex_desktop.core.tokens import count_tokens
from pageindex_desktop.core.assistant.tool_protocol import prompt_messages
from pageindex_desktop.core.library.search_query import plan
from pageindex_desktop.core.assistant.tool_text import names_a_tool, opens_with_call_tag, parse_calls, shown_part
from pageindex_desktop.core.assistant.tools import TOOL_SCHEMAS, ToolBox, describe, fail

log = logging.getLogger(__name__)

TOOL_NAMES = [str(t["function"]["name"]) for t in TOOL_SCHEMAS]  # every tool stays callable, listed or not
READ_FIRST = ("Do not answer from memory: read the documents first. Call a tool now, for example {call}, then "
              "answer from what it returns, citing [Document title, p. N].")
UNKNOWN_TOOL = ("There is no tool called {name}. Call one of: {tools}, with a JSON object of arguments, or answer "
                "in plain text with citations.")
MAX_SAME_CALL = 2
CHARS_PER_TOKEN_CAP = 8  # generous: an answer longer than answer_tokens × this has ignored max_tokens
MAX_CALLS_PER_TURN = 8  # tool calls run per model turn; the rest get TOO_MANY_CALLS
TOO_MANY_CALLS = ("Not run: at most {cap} tool calls are run per step and this step asked for {asked}. Use the "
                  "results above, or ask for the rest in the next step.")
MAX_GARBLED = 3
GARBLED = ("The model kept writing tool calls the assistant could not read, so the question was stopped; ask "
           "again, or choose a model with tool support in Model Settings.")
REPEATED = ("This exact call was already made and its result is above. Answer now from what the tools returned, "
            "citing [Document title, p. N], or call a different tool.")
UNREADABLE_CALL = ("That tool call could not be read. Write it as one JSON object, for example {call}, or answer in "
                   "plain text with citations.")


@dataclass
class _Turn:
    content: str = ""
    calls: dict[int, dict[str, str]] = field(default_factory=dict)
    finish: str | None = None


@dataclass
class Agent:
    """One conversation's agent: a model client, a scoped toolbox and the turn limit."""

    client: LLMClient
    toolbox: ToolBox
    model: str | None = None
    limits: Limits = field(default_factory=Limits)
    messages: list[dict[str, Any]] = field(default_factory=list)
    _tool_records: list[compaction.ToolRecord] = field(default_factory=list, repr=False)
    _repeats: dict[str, int] = field(default_factory=dict, repr=False)  # identical calls made in this question

    def run(
        self, question: str, history: list[dict[str, Any]] | None = None, cancel: threading.Event | None = None
    ) -> Iterator[Event]:
        """Answer `question` (after `history`, plain user/assistant messages); yields events, ends in Finished/Failed."""
        cancel = cancel or threading.Event()
        docs = self.toolbox.in_scope()
        titles = {d.doc_id: d.title for d in docs}
        self.messages = [{"role": "system", "content": system_prompt(docs)}, *(history or []),
                         {"role": "user", "content": question}]
        totals = [0, 0]
        calls_made: list[dict[str, Any]] = []

        def failed(message: str, error: ModelError | None = None, cancelled: bool = False) -> Failed:
            return Failed(message, error, cancelled, calls_made, totals[0], totals[1])

        limits = self.limits
        unread = 0  # answers given before anything was read (see below)
        garbled = 0  # turns that wrote a tool call that could not be run
        question_deadline = time.monotonic() + limits.question_seconds
        self._tool_records = []
        self._repeats = {}
        for turn in range(1, limits.max_turns + 1):
            current = _Turn()
            compaction.compact(self.messages, self._tool_records)  # what later turns re-send, shortened
            used = totals[0] + totals[1]
            if used > limits.question_tokens:
                yield failed(limits.budget_message(used), LimitReached(limits.budget_message(used)))
                return
            turn_deadline = time.monotonic() + limits.turn_seconds
            if question_deadline < turn_deadline:
                deadline, message = question_deadline, limits.question_message()
            else:
                deadline, message = turn_deadline, limits.turn_message()
            try:
                for event in self._stream_turn(turn, current, cancel, totals, deadline, message):
                    yield event
            except Cancelled as exc:
                yield failed("Stopped.", exc, cancelled=True)
                return
            except ModelError as exc:
                log.info("model turn %d failed: %s", turn, type(exc).__name__)
                yield failed(str(exc), exc)
                return
            if not current.calls:
                if current.finish == "length":
                    cut = LimitReached(limits.length_message())
                    yield failed(str(cut), cut)
                    return
                if current.finish is None:
                    error = MalformedStream("The model's answer broke off before it finished; ask again.")
                    yield failed(str(error), error)
                    return
                answer = current.content.strip()
                unknown = names_a_tool(answer)
                if unknown or opens_with_call_tag(answer):
                    # A call written as text to a tool the app does not have, or one that could not be read
                    # (`<tools></tools>`): never an answer. The model is told what to do instead, without its
                    # call text re-sent (small models copy their last turn); the second time, the assistant runs
                    # the search for it; past MAX_GARBLED, the question ends with a sentence saying why.
                    garbled += 1
                    log.info("turn %d: %s: %r", turn, f"a call to an unknown tool {unknown}" if unknown else
                             "a call tag that could not be read", answer[:120])
                    yield TextDelta("", turn + 1)  # the pane drops the call text it may have shown
                    if garbled > MAX_GARBLED:
                        error = MalformedStream(GARBLED)
                        yield failed(str(error), error)
                        return
                    if garbled == 2 and docs and not self.toolbox.has_read():
                        yield from self._search_for_the_model(example_call(docs, question), turn, titles, calls_made)
                        continue
                    reply = UNKNOWN_TOOL.format(name=unknown, tools=", ".join(TOOL_NAMES)) if unknown else \
                        UNREADABLE_CALL.format(call=example_call(docs, question))
                    self.messages.append({"role": "user", "content": reply})
                    continue
                check = check_answer(answer, self.toolbox.library, self.toolbox.scope, self.toolbox.returned)
                if docs and not self.toolbox.has_read() and unread < 2 and turn < limits.max_turns:
                    # Small local models answer from memory, or with "No response.", on their first turn. Any
                    # answer counts, with claims or not: a question in a chat that has read nothing yet is about
                    # the documents. The unread answer is not re-sent (small models copy their last turn) and
                    # the pane drops it. First the model is reminded, with a search call to copy; if it still
                    # reads nothing, the assistant runs that search itself and the model answers from the hits.
                    unread += 1
                    suggested = example_call(docs, question)
                    yield TextDelta("", turn + 1)
                    if unread == 1:
                        self.messages.append({"role": "user", "content": READ_FIRST.format(call=suggested)})
                    else:
                        yield from self._search_for_the_model(suggested, turn, titles, calls_made)
                    continue
                self.messages.append({"role": "assistant", "content": answer})
                yield Finished(answer, check.citations, calls_made, totals[0], totals[1], check.uncited,
                               grounded=self.toolbox.has_read())
                return
            ordered = [current.calls[i] for i in sorted(current.calls)]
            self.messages.append({
                "role": "assistant",
                "content": current.content or None,
                "tool_calls": [{"id": c["id"], "type": "function",
                                "function": {"name": c["name"], "arguments": c["arguments"]}} for c in ordered],
            })
            for number, call in enumerate(ordered):
                if cancel.is_set():
                    yield failed("Stopped.", Cancelled("Stopped."), cancelled=True)
                    return
                if number >= MAX_CALLS_PER_TURN:
                    # 200 calls in one turn used to send megabytes of pages back; each call still gets its answer
                    self._refuse_call(call, len(ordered))
                    continue
                yield from self._run_tool(call, titles, calls_made)
        yield failed(limits.turns_message(), LimitReached(limits.turns_message()))

    def _stream_turn(self, turn: int, current: _Turn, cancel: threading.Event, totals: list[int], deadline: float,
                     deadline_message: str) -> Iterator[Event]:
        """One streamed model call, bounded by `deadline`; fills `current` with the text, tool calls and finish
        reason."""
        listed = len(self.toolbox.in_scope()) <= MAX_LISTED
        schemas = self.toolbox.schemas(listed)
        reported = False
        shown = 0  # how much of the turn's text was shown: a tool call written as text is held back
        most = self.limits.answer_tokens * CHARS_PER_TOKEN_CAP
        chunks = self._chunks(schemas, cancel, deadline, deadline_message)
        for chunk in chunks:
            if len(current.content) > most:
                # a server that ignores max_tokens: the cap holds anyway, and the stream is closed here
                log.info("turn %d: %d characters, past the answer cap; stream closed", turn, len(current.content))
                current.finish = "length"
                chunks.close()
                break
            usage = getattr(chunk, "usage", None)
            if usage is not None:
                reported = True
                prompt, completion = int(usage.prompt_tokens or 0), int(usage.completion_tokens or 0)
                totals[0] += prompt
                totals[1] += completion
                yield Usage(prompt, completion, totals[0], totals[1])
            for choice in chunk.choices or []:
                delta = choice.delta
                if delta is not None and delta.content:
                    current.content += delta.content
                    safe = shown_part(current.content, shown)
                    if safe > shown:
                        yield TextDelta(current.content[shown:safe], turn)
                        shown = safe
                for piece in (delta.tool_calls or []) if delta is not None else []:
                    index = _slot_index(current, piece)
                    slot = current.calls.setdefault(index, {"id": "", "name": "", "arguments": ""})
                    slot["id"] = piece.id or slot["id"] or f"call_{turn}_{index}"
                    if piece.function is not None:
                        slot["name"] += piece.function.name or ""
                        slot["arguments"] += piece.function.arguments or ""
                if choice.finish_reason:
                    current.finish = choice.finish_reason
        if not current.calls and current.content:
            self._calls_from_text(current, turn, TOOL_NAMES)
        if not current.calls and shown < len(current.content):
            yield TextDelta(current.content[shown:], turn)
        if not reported:  # a server without usage reports: count locally so the pane can still show tokens
            prompt = count_tokens(json.dumps(self.messages, ensure_ascii=False) + json.dumps(schemas))
            made = current.content + "".join(c["name"] + c["arguments"] for c in current.calls.values())
            completion = count_tokens(made) if made else 0
            totals[0] += prompt
            totals[1] += completion
            yield Usage(prompt, completion, totals[0], totals[1], estimated=True)

    def _chunks(self, schemas: list[dict[str, Any]], cancel: threading.Event, deadline: float,
                deadline_message: str) -> Generator[Any, None, None]:
        """The turn's stream: with native tools, or, once the endpoint refused them, with the tools described in
        the prompt (tool_protocol.py; remembered on the client for the rest of the chat)."""
        bounds: dict[str, Any] = {"deadline": deadline, "deadline_message": deadline_message,
                                  "max_tokens": self.limits.answer_tokens}
        if self.client.tools_mode == "native":
            try:
                yield from self.client.stream(self.messages, schemas, self.model, cancel, **bounds)
                return
            except ToolsNotSupported:
                log.info("the endpoint refused native tools: describing them in the prompt instead")
                self.client.use_prompt_tools()
        yield from self.client.stream(prompt_messages(self.messages, schemas), None, self.model, cancel, **bounds)

    def _calls_from_text(self, current: _Turn, turn: int, offered: list[str]) -> None:
        """A turn that wrote its tool calls as text (small local models do) becomes a turn of tool calls."""
        for index, call in enumerate(parse_calls(current.content, offered)):
            current.calls[index] = {"id": f"call_{turn}_text_{index}", "name": call.name, "arguments": call.arguments}
        if current.calls:
            log.info("turn %d: read %d tool call(s) from the model's text", turn, len(current.calls))
            current.content = ""
            current.finish = current.finish or "tool_calls"

    def _search_for_the_model(self, example: str, turn: int, titles: dict[str, str],
                              calls_made: list[dict[str, Any]]) -> Iterator[Event]:
        """Run the suggested search on the model's behalf, as if it had called it, so its next answer is drawn
        from the documents; the call is recorded as the assistant's own ("by": "assistant")."""
        spec = json.loads(example)
        call = {"id": f"call_{turn}_assistant", "name": spec["name"], "arguments": json.dumps(spec["arguments"])}
        self.messages.append({"role": "assistant", "content": None, "tool_calls": [
            {"id": call["id"], "type": "function", "function": {"name": call["name"], "arguments": call["arguments"]}}]})
        yield from self._run_tool(call, titles, calls_made, by_assistant=True)

    def _refuse_call(self, call: dict[str, str], asked: int) -> None:
        """Answer a call past the per-turn cap with an error envelope, without running it (every tool call id
        needs a reply, or the next request is malformed)."""
        content = fail("TOO_MANY_CALLS", TOO_MANY_CALLS.format(cap=MAX_CALLS_PER_TURN, asked=asked), [])
        self.messages.append({"role": "tool", "tool_call_id": call["id"], "content": content})
        log.info("refused tool call %s: %d calls in one turn (cap %d)", call["name"], asked, MAX_CALLS_PER_TURN)

    def _run_tool(self, call: dict[str, str], titles: dict[str, str], calls_made: list[dict[str, Any]],
                  by_assistant: bool = False) -> Iterator[Event]:
        """Run one tool call and feed its envelope back to the model."""
        name = call["name"]
        parsed = _arguments(call["arguments"])
        label = describe(name, parsed, titles) + (" (the model read nothing, so the assistant searched)"
                                                  if by_assistant else "")
        calls_made.append({"name": name, "arguments": parsed if parsed is not None else call["arguments"]})
        if by_assistant:
            calls_made[-1]["by"] = "assistant"
        yield ToolCallStarted(call["id"], name, parsed, label)
        key = name + json.dumps(parsed, sort_keys=True)
        self._repeats[key] = self._repeats.get(key, 0) + 1
        if self._repeats[key] > MAX_SAME_CALL:
            # A small model can call the same thing over and over until the step limit: once it has the result
            # (a second call may follow a compacted stub), a third identical call is answered, not run.
            log.info("the model repeated %s with the same arguments; told to answer", name)
            content = fail("REPEATED", REPEATED, [])
        else:
            content = self.toolbox.call(name, call["arguments"])
        yield ToolResult(call["id"], name, content.startswith('{"ok": true'), label, content)
        self.messages.append({"role": "tool", "tool_call_id": call["id"], "content": content})
        self._tool_records.append(compaction.record(len(self.messages) - 1, name, content))


def example_call(docs: list[Any], question: str) -> str:
    """A search call the model can copy as it stands: the document in scope (every one in scope when there are
    several) and the question's own content words (a placeholder such as "<key words>" made small models ask the
    user for key words)."""
    terms = plan(question)
    query = " ".join([*terms.phrases, *terms.words, *terms.symbols][:8]) or question.strip()[:80]
    arguments = {"doc": docs[0].doc_id, "query": query} if len(docs) == 1 else {"query": query}
    return json.dumps({"name": "search_document", "arguments": arguments}, ensure_ascii=False)


def _slot_index(current: _Turn, piece: Any) -> int:
    """Which tool call a streamed piece belongs to; servers that omit `index` start a new call with a new id."""
    if piece.index is not None:
        return int(piece.index)
    if piece.id and all(slot["id"] != piece.id for slot in current.calls.values()):
        return len(current.calls)
    return max(current.calls, default=0)


def _arguments(raw: str) -> Any:
    """The call's arguments as JSON, or None when the model sent something unreadable."""
    try:
        return json.loads(raw or "{}")
    except ValueError:
        return None
