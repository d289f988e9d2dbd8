"""The one framing of the messages our processes exchange: a message is a tuple whose first item names it
(`("progress", stage, done, total)`, `("image", ...)`), pickled at the highest protocol, with its length in front.

Three kinds of process speak it: the extraction child (`core/ingest/child.py`, over a `multiprocessing` pipe), the
render process (`ui/reader/render_server.py`, over two pipes) and the page-text helper (`core/ingest/pdf_helper.py`,
over its stdin and stdout, which are plain byte streams on every platform: a `Connection` cannot be built on
them portably, so the length goes in front here, the same way `Connection.send_bytes` puts it in front on a pipe).
Before, each had its own: the child used `Connection.send` (the ForkingPickler, which copies its reducer table for
every message and counts on a cold CPU), the render process plain pickle through `send_bytes`, the helper its own
length-prefixed frames. One module means one place to change the encoding and one reading of "the other side is
gone" (`EOFError`).

Pickle is safe here because both ends are this program, started by it; nothing outside ever writes to these pipes.
"""

from __future__ import annotations

import pickle
import struct
from multiprocessing.connection import Connection
from typing import IO, Any

_LENGTH = struct.Struct("!Q")


def encode(message: Any) -> bytes:
    """A message as the bytes of one frame (without the length, which the transport adds)."""
    return pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)


def decode(data: bytes) -> Any:
    """The message `encode` made."""
    return pickle.loads(data)


def send(conn: Connection, message: Any) -> None:
    """Send one message over a `multiprocessing` pipe (it puts the length in front)."""
    conn.send_bytes(encode(message))


def recv(conn: Connection) -> Any:
    """Receive one message sent by `send`; raises EOFError when the other side has closed its end."""
    return decode(conn.recv_bytes())


def write_frame(stream: IO[bytes], message: Any) -> None:
    """Send one message over a byte stream (a child's stdin or stdout): its length, then its bytes."""
    data = encode(message)
    stream.write(_LENGTH.pack(len(data)))
    stream.write(data)
    stream.flush()


def read_frame(stream: IO[bytes]) -> Any:
    """Read one message written by `write_frame`; raises EOFError when the stream ends."""
    header = _read_exact(stream, _LENGTH.size)
    return decode(_read_exact(stream, _LENGTH.unpack(header)[0]))


def _read_exact(stream: IO[bytes], size: int) -> bytes:
    """Exactly `size` bytes or EOFError."""
    chunks: list[bytes] = []
    while size > 0:
        chunk = stream.read(size)
        if not chunk:
            raise EOFError("stream closed")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)
