"""The finer tree with a real small model (opt-in: `pytest -m realmodel`): what it adds to two corpus filings.

Start the model first (`../shared/tools/local-model/serve.sh 8080 --background`) or point PAGEINDEX_REALMODEL_URL
elsewhere; skipped when nothing answers. Each document's bookmark tree is collapsed to its top level, and its first
two long sections are expanded by the model (pages cut to fit 8,000 characters a call: a 1.5B model on two shared
cores reads about 36 tokens a second). Whatever the model says, every node it adds must be printed where it starts
and inside its section; the figures (headings proposed, accepted, F1 against the bookmarks) are printed.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from pageindex_desktop.core.assistant import expand
from pageindex_desktop.core.assistant.expand import expand_document
from pageindex_desktop.core.assistant.llm import Endpoint, LLMClient, RetryPolicy
from pageindex_desktop.core.outline.build import build_outline
from pageindex_desktop.core.outline.tree import FRONT_MATTER_TITLE, MODEL_SOURCE, Node, Outline, walk
from pageindex_desktop.core.outline.verify import is_printed
from pageindex_desktop.core.ingest.pdf import extract
from pageindex_desktop.core.library.store import Library, sha256_of
from tests.bench.tree_score import nested, score
from tests.realmodel.test_local_model import CORPUS, MODEL, URL, _server_up

pytestmark = pytest.mark.realmodel

DOCUMENTS = ("financebench__PFIZER_2023Q2_EARNINGS.pdf", "Regulation Best Interest_Interpretive release.pdf")
CALL_SECONDS = 600


def _entries(roots: list[Node]) -> list:  # type: ignore[type-arg]
    return nested((n.level, n.title, n.start_page) for n in walk(roots) if n.title != FRONT_MATTER_TITLE)


@pytest.mark.timeout(2 * 2 * CALL_SECONDS + 300)
def test_a_real_model_finer_tree_is_checked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            caplog: pytest.LogCaptureFixture) -> None:
    if not _server_up():
        pytest.skip(f"no model server answers at {URL} (start ../shared/tools/local-model/serve.sh 8080)")
    monkeypatch.setattr(expand, "BATCH_CHARS", 8000)
    original = expand.long_leaves
    monkeypatch.setattr(expand, "long_leaves", lambda roots, tokens: original(roots, tokens)[:2])
    caplog.set_level(logging.INFO, logger="pageindex_desktop.core.outline.candidates")
    with Library(tmp_path / "home") as library:
        for name in DOCUMENTS:
            path = CORPUS / name
            doc = extract(path)
            full = build_outline(doc, use_bookmarks=True).nodes
            collapsed = [Node(n.node_id, n.title, 1, n.start_page, n.end_page, n.verified) for n in full]
            record = library.add_file(path, sha256_of(path), name)
            library.save_index(record.doc_id, title=name, pages=doc.pages, outline=Outline("bookmarks", collapsed))
            caplog.clear()
            with LLMClient(Endpoint(URL, "local", MODEL, CALL_SECONDS), RetryPolicy(attempts=1)) as client:
                report = expand_document(library, record.doc_id, client)
            after = library.tree(record.doc_id)
            added = [n for n in walk(after) if n.source == MODEL_SOURCE]
            for node in added:
                assert node.verified and is_printed(node.title, doc.pages[node.start_page - 1])
            parents = {id(c): n for n in walk(after) for c in n.children}
            assert all(parents[id(n)].start_page <= n.start_page <= parents[id(n)].end_page for n in added)
            truth = _entries(full)
            print(f"\n{name}: {report.sentence()}")
            print(f"  F1 against the bookmarks {score(truth, _entries(collapsed)).f1:.3f} collapsed -> "
                  f"{score(truth, _entries(after)).f1:.3f}; added: {[n.title for n in added]}")
            print(f"  rejected: {[r.getMessage() for r in caplog.records if 'rejected' in r.getMessage()][:12]}")
            assert "\n" not in report.sentence()
