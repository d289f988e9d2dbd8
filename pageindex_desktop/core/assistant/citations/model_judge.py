"""The model-judged pass: a second opinion on each citation from a model, bounded so it can never hold up an answer.

The rules (`rules`) give every citation a verdict from figures and words; a model can tell when a passage that
shares the words still says the opposite. The judge is optional and advisory, so it is built to fail quietly:

- One batched call per ~8 claims, JSON out, parsed leniently (judge_reply.py); nothing a model writes makes it
  raise.
- A verdict counts only with a quote that really is in the passage (after normalising the PDF text's ligatures,
  line-end hyphens, curly quotes and spacing), so a judge that invents evidence is ignored, not trusted.
- Wall-clock bounded: the calls run on daemon threads and the caller stops waiting at the deadline; the judge's
  own client has a per-request timeout and at most one retry, so a down server costs seconds, not a minute.
- Valid judgements are cached by content hash in `llm_cache`, so re-checking an answer costs no call.
- Every failure becomes one sentence in `JudgeReport.note`; the rule verdicts then stand.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import queue
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from pageindex_desktop.core.assistant.citations.judge_reply import (
    Verdict,
    entry_number,
    read_verdict,
    parse_verdicts,
    quote_in_passage,
)
from pageindex_desktop.core.text import normalise
from pageindex_desktop.core.assistant.llm import LLMClient, RetryPolicy, TokenUsage
from pageindex_desktop.core.assistant.llm_errors import (
    ConnectionFailed,
    ModelError,
    ModelTimeout,
    RateLimited,
    ServerError,
    UnknownModel,
    WrongApiKey,
)
from pageindex_desktop.core.assistant.prompts import JUDGE_PROMPT
from pageindex_desktop.core.library.store import Library
from pageindex_desktop.core.library.llm_cache import cache_get, cache_put
from pageindex_desktop.core.tokens import count_tokens

log = logging.getLogger(__name__)

JUDGE_VERSION = "j2"  # bump when JUDGE_PROMPT or the checks change, so old cached verdicts are not reused
BATCH_ITEMS = 8
BATCH_CHARS = 6000
PASSAGE_CHARS = 6000  # one passage never fills a small local model's context on its own
WORKERS = 4
TOKENS_PER_ITEM = 150  # reply budget per claim: a verdict and a quote of at most 30 words, with room to spare
POLL = 0.05  # how often the waiting caller looks at its cancel event

@dataclass(frozen=True)
class JudgeItem:
    """One claim to judge against the passage of the page it cites."""

    key: str  # the caller's id for the item
    claim: str  # the answer's claim sentence
    passage: str  # the passage of the cited page the rules chose


@dataclass(frozen=True)
class Judgement:
    """The model's verdict on one item, with a quote already checked to be in the passage."""

    key: str
    verdict: Verdict
    quote: str


@dataclass
class JudgeReport:
    """What the judge said and what it cost; `note` is '' when all went well, else one sentence for the user."""

    judgements: dict[str, Judgement] = field(default_factory=dict)  # only the valid ones
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cached: int = 0  # items answered from the cache
    note: str = ""


def judgement_for(item: JudgeItem, verdict: Any, quote: Any) -> Judgement | None:
    """A valid judgement, or None: a verdict must be readable, and a supporting or contradicting one needs a quote
    that is in the passage. A 'not stated' verdict needs no quote (a bad one is blanked, the verdict kept)."""
    checked = read_verdict(verdict)
    text = quote.strip() if isinstance(quote, str) else ""
    if checked is None:
        return None
    if text and quote_in_passage(text, item.passage):
        return Judgement(item.key, checked, text)
    return Judgement(item.key, checked, "") if checked == "not_stated" else None


# ---- prompts, cache keys and batches -----------------------------------------------------------------------


def _prompt_passage(passage: str) -> str:
    """The passage as the model sees it: ligatures and broken words mended, on one line, capped."""
    return " ".join(normalise(passage, "").split())[:PASSAGE_CHARS]


def _cache_key(model: str, item: JudgeItem) -> str:
    """Content hash of exactly what the model is asked (and by which model and prompt version)."""
    parts = ("judge", JUDGE_VERSION, model, " ".join(item.claim.split()), _prompt_passage(item.passage))
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()


def build_prompt(items: list[JudgeItem]) -> str:
    """The judge prompt for one batch, its claims numbered from 1."""
    blocks = [f"[{n}] CLAIM: {' '.join(item.claim.split())}\nPASSAGE: {_prompt_passage(item.passage)}"
              for n, item in enumerate(items, start=1)]
    return JUDGE_PROMPT.format(items="\n\n".join(blocks))


def make_batches(items: list[JudgeItem], max_items: int = BATCH_ITEMS, max_chars: int = BATCH_CHARS
                 ) -> list[list[JudgeItem]]:
    """Consecutive batches of at most `max_items` items and about `max_chars` characters of passages."""
    batches: list[list[JudgeItem]] = []
    size = 0
    for item in items:
        length = len(_prompt_passage(item.passage))
        if not batches or len(batches[-1]) >= max_items or (batches[-1] and size + length > max_chars):
            batches.append([])
            size = 0
        batches[-1].append(item)
        size += length
    return batches


def _group(items: list[JudgeItem], model: str) -> dict[str, list[JudgeItem]]:
    """Items by cache key: the same claim on the same passage is asked once."""
    groups: dict[str, list[JudgeItem]] = {}
    for item in items:
        groups.setdefault(_cache_key(model, item), []).append(item)
    return groups


def _from_cache(library: Library | None, groups: dict[str, list[JudgeItem]]) -> dict[str, Judgement]:
    """Cached judgements by cache key, re-checked (a damaged or stale row is simply asked again)."""
    if library is None:
        return {}
    found: dict[str, Judgement] = {}
    for key, value in cache_get(library, list(groups)).items():
        try:
            data = json.loads(value)
        except ValueError:
            continue
        if isinstance(data, dict):
            judgement = judgement_for(groups[key][0], data.get("verdict"), data.get("quote"))
            if judgement is not None:
                found[key] = judgement
    return found


# ---- the bounded calls -------------------------------------------------------------------------------------


@dataclass
class _Batch:
    """One call's work and, once a worker has finished it, its outcome."""

    keys: list[str]  # cache keys, in prompt order
    prompt: str
    reply: str = ""
    usage: TokenUsage = field(default_factory=TokenUsage)
    error: ModelError | None = None


def _judge_client(client: LLMClient, timeout: float) -> LLMClient:
    """A copy of the caller's client whose requests time out with the judge and retry at most once, quickly."""
    retry = RetryPolicy(attempts=2, base_delay=0.5, max_delay=1.0, max_total=1.0, scale=client.retry.scale)
    return client.with_timeout(min(client.endpoint.timeout, timeout), retry)


class _Runner:
    """Daemon workers that make the calls; the caller waits for them only until the deadline or a cancel.

    A worker still blocked on a silent server when the caller gives up ends at its own request timeout; the last
    worker to end closes the judge's client, so no socket outlives the work.
    """

    def __init__(self, client: LLMClient, model: str, batches: list[_Batch], timeout: float) -> None:
        self.client = _judge_client(client, timeout)
        self.model = model
        self.stop = threading.Event()  # set when the caller stops waiting: no new call or retry starts
        self.todo: queue.Queue[_Batch] = queue.Queue()
        self.done: queue.Queue[_Batch] = queue.Queue()
        for batch in batches:
            self.todo.put(batch)
        self.count = len(batches)
        self.live = min(WORKERS, self.count)
        self.lock = threading.Lock()

    def start(self) -> None:
        for n in range(self.live):
            threading.Thread(target=self._work, name=f"citation-judge-{n}", daemon=True).start()

    def _work(self) -> None:
        try:
            while not self.stop.is_set():
                try:
                    batch = self.todo.get_nowait()
                except queue.Empty:
                    return
                self._call(batch)
                self.done.put(batch)
        finally:
            with self.lock:
                self.live -= 1
                last = self.live == 0
            if last:
                self.client.close()

    def _call(self, batch: _Batch) -> None:
        messages = [{"role": "user", "content": batch.prompt}]
        try:
            batch.reply, batch.usage = self.client.complete(
                messages, model=self.model, max_tokens=TOKENS_PER_ITEM * len(batch.keys) + 200, cancel=self.stop)
        except ModelError as exc:
            batch.error = exc

    def wait(self, deadline: float, cancel: threading.Event | None) -> list[_Batch]:
        """The batches finished before the deadline or the cancel; then no further call starts."""
        finished: list[_Batch] = []
        while len(finished) < self.count:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or (cancel is not None and cancel.is_set()):
                break
            try:
                finished.append(self.done.get(timeout=min(POLL, remaining)))
            except queue.Empty:
                continue
        self.stop.set()
        return finished


# ---- reading the outcomes into a report --------------------------------------------------------------------


@dataclass
class _Tally:
    """Claims (caller items) the judge could not help with, by why; the note is made from the worst."""

    failure: str = ""  # phrase of the first call failure ("timed out", ...)
    failed: int = 0
    unreadable: int = 0
    bad_quote: int = 0
    no_verdict: int = 0


_FAILURES: tuple[tuple[type[ModelError], str], ...] = (
    (ModelTimeout, "timed out"),
    (ConnectionFailed, "could not be reached"),
    (WrongApiKey, "was refused by the endpoint (API key)"),
    (UnknownModel, "could not find its model at the endpoint"),
    (RateLimited, "was rate limited"),
    (ServerError, "met a server error"),
)


def _failure_phrase(error: ModelError | None) -> str:
    for kind, phrase in _FAILURES:
        if isinstance(error, kind):
            return phrase
    return "timed out" if error is None else "failed"


def _count_usage(report: JudgeReport, batch: _Batch) -> None:
    """The server's token figures; counted locally when it reported none."""
    usage = batch.usage
    if usage.prompt_tokens or usage.completion_tokens:
        report.prompt_tokens += usage.prompt_tokens
        report.completion_tokens += usage.completion_tokens
    else:
        report.prompt_tokens += count_tokens(batch.prompt)
        report.completion_tokens += count_tokens(batch.reply)


def _read_batch(batch: _Batch, groups: dict[str, list[JudgeItem]], tally: _Tally) -> dict[str, Judgement]:
    """Valid judgements of one answered batch, by cache key; the rest are counted in the tally."""
    entries = parse_verdicts(batch.reply)
    if not entries:
        tally.unreadable += sum(len(groups[k]) for k in batch.keys)
        return {}
    by_number = {entry_number(e.get("id"), n): e for n, e in enumerate(entries, start=1)}
    valid: dict[str, Judgement] = {}
    for n, key in enumerate(batch.keys, start=1):
        entry = by_number.get(n)
        judgement = judgement_for(groups[key][0], entry.get("verdict"), entry.get("quote")) if entry else None
        if judgement is not None:
            valid[key] = judgement
        elif entry is not None and read_verdict(entry.get("verdict")) is not None:
            tally.bad_quote += len(groups[key])
        else:
            tally.no_verdict += len(groups[key])
    return valid


def _read_outcomes(batches: list[_Batch], finished: list[_Batch], groups: dict[str, list[JudgeItem]],
                   report: JudgeReport, tally: _Tally) -> dict[str, Judgement]:
    """Fresh judgements by cache key; tokens go into the report, failures into the tally."""
    fresh: dict[str, Judgement] = {}
    done = {id(b) for b in finished}
    for batch in batches:
        error = batch.error if id(batch) in done else None
        if id(batch) not in done or error is not None:
            tally.failure = tally.failure or _failure_phrase(error)
            tally.failed += sum(len(groups[k]) for k in batch.keys)
            continue
        _count_usage(report, batch)
        fresh.update(_read_batch(batch, groups, tally))
    return fresh


def _claims(count: int) -> str:
    return f"{count} claim" if count == 1 else f"{count} claims"


def _note(tally: _Tally, total: int) -> str:
    """One sentence for the user about the worst thing that went wrong, or ''."""
    if tally.failed:
        if tally.failed >= total:
            return f"The citation judge {tally.failure}; the rule verdicts stand."
        return f"The citation judge {tally.failure} for {tally.failed} of {total} claims; their rule verdicts stand."
    if tally.unreadable:
        if tally.unreadable >= total:
            return "The citation judge's reply could not be read; the rule verdicts stand."
        return (f"The citation judge's reply for {tally.unreadable} of {total} claims could not be read; "
                "their rule verdicts stand.")
    if tally.bad_quote or tally.no_verdict:
        what = "verdict" if tally.no_verdict else "quote"
        count = tally.bad_quote + tally.no_verdict
        return f"The citation judge gave no usable {what} for {_claims(count)}; their rule verdicts stand."
    return ""


def _fill(report: JudgeReport, groups: dict[str, list[JudgeItem]], found: dict[str, Judgement]) -> None:
    """Every caller item gets the judgement of its content group, under its own key."""
    for key, judgement in found.items():
        for item in groups[key]:
            report.judgements[item.key] = dataclasses.replace(judgement, key=item.key)


def _cache_values(fresh: dict[str, Judgement]) -> dict[str, str]:
    return {k: json.dumps({"verdict": j.verdict, "quote": j.quote}) for k, j in fresh.items()}


def judge_claims(
    client: LLMClient,
    items: list[JudgeItem],
    library: Library | None = None,
    *,
    model: str | None = None,
    timeout: float = 20.0,
    cancel: threading.Event | None = None,
) -> JudgeReport:
    """The model's verdict on each claim, within `timeout` seconds wall-clock; never raises for model trouble.

    Cached judgements (when a library is given) cost no call; the rest are asked in batches on daemon threads.
    A cancel returns promptly with what was already judged and note ''.
    """
    deadline = time.monotonic() + timeout
    model = model or client.endpoint.model
    report = JudgeReport()
    if not items or (cancel is not None and cancel.is_set()):
        return report
    groups = _group(items, model)
    cached = _from_cache(library, groups)
    _fill(report, groups, cached)
    report.cached = sum(len(groups[k]) for k in cached)
    pending = [groups[k][0] for k in groups if k not in cached]
    if not pending:
        return report
    batches = [_Batch([_cache_key(model, i) for i in b], build_prompt(b)) for b in make_batches(pending)]
    runner = _Runner(client, model, batches, timeout)
    runner.start()
    finished = runner.wait(deadline, cancel)
    tally = _Tally()
    fresh = _read_outcomes(batches, finished, groups, report, tally)
    _fill(report, groups, fresh)
    if library is not None:
        cache_put(library, _cache_values(fresh))
    cancelled = cancel is not None and cancel.is_set()
    report.note = "" if cancelled else _note(tally, len(items))
    if report.note:
        log.info("citation judge: %s", report.note)
    return report
