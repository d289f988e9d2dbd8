"""Seeded annual reports in the shape of an SEC Form 10-K, with known section trees (issue 11: most 10-Ks in the
wild carry no bookmarks, so this tree is what analysts navigate by).

The form's own structure is public and fixed: Parts I-IV, their Items ("Item 1A. Risk Factors"), Item 8's
statements and notes. What varies by seed is how a filer sets it: Items in bold at body size or a point
larger, in capitals or not, Parts centred, sub-heads bold or bold italic, risk factors as bold sentences over
their paragraphs (no sections), statements that open their pages with a centred title over a table whose bold
rows ("Current assets:") are no sections (half the filers open each statement's page with their name in
capitals over the title, set at the text's size and weight), notes numbered "Note 4 – Debt" or "4. Debt", a cover page and a
contents table. The truth is where MuPDF's layout engine placed each heading element, as in synthetic_docs.
"""

from __future__ import annotations

import random
from pathlib import Path

import pymupdf

from tests.bench.synthetic_docs import (Section, _paragraph, _printed, _sentence, _stamp_running_text, _title,
                                        _write)

ITEMS = {
    "PART I": [("1", "Business"), ("1A", "Risk Factors"), ("1B", "Unresolved Staff Comments"), ("2", "Properties"),
               ("3", "Legal Proceedings"), ("4", "Mine Safety Disclosures")],
    "PART II": [("5", "Market for Registrant's Common Equity, Related Stockholder Matters and Issuer Purchases of "
                      "Equity Securities"),
                ("6", "[Reserved]"),
                ("7", "Management's Discussion and Analysis of Financial Condition and Results of Operations"),
                ("7A", "Quantitative and Qualitative Disclosures About Market Risk"),
                ("8", "Financial Statements and Supplementary Data"),
                ("9", "Changes in and Disagreements with Accountants on Accounting and Financial Disclosure"),
                ("9A", "Controls and Procedures"), ("9B", "Other Information")],
    "PART III": [("10", "Directors, Executive Officers and Corporate Governance"), ("11", "Executive Compensation"),
                 ("12", "Security Ownership of Certain Beneficial Owners and Management and Related Stockholder "
                        "Matters"),
                 ("13", "Certain Relationships and Related Transactions, and Director Independence"),
                 ("14", "Principal Accountant Fees and Services")],
    "PART IV": [("15", "Exhibits and Financial Statement Schedules"), ("16", "Form 10-K Summary")],
}
STATEMENTS = ("Consolidated Statements of Operations", "Consolidated Balance Sheets",
              "Consolidated Statements of Cash Flows")
WITH_SUBHEADS = {"1", "7", "7A", "9A"}
NEW_PAGE = "<!-- new page -->"  # where _body starts a new body, which _write opens on a new page


def _statement(rng: random.Random, title: str, upper: bool, banner: str) -> str:
    """A statement page: its centred title over a table of figures with bold group rows and totals. With a
    `banner` (the filer's name in capitals), the page opens with it and the title sits right under it at the
    text's size and weight, in capitals, over a "(In millions ...)" line, as many filers set their statements."""
    rows = []
    for group in range(rng.randint(2, 3)):
        rows.append(f"<tr><td><b>{_title(rng)}:</b></td><td></td><td></td></tr>")
        for _ in range(rng.randint(3, 6)):
            rows.append(f"<tr><td>{_title(rng)}</td><td>{rng.randint(100, 99999):,}</td>"
                        f"<td>{rng.randint(100, 99999):,}</td></tr>")
        rows.append(f"<tr><td><b>Total {_title(rng).lower()}</b></td><td><b>{rng.randint(1000, 999999):,}</b></td>"
                    f"<td><b>{rng.randint(1000, 999999):,}</b></td></tr>")
    head = "<tr><td></td><td><b>2024</b></td><td><b>2023</b></td></tr>"
    table = f"<table style='width: 100%'>{head}{''.join(rows)}</table>"
    if banner:
        return (f"{NEW_PAGE}<p class='banner'>{banner}</p><h3 class='statement plain'>{title.upper()}</h3>"
                "<p class='banner'>(In millions, except per share amounts)</p>" + table)
    return f"<h3 class='statement'>{title.upper() if upper else title}</h3>" + table


def _risk_factors(rng: random.Random) -> str:
    """Risk factors: each a bold sentence over its paragraph, which no outline lists."""
    return "".join(f"<p><b>{_sentence(rng)}</b></p>{_paragraph(rng)}" for _ in range(rng.randint(4, 8)))


def _body(rng: random.Random, upper_items: bool, note_style: str, banner: str) -> list[str]:
    """The filing's body, one string per Part (each Part opens a page, and so does a bannered statement)."""
    parts = []
    for part, items in ITEMS.items():
        html = [f"<h1>{part}</h1>"]
        for number, name in items:
            label = f"Item {number}. {name}"
            html.append(f"<h2>{label.upper() if upper_items else label}</h2>")
            if number == "1A":
                html.append(_paragraph(rng) + _risk_factors(rng))
                continue
            html.extend(_paragraph(rng) for _ in range(rng.randint(1, 3)))
            if number in WITH_SUBHEADS:
                for _ in range(rng.randint(2, 5)):
                    html.append(f"<h3>{_title(rng)}</h3>")
                    html.extend(_paragraph(rng) for _ in range(rng.randint(1, 3)))
            if number == "8":
                html.extend(_statement(rng, title, upper_items, banner) for title in STATEMENTS)
                html.append("<h3 class='statement'>Notes to Consolidated Financial Statements</h3>")
                for note in range(1, rng.randint(4, 9) + 1):
                    name = _title(rng)
                    html.append(f"<h4>{f'Note {note} – {name}' if note_style == 'word' else f'{note}. {name}'}</h4>")
                    html.extend(_paragraph(rng) for _ in range(rng.randint(1, 3)))
        parts.extend("".join(html).split(NEW_PAGE))  # a bannered statement opens a page
    parts[-1] += "<h1>SIGNATURES</h1>" + _paragraph(rng)
    return parts


def _css(rng: random.Random, body: float) -> str:
    item_size = body + rng.choice((0.0, 0.0, 1.0, 2.0))
    sub_style = rng.choice(("font-weight: bold;", "font-weight: bold; font-style: italic;"))
    return "\n".join([
        f"body {{ font-family: serif; font-size: {body}pt; }}",
        "p, table { margin-top: 0.35em; margin-bottom: 0.35em; }",
        f"td {{ font-size: {body - 0.5}pt; }}",
        f"h1 {{ font-size: {body + rng.choice((0.0, 1.0, 2.0))}pt; font-weight: bold; text-align: center; "
        "margin-top: 1em; }",
        f"h2 {{ font-size: {item_size}pt; font-weight: bold; margin-top: 0.9em; }}",
        f"h3 {{ font-size: {body}pt; {sub_style} margin-top: 0.7em; }}",
        f"h3.statement {{ font-size: {body + 1}pt; font-weight: bold; font-style: normal; text-align: center; "
        "page-break-before: auto; }",
        f"h4 {{ font-size: {body}pt; font-weight: bold; margin-top: 0.6em; }}",
        f"h3.plain {{ font-size: {body}pt; font-weight: normal; margin: 0; }}",
        f"p.banner {{ font-size: {body}pt; text-align: center; margin: 0; }}",
    ])


def build_filing(seed: int, path: Path) -> list[Section]:
    """Write filing `seed` to `path`; return the sections it prints (Parts 1, Items 2, sub-heads, statements
    and the notes' heading 3, notes 4), in reading order."""
    rng = random.Random(seed + 3_000_017)
    body = rng.choice((9.0, 9.5, 10.0, 10.5))
    css = _css(rng, body)
    upper_items = rng.random() < 0.4
    # drawn apart, so every seed's other choices stay as they were drawn before statement banners came
    banner_rng = random.Random(seed + 7_000_003)
    banner = f"{_title(banner_rng).upper()} INC. AND SUBSIDIARIES" if banner_rng.random() < 0.5 else ""
    bodies = [f"<body>{part}</body>" for part in _body(rng, upper_items, rng.choice(("word", "number")), banner)]
    page_rect = pymupdf.paper_rect("letter")
    margin = rng.uniform(50, 72)
    frame = page_rect + (margin, margin + 16, -margin, -margin - 10)
    sections = _write(path, bodies, css, page_rect, [frame])
    _stamp_running_text(path, f"{_title(rng)} Inc. | {2024} Form 10-K", margin)
    return _printed(sections, path)
