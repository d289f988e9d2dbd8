"""Tool calls that a model wrote as text instead of in the `tool_calls` field.

Small local models (and servers whose chat template does not map their format) put the call in the answer:
`<tool_call>{…}</tool_call>` (Hermes, Qwen), a bare JSON object, a fenced ```json block, doubled braces
`{{…}}`, `<tools>…</tools>`, `[TOOL_CALLS] [...]` (Mistral) or `<function=name>{…}</function>` (Llama 3). Those
that name an offered tool are read back as calls, so the agent runs them and the text never reaches the user
as an answer. `shown_part` tells the streamer how much arriving text is safe to show.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

_TAGGED = re.compile(r"<(tool_call|tools|toolcall|function_call)>\s*(.*?)\s*(?:</\1>|$)", re.S | re.I)
_FUNCTION_TAG = re.compile(r"<function=([\w.-]+)>\s*(.*?)\s*(?:</function>|$)", re.S)
_FENCE = re.compile(r"```(?:json|tool_call|tool)?\s*(.*?)```", re.S | re.I)
_MISTRAL = re.compile(r"\[TOOL_CALLS\]\s*(.*)", re.S)
_ARGUMENT_KEYS = ("arguments", "parameters", "args", "input", "tool_input")


@dataclass(frozen=True)
class TextCall:
    """One tool call read from text: the tool's name and its arguments as JSON text."""

    name: str
    arguments: str


_MARKER = re.compile(r"(?m)^[ \t]*(?:```|\{|\[tool_calls\]|<tool|<function)|<tool_call>|\[TOOL_CALLS\]|<function=")


MARKER_CHARS = 12  # the longest marker ("[tool_calls]"): how far back a new scan must start


def shown_part(text: str, shown: int = 0) -> int:
    """How much of arriving text can be shown: everything before the first place a call written as text may
    start (a line opening with a fence, a brace or a call tag), and before a partial marker at the very end.
    `shown`: how much an earlier call allowed; the scan starts just before it, so streaming an answer costs time
    linear in its length (a 2 MB answer re-scanned from the start at every delta took minutes)."""
    match = _MARKER.search(text, max(0, shown - MARKER_CHARS))
    end = match.start() if match else len(text)
    for size in range(1, MARKER_CHARS):  # "…\n``" or "…<tool_c" may be a marker still arriving
        if size > end:
            break
        piece = text[end - size : end].lstrip(" \t").lower()
        if piece and any(o.startswith(piece) for o in ("```", "<tool_call>", "<function=", "[tool_calls]", "{")) \
                and (end == size or text[end - size - 1] in "\n" or piece.startswith("<")):
            return end - size
    return end


def parse_calls(text: str, tools: Iterable[str]) -> list[TextCall]:
    """The calls the text makes to offered tools, in order ([] when it makes none)."""
    offered = set(tools)
    found: list[TextCall] = []
    for blob in _candidates(text):
        for obj in _objects(blob):
            call = _call(obj, offered)
            if call is not None and call not in found:
                found.append(call)
    for match in _FUNCTION_TAG.finditer(text):
        if match.group(1) in offered:
            arguments = _load(match.group(2))
            call = TextCall(match.group(1), json.dumps(arguments if isinstance(arguments, dict) else {}))
            if call not in found:
                found.append(call)
    return found


def names_a_tool(text: str) -> str:
    """The name of a tool the text tries to call, offered or not ('' when it is not a call at all)."""
    for blob in _candidates(text):
        for obj in _objects(blob):
            name = _name_of(obj)
            inner = obj.get("function") if isinstance(obj, dict) and isinstance(obj.get("function"), dict) else obj
            if name and isinstance(inner, dict) and any(k in inner for k in _ARGUMENT_KEYS):
                return name
    match = _FUNCTION_TAG.search(text)
    return match.group(1) if match else ""


def _candidates(text: str) -> list[str]:
    """Stretches of the text that may hold call objects, most specific first."""
    out = [m.group(2) for m in _TAGGED.finditer(text)]
    out += [m.group(1) for m in _FENCE.finditer(text)]
    out += [m.group(1) for m in _MISTRAL.finditer(text)]
    stripped = text.strip()
    if stripped.startswith(("{", "[")):
        out.append(stripped)
    out += [m.group(0) for m in re.finditer(r"\{\{.*\}\}|\{.*\}", text, re.S)]
    return out


def _objects(blob: str) -> list[Any]:
    """JSON values in a blob: the whole blob, doubled braces undone, or each top-level object in it."""
    blob = blob.strip()
    for variant in _undoubled(blob):
        value = _load(variant)
        if value is not None:
            return value if isinstance(value, list) else [value]
    return [v for v in (_load(piece) for piece in _top_level(blob)) if v is not None]


def _undoubled(blob: str) -> list[str]:
    """The blob, then with doubled outer braces peeled ('{{…}}' → '{…}'), then with every brace pair undone, then
    with its braces balanced (small models double only the opening brace, or drop the last closing one)."""
    variants = [blob]
    while blob.startswith("{{") and blob.endswith("}}"):
        blob = blob[1:-1]
        variants.append(blob)
    variants.append(variants[0].replace("{{", "{").replace("}}", "}"))
    missing = _depth(variants[0])
    if missing > 0:
        variants += [variants[0][missing:], variants[0] + "}" * missing]
    elif missing < 0:
        variants += [variants[0][:missing]]
    return variants


def _braces(blob: str) -> Iterator[tuple[int, str]]:
    """(position, brace) for every brace of the blob outside JSON strings."""
    quoted, escaped = False, False
    for i, char in enumerate(blob):
        if quoted:
            escaped = char == "\\" and not escaped
            if char == '"' and not escaped:
                quoted = False
        elif char == '"':
            quoted = True
        elif char in "{}":
            yield i, char


def _depth(blob: str) -> int:
    """Opening braces minus closing ones, outside strings."""
    return sum(1 if brace == "{" else -1 for _, brace in _braces(blob))


_CALL_TAG = re.compile(r"^\s*(?:<(?:tool_call|tools|toolcall|function_call)\b|<function=|\[TOOL_CALLS\])", re.I)


def opens_with_call_tag(text: str) -> bool:
    """Whether the text starts as a tool call (a call tag), readable or not: such text is never an answer."""
    return bool(_CALL_TAG.match(text))


def _top_level(blob: str) -> list[str]:
    """Each balanced {...} at the top level of the blob (strings respected)."""
    pieces: list[str] = []
    depth, start = 0, -1
    for i, brace in _braces(blob):
        if brace == "{":
            if depth == 0:
                start = i
            depth += 1
        elif depth:
            depth -= 1
            if depth == 0:
                pieces.append(blob[start : i + 1])
    return pieces


def _load(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _name_of(obj: Any) -> str:
    if not isinstance(obj, dict):
        return ""
    inner: dict[str, Any] = obj["function"] if isinstance(obj.get("function"), dict) else obj
    name = inner.get("name") or inner.get("tool") or inner.get("tool_name") or ""
    return name if isinstance(name, str) else ""


def _call(obj: Any, offered: set[str]) -> TextCall | None:
    """A call object in any of the usual shapes: {name, arguments|parameters|args|input}, {function: {…}}."""
    name = _name_of(obj)
    if name not in offered:
        return None
    inner: dict[str, Any] = obj["function"] if isinstance(obj.get("function"), dict) else obj
    arguments: Any = {}
    for key in _ARGUMENT_KEYS:
        if key in inner:
            arguments = inner[key]
            break
    if isinstance(arguments, str):
        parsed = _load(arguments)
        arguments = parsed if isinstance(parsed, dict) else {}
    if not isinstance(arguments, dict):
        arguments = {}
    return TextCall(name, json.dumps(arguments))
