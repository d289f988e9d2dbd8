"""`pageindex-desktop-cli ask` end to end: a subprocess talking to the fake model server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from fake_openai import FakeOpenAI, error, text, tool
from libdata import annual_report

from pageindex_desktop.core.store import Library

ROOT = Path(__file__).resolve().parents[2]


def cli(home: Path, url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PAGEINDEX_DESKTOP_HOME": str(home), "OPENAI_BASE_URL": url,
           "PAGEINDEX_CHAT_MODEL": "cli-model", "OPENAI_API_KEY": "sk-test-secret", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "pageindex_desktop.cli", *args], env=env, capture_output=True,
                          text=True, timeout=60, cwd=ROOT)


def test_ask_json_and_a_one_line_failure(fake_openai: FakeOpenAI, home: Path) -> None:
    with Library(home) as library:
        doc = annual_report(library)
    fake_openai.script(
        tool("get_page_content", {"doc": doc, "pages": "12"}),
        text("Net income rose to $1,234 million in 2023 [Annual Report 2023, p. 12]."),
    )
    done = cli(home, fake_openai.url, "ask", "What was net income?", "--doc", "Annual Report", "--json")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["citations"] == [{"document": "Annual Report 2023", "doc_id": doc, "page": 12, "verified": True,
                                 "reason": ""}]
    assert out["tool_calls"] == [{"name": "get_page_content", "arguments": {"doc": doc, "pages": "12"}}]
    assert out["usage"]["prompt_tokens"] > 0
    assert fake_openai.chat_requests()[0]["model"] == "cli-model"
    fake_openai.script(error(401, "Incorrect API key provided"))
    failed = cli(home, fake_openai.url, "ask", "What was net income?")
    assert failed.returncode == 1 and failed.stdout == ""
    assert failed.stderr.count("\n") == 1 and "refused the API key" in failed.stderr
    assert "sk-test-secret" not in failed.stderr
    logs = "".join(p.read_text(errors="replace") for p in (home / "logs").glob("*") if p.is_file())
    assert "sk-test-secret" not in logs
