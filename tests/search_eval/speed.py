"""How long a question's search takes over a library of every importable corpus file: each labelled question
of the three sets, searched in its own document and over the whole library, three runs; median and max wall
time, and the median CPU time of this process (SQLite runs in it), which other load on the machine moves less.

The library is built once in HOME (a few minutes; later runs reuse it): search changes need no re-import.

Run: .venv/bin/python -m tests.search_eval.speed [HOME]   (HOME defaults to a folder under the system temp)
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from tests.search_eval.runner import CASES, CORPUS, HELD_OUT, HELD_OUT_2, load_cases

RUNS = 3


def build(home: Path) -> None:
    """Import every corpus PDF that imports into `home`, once (a marker file says it is done)."""
    from pageindex_desktop.core.ingest import extract_worker
    from pageindex_desktop.core.ingest.indexer import import_pdf
    from pageindex_desktop.core.library.store import Library

    marker = home / "search-speed-built"
    if marker.exists():
        return
    with Library(home) as library:
        try:
            for path in sorted(CORPUS.glob("*.pdf")):
                try:
                    import_pdf(library, path)
                except Exception as error:  # broken and encrypted corpus files do not import: measured without
                    print(f"not imported: {path.name} ({type(error).__name__})", file=sys.stderr)
        finally:
            extract_worker.shutdown()
    marker.write_text("built\n", encoding="utf-8")


def main(argv: list[str]) -> int:
    from pageindex_desktop.core.library.store import Library

    home = Path(argv[0]) if argv else Path(tempfile.gettempdir()) / "pageindex-search-speed"
    build(home)
    cases = [c for path in (CASES, HELD_OUT, HELD_OUT_2) for c in load_cases(path)]
    with Library(home) as library:
        ids = {str(r[1]): str(r[0]) for r in library.conn.execute("SELECT id, file_name FROM documents")}
        pages = library.conn.execute("SELECT count(*) FROM pages").fetchone()[0]
        print(f"{len(ids)} documents, {pages} pages, {len(cases)} questions")
        for run in range(RUNS):
            times: dict[str, list[float]] = {"one": [], "one cpu": [], "all": [], "all cpu": []}
            for case in cases:
                for scope, doc_ids in (("one", [ids[str(case["file"])]]), ("all", None)):
                    wall, cpu = time.perf_counter(), time.process_time()
                    library.search(str(case["question"]), doc_ids, limit=10)
                    times[scope].append((time.perf_counter() - wall) * 1000)
                    times[scope + " cpu"].append((time.process_time() - cpu) * 1000)
            print(f"run {run + 1}: " + "; ".join(
                f"{label} median {statistics.median(times[key]):.1f} ms (cpu {statistics.median(times[key + ' cpu']):.1f})"
                f" max {max(times[key]):.1f}" for key, label in (("one", "one document"), ("all", "whole library"))))
    return 0


if __name__ == "__main__":  # the extraction child re-imports this module: only the parent measures
    sys.exit(main(sys.argv[1:]))
