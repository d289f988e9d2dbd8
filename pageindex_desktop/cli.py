"""`pageindex-desktop-cli`: the engine without a window, for scripts, checks and benchmarks (design §9).

Every subcommand opens the library at `PAGEINDEX_DESKTOP_HOME` (or the per-user data dir). Failures exit
non-zero with one line on stderr and no traceback (details go to the log file).

Adding a subcommand is one function `_add_NAME(subparsers)` that creates its parser and sets `func` to a handler
`(args, library) -> exit code`, plus its name in SUBCOMMANDS. Keep heavy imports (openai, …) inside the handler:
this module is also imported by every extraction child process the CLI starts.
"""

from __future__ import annotations

import argparse
import json
import logging
import multiprocessing
import os
import sqlite3
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pageindex_desktop import __version__
from pageindex_desktop.config import library_home
from pageindex_desktop.core.errors import PageIndexError
from pageindex_desktop.core.ingest.indexer import ImportProgress, ImportResult, import_many, pdf_paths
from pageindex_desktop.core.assistant.limits import Limits
from pageindex_desktop.core.outline.tree import Node
from pageindex_desktop.core.pages_range import format_page_ranges, parse_page_ranges
from pageindex_desktop.core.library.store import DocumentRecord, Library
from pageindex_desktop.log import setup_logging

log = logging.getLogger(__name__)
PROG = "pageindex-desktop-cli"
Handler = Callable[[argparse.Namespace, Library], int]
SubParsers = Any  # argparse's _SubParsersAction is private


DOC_HELP = "a document id (4+ characters), its title or file name, or an unambiguous prefix of either"

class CliError(Exception):
    """A failure the CLI reports as one line on stderr (exit code 1)."""


def _print_json(data: object) -> None:
    print(json.dumps(data, ensure_ascii=False), flush=True)


def _note(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _scope(library: Library, refs: list[str] | None) -> list[str] | None:
    """Doc ids for repeated --doc options (each an id or a title prefix), or None for the whole library."""
    return [library.resolve(ref).doc_id for ref in refs] if refs else None


def _ready(library: Library, ref: str) -> DocumentRecord:
    """Resolve DOC and insist that it has an index to show."""
    doc = library.resolve(ref)
    if doc.status != "ready":
        detail = f": {doc.error}" if doc.error else ""
        raise CliError(f"'{doc.title}' ({doc.doc_id}) is not indexed (status {doc.status}{detail})")
    return doc


# ---- import ----------------------------------------------------------------------------------------------


def _add_import(sub: SubParsers) -> None:
    p = sub.add_parser("import", help="import PDFs, e-books (EPUB, XPS, FB2, MOBI, CBZ), text and Markdown files (folders expand to those inside)")
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH")
    p.add_argument("--no-bookmarks", action="store_true", help="ignore embedded bookmarks when building the tree")
    p.add_argument("--password", default=None, help="password for encrypted PDFs")
    p.add_argument("--json", action="store_true", help="one JSON object per line per file")
    p.add_argument(
        "--no-summaries", action="store_true", help="skip node summaries even when an index model is configured"
    )
    p.add_argument("--no-expand", action="store_true",
                   help="skip the finer tree (long sections split by the index model) even when one is configured")
    p.set_defaults(func=_cmd_import)


def _cmd_import(args: argparse.Namespace, library: Library) -> int:
    failures: list[str] = []
    files: list[Path] = []
    for raw in args.paths:
        found = pdf_paths([raw])
        if raw.is_dir() and not found:
            failures.append(f"{raw}: the folder contains no PDF files")
        files.extend(f for f in found if f not in files)
    show_progress = not args.json and sys.stderr.isatty()
    from pageindex_desktop.core.assistant.settings import load_settings  # the settings say OCR's languages

    results = import_many(
        library,
        files,
        password=args.password,
        use_bookmarks=not args.no_bookmarks,
        on_progress=_progress_printer() if show_progress else None,
        ocr_languages=load_settings(library.home).ocr_languages,
    )
    for path, result in results:
        if show_progress:
            print("\r\033[K", end="", file=sys.stderr, flush=True)
        _report_import(path, result, args.json)
        if result.status != "ready":
            failures.append(f"{path.name}: {result.error or 'not imported'}")
        elif not result.already_present:
            if not args.no_expand:
                _expand(library, result.doc_id)
            if not args.no_summaries:
                _summarize(library, result.doc_id)
    if failures:
        first = failures[0]
        more = f" (and {len(failures) - 1} more failed)" if len(failures) > 1 else ""
        raise CliError(f"{first}{more}")
    return 0


def _summarize(library: Library, doc_id: str) -> None:
    """With an index model configured, node summaries and a description; never fails the import."""
    from pageindex_desktop.core.assistant.summaries import summarize_with_settings

    report = summarize_with_settings(library, doc_id)
    if report is not None and (report.written or report.fell_back):
        _note(f"{doc_id}: {report.sentence()}")


def _expand(library: Library, doc_id: str) -> None:
    """With an index model configured, the finer tree (before summaries, so new sections get theirs); never fails
    the import: model trouble leaves the tree as it was and says so in one line."""
    from pageindex_desktop.core.assistant.expand import expand_with_settings

    report = expand_with_settings(library, doc_id)
    if report is not None and (report.calls or report.cached or report.expanded or report.model_tree > 0):
        _note(f"{doc_id}: {report.sentence()}")


def _progress_printer() -> Callable[[ImportProgress], None]:
    """A one-line progress display on a terminal (events come from the import threads, hence the lock)."""
    lock = threading.Lock()

    def show(event: ImportProgress) -> None:
        with lock:
            print(f"\r\033[K{event.doc_id}: {event.message}"[:120], end="", file=sys.stderr, flush=True)

    return show


def _report_import(path: Path, result: ImportResult, as_json: bool) -> None:
    if as_json:
        _print_json({**result.to_dict(), "path": str(path)})
        return
    if result.status == "failed":
        print(f"failed  {path.name}: {result.error}", flush=True)
        return
    if result.status != "ready":  # another process is importing it right now: say so, not "importing … 0 pages"
        print(f"busy    {path.name}: {result.error or 'it is being imported elsewhere'}", flush=True)
        return
    again = " (already in the library)" if result.already_present else ""
    print(
        f"{result.status:<7} {result.doc_id}  {result.title} — {result.page_count} pages, "
        f"outline: {result.outline_source}{again}",
        flush=True,
    )
    if result.warning:
        print(f"        note: {result.warning}", flush=True)


# ---- list, tree, pages, search, remove -------------------------------------------------------------------


def _add_list(sub: SubParsers) -> None:
    p = sub.add_parser("list", help="list the documents in the library")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_list)


def _cmd_list(args: argparse.Namespace, library: Library) -> int:
    docs = library.documents()
    unfinished = library.unfinished_summaries()  # one grouped query for the whole list
    if args.json:
        _print_json([_with_summaries(unfinished, d.doc_id, d.to_dict()) for d in docs])
        return 0
    for d in docs:
        extra = f"  ({d.error})" if d.error else ""
        extra += f"  [{d.note}]" if d.note else ""
        if d.doc_id in unfinished:
            extra += "  [summaries: {} of {}]".format(*unfinished[d.doc_id])
        print(f"{d.doc_id}  {d.status:<9} {d.page_count:>5} p  {d.outline_source or '-':<9} {d.title}{extra}")
    return 0


def _with_summaries(unfinished: dict[str, tuple[int, int]], doc_id: str, data: dict[str, object]) -> dict[str, object]:
    """A document's JSON, with `summaries: {written, wanted}` when a summaries run stopped part-way."""
    if doc_id in unfinished:
        written, wanted = unfinished[doc_id]
        data["summaries"] = {"written": written, "wanted": wanted}
    return data


def _add_show(sub: SubParsers) -> None:
    p = sub.add_parser("show", help="show one document: file, status, pages, outline, and its error or note")
    p.add_argument("doc", metavar="DOC", help=DOC_HELP)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_show)


def _cmd_show(args: argparse.Namespace, library: Library) -> int:
    """Everything the library row says about one document, the note included (a repaired file's lost pages)."""
    d = library.resolve(args.doc)
    if args.json:
        _print_json(_with_summaries(library.unfinished_summaries(d.doc_id), d.doc_id,
                                    {**d.to_dict(), "file_name": d.file_name, "image_only_pages": d.image_only_pages,
                                     "note": d.note}))
        return 0
    print(f"{d.title} ({d.doc_id})")
    print(f"  file:    {d.file_name}")
    print(f"  status:  {d.status}" + (f": {d.error}" if d.error else ""))
    scans = f", {d.image_only_pages} without a text layer" if d.image_only_pages else ""
    print(f"  pages:   {d.page_count}{scans}")
    print(f"  outline: {d.outline_source or '-'}")
    if d.note:
        print(f"  note:    {d.note}")
    from pageindex_desktop.core.library.tree_store import usage

    for spent in usage(library, d.doc_id):
        print(f"  model:   {spent.task} {spent.calls} calls, {spent.tokens:,} tokens")
    unfinished = library.unfinished_summaries(d.doc_id).get(d.doc_id)
    if unfinished:
        print(f"  summaries: {unfinished[0]} of {unfinished[1]} written (stopped part-way; run `summarize` to "
              "finish)")
    return 0


def _add_summarize(sub: SubParsers) -> None:
    p = sub.add_parser("summarize", help="write section summaries with the index model (resumes a stopped run)")
    p.add_argument("doc", metavar="DOC", help=DOC_HELP)
    p.set_defaults(func=_cmd_summarize)


def _cmd_summarize(args: argparse.Namespace, library: Library) -> int:
    """Summaries for one document; sections a stopped run wrote (or the cache holds) are not asked for again."""
    from pageindex_desktop.core.assistant.summaries import summarize_with_settings

    d = _ready(library, args.doc)
    report = summarize_with_settings(library, d.doc_id)
    if report is None:
        raise CliError("no model is set up: summaries are written by the index model (see README, Setting up a "
                       "model)")
    print(f"{d.doc_id}: {report.sentence()}")
    return 0


def _add_expand(sub: SubParsers) -> None:
    p = sub.add_parser("expand", help="a finer tree with the index model: split long sections at their printed "
                                      "headings (or write the tree of a document without structure)")
    p.add_argument("doc", metavar="DOC", help=DOC_HELP)
    p.set_defaults(func=_cmd_expand)


def _cmd_expand(args: argparse.Namespace, library: Library) -> int:
    """The finer tree for one document; what it did (or why the tree stayed as it was) in one line."""
    from pageindex_desktop.core.assistant.expand import expand_with_settings

    d = _ready(library, args.doc)
    report = expand_with_settings(library, d.doc_id)
    if report is None:
        raise CliError("no model is set up: the finer tree is proposed by the index model (see README, Setting up "
                       "a model)")
    print(f"{d.doc_id}: {report.sentence()} ({report.total_tokens:,} tokens on this document so far)")
    return 0


def _add_tree(sub: SubParsers) -> None:
    p = sub.add_parser("tree", help="show a document's section tree")
    p.add_argument("doc", metavar="DOC", help=DOC_HELP)
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_tree)


def _cmd_tree(args: argparse.Namespace, library: Library) -> int:
    doc = _ready(library, args.doc)
    nodes = library.tree(doc.doc_id)
    if args.json:
        _print_json(
            {
                "doc_id": doc.doc_id,
                "title": doc.title,
                "page_count": doc.page_count,
                "outline_source": doc.outline_source,
                "nodes": [n.to_dict() for n in nodes],
            }
        )
        return 0
    print(f"{doc.title} ({doc.doc_id}) — {doc.page_count} pages, outline: {doc.outline_source}")
    _print_nodes(nodes, 1)
    return 0


def _print_nodes(nodes: list[Node], depth: int) -> None:
    for node in nodes:
        span = f"p. {node.start_page}" if node.start_page == node.end_page else f"p. {node.start_page}–{node.end_page}"
        mark = "✓" if node.verified else "?"
        print(f"{'  ' * depth}{mark} {node.title}  [{span}]" + ("  (model)" if node.source else ""))
        _print_nodes(node.children, depth + 1)


def _add_pages(sub: SubParsers) -> None:
    p = sub.add_parser("pages", help="print the text of pages, e.g. 5-7,12")
    p.add_argument("doc", metavar="DOC", help=DOC_HELP)
    p.add_argument("range", metavar="RANGE")
    p.set_defaults(func=_cmd_pages)


def _cmd_pages(args: argparse.Namespace, library: Library) -> int:
    doc = _ready(library, args.doc)
    wanted, skipped = parse_page_ranges(args.range, doc.page_count)
    if not wanted:
        raise CliError(f"No such pages: {args.range} (the document has {doc.page_count} pages)")
    for page in library.pages(doc.doc_id, wanted):
        label = f" (printed label {page.label})" if page.label and page.label != str(page.page) else ""
        print(f"===== Page {page.page} of {doc.page_count}{label} =====")
        print(page.text if page.text.strip() else "[no text layer on this page]")
        print()
    if skipped:
        _note(f"note: skipped pages {format_page_ranges(skipped)}: the document has {doc.page_count} pages")
    return 0


def _add_search(sub: SubParsers) -> None:
    p = sub.add_parser("search", help="exact-term search over page text")
    p.add_argument("query", metavar="QUERY")
    p.add_argument("--doc", action="append", default=None, metavar="DOC", help="limit to a document (repeatable; " + DOC_HELP + ")")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_cmd_search)


def _cmd_search(args: argparse.Namespace, library: Library) -> int:
    hits = library.search(args.query, _scope(library, args.doc))
    titles = {d.doc_id: d.title for d in library.documents()}
    rows = [
        {"doc_id": h.doc_id, "title": titles.get(h.doc_id, ""), "page": h.page, "snippet": h.snippet} for h in hits
    ]
    if args.json:
        _print_json(rows)
        return 0
    if not rows:
        print("No matches.")
    for row in rows:
        snippet = " ".join(str(row["snippet"]).split())
        print(f"{row['doc_id']}  p. {row['page']:<5} {row['title']}: {snippet}")
    return 0


def _add_remove(sub: SubParsers) -> None:
    p = sub.add_parser("remove", help="remove a document and its copy from the library")
    p.add_argument("doc", metavar="DOC", help=DOC_HELP)
    p.set_defaults(func=_cmd_remove)


def _cmd_remove(args: argparse.Namespace, library: Library) -> int:
    doc = library.resolve(args.doc)
    library.remove(doc.doc_id)
    print(f"Removed {doc.doc_id} ({doc.title}).")
    return 0


def _add_ask(sub: SubParsers) -> None:
    p = sub.add_parser("ask", help="ask a question; the answer cites pages, each citation checked")
    p.add_argument("question", metavar="QUESTION")
    p.add_argument("--doc", action="append", default=None, metavar="DOC", help="limit to a document (repeatable; " + DOC_HELP + ")")
    p.add_argument("--json", action="store_true")
    limits = p.add_argument_group("limits (default: the model settings)")
    limits.add_argument("--max-turns", type=int, metavar="N", help="model turns per question")
    limits.add_argument("--turn-seconds", type=float, metavar="S", help="seconds for one model turn")
    limits.add_argument("--question-seconds", type=float, metavar="S", help="seconds for the whole question")
    limits.add_argument("--answer-tokens", type=int, metavar="N", help="tokens one model turn may write")
    limits.add_argument("--token-budget", type=int, metavar="N", help="tokens the whole question may use")
    p.set_defaults(func=_cmd_ask)


def _limits(args: argparse.Namespace, library: Library) -> Limits:
    """The settings' limits with the command line's overrides."""
    from dataclasses import replace

    from pageindex_desktop.core.assistant.settings import load_settings

    chosen = {"max_turns": args.max_turns, "turn_seconds": args.turn_seconds,
              "question_seconds": args.question_seconds, "answer_tokens": args.answer_tokens,
              "question_tokens": args.token_budget}
    for name, value in chosen.items():
        if value is not None and value <= 0:
            raise PageIndexError(f"--{name.replace('_', '-')} must be more than 0.")
    return replace(load_settings(library.home).limits(), **{k: v for k, v in chosen.items() if v is not None})


def _cmd_ask(args: argparse.Namespace, library: Library) -> int:
    from pageindex_desktop.core.assistant.ask import ask

    out = ask(library, args.question, _scope(library, args.doc), limits=_limits(args, library))
    if args.json:
        _print_json(out)
        return 0
    print(out["answer"])
    marks = {"checked": "✓ checked", "contradicted": "✗ contradicted", "unverified": "? unverified"}
    for cite in out["citations"]:
        verdict = marks.get(str(cite.get("verdict")), "? unverified")
        reason = f": {cite['reason']}" if cite.get("reason") else ""
        section = cite.get("section")  # a terminal has no tooltip: the section is named for every kind of document
        where = f" › {section['title']}" if isinstance(section, dict) and section.get("title") else ""
        print(f"  [{cite['document']}{where}, p. {cite['page']}] {verdict}{reason}")
    for claim in out.get("uncited", []):
        print(f"  uncited: {claim['text']}")
    if out.get("judge_note"):
        print(f"  {out['judge_note']}")
    return 0


SUBCOMMANDS: list[Callable[[SubParsers], None]] = [
    _add_import,
    _add_list,
    _add_show,
    _add_summarize,
    _add_expand,
    _add_tree,
    _add_pages,
    _add_search,
    _add_remove,
    _add_ask,
]


# ---- entry point -----------------------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """argparse with its usage errors kept to one line on stderr (exit code 2)."""

    def error(self, message: str) -> Any:
        """Print one line (no usage block) and exit with code 2."""
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every registered subcommand."""
    parser = _Parser(prog=PROG, description="PageIndex Desktop without a window.")
    parser.add_argument("--version", action="version", version=f"{PROG} {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for register in SUBCOMMANDS:
        register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; returns the exit code (0 ok, 1 failure, 2 usage, 130 interrupted)."""
    multiprocessing.freeze_support()  # in a frozen bundle, an extraction child re-enters here and stops here
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")
    args = build_parser().parse_args(argv)
    log_file = setup_logging()
    handler: Handler = args.func
    try:
        with Library(library_home()) as library:
            library.recover_interrupted()
            return handler(args, library)
    except (CliError, PageIndexError) as exc:
        return _fail(str(exc))
    except KeyboardInterrupt:
        return _fail("interrupted", 130)
    except BrokenPipeError:  # the reader of our output went away (`| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except sqlite3.Error as exc:
        log.exception("database error")
        return _fail(f"the library database cannot be used: {exc}")
    except OSError as exc:
        log.exception("file system error")
        return _fail(f"{exc.strerror or exc}{': ' + str(exc.filename) if exc.filename else ''}")
    except Exception as exc:
        log.exception("internal error in %s", args.command)
        return _fail(f"internal error ({type(exc).__name__}: {exc}); details in {log_file}")


def _fail(message: str, code: int = 1) -> int:
    line = " ".join(message.split())
    print(f"{PROG}: error: {line}", file=sys.stderr, flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
