"""How the model judge's judgements change the rule verdicts.

The rules are the floor: a verdict they reached on firm evidence (a figure contradicted, a polarity flip, a name
the page lacks, a structural reason such as a page never read, or a passage that holds every word of the claim)
is never changed. Only the verdicts the rules were unsure of (most words matched, not all) are put to the model,
and its judgement counts only with a quote found in the passage (model_judge checks that). So a judge that is
wrong, junk or absent can move only those.
"""

from __future__ import annotations

import os
import threading

from pageindex_desktop.core.assistant.citations.model_judge import JudgeItem, JudgeReport, Judgement, judge_claims
from pageindex_desktop.core.assistant.citations.parse import Citation
from pageindex_desktop.core.assistant.citations.rules import CHECKED, CONTRADICTED, UNVERIFIED
from pageindex_desktop.core.assistant.llm import LLMClient
from pageindex_desktop.core.library.store import Library

JUDGE_TIMEOUT_S = float(os.environ.get("PAGEINDEX_JUDGE_TIMEOUT", "20") or 20)  # a slow local model may want more


def askable(cite: Citation) -> bool:
    """Whether the judge may revise this citation's verdict."""
    return bool(cite.passage and cite.claim) and not cite.firm and cite.verdict != CONTRADICTED


def second_opinion(
    citations: list[Citation], client: LLMClient, library: Library | None, cancel: threading.Event | None = None,
    timeout: float = JUDGE_TIMEOUT_S,
) -> JudgeReport:
    """Ask the model about the unsure citations and apply its valid judgements in place."""
    items = [JudgeItem(str(i), c.claim, c.passage) for i, c in enumerate(citations) if askable(c)]
    if not items:
        return JudgeReport()
    report = judge_claims(client, items, library, cancel=cancel, timeout=timeout)
    for key, judgement in report.judgements.items():
        apply_judgement(citations[int(key)], judgement)
    return report


def apply_judgement(cite: Citation, judgement: Judgement) -> None:
    """Move an unsure rule verdict to the model's, with the model's quote as the passage's evidence."""
    if not askable(cite):
        return
    quote = " ".join(judgement.quote.split())
    if judgement.verdict == "supported" and cite.verdict == UNVERIFIED:
        cite.verdict, cite.reason, cite.judged_by = CHECKED, "", "model"
    elif judgement.verdict == "not_stated" and cite.verdict == CHECKED and quote:  # it must show what it read
        cite.verdict, cite.judged_by = UNVERIFIED, "model"
        cite.reason = "the model judge found the claim not stated in the passage"
    elif judgement.verdict == "contradicted" and cite.verdict == CHECKED and quote:
        cite.verdict, cite.judged_by = CONTRADICTED, "model"
        cite.reason = f"the model judge found the passage says otherwise: “{quote}”"
