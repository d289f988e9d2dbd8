"""Offline token counting: tiktoken's cl100k_base built from the vocabulary shipped in resources/tokenizer.

`tiktoken.get_encoding("cl100k_base")` downloads its vocabulary on first use, which fails on an offline machine.
We ship the vocabulary file (checked against tiktoken's published SHA-256) and build the `tiktoken.Encoding`
ourselves, so counting never touches the network.

Fallback (documented): when the shipped file is missing or damaged (a broken install), `count_tokens` estimates
about one token per four characters (`fallback_count`), logs one warning, and `encoding()` returns None. The
estimate is only used for budgets, where a rough figure is better than a crash.
"""

from __future__ import annotations

import base64
import hashlib
import logging
import threading
from pathlib import Path

import tiktoken

from pageindex_desktop.config import resources_dir

log = logging.getLogger(__name__)

VOCAB_NAME = "cl100k_base"
VOCAB_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
# From tiktoken_ext/openai_public.py (tiktoken 0.14), cl100k_base.
PAT_STR = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|"""
    r"""\s+(?!\S)|\s"""
)
SPECIAL_TOKENS = {
    "<|endoftext|>": 100257,
    "<|fim_prefix|>": 100258,
    "<|fim_middle|>": 100259,
    "<|fim_suffix|>": 100260,
    "<|endofprompt|>": 100276,
}
CHARS_PER_TOKEN = 4

_lock = threading.Lock()
_encoding: tiktoken.Encoding | None = None
_loaded = False


def vocab_path() -> Path:
    """Where the shipped cl100k_base vocabulary lives."""
    return resources_dir() / "tokenizer" / f"{VOCAB_NAME}.tiktoken"


def _load_ranks(path: Path) -> dict[bytes, int]:
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()
    if digest != VOCAB_SHA256:
        raise ValueError(f"{path.name} is damaged (sha256 {digest[:12]}…, expected {VOCAB_SHA256[:12]}…)")
    ranks: dict[bytes, int] = {}
    for line in data.splitlines():
        if not line:
            continue
        token, rank = line.split()
        ranks[base64.b64decode(token)] = int(rank)
    return ranks


def encoding() -> tiktoken.Encoding | None:
    """The offline cl100k_base encoding, built once; None when the shipped vocabulary is missing (fallback mode)."""
    global _encoding, _loaded
    if _loaded:
        return _encoding
    with _lock:
        if not _loaded:
            path = vocab_path()
            try:
                ranks = _load_ranks(path)
                _encoding = tiktoken.Encoding(
                    name=VOCAB_NAME,
                    pat_str=PAT_STR,
                    mergeable_ranks=ranks,
                    special_tokens=SPECIAL_TOKENS,
                )
            except (OSError, ValueError) as exc:
                log.warning("Token vocabulary unavailable (%s); estimating tokens as characters/4.", exc)
                _encoding = None
            _loaded = True
    return _encoding


def fallback_count(text: str) -> int:
    """The documented estimate used without the vocabulary: one token per four characters, rounded up."""
    return (len(text) + CHARS_PER_TOKEN - 1) // CHARS_PER_TOKEN


def count_tokens(text: str) -> int:
    """How many cl100k_base tokens `text` costs (special-token strings are counted as plain text)."""
    enc = encoding()
    if enc is None:
        return fallback_count(text)
    return len(enc.encode_ordinary(text))
