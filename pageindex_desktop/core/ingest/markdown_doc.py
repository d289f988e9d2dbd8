"""Markdown documents: the text laid out to PDF pages (markdown → HTML → pymupdf Story) and its heading tree.

Why a PDF: the viewer, search, citations and highlights all read pages, so a Markdown file gets pages once, at
import, and is then read like any PDF. The tree is exact, as in the PageIndex engine's Markdown builder: every
heading is a node at its heading level (levels that skip, # then ###, nest one deeper), its text the pages from
where the heading is printed up to the next heading of the same or a higher level.

markdown-it-py parses (CommonMark plus tables and strikethrough): fenced code holding `#` lines, setext headings,
nested lists and escapes are its problem, not a hand-written converter's. Raw HTML is shown as text, images by
their alt text (the source's folder is not kept, so its images cannot be found). Loads MuPDF: the child's only.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

import pymupdf
from markdown_it import MarkdownIt
from markdown_it.token import Token

PAGE = pymupdf.paper_rect("a4")
MARGIN = 54.0  # points on every side
CSS = """
body { font-family: sans-serif; font-size: 11pt; line-height: 1.35; }
h1 { font-size: 20pt; } h2 { font-size: 16pt; } h3 { font-size: 13pt; }
h4, h5, h6 { font-size: 11pt; }
pre, code { font-family: monospace; font-size: 9.5pt; }
table { border-collapse: collapse; } td, th { border: 1px solid #999; padding: 2px 4px; }
"""


@dataclass(frozen=True)
class LaidOut:
    """A Markdown file as pages: the PDF's bytes and its headings (level as written, title, 1-based page, y)."""

    pdf: bytes
    headings: list[tuple[int, str, int, float]]
    title: str  # the first level-1 heading, or ''


def parser() -> MarkdownIt:
    """CommonMark with tables and strikethrough, raw HTML off, images as their alt text, ids on headings."""
    md = MarkdownIt("commonmark", {"html": False}).enable(["table", "strikethrough"])
    md.add_render_rule("image", _image_as_text)
    return md


def _image_as_text(renderer: Any, tokens: list[Token], idx: int, options: Any, env: Any) -> str:
    """An image the layout cannot load is shown as '[image: alt]'."""
    alt = "".join(child.content for child in tokens[idx].children or [])
    return f"[image: {_escape(alt)}]" if alt else "[image]"


def _escape(text: str) -> str:
    """Text safe inside HTML."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def to_html(text: str) -> tuple[str, list[tuple[int, str]]]:
    """The document as HTML with `id="h<N>"` on the N-th heading, and the headings as (level, title)."""
    md = parser()
    tokens = md.parse(text)
    headings: list[tuple[int, str]] = []
    for index, token in enumerate(tokens):
        if token.type == "heading_open":
            inline = tokens[index + 1]
            title = " ".join("".join(c.content for c in (inline.children or []) if c.type in ("text", "code_inline"))
                             .split())
            token.attrSet("id", f"h{len(headings)}")
            headings.append((int(token.tag[1]), title))
    return md.renderer.render(tokens, md.options, {}), headings


def lay_out(text: str) -> LaidOut:
    """Lay the Markdown out on A4 pages; raises ValueError when there is nothing to show."""
    if not text.strip():
        raise ValueError("empty")
    html, headings = to_html(text)
    story = pymupdf.Story(html=html, user_css=CSS)
    where = PAGE + (MARGIN, MARGIN, -MARGIN, -MARGIN)
    buffer = io.BytesIO()
    writer = pymupdf.DocumentWriter(buffer)
    placed: dict[str, tuple[int, float]] = {}
    page = 0
    more = True

    def seen(position: Any) -> None:
        if position.heading and position.open_close & 1 and position.id and position.id not in placed:
            placed[position.id] = (position.page_num, float(position.rect[1]))

    while more:
        page += 1
        more, _ = story.place(where)
        story.element_positions(seen, {"page_num": page})
        device = writer.begin_page(PAGE)
        story.draw(device)
        writer.end_page()
    writer.close()
    found = [(level, title, *placed[f"h{index}"]) for index, (level, title) in enumerate(headings)
             if f"h{index}" in placed and title]
    title = next((t for level, t, _, _ in found if level == 1), "")
    return LaidOut(buffer.getvalue(), found, title)

