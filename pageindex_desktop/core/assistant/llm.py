"""Endpoint config → openai client, with our own retries (backoff + jitter, Retry-After) and typed errors.

The openai client's own retries are off (`max_retries=0`) so every wait is visible, bounded and cancellable.
Streaming runs on a pump thread so a cancel is honoured within a fraction of a second even while the server
is silent.
"""

from __future__ import annotations

import email.utils
import logging
import queue
import random
import threading
import time
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Iterator, cast

import openai

from pageindex_desktop.core.assistant.llm_errors import (
    LimitReached,
    MalformedStream,
    ModelError,
    ModelTimeout,
    RequestRejected,
    UnknownModel,
    map_error,
)

log = logging.getLogger(__name__)
# The openai client logs whole request bodies (document text) at DEBUG: keep it quiet even in a debug session.
logging.getLogger("openai").setLevel(logging.WARNING)


# Answers, judgements and summaries are read as facts: a low temperature keeps a small local model on its tools
# and its JSON (llama.cpp's default is 0.8) and makes a question asked twice answer the same way.
TEMPERATURE = 0.2


class Cancelled(ModelError):
    """The user stopped the request."""


FIRST_CONTACT_SECONDS = 10.0  # how long a server may take to answer anything at all, the first time

@dataclass(frozen=True)
class Endpoint:
    """Where and how to reach an OpenAI-compatible model (the key is held in memory only)."""

    base_url: str
    api_key: str
    model: str
    timeout: float = 60.0

    def __repr__(self) -> str:  # never print the key
        return f"Endpoint(base_url={self.base_url!r}, model={self.model!r}, timeout={self.timeout})"


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with jitter; `scale` shrinks every wait (tests use a tiny scale)."""

    attempts: int = 4
    base_delay: float = 1.0
    max_delay: float = 20.0
    max_total: float = 60.0
    scale: float = 1.0

    def delay(self, attempt: int, retry_after: float | None, rng: random.Random) -> float:
        """Seconds to wait before retry number `attempt` (1-based)."""
        if retry_after is not None:
            wait = min(retry_after, self.max_delay)
        else:
            wait = min(self.base_delay * (2 ** (attempt - 1)), self.max_delay)
            wait = wait * (0.5 + rng.random() * 0.5)  # "equal jitter": never zero, never in lockstep
        return wait * self.scale


@dataclass
class TokenUsage:
    """Tokens the endpoint reported for one or more calls."""

    prompt_tokens: int = 0
    completion_tokens: int = 0

    def add(self, other: Any) -> None:
        """Accumulate an openai `CompletionUsage` (or another TokenUsage)."""
        if other is None:
            return
        self.prompt_tokens += int(getattr(other, "prompt_tokens", 0) or 0)
        self.completion_tokens += int(getattr(other, "completion_tokens", 0) or 0)


def _retry_after(exc: BaseException) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if not headers:
        return None
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:  # an HTTP date; anything else ("soon-ish") means no hint, and the usual backoff applies
        parsed = email.utils.parsedate_to_datetime(raw)
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, parsed.timestamp() - time.time())


@dataclass
class LLMClient:
    """One endpoint plus a retry policy; thread-safe (the openai client is)."""

    endpoint: Endpoint
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    sleep: Callable[[float], Any] | None = None
    rng: random.Random = field(default_factory=random.Random)
    tools_mode: str = "native"  # "prompt" once the endpoint refused the tools field (see tool_protocol.py)
    on_tools_mode: Callable[[str], Any] | None = None  # told when the mode changes (endpoint_modes.py keeps it)
    temperature: float | None = TEMPERATURE  # None once the endpoint refused to be told (see _create)

    def __post_init__(self) -> None:
        self.client = openai.OpenAI(
            base_url=self.endpoint.base_url,
            api_key=self.endpoint.api_key or "not-needed",
            timeout=self.endpoint.timeout,
            max_retries=0,
        )
        self.waited: list[float] = []  # every backoff wait, for tests and the log
        self._contacted = False  # whether the server has answered anything yet (see _first_contact)

    def close(self) -> None:
        """Close the HTTP connection pool, so no keep-alive socket outlives the work it served."""
        self.client.close()

    def with_timeout(self, seconds: float, retry: RetryPolicy | None = None) -> "LLMClient":
        """A copy of this client whose requests time out after `seconds` (its own connection pool; close it)."""
        endpoint = replace(self.endpoint, timeout=max(0.1, seconds))
        return replace(self, endpoint=endpoint, retry=retry or self.retry)

    def use_prompt_tools(self) -> None:
        """The endpoint refused the tools field: describe tools in the prompt from now on, and say so once."""
        if self.tools_mode != "prompt":
            self.tools_mode = "prompt"
            if self.on_tools_mode is not None:
                self.on_tools_mode(self.tools_mode)

    def __enter__(self) -> "LLMClient":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _call(self, fn: Callable[[], Any], cancel: threading.Event | None = None, model: str | None = None) -> Any:
        """Run `fn` with retries on 429, 5xx, timeouts and connection errors; raise a typed ModelError."""
        total = 0.0
        for attempt in range(1, self.retry.attempts + 1):
            if cancel is not None and cancel.is_set():
                raise Cancelled("Stopped.")
            try:
                return fn()
            except Exception as exc:  # noqa: BLE001 - every failure is mapped to a typed error
                mapped = map_error(exc, self.endpoint.base_url, model or self.endpoint.model)
                if not mapped.retryable or attempt == self.retry.attempts:
                    raise mapped from exc
                wait = self.retry.delay(attempt, _retry_after(exc), self.rng)
                if total + wait > self.retry.max_total * self.retry.scale:
                    raise mapped from exc
                total += wait
                self.waited.append(wait)
                log.info("model call failed (%s); retry %d in %.2fs", type(mapped).__name__, attempt, wait)
                if self.sleep is not None:
                    self.sleep(wait)
                elif cancel is not None:
                    if cancel.wait(wait):
                        raise Cancelled("Stopped.") from exc
                else:
                    time.sleep(wait)
        raise AssertionError("unreachable")

    def _create(self, **kwargs: Any) -> Any:
        """One Chat Completions request, at our temperature unless the endpoint refuses to be told one (OpenAI's
        reasoning models accept only their default): then once more without, and never again on this client."""
        if self.temperature is None:
            return self.client.chat.completions.create(**kwargs)
        try:
            return self.client.chat.completions.create(**kwargs, temperature=self.temperature)
        except openai.BadRequestError as exc:
            if "temperature" not in str(exc).lower():
                raise
            log.info("the endpoint refused a temperature; asking at its default from now on")
            self.temperature = None
            return self.client.chat.completions.create(**kwargs)

    def _first_contact(self) -> None:
        """Before this client's first streamed answer, one cheap request (the model list) with a short timeout: a
        server that accepts the connection but never answers fails here within seconds, not after the read
        timeout and its retries (four minutes). Any answer at all, an error status included, counts as alive; a
        streamed answer's own time to its first token (long on a local model) is not bounded by this."""
        if self._contacted:
            return
        try:
            self.client.with_options(timeout=FIRST_CONTACT_SECONDS, max_retries=0).models.list()
        except openai.APITimeoutError as exc:
            raise ModelTimeout(f"The model server at {self.endpoint.base_url} accepted the connection but sent "
                               f"nothing back within {FIRST_CONTACT_SECONDS:.0f} s; check that it is running and "
                               "not stuck.") from exc
        except openai.APIStatusError:
            log.debug("first contact: the server answered with an error status, so it is alive")  # (no model
            # list, a 401 the real request will explain)
        except openai.APIConnectionError:
            return  # refused or unreachable: the real request says so, after its retries (a server starting up)
        self._contacted = True

    def list_models(self) -> list[str]:
        """Model ids the endpoint offers (empty when it has no list)."""
        page = self._call(lambda: self.client.models.list())
        return sorted(m.id for m in page)

    def complete(
        self, messages: list[dict[str, Any]], model: str | None = None, max_tokens: int | None = None,
        cancel: threading.Event | None = None,
    ) -> tuple[str, TokenUsage]:
        """One non-streamed completion: its text and usage."""
        name = model or self.endpoint.model
        extra: dict[str, Any] = {"max_tokens": max_tokens} if max_tokens else {}
        response = self._call(
            lambda: self._create(model=name, messages=cast(Any, messages), **extra), cancel, name
        )
        usage = TokenUsage()
        usage.add(response.usage)
        choice = response.choices[0] if response.choices else None
        return (choice.message.content or "") if choice else "", usage

    def tool_reply(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]], max_tokens: int | None = None,
    ) -> tuple[str, list[str]]:
        """One non-streamed completion offering `tools`: its text and the names of the tools it called."""
        name = self.endpoint.model
        extra: dict[str, Any] = {"max_tokens": max_tokens} if max_tokens else {}
        response = self._call(lambda: self._create(
            model=name, messages=cast(Any, messages), tools=cast(Any, tools), **extra), None, name)
        choice = response.choices[0] if response.choices else None
        if choice is None:
            return "", []
        calls = [c.function.name for c in (choice.message.tool_calls or []) if getattr(c, "function", None)]
        return choice.message.content or "", calls

    def stream(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]] | None = None,
        model: str | None = None,
        cancel: threading.Event | None = None,
        *,
        deadline: float | None = None,
        deadline_message: str = "",
        max_tokens: int | None = None,
    ) -> Iterator[Any]:
        """Streamed completion chunks; retries only before the first chunk; raises Cancelled on cancel.

        `deadline` (time.monotonic) bounds the whole call, retries and keep-alive lines included: past it the
        stream is dropped and LimitReached(deadline_message) raised. `max_tokens` caps the answer's length."""
        name = model or self.endpoint.model
        outer = cancel or threading.Event()
        cancel = threading.Event()  # set by the caller's cancel or by the deadline; stops the pump either way
        kwargs: dict[str, Any] = {"model": name, "messages": messages, "stream": True,
                                  "stream_options": {"include_usage": True}}
        if tools:
            kwargs["tools"] = tools
        if max_tokens:
            kwargs["max_tokens"] = max_tokens
        items: queue.Queue[tuple[str, Any]] = queue.Queue()
        holder: dict[str, Any] = {}

        def pump() -> None:
            try:
                self._first_contact()
                stream = self._call(lambda: self._create(**kwargs), cancel, name)
                holder["stream"] = stream
                for chunk in stream:
                    if cancel.is_set():
                        break
                    items.put(("chunk", chunk))
                items.put(("end", None))
            except BaseException as exc:  # noqa: BLE001 - handed to the consumer
                items.put(("error", exc))

        thread = threading.Thread(target=pump, name="llm-stream", daemon=True)
        thread.start()
        received = False
        try:
            while True:
                if outer.is_set():
                    cancel.set()
                if deadline is not None and time.monotonic() > deadline:
                    cancel.set()
                    raise LimitReached(deadline_message or "The model took too long to answer.")
                try:
                    kind, value = items.get(timeout=0.1)
                except queue.Empty:
                    if cancel.is_set():
                        raise Cancelled("Stopped.") from None
                    continue
                if kind == "chunk":
                    received = True
                    yield value
                    if cancel.is_set():
                        raise Cancelled("Stopped.")
                elif kind == "end":
                    if cancel.is_set():  # the pump stopped early because of the cancel: not a finished answer
                        raise Cancelled("Stopped.")
                    return
                else:
                    if cancel.is_set():
                        raise Cancelled("Stopped.") from value
                    if isinstance(value, ModelError) or not received:
                        raise value if isinstance(value, ModelError) else map_error(value, self.endpoint.base_url, name)
                    raise MalformedStream("The model's answer broke off mid-stream; ask again.") from value
        finally:
            if "stream" in holder:
                try:
                    holder["stream"].close()
                except Exception:  # noqa: BLE001 - closing a dead connection may fail; nothing to do
                    log.debug("closing the stream failed", exc_info=True)


def check_connection(client: LLMClient) -> list[str]:
    """The settings dialog's "Test connection": the endpoint's model list, or (for endpoints without one) a
    one-token completion with the configured model; raises a typed ModelError that says what is wrong."""
    try:
        return client.list_models()
    except (UnknownModel, RequestRejected):
        client.complete([{"role": "user", "content": "ping"}], max_tokens=1)
        return []
