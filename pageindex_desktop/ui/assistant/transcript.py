"""The transcript as HTML for a QTextBrowser: questions, answers with citation links styled by verdict,
a collapsible reading trail and the tokens of each answer.

A citation names its section where the reader locates things by heading: in documents the app laid out to pages
(Markdown, e-books: their page numbers are the app's, not the author's) the link reads "Notes › Installation,
p. 3", and so does any citation the model wrote with a heading. In a PDF the page is what a reader quotes and
finds in print, so the link stays "[Report, p. 12]" and the section's path and pages are in the tooltip, as for
every citation.

Links: `cite:<exchange>:<citation>` opens a cited page, `trail:<exchange>` folds a reading trail, `settings:` opens
the model settings (offered under an error).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Any

from pageindex_desktop.core.assistant.citations.parse import parse_citations
from pageindex_desktop.core.outline.tree import FRONT_MATTER_TITLE
from pageindex_desktop.ui.assistant import markdown
from pageindex_desktop.ui.assistant.entries import Exchange

AMBER = "#b26a00"
CHECK_GREEN = "#2e7d32"
ERROR_RED = "#b3261e"
PREVIEW_CHARS = 220

REASONS = {
    "page never read": "the assistant never read this page in this chat, so the claim could not be checked",
    "the claim was not found on the page": "the claim's key words were not found on this page",
    "claim not found on the page": "the claim's key words or figures were not found on this page",
    "unknown document": "no document in scope has this title",
    "citation not understood": "this looks like a citation, but its document or page could not be read",
    "no page of this section was read": "the assistant never read a page of this section in this chat, so the "
                                        "claim could not be checked",
}
PAGE_FORMATS = ("", "pdf")  # formats whose page numbers are the document's own (records before formats: "")
VERDICT_STYLE = {  # verdict → (heading, marker, colour key)
    "checked": ("Checked ✓", "✓", "green"),
    "contradicted": ("Contradicted ✗", "✗", "red"),
    "unverified": ("Not verified ?", "?", "amber"),
}
UNCITED_TIP = ("No citation: this sentence states a figure without saying which page it comes from, so it was not "
               "checked.")


def verdict_of(record: dict[str, Any]) -> str:
    """The record's verdict; records stored before verdicts existed carry only `verified`."""
    verdict = str(record.get("verdict") or "")
    if verdict in VERDICT_STYLE:
        return verdict
    return "checked" if record.get("verified") else "unverified"


@dataclass(frozen=True)
class Theme:
    """Colours taken from the widget's palette, so the transcript follows light and dark themes."""

    text: str = "#202020"
    link: str = "#0b57d0"
    muted: str = "#6b6b6b"
    question_bg: str = "#eef2f8"


@dataclass
class Mark:
    """Where a citation mark sits in the answer body and which citation records it stands for."""

    start: int
    end: int
    indices: list[int]


def place_citations(body: str, citations: list[dict[str, Any]], use_offsets: bool) -> list[Mark]:
    """Marks in `body` for the records: by their stored offsets, else by matching parsed marks (title, page)."""
    marks: dict[tuple[int, int], Mark] = {}
    unplaced: list[int] = []
    for index, record in enumerate(citations):
        start, end = record.get("start"), record.get("end")
        if use_offsets and isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(body) \
                and body[start] in "[<":
            marks.setdefault((start, end), Mark(start, end, [])).indices.append(index)
        else:
            unplaced.append(index)
    if unplaced:
        for parsed in parse_citations(body):
            for index in unplaced:
                record = citations[index]
                names = {str(record.get("document", "")).casefold(), str(record.get("doc_id", "")).casefold()}
                pages = {str(record.get("page") or ""), str(record.get("written_page") or "")}
                if parsed.page_token in pages and parsed.written.casefold() in names:
                    unplaced.remove(index)
                    marks.setdefault((parsed.start, parsed.end), Mark(parsed.start, parsed.end, [])).indices.append(index)
                    break
    ordered = sorted(marks.values(), key=lambda m: m.start)
    kept: list[Mark] = []
    for mark in ordered:  # overlapping marks cannot both become links: keep the first
        if not kept or mark.start >= kept[-1].end:
            kept.append(mark)
    return kept


def snippet_passage(body: str, mark: Mark) -> str:
    """For a search-result line ("[Title, p. 3] … words [[hit]] …"): the longest piece of its snippet."""
    line_end = body.find("\n", mark.end)
    snippet = body[mark.end : line_end if line_end >= 0 else len(body)]
    pieces = [p.strip() for p in _HIGHLIGHT_MARKS.sub(r"\1", snippet).split("…")]
    return max(pieces, key=len, default="")


_HIGHLIGHT_MARKS = re.compile(r"\[\[(.+?)\]\]")


def tooltip(record: dict[str, Any], search: bool) -> str:
    """Rich-text tooltip: the verdict and its reason, which numbering the page was read in, then the passage
    that was judged."""
    page = record.get("page")
    verdict = verdict_of(record)
    if search:
        head = f"<b>Search result</b>: page {page} contains the words you asked about (no model checked it)."
    elif verdict == "checked":
        head = f"<b>Checked ✓</b>: the assistant read page {page}, and this passage states the claim's figures and words."
        if record.get("judged_by") == "model":
            head = f"<b>Checked ✓</b>: the model judge found the claim stated in this passage of page {page}."
    else:
        reason = str(record.get("reason") or "")
        heading = VERDICT_STYLE[verdict][0]
        head = f"<b>{heading}</b>: {html.escape(REASONS.get(reason, reason or 'it could not be checked'))}."
    if record.get("numbering"):
        head += f"<br>Cited as {html.escape(str(record['numbering']))}."
    section = record.get("section")
    if isinstance(section, dict) and section.get("title"):
        path = " › ".join(str(t) for t in section.get("path") or [section["title"]])
        first, last = section.get("start_page"), section.get("end_page")
        pages = f" (page {first})" if first == last else f" (pages {first}–{last})" if first and last else ""
        head += f"<br>Section: {html.escape(path)}{pages}."
    passage = " ".join(str(record.get("passage") or "").split())
    if passage:
        short = passage if len(passage) <= PREVIEW_CHARS else passage[:PREVIEW_CHARS].rsplit(" ", 1)[0] + " …"
        head += f"<br><br><i>“{html.escape(short)}”</i>"
    if record.get("doc_id"):
        head += "<br><br>Click to open the page with this passage highlighted."
    return head


def _link(exchange: int, index: int, record: dict[str, Any], label: str, search: bool, theme: Theme) -> str:
    tip = html.escape(tooltip(record, search), quote=True)
    verdict = verdict_of(record)
    colours = {"green": CHECK_GREEN, "red": ERROR_RED, "amber": AMBER}
    if search:
        colour, marker = theme.link, ""
    else:
        symbol, key = VERDICT_STYLE[verdict][1], VERDICT_STYLE[verdict][2]
        colour = theme.link if verdict == "checked" else colours[key]
        weight = "" if verdict == "checked" else "; font-weight:600"
        marker = f'<span style="color:{colours[key]}{weight}">&nbsp;{symbol}</span>'
    text = html.escape(label).replace("p. ", "p.&nbsp;")
    if not record.get("doc_id"):  # unknown document: nothing to open
        return f'<span title="{tip}" style="color:{AMBER}">{text}</span>{marker}'
    return (f'<a href="cite:{exchange}:{index}" title="{tip}" style="color:{colour}; text-decoration:none">'
            f"{text}</a>{marker}")


def shown_section(record: dict[str, Any]) -> str:
    """The section a citation's link names ('' for none): for a laid-out document, or one the model named."""
    section = record.get("section")
    if not isinstance(section, dict):
        return ""
    title = str(section.get("title") or "")
    if not title or title == FRONT_MATTER_TITLE:  # a coverage device, not a heading the reader can find
        return ""
    if title.casefold() == str(record.get("document") or "").casefold():  # a Markdown file's top heading is its title
        return ""
    return title if record.get("written_heading") or record.get("format") not in PAGE_FORMATS else ""


def render_mark(exchange: int, mark: Mark, citations: list[dict[str, Any]], search: bool, theme: Theme) -> str:
    """One bracket: '[Title, p. 12 ✓, p. 13 ?]', each page its own link; with the section where it is named
    ('[Notes › Installation, p. 3 ✓, › Usage, p. 4 ✓]', a section given once until it changes)."""
    parts = []
    named = ""
    for position, index in enumerate(mark.indices):
        record = citations[index]
        page = record.get("written_page") or record.get("page")
        label = f"p. {page}" if page else f"§ {record.get('written_heading') or '?'}"  # a section not found
        section = shown_section(record)
        if section and section != named:
            label = f"› {section}, {label}"
        named = section or named
        if position == 0:
            document = record.get("document") or record.get("doc_id")
            label = f"{document} {label}" if section else f"{document}, {label}"
        parts.append(_link(exchange, index, record, label, search, theme))
    return "[" + ", ".join(parts) + "]"


def answer_html(number: int, exchange: Exchange, theme: Theme) -> str:
    """The answer body as HTML with its citation marks turned into links and its uncited factual sentences
    marked."""
    body = exchange.body
    marks = place_citations(body, exchange.citations, use_offsets=not exchange.search_results)
    rendered: dict[int, str] = {}
    cuts: list[tuple[int, int, str]] = []  # (start, end, placeholder) replacing body[start:end]
    for k, mark in enumerate(marks):
        if exchange.search_results:
            for index in mark.indices:
                exchange.citations[index].setdefault("passage", "")
                if not exchange.citations[index]["passage"]:
                    exchange.citations[index]["passage"] = snippet_passage(body, mark)
        rendered[k] = render_mark(number, mark, exchange.citations, exchange.search_results, theme)
        cuts.append((mark.start, mark.end, f"\ue000{k}\ue001"))
    for sentence in _uncited_spans(body, exchange.uncited, marks):
        cuts.append((sentence[1], sentence[1], "\ue002"))
    cuts.sort(key=lambda c: (c[0], c[1]))
    pieces: list[str] = []
    cursor = 0
    for start, end, placeholder in cuts:
        pieces.append(body[cursor:start])
        pieces.append(placeholder)
        cursor = end
    pieces.append(body[cursor:])
    uncited = (f'<span title="{html.escape(UNCITED_TIP, quote=True)}" style="color:{AMBER}; font-size:small">'
               "&nbsp;[no citation]</span>")

    def fmt(text: str) -> str:
        text = re.sub("\ue000(\\d+)\ue001", lambda m: rendered[int(m.group(1))], markdown.inline(text))
        return text.replace("\ue002", uncited)

    return markdown.to_html("".join(pieces), fmt)


def _uncited_spans(body: str, uncited: list[dict[str, Any]], marks: list[Mark]) -> list[tuple[int, int]]:
    """Where the uncited sentences sit in the body (by their stored offsets, checked against the text)."""
    out = []
    for record in uncited:
        start, end = record.get("start"), record.get("end")
        if not (isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= len(body)):
            continue
        if any(m.start < end and start < m.end for m in marks):
            continue
        out.append((start, end))
    return out


UNGROUNDED = ("<b>Not drawn from your documents.</b> The assistant answered without reading any page or search "
              "result, so nothing above comes from the documents and its citations are unchecked.")


def _ungrounded_html(number: int, exchange: Exchange, theme: Theme) -> str:
    """The banner under an answer given without reading anything, with the pages that hold the question's words."""
    hits = []
    for index, record in enumerate(exchange.offered[:8]):
        label = html.escape(f"{record.get('document') or record.get('doc_id')}, p. {record.get('page')}")
        hits.append(f'<a href="hit:{number}:{index}" style="color:{theme.link}; text-decoration:none">{label}</a>')
    offer = (" Pages that contain your words: " + " · ".join(hits) + ".") if hits else \
        " No page contains the question's words either."
    return f'<p style="color:{AMBER}; margin-top:2px">⚠ {UNGROUNDED}{offer}</p>'


def _trail_html(number: int, exchange: Exchange, theme: Theme) -> str:
    steps = exchange.trail
    if not steps:
        return ""
    count = f"{len(steps)} step{'s' if len(steps) != 1 else ''}"
    arrow = "▾" if exchange.expanded else "▸"
    head = (f'<a href="trail:{number}" style="color:{theme.muted}; text-decoration:none">{arrow} Reading trail '
            f"· {count}</a>")
    if exchange.running and not exchange.expanded:
        head += f' <span style="color:{theme.muted}">— {html.escape(steps[-1].label)}…</span>'
    if not exchange.expanded:
        return f'<p style="margin-top:4px; margin-bottom:0">{head}</p>'
    lines = []
    for step in steps:
        mark, note = ("…", "") if step.ok is None else ("•", "") if step.ok else ("✗", " (the tool said no)")
        lines.append(f"{mark} {html.escape(step.label)}{note}")
    body = "<br>".join(lines)
    return (f'<p style="margin-top:4px; margin-bottom:0">{head}</p>'
            f'<p style="margin-top:0; margin-left:14px; color:{theme.muted}">{body}</p>')


def _tokens_html(exchange: Exchange, theme: Theme) -> str:
    if not (exchange.prompt_tokens or exchange.completion_tokens):
        return ""
    approx = "≈" if exchange.estimated else ""
    text = (f"{approx}{exchange.prompt_tokens:,} tokens sent · {approx}{exchange.completion_tokens:,} received")
    return f'<p style="color:{theme.muted}; font-size:small; margin-top:2px">{text}</p>'


def exchange_html(number: int, exchange: Exchange, theme: Theme) -> str:
    """One question and everything under it."""
    question = html.escape(exchange.question).replace("\n", "<br>")
    out = [f'<table width="100%" cellpadding="6" cellspacing="0" style="margin-top:10px; background-color:'
           f'{theme.question_bg}"><tr><td><b>You:</b> {question}</td></tr></table>']
    if exchange.search_results:
        out.append(f'<p style="color:{theme.muted}"><b>Search results</b> — no model is set up, so these are the '
                   "pages that contain your words, not an answer. Click one to open it.</p>")
    if exchange.answer:
        out.append(answer_html(number, exchange, theme))
    if exchange.answer and not exchange.grounded:
        out.append(_ungrounded_html(number, exchange, theme))
    elif exchange.running:
        out.append(f'<p style="color:{theme.muted}"><i>Thinking…</i></p>')
    if exchange.cancelled:
        out.append(f'<p style="color:{theme.muted}"><i>Stopped.</i></p>')
    if exchange.error:
        out.append(f'<p style="color:{ERROR_RED}">⚠ {html.escape(exchange.error)} '
                   f'<a href="settings:" style="color:{theme.link}">Model settings…</a></p>')
    if exchange.judge_note:
        out.append(f'<p style="color:{theme.muted}; font-size:small">{html.escape(exchange.judge_note)}</p>')
    out.append(_trail_html(number, exchange, theme))
    out.append(_tokens_html(exchange, theme))
    return "".join(out)


def transcript_html(exchanges: list[Exchange], theme: Theme, intro: str = "") -> str:
    """The whole transcript (or the intro text when there is nothing yet)."""
    if not exchanges:
        return f'<div style="color:{theme.muted}">{intro}</div>'
    return "".join(exchange_html(i, e, theme) for i, e in enumerate(exchanges))
