"""A fake OpenAI-compatible model server for tests: a real threaded HTTP server on 127.0.0.1.

It speaks Chat Completions (streaming SSE and plain JSON, tool calls, usage) and `GET /v1/models`, so the real
`openai` client is exercised end to end. Each test scripts the replies (a queue of `Reply` objects), or installs a
`policy` that looks at the request and decides the reply (the "scripted reader" used by the bench). Every request
body is recorded in `server.requests` so tests can assert what the model was sent.
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Callable


@dataclass
class Reply:
    """One scripted response.

    text: answer content (streamed in small deltas); tool_calls: [(name, arguments_json_text)];
    status: an HTTP error status (401, 404, 429, 500, 400...) with `error` as the message;
    delay: seconds to wait before answering (for timeouts); cut_after: stream only this many content
    characters and then drop the connection; headers: extra response headers (e.g. Retry-After).
    """

    text: str = ""
    tool_calls: list[tuple[str, str]] = field(default_factory=list)
    status: int = 200
    error: str = ""
    error_code: str | None = None
    delay: float = 0.0
    cut_after: int | None = None
    headers: dict[str, str] = field(default_factory=dict)
    chunk_delay: float = 0.0
    omit_index: bool = False  # tool-call deltas without `index`, as some local servers send them
    no_usage: bool = False  # never send a usage chunk, as some local servers do not
    garbage: bool = False  # after the text, send an SSE event that is not JSON
    keepalive: int = 0  # ':' comment lines sent before the answer (llama.cpp sends them while it reads a prompt)
    keepalive_every: float = 0.0  # seconds between those lines
    whole_calls: bool = False  # each tool call in one chunk, name and arguments together
    finish: str | None = None  # the finish_reason to send instead of the usual one ("stop" beside tool calls)


def text(content: str, **kw: Any) -> Reply:
    """A plain text answer."""
    return Reply(text=content, **kw)


def tool(name: str, arguments: dict[str, Any] | str, *more: tuple[str, dict[str, Any] | str]) -> Reply:
    """A turn that calls one or more tools (arguments given as a dict, or raw text for malformed JSON)."""
    calls = [(name, arguments), *more]
    return Reply(tool_calls=[(n, a if isinstance(a, str) else json.dumps(a)) for n, a in calls])


def error(status: int, message: str, code: str | None = None, **kw: Any) -> Reply:
    """An HTTP error in OpenAI's error body shape."""
    return Reply(status=status, error=message, error_code=code, **kw)


Policy = Callable[[dict[str, Any]], Reply]


def rough_tokens(text: str) -> int:
    """Token count used for the fake usage figures: the project's tokenizer when present, else ~4 chars a token."""
    try:
        from pageindex_desktop.core.tokens import count_tokens  # type: ignore[attr-defined]

        return int(count_tokens(text))
    except Exception:
        return max(1, len(text) // 4)


class FakeOpenAI:
    """The server; use as a context manager or call start()/stop()."""

    def __init__(self, models: tuple[str, ...] = ("fake-chat", "fake-index")) -> None:
        self.models = list(models)
        self.has_model_list = True  # False: GET /models answers 404, as some endpoints do
        self.queue: deque[Reply] = deque()
        self.policy: Policy | None = None
        self.requests: list[dict[str, Any]] = []
        self.lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ---- control ---------------------------------------------------------------------------------------

    @property
    def url(self) -> str:
        """The base URL to give the openai client (ends in /v1)."""
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def script(self, *replies: Reply) -> None:
        """Queue replies; each chat request takes the next one."""
        with self.lock:
            self.queue.extend(replies)

    def chat_requests(self) -> list[dict[str, Any]]:
        """Recorded chat completion bodies, in order."""
        with self.lock:
            return [r["body"] for r in self.requests if r["path"].endswith("/chat/completions")]

    def start(self) -> "FakeOpenAI":
        """Bind a random port on 127.0.0.1 and serve on a daemon thread."""
        fake = self

        class Handler(_Handler):
            server_ref = fake

        self._server = _Server(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, name="fake-openai", daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Shut the server down and join its thread."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> "FakeOpenAI":
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def next_reply(self, body: dict[str, Any]) -> Reply:
        """The reply for this request: the queue first, then the policy, else an error saying the script ran out."""
        with self.lock:
            if self.queue:
                return self.queue.popleft()
        if self.policy is not None:
            try:
                return self.policy(body)
            except Exception as exc:  # noqa: BLE001 - a broken policy is a 500 the test will see, not a hang
                return error(500, f"fake server: policy failed: {type(exc).__name__}: {exc}")
        return error(500, "fake server: no scripted reply left")


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on (for 'connection refused')."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that drops a kept-alive connection is normal; anything else is printed as usual."""
        import sys

        if isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            return
        super().handle_error(request, client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_ref: FakeOpenAI

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - silence stderr access logs
        return

    def do_GET(self) -> None:  # noqa: N802 - http.server naming
        fake = self.server_ref
        with fake.lock:
            fake.requests.append({"path": self.path, "method": "GET", "body": None})
        if self.path.rstrip("/").endswith("/models") and fake.has_model_list:
            data = {"object": "list", "data": [{"id": m, "object": "model", "owned_by": "fake"} for m in fake.models]}
            self._json(200, data)
        else:
            self._json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})

    def do_POST(self) -> None:  # noqa: N802
        try:
            self._post()
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client went away (a cancel or a timeout): nothing to answer

    def _post(self) -> None:
        fake = self.server_ref
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        with fake.lock:
            fake.requests.append({"path": self.path, "method": "POST", "body": body})
        if not self.path.rstrip("/").endswith("/chat/completions"):
            self._json(404, {"error": {"message": "not found", "type": "invalid_request_error"}})
            return
        reply = fake.next_reply(body)
        if reply.delay:
            time.sleep(reply.delay)
        if reply.status != 200:
            err = {"message": reply.error, "type": "invalid_request_error", "code": reply.error_code}
            self._json(reply.status, {"error": err}, reply.headers)
            return
        usage = _usage(body, reply)
        if body.get("stream"):
            self._stream(body, reply, usage)
        else:
            self._json(200, _completion(body, reply, usage), reply.headers)

    # ---- responses -------------------------------------------------------------------------------------

    def _json(self, status: int, data: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        raw = json.dumps(data).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        for key, value in (headers or {}).items():
            self.send_header(key, value)
        self.end_headers()
        self.wfile.write(raw)

    def _chunk(self, data: dict[str, Any] | str) -> None:
        payload = data if isinstance(data, str) else json.dumps(data)
        raw = f"data: {payload}\n\n".encode()
        self.wfile.write(f"{len(raw):x}\r\n".encode() + raw + b"\r\n")
        self.wfile.flush()

    def _stream(self, body: dict[str, Any], reply: Reply, usage: dict[str, int]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        base = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": int(time.time()),
                "model": body.get("model", "")}

        def delta(d: dict[str, Any], finish: str | None = None) -> None:
            self._chunk({**base, "choices": [{"index": 0, "delta": d, "finish_reason": finish}]})
            if reply.chunk_delay:
                time.sleep(reply.chunk_delay)

        for _ in range(reply.keepalive):
            raw = b": keep-alive\n\n"
            self.wfile.write(f"{len(raw):x}\r\n".encode() + raw + b"\r\n")
            self.wfile.flush()
            time.sleep(reply.keepalive_every)
        delta({"role": "assistant", "content": ""})
        content = reply.text
        if reply.cut_after is not None:
            content = content[: reply.cut_after]
        for start in range(0, len(content), 7):
            delta({"content": content[start : start + 7]})
        if reply.garbage:
            self._chunk("{this is not json")
        if reply.cut_after is not None:
            self.close_connection = True
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)  # drop mid-answer: no terminating chunk, no [DONE]
            return
        for i, (name, args) in enumerate(reply.tool_calls):
            if reply.whole_calls:
                delta({"tool_calls": [{"index": i, "id": f"call_{i}_{len(self.server_ref.requests)}",
                                       "type": "function", "function": {"name": name, "arguments": args}}]})
                continue
            first = {"index": i, "id": f"call_{i}_{len(self.server_ref.requests)}", "type": "function",
                     "function": {"name": name, "arguments": ""}}
            if reply.omit_index:
                del first["index"]
            delta({"tool_calls": [first]})
            for start in range(0, len(args), 5):  # arguments split across chunks, as real servers do
                piece: dict[str, Any] = {"index": i, "function": {"arguments": args[start : start + 5]}}
                if reply.omit_index:
                    del piece["index"]
                delta({"tool_calls": [piece]})
        delta({}, reply.finish or ("tool_calls" if reply.tool_calls else "stop"))
        if (body.get("stream_options") or {}).get("include_usage") and not reply.no_usage:
            self._chunk({**base, "choices": [], "usage": {**usage, "total_tokens": sum(usage.values())}})
        self._chunk("[DONE]")
        self.wfile.write(b"0\r\n\r\n")
        self.wfile.flush()


def _usage(body: dict[str, Any], reply: Reply) -> dict[str, int]:
    sent = json.dumps(body.get("messages", [])) + json.dumps(body.get("tools", []))
    made = reply.text + "".join(n + a for n, a in reply.tool_calls)
    return {"prompt_tokens": rough_tokens(sent), "completion_tokens": rough_tokens(made) if made else 0}


def _completion(body: dict[str, Any], reply: Reply, usage: dict[str, int]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
    if reply.tool_calls:
        message["tool_calls"] = [
            {"id": f"call_{i}", "type": "function", "function": {"name": n, "arguments": a}}
            for i, (n, a) in enumerate(reply.tool_calls)
        ]
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", ""),
        "choices": [{"index": 0, "message": message,
                     "finish_reason": "tool_calls" if reply.tool_calls else "stop"}],
        "usage": {**usage, "total_tokens": sum(usage.values())},
    }
