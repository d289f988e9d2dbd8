"""A small Markdown → HTML step for answers, in the subset Qt's rich text renders well.

Headings, paragraphs, bullet and numbered lists (one nested level), block quotes, fenced code, pipe tables,
**bold**, *italic*, `code` and http(s) links. Citation marks are swapped for opaque tokens before this step
and for links after it (see transcript.py), so Markdown never mangles them.
"""

from __future__ import annotations

import html
import re
from typing import Callable

_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^(\s*)([-*+•])\s+(.*)$")
_NUMBERED = re.compile(r"^(\s*)(\d{1,3})[.)]\s+(.*)$")
_QUOTE = re.compile(r"^\s{0,3}>\s?(.*)$")
_TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$")
_RULE = re.compile(r"^\s{0,3}([-*_])(\s*\1){2,}\s*$")

_CODE = re.compile(r"`([^`\n]+)`")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*|__(?=\S)(.+?)(?<=\S)__")
_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)([^*\n]+?)(?<=\S)\*(?!\*)|(?<!\w)_(?=\S)([^_\n]+?)(?<=\S)_(?!\w)")
_LINK = re.compile(r"\[([^\[\]\n]+)\]\((https?://[^)\s]+)\)")
_HIGHLIGHT = re.compile(r"\[\[(.+?)\]\]")  # search snippets mark matched words as [[word]]

HEADING_SIZES = {1: "large", 2: "large", 3: "medium"}


def inline(text: str) -> str:
    """Escape and format one line's worth of inline Markdown."""
    codes: list[str] = []

    def keep_code(match: re.Match[str]) -> str:
        codes.append(f"<code>{html.escape(match.group(1), quote=False)}</code>")
        return f"\ue010{len(codes) - 1}\ue011"

    text = _CODE.sub(keep_code, text)
    text = html.escape(text, quote=False)
    text = _LINK.sub(lambda m: f'<a href="{html.escape(m.group(2))}">{m.group(1)}</a>', text)
    text = _HIGHLIGHT.sub(r"<b>\1</b>", text)
    text = _BOLD.sub(lambda m: f"<b>{m.group(1) or m.group(2)}</b>", text)
    text = _ITALIC.sub(lambda m: f"<i>{m.group(1) or m.group(2)}</i>", text)
    return re.sub("\ue010(\\d+)\ue011", lambda m: codes[int(m.group(1))], text)


def _table(rows: list[str], fmt: Callable[[str], str]) -> str:
    cells = [[c.strip() for c in row.strip().strip("|").split("|")] for row in rows if not _TABLE_RULE.match(row)]
    if not cells:
        return ""
    out = ['<table cellspacing="0" cellpadding="3" border="1" style="border-collapse:collapse">']
    for index, row in enumerate(cells):
        tag = "th" if index == 0 else "td"
        out.append("<tr>" + "".join(f"<{tag}>{fmt(c)}</{tag}>" for c in row) + "</tr>")
    out.append("</table>")
    return "".join(out)


def _list_html(items: list[tuple[int, bool, str]], fmt: Callable[[str], str]) -> str:
    """Items are (indent, numbered, text); deeper indents nest one level under the previous item."""
    out: list[str] = []
    base = min(indent for indent, _, _ in items)
    stack: list[str] = []
    for indent, numbered, text in items:
        depth = 1 if indent > base + 1 else 0
        tag = "ol" if numbered else "ul"
        while len(stack) > depth + 1:
            out.append(f"</{stack.pop()}>")
        if len(stack) == depth + 1 and stack[-1] != tag:
            out.append(f"</{stack.pop()}>")
        while len(stack) < depth + 1:
            out.append(f'<{tag} style="margin-top:2px; margin-bottom:2px">')
            stack.append(tag)
        out.append(f"<li>{fmt(text)}</li>")
    while stack:
        out.append(f"</{stack.pop()}>")
    return "".join(out)


def to_html(text: str, fmt: Callable[[str], str] = inline) -> str:
    """Markdown text → an HTML fragment (`fmt` formats inline text; the default escapes and styles it)."""
    lines = text.replace("\r\n", "\n").split("\n")
    out: list[str] = []
    paragraph: list[str] = []
    i = 0

    def flush() -> None:
        if paragraph:
            out.append("<p>" + "<br>".join(fmt(p.strip()) for p in paragraph) + "</p>")
            paragraph.clear()

    while i < len(lines):
        line = lines[i]
        if _FENCE.match(line):
            flush()
            body: list[str] = []
            i += 1
            while i < len(lines) and not _FENCE.match(lines[i]):
                body.append(lines[i])
                i += 1
            out.append("<pre>" + html.escape("\n".join(body), quote=False) + "</pre>")
            i += 1
            continue
        if not line.strip():
            flush()
            i += 1
            continue
        heading = _HEADING.match(line)
        if heading:
            flush()
            level = len(heading.group(1))
            size = HEADING_SIZES.get(level, "medium")
            out.append(f'<p style="font-size:{size}; font-weight:600; margin-top:8px">{fmt(heading.group(2))}</p>')
            i += 1
            continue
        if _RULE.match(line):
            flush()
            out.append("<hr>")
            i += 1
            continue
        if _TABLE_ROW.match(line) and i + 1 < len(lines) and _TABLE_RULE.match(lines[i + 1]):
            flush()
            rows = []
            while i < len(lines) and _TABLE_ROW.match(lines[i]):
                rows.append(lines[i])
                i += 1
            out.append(_table(rows, fmt))
            continue
        if _BULLET.match(line) or _NUMBERED.match(line):
            flush()
            items: list[tuple[int, bool, str]] = []
            while i < len(lines):
                bullet, numbered = _BULLET.match(lines[i]), _NUMBERED.match(lines[i])
                found = bullet or numbered
                if found:
                    items.append((len(found.group(1).expandtabs(4)), numbered is not None, found.group(3)))
                elif lines[i].strip() and items and lines[i].startswith((" ", "\t")):
                    indent, numbered_item, previous = items[-1]
                    items[-1] = (indent, numbered_item, previous + " " + lines[i].strip())
                else:
                    break
                i += 1
            out.append(_list_html(items, fmt))
            continue
        quote = _QUOTE.match(line)
        if quote:
            flush()
            quoted = []
            while i < len(lines) and _QUOTE.match(lines[i]):
                quoted.append(_QUOTE.match(lines[i]).group(1))  # type: ignore[union-attr]
                i += 1
            out.append(f'<blockquote style="color:#555">{to_html(chr(10).join(quoted), fmt)}</blockquote>')
            continue
        paragraph.append(line)
        i += 1
    flush()
    return "".join(out)
