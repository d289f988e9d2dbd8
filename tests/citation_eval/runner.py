"""Score the citation checker on labelled citations (cases.json), end to end through the CLI and the fake model.

Each case is one scripted model run over one corpus document: the model calls get_page_content for `read`
(physical pages), then writes `answer`. `pageindex-desktop-cli ask QUESTION --doc DOC_ID --json` runs as a
subprocess against a fake OpenAI-compatible server (tests/integration/fake_openai.py), and the citations it
returns are compared, in order, with the case's `expect`.

Case fields (cases.json is a JSON list of objects):
  id, doc (a file of ../shared/corpus), kind (one of KINDS), question, read (page spec given to the tool),
  answer ("{title}" is replaced by the imported document's title),
  expect: one entry per cited page, in reading order: `page` (the physical page a perfect checker resolves the
      citation to), `correct` (does the cited passage support the claim?), `verdict` (what a perfect checker
      says: checked for correct citations; contradicted when the passage states the same quantity or fact with
      another value or the opposite polarity; else unverified), and `written` when the answer writes the page
      differently (a printed label such as "ii" or "4"); a reported page equal to `page` or `written` counts,
  uncited (optional, default 0): answer sentences that state figures or specific facts with no citation,
  note: what the page actually says (for whoever reviews a label).

A case whose number of returned citations differs from `expect`, or whose reported page is neither `page` nor
`written`, is a parse mismatch: its citations count as misjudged (not caught when wrong, flagged when correct).
A failed CLI run counts the same way and is listed as an error. The tool result is checked too: when the tool
did not return exactly the pages in `read` (say a page budget cut them), the case is a setup problem, not a
verdict on the checker. Any model request beyond the scripted two (the model judge, when the settings turn it
on) is answered with an HTTP 400, so the figures are the rules' verdicts; `extra model requests` counts them.

Run a selection from the repo: `.venv/bin/python -m tests.citation_eval.runner [--kind K] [--doc FILE] [--id ID]`.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from pageindex_desktop.core.pages_range import format_page_ranges, parse_page_ranges
from tests.integration.fake_openai import FakeOpenAI, Reply, error, text, tool

REPO = Path(__file__).resolve().parents[2]
CORPUS = REPO.parent / "shared" / "corpus"
CASES_FILE = Path(__file__).with_name("cases.json")

KINDS = ("verbatim", "paraphrase", "units", "wrong_page_read", "page_never_read", "changed_number", "negation",
         "invented", "printed_label", "mixed_bracket", "near_miss_title", "uncited_figure")
VERDICTS = ("checked", "unverified", "contradicted")
MISMATCH = "mismatch"  # the got-column for a citation of a parse-mismatched (or failed) case
CAUGHT = ("unverified", "contradicted")
POLAR_KINDS = ("changed_number", "negation")

# The thresholds.
MIN_CAUGHT = 0.95  # share of wrong citations given unverified or contradicted
MAX_CORRECT_FLAGGED = 0  # correct citations given anything but checked
MIN_CONTRADICTED = 1.0  # share of changed_number + negation wrong citations given contradicted

DEFAULT_WORKERS = 3
ASK_TIMEOUT = 120


def with_new_fields(out: dict[str, Any]) -> dict[str, Any]:
    """TRANSITIONAL FALLBACK, delete once `ask --json` always carries `verdict` and `uncited`.

    Until the rewritten checker lands, a citation without `verdict` reads as "checked" when `verified` else
    "unverified", and an answer without `uncited` has no uncited sentences."""
    for cite in out.get("citations", []):
        cite.setdefault("verdict", "checked" if cite.get("verified") else "unverified")
    out.setdefault("uncited", [])
    return out


# ---- cases -------------------------------------------------------------------------------------------------


def load_cases(path: Path = CASES_FILE) -> list[dict[str, Any]]:
    """The labelled cases, checked against the schema (ValueError lists every problem)."""
    cases: list[dict[str, Any]] = json.loads(path.read_text(encoding="utf-8"))
    problems = validate_cases(cases)
    if problems:
        raise ValueError(f"{path.name}: " + "; ".join(problems))
    return cases


def validate_cases(cases: list[dict[str, Any]]) -> list[str]:
    """Schema problems: missing fields, unknown kinds, duplicate ids, verdicts that disagree with `correct`."""
    problems: list[str] = []
    seen: set[str] = set()
    for case in cases:
        cid = str(case.get("id"))
        missing = [k for k in ("id", "doc", "kind", "question", "read", "answer", "expect") if k not in case]
        if missing:
            problems.append(f"{cid}: missing {', '.join(missing)}")
            continue
        if cid in seen:
            problems.append(f"{cid}: duplicate id")
        seen.add(cid)
        if case["kind"] not in KINDS:
            problems.append(f"{cid}: unknown kind {case['kind']!r}")
        if not case["expect"]:
            problems.append(f"{cid}: expects no citation")
        for entry in case["expect"]:
            verdict, correct = entry.get("verdict"), entry.get("correct")
            if not isinstance(entry.get("page"), int) or not isinstance(correct, bool) or verdict not in VERDICTS:
                problems.append(f"{cid}: bad expect entry {entry}")
            elif (verdict == "checked") != correct:
                problems.append(f"{cid}: p. {entry['page']} is {'correct' if correct else 'wrong'} but expects {verdict}")
    return problems


def missing_documents(cases: Iterable[dict[str, Any]], corpus: Path = CORPUS) -> list[str]:
    """Corpus files the cases need that are not there."""
    return sorted({c["doc"] for c in cases if not (corpus / c["doc"]).is_file()})


# ---- running -----------------------------------------------------------------------------------------------


@dataclass
class EvalLibrary:
    """A temporary library with the cases' documents imported: corpus file name -> doc id, title, page count."""

    home: Path
    docs: dict[str, dict[str, Any]]


@dataclass
class Outcome:
    """One expected citation and what the checker said about it."""

    case: str
    kind: str
    doc: str
    index: int
    page: int
    correct: bool
    expected: str
    got: str  # a verdict, or MISMATCH
    got_page: int | None = None
    reason: str = ""


@dataclass
class CaseResult:
    """One case run: its outcomes, its uncited counts and what went wrong around the checker."""

    case: dict[str, Any]
    outcomes: list[Outcome]
    mismatch: bool = False
    expected_uncited: int = 0
    got_uncited: int = 0
    error: str = ""
    setup_problem: str = ""
    extra_requests: int = 0
    seconds: float = 0.0
    citations: list[dict[str, Any]] = field(default_factory=list)


def _env(home: Path, url: str | None, model: str = "m") -> dict[str, str]:
    """The CLI's environment: no model settings from the developer's shell; the fake server when given."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "PAGEINDEX_"))}
    env.update(PAGEINDEX_DESKTOP_HOME=str(home), PYTHONPATH=str(REPO), QT_QPA_PLATFORM="offscreen",
               PAGEINDEX_JUDGE_TIMEOUT=str(JUDGE_TIMEOUT))
    if url is not None:
        env.update(OPENAI_BASE_URL=url, PAGEINDEX_CHAT_MODEL=model, OPENAI_API_KEY="sk-test")
    return env


def _cli(home: Path, url: str | None, *args: str, timeout: float = ASK_TIMEOUT, model: str = "m"
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pageindex_desktop.cli", *args], env=_env(home, url, model),
                          capture_output=True, text=True, timeout=timeout, cwd=REPO)


def import_documents(home: Path, names: Iterable[str], corpus: Path = CORPUS) -> EvalLibrary:
    """Import the named corpus files once (one CLI run, no summaries) into a library at `home`."""
    wanted = sorted(set(names))
    done = _cli(home, None, "import", *(str(corpus / n) for n in wanted), "--no-summaries", "--json", timeout=900)
    if done.returncode != 0:
        raise RuntimeError(f"import failed: {done.stderr.strip()}")
    docs: dict[str, dict[str, Any]] = {}
    for line in done.stdout.splitlines():
        row = json.loads(line)
        docs[Path(row["path"]).name] = {"doc_id": row["doc_id"], "title": row["title"],
                                        "page_count": row["page_count"]}
    absent = [n for n in wanted if n not in docs]
    if absent:
        raise RuntimeError(f"import did not report {absent}")
    return EvalLibrary(home, docs)


def _returned_pages(chats: list[dict[str, Any]]) -> str | None:
    """The `returned` field of the get_page_content result the model was sent (None when there was none)."""
    for body in chats[1:2]:
        for message in body.get("messages", []):
            if message.get("role") == "tool":
                envelope = json.loads(message.get("content") or "{}")
                return str(envelope.get("result", {}).get("returned")) if envelope.get("ok") else None
    return None


def _page_matches(got: Any, entry: dict[str, Any]) -> bool:
    return got == entry["page"] or ("written" in entry and str(got) == str(entry["written"]))


def run_case(case: dict[str, Any], lib: EvalLibrary, fake: FakeOpenAI, judge: str = "off") -> CaseResult:
    """Script the fake model for one case, run `cli ask --json`, and compare its citations with `expect`."""
    doc = lib.docs[case["doc"]]
    answer = case["answer"].replace("{title}", doc["title"])
    question = case["question"].replace("{title}", doc["title"])
    with fake.lock:
        fake.queue.clear()
        fake.requests.clear()
    fake.script(tool("get_page_content", {"doc": doc["doc_id"], "pages": case["read"]}), text(answer))
    start = time.perf_counter()
    # one model name per judge mode: the judge's cache is keyed by model, so one mode never reuses another's
    done = _cli(lib.home, fake.url, "ask", question, "--doc", doc["doc_id"], "--json", model=f"m-{judge}")
    result = CaseResult(case, [], expected_uncited=int(case.get("uncited", 0)), seconds=time.perf_counter() - start)
    chats = fake.chat_requests()
    result.extra_requests = max(0, len(chats) - 2)
    wanted = format_page_ranges(parse_page_ranges(case["read"], doc["page_count"])[0])
    returned = _returned_pages(chats)
    if returned != wanted:
        result.setup_problem = f"the tool returned pages {returned}, the case reads {wanted}"
    out: dict[str, Any] | None = None
    if done.returncode != 0:
        result.error = done.stderr.strip()[-400:] or f"exit code {done.returncode}"
    else:
        try:
            out = with_new_fields(json.loads(done.stdout))
        except ValueError:
            result.error = f"not JSON: {done.stdout[:200]!r}"
    got = out["citations"] if out is not None else []
    result.citations = got
    result.got_uncited = len(out["uncited"]) if out is not None else 0
    expect = case["expect"]
    aligned = out is not None and len(got) == len(expect)
    for i, entry in enumerate(expect):
        cite = got[i] if aligned else None
        verdict = MISMATCH
        if cite is not None and _page_matches(cite.get("page"), entry):
            verdict = str(cite["verdict"])
        result.mismatch = result.mismatch or verdict == MISMATCH
        result.outcomes.append(Outcome(
            case["id"], case["kind"], case["doc"], i, entry["page"], entry["correct"], entry["verdict"], verdict,
            cite.get("page") if cite else None, " ".join(str(cite.get("reason", "")).split()) if cite else "",
        ))
    return result


def _no_more_replies(body: dict[str, Any]) -> Reply:
    """Any request beyond the scripted two (say a model judge) gets a 400: the eval scores the checker's rules."""
    return error(400, "citation eval: no scripted reply for this request")


JUDGES = ("off", "right", "wrong", "adversarial", "slow", "junk")
JUDGE_TIMEOUT = 2  # seconds the CLI's judge waits in these runs (PAGEINDEX_JUDGE_TIMEOUT), so "slow" costs little
_ITEM = re.compile(r"\[(\d+)\] CLAIM: (.*)\nPASSAGE: (.*)")


def judge_policy(case: dict[str, Any], mode: str, pages: dict[int, str] | None = None) -> Any:
    """A scripted model judge for one case: `right` says what the labels say, quoting the passage; `wrong` says
    the opposite with made-up quotes; `adversarial` says the opposite quoting the passage; `slow` answers after
    the judge's deadline; `junk` answers prose; `off` refuses (the rules alone). A claim cited to two pages (a
    mixed bracket) is told apart by the page whose text holds the passage (`pages`: page number → text)."""
    from pageindex_desktop.core.assistant.citations.parse import parse
    from pageindex_desktop.core.text import fold

    claims = [" ".join(c.claim.split()) for c in parse(case["answer"]).citations]
    entries = list(zip(claims, case["expect"]))

    def is_correct(claim: str, passage: str) -> bool:
        same = [entry for text, entry in entries if text == claim]
        if len(same) > 1 and pages:
            flat = " ".join(fold(passage).split())[:120]
            on_page = [e for e in same if flat and flat in " ".join(fold(pages.get(e["page"], "")).split())]
            same = on_page or same
        return bool(same[0]["correct"]) if same else True

    def reply(body: dict[str, Any]) -> Reply:
        if mode == "off" or body.get("tools"):
            return _no_more_replies(body)
        if mode == "slow":
            return text('{"verdicts": []}', delay=JUDGE_TIMEOUT + 3)
        if mode == "junk":
            return text("I think these claims look fine overall!")
        prompt = str(body["messages"][-1]["content"])
        verdicts = []
        for number, claim, passage in _ITEM.findall(prompt):
            correct = is_correct(" ".join(claim.split()), passage)
            backed = correct if mode == "right" else not correct
            # right and adversarial quote the passage; wrong makes its evidence up, as a confused model does
            quote = " ".join(passage.split()[:8]) if mode != "wrong" else "the figures match the claim exactly"
            verdicts.append({"id": int(number), "verdict": "supported" if backed else "not_stated", "quote": quote})
        return text(json.dumps({"verdicts": verdicts}))

    return reply


def _page_texts(lib: EvalLibrary, case: dict[str, Any]) -> dict[int, str]:
    """The stored text of the pages a case cites (for the scripted judge to tell two cited pages apart)."""
    from pageindex_desktop.core.library.store import Library

    with Library(lib.home) as library:
        wanted = {int(e["page"]) for e in case["expect"]}
        return {p.page: p.text for p in library.pages(lib.docs[case["doc"]]["doc_id"], wanted)}


def run_cases(cases: list[dict[str, Any]], lib: EvalLibrary, workers: int = DEFAULT_WORKERS,
              judge: str = "off") -> list[CaseResult]:
    """Run the cases a few at a time (one fake server per worker); results in the cases' order."""
    servers = [FakeOpenAI().start() for _ in range(max(1, workers))]
    free: queue.Queue[FakeOpenAI] = queue.Queue()
    for server in servers:
        server.policy = _no_more_replies
        free.put(server)

    def one(case: dict[str, Any]) -> CaseResult:
        fake = free.get()
        fake.policy = judge_policy(case, judge, _page_texts(lib, case) if judge != "off" else None)
        try:
            return run_case(case, lib, fake, judge)
        finally:
            free.put(fake)

    try:
        with ThreadPoolExecutor(max_workers=len(servers)) as pool:
            return list(pool.map(one, cases))
    finally:
        for server in servers:
            server.stop()


def evaluate(cases: list[dict[str, Any]], workers: int = DEFAULT_WORKERS, corpus: Path = CORPUS,
             judges: tuple[str, ...] = ("off",)) -> dict[str, list[CaseResult]]:
    """Import the cases' documents into a temporary library once and run every case under each judge mode."""
    with tempfile.TemporaryDirectory(prefix="citation-eval-") as tmp:
        lib = import_documents(Path(tmp) / "library", (c["doc"] for c in cases), corpus)
        return {mode: run_cases(cases, lib, workers, mode) for mode in judges}


# ---- scoring -----------------------------------------------------------------------------------------------


def outcomes(results: list[CaseResult]) -> list[Outcome]:
    return [o for r in results for o in r.outcomes]


def confusion(results: list[CaseResult]) -> dict[str, Counter[tuple[str, str]]]:
    """Per kind: counts of (truth, got) with truth 'correct' or 'wrong' and got a verdict or MISMATCH."""
    table: dict[str, Counter[tuple[str, str]]] = {}
    for o in outcomes(results):
        table.setdefault(o.kind, Counter())[("correct" if o.correct else "wrong", o.got)] += 1
    return table


def summary(results: list[CaseResult]) -> dict[str, Any]:
    """The headline figures (shares are None when there is nothing to divide by)."""
    every = outcomes(results)
    wrong = [o for o in every if not o.correct]
    right = [o for o in every if o.correct]
    polar = [o for o in wrong if o.kind in POLAR_KINDS]

    def share(part: int, whole: int) -> float | None:
        return part / whole if whole else None

    caught = sum(o.got in CAUGHT for o in wrong)
    contradicted = sum(o.got == "contradicted" for o in polar)
    expected_uncited = sum(r.expected_uncited for r in results)
    return {
        "cases": len(results),
        "citations": len(every),
        "wrong": len(wrong),
        "wrong_caught": caught,
        "caught_share": share(caught, len(wrong)),
        "correct": len(right),
        "correct_flagged": sum(o.got != "checked" for o in right),
        "polar_wrong": len(polar),
        "polar_contradicted": contradicted,
        "contradicted_share": share(contradicted, len(polar)),
        "exact_verdicts": sum(o.got == o.expected for o in every),
        "uncited_expected": expected_uncited,
        "uncited_detected": sum(min(r.got_uncited, r.expected_uncited) for r in results),
        "uncited_spurious": sum(max(0, r.got_uncited - r.expected_uncited) for r in results),
        **_highlight_figures(results),
        "parse_mismatches": [r.case["id"] for r in results if r.mismatch],
        "errors": {r.case["id"]: r.error for r in results if r.error},
        "setup_problems": {r.case["id"]: r.setup_problem for r in results if r.setup_problem},
        "extra_requests": sum(r.extra_requests for r in results),
        "seconds": sum(r.seconds for r in results),
    }


_QUOTE = re.compile(r'"([^"]{15,})"')


def _highlight_figures(results: list[CaseResult]) -> dict[str, int]:
    """Of the checked correct citations whose label quotes the supporting sentence, how many passages (what the
    viewer highlights) hold that sentence's first 50 characters (folded as the checker folds text; a quote the
    note elides with '...' is cut there). An expectation's own `support` quote wins over the note's quotes, which
    in a case with a right and a wrong claim may quote only what the wrong one gets wrong."""
    from pageindex_desktop.core.text import fold

    def flat(text: str) -> str:
        return " ".join(fold(text).replace("-", "").split())

    held = total = 0
    for result in results:
        noted = [q.split("...")[0] for q in _QUOTE.findall(str(result.case.get("note", "")))]
        if len(result.citations) != len(result.outcomes):
            continue
        for outcome, cite, expect in zip(result.outcomes, result.citations, result.case["expect"]):
            quotes = [expect["support"]] if "support" in expect else noted
            if quotes and outcome.correct and outcome.got == "checked":
                total += 1
                passage = flat(str(cite.get("passage", "")))
                held += any(flat(q)[:50].rstrip(". ") in passage for q in quotes)
    return {"highlight_held": held, "highlight_total": total}


def threshold_failures(figures: dict[str, Any]) -> list[str]:
    """The thresholds the figures miss, one sentence each (empty when all hold)."""
    failures = []
    caught, contradicted = figures["caught_share"], figures["contradicted_share"]
    if caught is not None and caught < MIN_CAUGHT:
        failures.append(f"{caught:.1%} of wrong citations caught (want >= {MIN_CAUGHT:.0%})")
    if figures["correct_flagged"] > MAX_CORRECT_FLAGGED:
        failures.append(f"{figures['correct_flagged']} correct citations flagged (want {MAX_CORRECT_FLAGGED})")
    if contradicted is not None and contradicted < MIN_CONTRADICTED:
        failures.append(f"{contradicted:.1%} of changed_number/negation wrong citations contradicted "
                        f"(want >= {MIN_CONTRADICTED:.0%})")
    return failures


def _pct(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1%}"


def format_report(results: list[CaseResult]) -> str:
    """The confusion matrix by kind, the summary figures and every misjudged citation."""
    table = confusion(results)
    got_columns = (*VERDICTS, MISMATCH)
    columns = [(truth, got) for truth in ("correct", "wrong") for got in got_columns]
    short = {"checked": "chk", "unverified": "unv", "contradicted": "con", MISMATCH: "mis"}
    head = f"{'kind':<16}" + "".join(f"{truth[:3]}/{short[got]:>3} " for truth, got in columns)
    lines = ["Citation checker on the labelled set (rows: kind; columns: truth correct|wrong / verdict got)", head]
    for kind in [k for k in KINDS if k in table] + sorted(set(table) - set(KINDS)):
        lines.append(f"{kind:<16}" + "".join(f"{table[kind][col]:>7} " for col in columns))
    total: Counter[tuple[str, str]] = sum(table.values(), Counter())
    lines.append(f"{'all':<16}" + "".join(f"{total[col]:>7} " for col in columns))
    f = summary(results)
    lines += [
        "",
        f"cases {f['cases']}, cited pages {f['citations']} ({f['correct']} correct, {f['wrong']} wrong)",
        f"wrong citations caught (unverified or contradicted): {f['wrong_caught']}/{f['wrong']} = "
        f"{_pct(f['caught_share'])}",
        f"correct citations flagged: {f['correct_flagged']}/{f['correct']}",
        f"changed_number + negation wrong citations contradicted: {f['polar_contradicted']}/{f['polar_wrong']} = "
        f"{_pct(f['contradicted_share'])}",
        f"verdicts exactly as expected: {f['exact_verdicts']}/{f['citations']}",
        f"highlighted passage holds the supporting sentence: {f['highlight_held']}/{f['highlight_total']} "
        "(checked correct citations whose label quotes it)",
        f"uncited factual sentences: {f['uncited_detected']}/{f['uncited_expected']} detected, "
        f"{f['uncited_spurious']} reported where none was expected",
        f"parse mismatches: {len(f['parse_mismatches'])} cases {f['parse_mismatches']}",
        f"CLI errors: {len(f['errors'])}; setup problems: {len(f['setup_problems'])}; "
        f"extra model requests: {f['extra_requests']}; ask time {f['seconds']:.0f} s",
    ]
    for cid, message in {**f["errors"], **f["setup_problems"]}.items():
        lines.append(f"  ! {cid}: {message}")
    off = [r for r in results if r.got_uncited != r.expected_uncited]
    if off:
        lines.append("uncited counts that differ (case: expected -> got): "
                     + ", ".join(f"{r.case['id']}: {r.expected_uncited} -> {r.got_uncited}" for r in off))
    wrong = [o for o in outcomes(results) if o.got != o.expected]
    if wrong:
        lines += ["", "misjudged citations (case, page, truth, expected -> got, reason):"]
        lines += [f"  {o.case} p. {o.page} {'correct' if o.correct else 'wrong'} {o.expected} -> {o.got}"
                  f"{' (reported p. ' + str(o.got_page) + ')' if o.got_page not in (None, o.page) else ''}"
                  f"{': ' + o.reason if o.reason else ''}" for o in wrong]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Run a selection of the cases and print the report; exit 1 when a threshold is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", action="append", help="only this kind (repeatable)")
    parser.add_argument("--doc", action="append", help="only this corpus file (repeatable)")
    parser.add_argument("--id", action="append", help="only this case id (repeatable)")
    parser.add_argument("--workers", type=int, default=DEFAULT_WORKERS)
    parser.add_argument("--judge", choices=JUDGES, default="off", help="how the scripted model judge answers")
    args = parser.parse_args(argv)
    cases = [c for c in load_cases()
             if (not args.kind or c["kind"] in args.kind) and (not args.doc or c["doc"] in args.doc)
             and (not args.id or c["id"] in args.id)]
    missing = missing_documents(cases)
    if missing:
        print(f"corpus files not available: {missing}", file=sys.stderr)
        return 2
    results = evaluate(cases, args.workers, judges=(args.judge,))[args.judge]
    print(format_report(results))
    failures = threshold_failures(summary(results))
    for failure in failures:
        print(f"THRESHOLD MISSED: {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
