"""The processes' one framing (`core/framing.py`): the same messages come through a pipe and a byte stream, the
end of the other side is an EOFError on both, and no process module frames its messages any other way."""

from __future__ import annotations

import ast
import io
import multiprocessing
from pathlib import Path

import pytest

from pageindex_desktop.core import framing

PACKAGE = Path(__file__).resolve().parents[2] / "pageindex_desktop"
MESSAGES = [("hello", 123, ["pymupdf"]), ("progress", "pages", 3, 10), ("sizes", "k", 1, [(612.0, 792.0)]),
            ("ok", {"text": "é€ " * 5000}), ("ready",)]


def test_a_pipe_carries_every_message_whole_and_its_closed_end_is_eof() -> None:
    left, right = multiprocessing.Pipe(duplex=True)
    for message in MESSAGES:
        framing.send(left, message)
    assert [framing.recv(right) for _ in MESSAGES] == MESSAGES
    left.close()
    with pytest.raises(EOFError):
        framing.recv(right)
    right.close()


def test_a_byte_stream_carries_the_same_messages_and_a_cut_frame_is_eof() -> None:
    stream = io.BytesIO()
    for message in MESSAGES:
        framing.write_frame(stream, message)
    whole = stream.getvalue()
    stream.seek(0)
    assert [framing.read_frame(stream) for _ in MESSAGES] == MESSAGES
    with pytest.raises(EOFError):
        framing.read_frame(stream)  # the stream ended between frames
    first = framing.encode(MESSAGES[0])
    assert whole[8:8 + len(first)] == first  # a stream's frame is the pipe's encoding with its length in front
    with pytest.raises(EOFError):
        framing.read_frame(io.BytesIO(whole[:8 + len(first) - 3]))  # the other side died mid-frame


def calls(path: Path) -> set[tuple[str, str]]:
    """(what it is called on, name) of every call in a module: ("pickle", "dumps"), ("self.conn", "send"),
    ("", "read_frame") for a plain name."""
    found: set[tuple[str, str]] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            found.add((ast.unparse(node.func.value), node.func.attr))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            found.add(("", node.func.id))
    return found


def frames_its_own_way(owner: str, name: str) -> bool:
    pipe_end = owner.split(".")[-1] in ("conn", "requests", "results")
    return ((owner == "pickle" and name in ("dumps", "loads")) or name in ("send_bytes", "recv_bytes")
            or (pipe_end and name in ("send", "recv")))


def test_no_module_frames_messages_its_own_way() -> None:
    offenders = [f"{path.relative_to(PACKAGE)}: {owner}.{name}" for path in sorted(PACKAGE.rglob("*.py"))
                 if path.name != "framing.py" for owner, name in sorted(calls(path)) if frames_its_own_way(owner, name)]
    assert offenders == []
    for module in ("core/ingest/child.py", "core/ingest/extract_worker.py", "core/ingest/pdf_helper.py",
                   "ui/reader/render.py", "ui/reader/render_server.py"):
        used = calls(PACKAGE / module)
        assert any(owner == "framing" for owner, _ in used) or ("", "read_frame") in used, module


def test_the_check_sees_each_own_way() -> None:
    assert frames_its_own_way("pickle", "dumps") and frames_its_own_way("self.requests", "send_bytes")
    assert frames_its_own_way("conn", "recv") and frames_its_own_way("self.conn", "send")
    assert not frames_its_own_way("framing", "send") and not frames_its_own_way("socket", "send")
