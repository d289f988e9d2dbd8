"""llm.py against the fake server: model list, non-streamed calls, retry policy, error mapping."""

from __future__ import annotations

import random

import pytest
from fake_openai import FakeOpenAI, error, free_port, text

from pageindex_desktop.core.assistant.llm import Endpoint, LLMClient, RetryPolicy
from pageindex_desktop.core.assistant.llm_errors import ConnectionFailed, RateLimited, ServerError, WrongApiKey


def client(url: str, **kw: object) -> LLMClient:
    return LLMClient(Endpoint(url, "sk-secret-value", "fake-chat", 5), RetryPolicy(scale=0.01, **kw))  # type: ignore[arg-type]


def test_models_and_a_plain_completion(fake_openai: FakeOpenAI) -> None:
    llm = client(fake_openai.url)
    assert llm.list_models() == ["fake-chat", "fake-index"]
    fake_openai.script(text("hello"))
    reply, usage = llm.complete([{"role": "user", "content": "hi"}])
    assert reply == "hello" and usage.prompt_tokens > 0 and usage.completion_tokens > 0
    assert fake_openai.chat_requests()[0]["model"] == "fake-chat"
    assert "sk-secret-value" not in repr(llm.endpoint)


def test_answers_are_asked_at_a_low_temperature_unless_the_endpoint_refuses_one(fake_openai: FakeOpenAI) -> None:
    llm = client(fake_openai.url)
    fake_openai.script(text("one"), error(400, "Unsupported value: 'temperature' does not support 0.2 with this "
                                          "model. Only the default (1) value is supported."), text("two"), text("three"))
    assert llm.complete([{"role": "user", "content": "hi"}])[0] == "one"
    assert llm.complete([{"role": "user", "content": "hi"}])[0] == "two"  # refused, asked again at the default
    assert "".join(c.choices[0].delta.content or "" for c in llm.stream([{"role": "user", "content": "hi"}])
                   if c.choices) == "three"
    sent = [r.get("temperature") for r in fake_openai.chat_requests()]
    assert sent == [0.2, 0.2, None, None] and llm.temperature is None  # never paid again on this client


def test_a_retry_after_that_is_not_a_number_or_date_still_retries(fake_openai: FakeOpenAI) -> None:
    llm = client(fake_openai.url)
    fake_openai.script(error(429, "slow down", headers={"Retry-After": "soon-ish"}), text("ok"))
    assert llm.complete([{"role": "user", "content": "hi"}])[0] == "ok"
    assert len(llm.waited) == 1  # the usual backoff, not "could not be read (ValueError)"


def test_backoff_grows_with_jitter_and_is_bounded() -> None:
    policy = RetryPolicy(base_delay=1.0, max_delay=5.0)
    rng = random.Random(1)
    waits = [policy.delay(n, None, rng) for n in range(1, 6)]
    for n, wait in enumerate(waits, start=1):
        full = min(2 ** (n - 1), 5.0)
        assert full * 0.5 <= wait <= full
    assert policy.delay(1, 30.0, rng) == 5.0  # Retry-After capped by max_delay
    assert RetryPolicy(scale=0.1).delay(1, 2.0, rng) == pytest.approx(0.2)


def test_5xx_then_success_is_invisible_to_the_caller(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(error(503, "overloaded"), error(502, "bad gateway"), text("ok"))
    llm = client(fake_openai.url)
    assert llm.complete([{"role": "user", "content": "hi"}])[0] == "ok"
    assert len(llm.waited) == 2 and llm.waited[1] > llm.waited[0] * 0.9


def test_persistent_errors_become_typed_errors(fake_openai: FakeOpenAI) -> None:
    fake_openai.script(*[error(429, "limit")] * 4)
    with pytest.raises(RateLimited):
        client(fake_openai.url).complete([{"role": "user", "content": "hi"}])
    assert len(fake_openai.chat_requests()) == 4
    fake_openai.script(*[error(500, "boom")] * 2)
    with pytest.raises(ServerError):
        client(fake_openai.url, attempts=2).complete([{"role": "user", "content": "hi"}])
    fake_openai.script(error(401, "bad key"))
    with pytest.raises(WrongApiKey) as caught:
        client(fake_openai.url).complete([{"role": "user", "content": "hi"}])
    assert "sk-secret-value" not in str(caught.value)


def test_connection_refused_hints_at_the_local_server() -> None:
    url = f"http://127.0.0.1:{free_port()}/v1"
    with pytest.raises(ConnectionFailed) as caught:
        client(url, attempts=2).list_models()
    assert str(caught.value) == f"Could not reach the model at {url}. Is the local model server running?"
    from pageindex_desktop.core.assistant.llm_errors import _hint

    assert _hint("http://localhost:11434/v1") == "Is Ollama running?"


def test_check_connection_lists_models_or_pings_endpoints_without_a_list(fake_openai: FakeOpenAI) -> None:
    from pageindex_desktop.core.assistant.llm import check_connection

    assert check_connection(client(fake_openai.url)) == ["fake-chat", "fake-index"]
    fake_openai.has_model_list = False
    no_list = client(fake_openai.url)
    fake_openai.script(text("p"))
    assert check_connection(no_list) == []
    assert fake_openai.chat_requests()[-1]["max_tokens"] == 1
    fake_openai.script(error(401, "nope"))
    with pytest.raises(WrongApiKey):
        check_connection(client(fake_openai.url))


def test_debug_logging_never_records_page_text_or_the_key(fake_openai: FakeOpenAI,
                                                          caplog: pytest.LogCaptureFixture) -> None:
    import logging

    fake_openai.script(error(503, "busy"), text("ok"))
    with caplog.at_level(logging.DEBUG):
        client(fake_openai.url).complete([{"role": "user", "content": "CONFIDENTIAL page text"}])
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "retry 1" in logged
    assert "CONFIDENTIAL" not in logged and "sk-secret-value" not in logged


def test_a_stop_while_chunks_are_still_arriving_is_always_a_stop(fake_openai: FakeOpenAI) -> None:
    """Whether the pump or the reader notices the cancel first, the caller sees Cancelled, never an early end."""
    import threading

    from pageindex_desktop.core.assistant.llm import Cancelled

    llm = client(fake_openai.url)
    outcomes = []
    for attempt in range(8):
        fake_openai.script(text("word " * 200, chunk_delay=0.03))
        cancel = threading.Event()
        threading.Timer(0.05 + attempt * 0.013, cancel.set).start()
        try:
            for _chunk in llm.stream([{"role": "user", "content": "hi"}], cancel=cancel):
                pass
            outcomes.append("returned")
        except Cancelled:
            outcomes.append("cancelled")
    llm.close()
    assert outcomes == ["cancelled"] * 8


def test_a_server_that_accepts_but_never_answers_fails_within_seconds() -> None:
    import socket
    import threading
    import time

    from pageindex_desktop.core.assistant.llm import FIRST_CONTACT_SECONDS
    from pageindex_desktop.core.assistant.llm_errors import ModelTimeout

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    held: list[socket.socket] = []

    def accept_and_say_nothing() -> None:
        while True:
            try:
                held.append(listener.accept()[0])
            except OSError:
                return

    threading.Thread(target=accept_and_say_nothing, daemon=True).start()
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
    started = time.monotonic()
    with LLMClient(Endpoint(url, "k", "m", timeout=60)) as client:
        with pytest.raises(ModelTimeout, match="accepted the connection but sent nothing back"):
            list(client.stream([{"role": "user", "content": "hi"}]))
    assert time.monotonic() - started < FIRST_CONTACT_SECONDS + 5  # was four minutes (read timeout, retries)
    listener.close()
    for connection in held:
        connection.close()
