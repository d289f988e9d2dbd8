"""Token counting works with no network and an empty tiktoken cache, and degrades to a documented estimate."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from pageindex_desktop.core import tokens

ROOT = Path(__file__).resolve().parents[2]

# Every way out to the network raises; run before anything else in the child interpreter.
NO_NETWORK = """
import socket
def _blocked(*args, **kwargs):
    raise OSError("network disabled by test")
socket.socket.connect = _blocked
socket.socket.connect_ex = _blocked
socket.create_connection = _blocked
socket.getaddrinfo = _blocked
"""

KNOWN = "Hello, world! PageIndex Desktop counts tokens offline."
KNOWN_IDS_PREFIX = [9906, 11, 1917, 0]  # "Hello", ",", " world", "!" in cl100k_base


def _run(code: str, tmp_path: Path, prelude: str = "") -> dict[str, object]:
    cache = tmp_path / "tiktoken-cache"
    cache.mkdir(exist_ok=True)
    env = dict(os.environ, TIKTOKEN_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    env.pop("DATA_GYM_CACHE_DIR", None)
    out = subprocess.run(
        [sys.executable, "-c", NO_NETWORK + prelude + code],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["cache_files"] = os.listdir(cache)
    return result


def test_counts_exactly_with_no_network_and_an_empty_cache(tmp_path: Path) -> None:
    code = f"""
import json, tiktoken
from pageindex_desktop.core.tokens import count_tokens, encoding
count = count_tokens({KNOWN!r})
ids = encoding().encode_ordinary({KNOWN!r})
try:  # proves the prelude really cuts the network: tiktoken's own loader must fail here
    tiktoken.get_encoding("cl100k_base")
    upstream = "loaded"
except Exception as exc:
    upstream = type(exc).__name__
print(json.dumps({{"count": count, "ids": ids, "upstream": upstream}}))
"""
    result = _run(code, tmp_path)
    assert result["upstream"] != "loaded"
    assert result["count"] == 11
    assert result["ids"][:4] == KNOWN_IDS_PREFIX
    assert result["cache_files"] == []


def test_matches_tiktokens_own_cl100k_encoding(tmp_path: Path) -> None:
    """Seed tiktoken's cache with the shipped file so its own loader works offline, then compare token ids."""
    import hashlib

    import tiktoken

    cache = tmp_path / "seeded"
    cache.mkdir()
    url = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"
    shutil.copyfile(tokens.vocab_path(), cache / hashlib.sha1(url.encode()).hexdigest())
    old = os.environ.get("TIKTOKEN_CACHE_DIR")
    os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)
    try:
        reference = tiktoken.get_encoding("cl100k_base")
    finally:
        if old is None:
            os.environ.pop("TIKTOKEN_CACHE_DIR")
        else:
            os.environ["TIKTOKEN_CACHE_DIR"] = old
    ours = tokens.encoding()
    assert ours is not None
    samples = [
        KNOWN,
        "Item 1A. Risk Factors — revenue grew 12.5% to $4,321 million in fiscal 2024.",
        "Ünïcödé  \n\n  spaces\tand tabs, 中文文本, <|endoftext|> as text",
    ]
    for text in samples:
        assert ours.encode_ordinary(text) == reference.encode_ordinary(text)
        assert tokens.count_tokens(text) == len(reference.encode_ordinary(text))


def test_missing_vocabulary_falls_back_to_chars_over_four(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    (bundle / "resources").mkdir(parents=True)
    prelude = f"import sys\nsys._MEIPASS = {str(bundle)!r}\n"
    code = f"""
import json
from pageindex_desktop.core.tokens import count_tokens, encoding
print(json.dumps({{"count": count_tokens({KNOWN!r}), "enc": encoding() is None}}))
"""
    result = _run(code, tmp_path, prelude)
    assert result["enc"] is True
    assert result["count"] == (len(KNOWN) + 3) // 4


def test_damaged_vocabulary_is_rejected_by_its_hash(tmp_path: Path) -> None:
    bundle = tmp_path / "bundle"
    target = bundle / "resources" / "tokenizer"
    target.mkdir(parents=True)
    data = tokens.vocab_path().read_bytes()
    (target / "cl100k_base.tiktoken").write_bytes(data[: len(data) // 2])
    prelude = f"import sys\nsys._MEIPASS = {str(bundle)!r}\n"
    code = f"""
import json
from pageindex_desktop.core.tokens import count_tokens, encoding
print(json.dumps({{"count": count_tokens({KNOWN!r}), "enc": encoding() is None}}))
"""
    result = _run(code, tmp_path, prelude)
    assert result["enc"] is True
    assert result["count"] == tokens.fallback_count(KNOWN)


def test_empty_text_costs_nothing() -> None:
    assert tokens.count_tokens("") == 0
    assert tokens.fallback_count("") == 0
