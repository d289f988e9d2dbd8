"""The assistant with a real small model (opt-in: `pytest -m realmodel`), as Ollama / LM Studio users run one.

Start the model first: `../shared/tools/local-model/serve.sh 8080 --background` (see its README), or point
PAGEINDEX_REALMODEL_URL at another OpenAI-compatible server (PAGEINDEX_REALMODEL_NAME names its model). The test
is skipped when nothing answers there. Six questions over two corpus filings run through the real CLI; each must
end within its limits, make tool calls (at least five of the six), and never show tool-call text as the answer.
A small model is not expected to answer well: the share of answers that name the right figure is printed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

from pageindex_desktop.core.assistant.tool_text import names_a_tool

pytestmark = pytest.mark.realmodel

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpus"
URL = os.environ.get("PAGEINDEX_REALMODEL_URL", "http://127.0.0.1:8080/v1")
MODEL = os.environ.get("PAGEINDEX_REALMODEL_NAME", "qwen2.5-coder-1.5b")
QUESTION_SECONDS = 420  # a 1.5B model on two shared cores reads a 2k-token prompt in about a minute
QUESTIONS = [  # (corpus file, question, a figure a right answer names)
    ("financebench__PEPSICO_2023Q2_EARNINGS.pdf", "What was PepsiCo's reported net revenue growth in the second quarter?", "10.4"),
    ("financebench__PEPSICO_2023Q2_EARNINGS.pdf", "What core EPS does PepsiCo expect for 2023?", "7.47"),
    ("financebench__PEPSICO_2023Q2_EARNINGS.pdf", "How much cash does PepsiCo expect to return to shareholders in 2023?", "7.7"),
    ("financebench__PFIZER_2023Q2_EARNINGS.pdf", "What were Pfizer's second-quarter 2023 revenues?", "12.7"),
    ("financebench__PFIZER_2023Q2_EARNINGS.pdf", "What was Pfizer's reported diluted EPS in the second quarter of 2023?", "0.41"),
    ("financebench__PFIZER_2023Q2_EARNINGS.pdf", "What revenue range does Pfizer expect for full-year 2023?", "67"),
]


def _server_up() -> bool:
    try:
        with urllib.request.urlopen(URL.rstrip("/") + "/models", timeout=3) as reply:
            return reply.status == 200
    except OSError:
        return False


def _cli(home: Path, *args: str, timeout: float) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "PAGEINDEX_"))}
    env.update(PAGEINDEX_DESKTOP_HOME=str(home), OPENAI_BASE_URL=URL, OPENAI_API_KEY="local",
               PAGEINDEX_CHAT_MODEL=MODEL, PYTHONPATH=str(REPO))
    return subprocess.run([sys.executable, "-m", "pageindex_desktop.cli", *args], env=env, capture_output=True,
                          text=True, timeout=timeout, cwd=REPO)


@pytest.mark.timeout(QUESTION_SECONDS * len(QUESTIONS) + 300)
def test_six_questions_with_a_real_local_model(tmp_path: Path) -> None:
    if not _server_up():
        pytest.skip(f"no model server answers at {URL} (start ../shared/tools/local-model/serve.sh 8080)")
    if not CORPUS.is_dir():
        pytest.skip("the shared corpus is not beside the checkout")
    home = tmp_path / "library"
    files = sorted({name for name, _, _ in QUESTIONS})
    imported = _cli(home, "import", *(str(CORPUS / f) for f in files), "--no-summaries", "--json", timeout=600)
    assert imported.returncode == 0, imported.stderr
    ids = {Path(json.loads(line)["path"]).name: json.loads(line)["doc_id"] for line in imported.stdout.splitlines()}
    used_tools, searched_for, grounded, right, rows = 0, 0, 0, 0, []
    for name, question, figure in QUESTIONS:
        started = time.monotonic()
        done = _cli(home, "ask", question, "--doc", ids[name], "--json", "--question-seconds", str(QUESTION_SECONDS),
                    timeout=QUESTION_SECONDS + 120)
        seconds = time.monotonic() - started
        assert seconds < QUESTION_SECONDS + 60, f"{question!r} ran {seconds:.0f} s, past its limit"
        if done.returncode != 0:  # a limit or a model fault: one sentence, never a traceback
            assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
            rows.append((question, f"failed: {done.stderr.strip()}", seconds))
            continue
        out = json.loads(done.stdout)
        assert not names_a_tool(out["answer"]), f"tool-call text shown as the answer: {out['answer'][:300]!r}"
        own = [c for c in out["tool_calls"] if c.get("by") != "assistant"]
        used_tools += bool(own)
        searched_for += bool(out["tool_calls"]) and not own
        grounded += bool(out["grounded"])
        right += figure in out["answer"]
        rows.append((question, out["answer"][:160].replace("\n", " "), seconds))
    for question, answer, seconds in rows:
        print(f"[{seconds:5.0f} s] {question}\n        {answer}")
    print(f"questions where the model made tool calls: {used_tools}/{len(QUESTIONS)}; where the assistant searched "
          f"for it after it read nothing twice: {searched_for}; grounded answers: {grounded}/{len(QUESTIONS)}; "
          f"answers naming the right figure: {right}/{len(QUESTIONS)}")
    assert used_tools >= 5  # the model's own calls: the assistant's fallback search does not count
