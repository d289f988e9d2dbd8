"""How tool calls work with one endpoint and model, found once and remembered across chats and restarts.

An endpoint either takes the `tools` field and returns calls in it ("native"), or refuses or ignores it, and then
the tools are described in the prompt ("prompt", tool_protocol.py). The agent finds out the first time a request
is refused; Test connection finds out up front with one tiny probe. Either way the answer is written to
`endpoint-modes.json` in the library home, keyed by base URL and model, so the next chat does not pay the refusal
again and the settings dialog can say which mode is in use. A missing or damaged file only means "not known yet".
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pageindex_desktop.core.assistant.llm import Endpoint, LLMClient, RetryPolicy, check_connection
from pageindex_desktop.core.assistant.llm_errors import ModelError, ToolsNotSupported
from pageindex_desktop.core.library.privacy import write_private_atomic
from pageindex_desktop.core.assistant.tool_text import parse_calls

log = logging.getLogger(__name__)

MODES_FILE = "endpoint-modes.json"
NATIVE, PROMPT = "native", "prompt"
PROBE_TOOL = "get_current_page"
PROBE_SCHEMA = [{"type": "function", "function": {
    "name": PROBE_TOOL, "description": "Return the page the reader is on.",
    "parameters": {"type": "object", "properties": {}}}}]
PROBE_MESSAGES = [{"role": "user", "content": f"Call the {PROBE_TOOL} tool now. Do not write anything else."}]
SEEN_SENTENCES = {
    "native": "calls tools through the API",
    "text": "writes its tool calls as text, which the assistant reads",
    "refused": "refuses the tools field, so the assistant describes its tools in the prompt",
    "ignored": "ignores the tools field, so the assistant describes its tools in the prompt",
}


@dataclass(frozen=True)
class ToolSupport:
    """What an endpoint does with tools: the mode the agent uses and what was seen ("native", "text", "refused",
    "ignored")."""

    mode: str
    seen: str

    def sentence(self) -> str:
        """One clause for the settings dialog, e.g. "calls tools through the API"."""
        return SEEN_SENTENCES.get(self.seen, f"uses {self.mode} tool calls")


def modes_path(home: Path) -> Path:
    """The remembered modes of one library home."""
    return home / MODES_FILE


def _key(endpoint: Endpoint) -> str:
    return f"{endpoint.base_url.rstrip('/')} {endpoint.model}"


def _read(home: Path) -> dict[str, Any]:
    try:
        data = json.loads(modes_path(home).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        log.warning("%s is unreadable; tool modes will be found again", modes_path(home))
        return {}
    return data if isinstance(data, dict) else {}


def remembered(home: Path, endpoint: Endpoint) -> ToolSupport | None:
    """The mode last found for this endpoint and model, or None when it was never tried."""
    entry = _read(home).get(_key(endpoint))
    if not isinstance(entry, dict) or entry.get("mode") not in (NATIVE, PROMPT):
        return None
    return ToolSupport(str(entry["mode"]), str(entry.get("seen") or entry["mode"]))


def remember(home: Path, endpoint: Endpoint, support: ToolSupport) -> None:
    """Write the mode for this endpoint and model (atomically; a failure to write is logged, never raised)."""
    data = _read(home)
    data[_key(endpoint)] = {"mode": support.mode, "seen": support.seen, "found": int(time.time())}
    path = modes_path(home)
    try:
        write_private_atomic(path, json.dumps(data, indent=2))
    except OSError:
        log.warning("could not write %s", path, exc_info=True)


def client_for(endpoint: Endpoint, home: Path, retry: RetryPolicy | None = None) -> LLMClient:
    """A client that starts in the remembered mode and writes down a mode it learns."""
    known = remembered(home, endpoint)

    def learned(mode: str) -> None:
        remember(home, endpoint, ToolSupport(mode, "refused" if mode == PROMPT else NATIVE))

    return LLMClient(endpoint, retry or RetryPolicy(), tools_mode=known.mode if known else NATIVE,
                     on_tools_mode=learned)


def probe_tools(client: LLMClient) -> ToolSupport:
    """One short request offering one tool: does the endpoint call it natively, write it as text, refuse the
    field or ignore it? Other failures (timeouts, wrong key) are raised as the typed ModelError they are."""
    try:
        text, calls = client.tool_reply(PROBE_MESSAGES, PROBE_SCHEMA, max_tokens=60)
    except ToolsNotSupported:
        return ToolSupport(PROMPT, "refused")
    if calls:
        return ToolSupport(NATIVE, NATIVE)
    if parse_calls(text, [PROBE_TOOL]):
        return ToolSupport(NATIVE, "text")
    return ToolSupport(PROMPT, "ignored")


@dataclass(frozen=True)
class ConnectionReport:
    """What Test connection found: the model list (empty when the endpoint has none), how the chat model takes
    tools (None when that was not tried), and why the tool probe could not run."""

    models: list[str]
    tools: ToolSupport | None = None
    tools_unknown: str = ""


def connection_report(client: LLMClient, home: Path) -> ConnectionReport:
    """Reach the endpoint (model list, or a one-token answer) and, when it offers the chat model, probe how that
    model takes tools; the mode found is remembered for the assistant."""
    models = check_connection(client)
    if models and client.endpoint.model not in models:
        return ConnectionReport(models)
    try:
        support = probe_tools(client)
    except ModelError as exc:
        return ConnectionReport(models, None, str(exc))
    remember(home, client.endpoint, support)
    return ConnectionReport(models, support)
