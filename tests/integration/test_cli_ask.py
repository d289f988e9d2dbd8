"""`pageindex-desktop-cli ask` end to end: a subprocess talking to the fake model server."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from fake_openai import FakeOpenAI, error, text, tool
from libdata import annual_report

from pageindex_desktop.core.library.store import Library

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
    assert [{k: c[k] for k in ("document", "doc_id", "page", "verified", "verdict", "reason", "passage")}
            for c in out["citations"]] == [{"document": "Annual Report 2023", "doc_id": doc, "page": 12,
                                            "verified": True, "verdict": "checked", "reason": "",
                                            "passage": "Net income rose to $1,234 million in 2023, up 12.5% from 2022."}]
    assert out["uncited"] == []
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


def test_import_with_an_index_model_writes_summaries_and_a_failing_model_never_fails_it(
    fake_openai: FakeOpenAI, home: Path, tmp_path: Path
) -> None:
    import pymupdf

    pdf = tmp_path / "report.pdf"
    doc = pymupdf.open()
    for number, title in enumerate(("Overview", "Results", "Outlook"), start=1):
        for part in range(4):
            page = doc.new_page()
            if part == 0:
                page.insert_text((72, 72), title, fontsize=20)
            body = f"{title} discussion on page {part + 1} covers rates, credit, payments and supervision. " * 12
            page.insert_textbox(pymupdf.Rect(72, 110, 540, 720), body, fontsize=10)
    doc.set_toc([[1, "Overview", 1], [1, "Results", 5], [1, "Outlook", 9]])
    doc.save(pdf)
    doc.close()
    fake_openai.policy = lambda body: text(
        json.dumps({"summaries": {"0001": "Why the bank exists.", "0002": "How the year went.",
                                  "0003": "What comes next."}, "description": "A short sample report."})
    )
    done = cli(home, fake_openai.url, "import", str(pdf), "--json")
    assert done.returncode == 0, done.stderr
    doc_id = json.loads(done.stdout)["doc_id"]
    tree = json.loads(cli(home, fake_openai.url, "tree", doc_id, "--json").stdout)
    assert [n["summary"] for n in tree["nodes"]][-2:] == ["How the year went.", "What comes next."]
    assert 1 <= len(fake_openai.chat_requests()) <= 2

    other = tmp_path / "other.pdf"
    other.write_bytes(pdf.read_bytes().replace(b"Outlook", b"Outlock"))
    broken = cli(home, "http://127.0.0.1:9/v1", "import", str(other), "--json")
    assert broken.returncode == 0, broken.stderr
    assert json.loads(broken.stdout)["status"] == "ready"
    assert "fell back to page excerpts" in broken.stderr
    assert cli(home, fake_openai.url, "import", str(pdf), "--no-summaries", "--json").returncode == 0


def test_ask_json_names_the_section_of_every_citation(fake_openai: FakeOpenAI, home: Path, tmp_path: Path) -> None:
    from tests.core.test_markdown import NOTES

    with Library(home) as library:
        report = annual_report(library)
    notes = tmp_path / "minutes.md"
    notes.write_text(NOTES, encoding="utf-8")
    imported = cli(home, fake_openai.url, "import", str(notes), "--json")
    assert imported.returncode == 0, imported.stderr
    md = json.loads(imported.stdout)["doc_id"]
    with Library(home) as library:
        other = next(n for n in library.tree(md) if n.title == "Harbour Board Minutes").children[-1]
    assert other.title == "Any other business"
    fake_openai.script(
        tool("get_page_content", {"doc": report, "pages": "12"}),
        tool("get_page_content", {"doc": md, "pages": str(other.start_page)}),
        text("Net income rose to $1,234 million in 2023 [Annual Report 2023, p. 12]. "
             "The pelican census is due in spring [Harbour Board Minutes, § Any other business]."),
    )
    done = cli(home, fake_openai.url, "ask", "Net income, and the census?", "--json")
    assert done.returncode == 0, done.stderr
    first, second = json.loads(done.stdout)["citations"]
    assert (first["verdict"], first["format"], first["section"]["title"], first["section"]["node_id"]) == (
        "checked", "pdf", "Income statement", "0003")
    assert first["section"]["path"] == ["Financial results", "Income statement"]
    assert (second["verdict"], second["page"], second["written_page"], second["written_heading"]) == (
        "checked", other.start_page, "", "Any other business")
    assert (second["format"], second["section"]["node_id"]) == ("md", other.node_id)
    asked = [r["messages"][0]["content"] for r in fake_openai.chat_requests()]
    assert any("Answer questions" in s and "[Document title, § Section title]" in s for s in asked)
    fake_openai.script(
        tool("get_page_content", {"doc": md, "pages": str(other.start_page)}),
        text("The pelican census is due in spring [Harbour Board Minutes, p. %d]." % other.start_page),
    )
    plain = cli(home, fake_openai.url, "ask", "When is the census?")
    assert plain.returncode == 0, plain.stderr
    assert f"  [Harbour Board Minutes › Any other business, p. {other.start_page}] ✓ checked" in plain.stdout
