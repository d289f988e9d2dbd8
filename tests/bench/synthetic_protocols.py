"""Seeded study protocols with known section trees (issue 11: documents from producers and house styles the
heading finders were not tuned on).

These come from another kind of producer than `synthetic_docs`' reports: a study protocol written as HTML,
with headings h1-h3 in the producer's CSS and everything else set by the browser-like defaults of MuPDF's HTML
engine (Story). What sets them apart is what stands beside the headings and looks like one:
- definition lists whose terms are bold lines at body size, alone on their line over an indented definition,
  set as the level-3 headings are (h3 is bold at body size, upright or italic): the h3 are sections, the terms
  are not;
- pull quotes: a sentence in quotation marks in italic coloured type, as large as the level-2 headings or
  larger, standing alone between paragraphs: no section;
- a title paragraph in large bold type over a version line opens the first page: no section;
- table and figure captions in small italics, blockquotes, bullet and numbered lists, tables with a bold
  header row; text justified or ranged left, serif or sans, level 1 coloured and sometimes in capitals;
- headings numbered "1." / "1.2" / "1.2.3" in half the documents, none in the other half, so a term or a pull
  quote has no number to tell it from a heading there.
One column only: the probe these follow lost text at column ends when set in two. A table reaching a frame's
foot was one cause (`_css` avoids it; with it, 100 protocols set in two columns overflowed no column), but the
two-column variant is left until it is checked page by page.
The truth is where the engine placed each heading element, as in synthetic_docs, kept when it is printed as a
line of its own (`_on_own_lines`); the words and titles are drawn from fixed vocabularies, and no title is
borrowed from any real protocol. Everything is drawn from the seed, in a stream of its own (SEED_OFFSET).
"""

from __future__ import annotations

import html
import random
from dataclasses import dataclass
from pathlib import Path

import pymupdf

from tests.bench.synthetic_docs import Section, _printed, _write

SEED_OFFSET = 6_000_029  # the other kinds draw from seed + 1_000_003 ... 7_000_003: each kind its own stream

WORDS = (
    "sample protocol participant cohort trial dose outcome baseline visit adverse event endpoint analysis "
    "allocation placebo consent criterion inclusion exclusion investigator site monitoring data safety "
    "efficacy measure score interval statistical model variance specimen laboratory schedule withdrawal "
    "adherence assessment record sponsor committee review period treatment arm response rate"
).split()
TOPICS = (
    "allocation", "adherence", "assessment", "blinding", "cohort", "committee", "consent", "criteria", "data",
    "dose", "endpoint", "eligibility", "ethics", "events", "follow-up", "intervention", "measures", "monitoring",
    "outcomes", "procedures", "randomisation", "recruitment", "reporting", "review", "safety", "sample",
    "schedule", "specimens", "statistics", "training", "visits", "withdrawal",
)
QUALIFIERS = (
    "primary", "secondary", "exploratory", "interim", "baseline", "adverse", "participant", "investigator",
    "statistical", "clinical", "laboratory", "independent", "study", "site", "final", "planned",
)
PULL_COLOURS = ("#005a9c", "#7a1f5c", "#2f6b2f", "#8a5a00")
TOP_COLOURS = ("#003366", "#000000", "#8b0000", "#1f4e79")


@dataclass(frozen=True)
class Protocol:
    """One protocol's house style."""

    numbered: bool  # "1." / "1.2" / "1.2.3" before the titles
    serif: bool
    body_size: float
    justified: bool
    sizes: tuple[float, float]  # h1, h2; h3 is set at body size
    top_capitals: bool  # written into the text: MuPDF's engine ignores CSS text-transform
    top_colour: str
    third_italic: bool
    pull_quotes: bool
    pull_size: float
    pull_colour: str
    title_size: float  # the title paragraph on page 1
    title_case: bool  # "Primary Endpoint" rather than "Primary endpoint"
    paper: str
    margin: float


def draw_protocol(rng: random.Random) -> Protocol:
    """A house style: h1 18-22 pt, h2 13-15 pt, h3 at body size; pull quotes 13-16 pt, so often an h2's size."""
    body = rng.choice((10.0, 10.5, 11.0))
    sizes = (rng.choice((18.0, 20.0, 22.0)), rng.choice((13.0, 14.0, 15.0)))
    return Protocol(numbered=rng.random() < 0.5, serif=rng.random() < 0.5, body_size=body,
                    justified=rng.random() < 0.5, sizes=sizes,
                    top_capitals=rng.random() < 0.3, top_colour=rng.choice(TOP_COLOURS),
                    third_italic=rng.random() < 0.5, pull_quotes=rng.random() < 0.5,
                    pull_size=rng.choice((13.0, 14.0, 16.0)), pull_colour=rng.choice(PULL_COLOURS),
                    title_size=rng.choice((22.0, 24.0, 26.0)), title_case=rng.random() < 0.6,
                    paper=rng.choice(("a4", "letter")), margin=rng.uniform(54, 72))


def protocol_of(seed: int) -> Protocol:
    """The house style protocol `seed` is drawn with (as `build_protocol` draws it)."""
    return draw_protocol(random.Random(seed + SEED_OFFSET))


def _sentence(rng: random.Random, low: int = 8, high: int = 20) -> str:
    """Filler in the protocols' words: what it says does not matter, its length and look do."""
    words = [rng.choice(WORDS) for _ in range(rng.randint(low, high))]
    return " ".join(words).capitalize() + "."


def _prose(rng: random.Random) -> str:
    return " ".join(_sentence(rng) for _ in range(rng.randint(2, 5)))


def _phrase(rng: random.Random, title_case: bool) -> str:
    """A heading-like phrase ("Interim safety review", "Consent and withdrawal"), cased in the house style."""
    pattern = rng.random()
    if pattern < 0.45:
        words = [rng.choice(QUALIFIERS), rng.choice(TOPICS)]
    elif pattern < 0.7:
        first, second = rng.sample(TOPICS, 2)
        words = [first, "and", second]
    elif pattern < 0.85:
        words = [rng.choice(QUALIFIERS), *rng.sample(TOPICS, 2)]
    else:
        words = [rng.choice(TOPICS)]
    if title_case:
        return " ".join(w if w == "and" else w.capitalize() for w in words)
    return " ".join(words).capitalize()


def _unique(rng: random.Random, title_case: bool, seen: set[str]) -> str:
    """A phrase no heading, term or table row of the document has printed yet. Protocols do not repeat their
    titles; and a term or a row worded as a heading would let the score match the one for the other, and
    would print a heading's words on a page the heading never reached (`_on_own_lines`)."""
    while True:
        phrase = _phrase(rng, title_case)
        if phrase.lower() not in seen:
            seen.add(phrase.lower())
            return phrase


def _extra(rng: random.Random, style: Protocol, counts: dict[str, int], seen: set[str]) -> str:
    """One block of the protocol's body besides a paragraph: a captioned table, a definition list, a list, a
    figure caption, a blockquote or a pull quote (in the styles that have them); else another paragraph."""
    roll = rng.random()
    if roll < 0.18:
        counts["table"] += 1
        rows = "".join(f"<tr><td>{_unique(rng, False, seen)}</td><td>{rng.randint(1, 480)}</td>"
                       f"<td>{rng.randint(1, 99)}%</td></tr>" for _ in range(rng.randint(3, 6)))
        head = "".join(f"<th>{name}</th>" for name in rng.choice((("Measure", "N", "Share"),
                                                                   ("Visit", "Participants", "Completed"))))
        caption = f"<p class='caption'>Table {counts['table']}. {_sentence(rng, 4, 7)[:-1]}</p>"
        return f"{caption}<table><tr>{head}</tr>{rows}</table>"
    if roll < 0.38:
        terms = "".join(f"<dt>{_unique(rng, rng.random() < 0.5, seen)}</dt><dd>{_sentence(rng)}</dd>"
                        for _ in range(rng.randint(2, 4)))
        return f"<dl>{terms}</dl>"
    if roll < 0.52:
        tag = rng.choice(("ul", "ol"))
        return f"<{tag}>" + "".join(f"<li>{_sentence(rng)}</li>" for _ in range(rng.randint(2, 5))) + f"</{tag}>"
    if roll < 0.62:
        counts["figure"] += 1
        return f"<p class='caption'>Figure {counts['figure']}: {_sentence(rng, 5, 8)[:-1]}</p>"
    if roll < 0.7:
        return f"<blockquote>{_prose(rng)}</blockquote>"
    if roll < 0.82 and style.pull_quotes:
        return f"<p class='pull'>\u201c{_sentence(rng, 8, 16)[:-1]}\u201d</p>"
    return f"<p>{_prose(rng)}</p>"


def _blocks(rng: random.Random, style: Protocol, counts: dict[str, int], seen: set[str], low: int,
            high: int) -> list[str]:
    """A heading's text, `low`-`high` blocks: a paragraph first, as a protocol's sections open, then others."""
    return [f"<p>{_prose(rng)}</p>"] + [_extra(rng, style, counts, seen) for _ in range(rng.randint(low, high) - 1)]


def _heading(level: int, number: list[int], title: str, style: Protocol, titles: dict[str, str]) -> str:
    """The heading element, numbered "1." / "1.2" / "1.2.3" in a numbered style. `titles` learns its title as
    printed, keyed by its letters alone: the engine reports a heading's text with no space where it wraps."""
    label = (".".join(map(str, number)) + ("." if level == 1 else "") + " ") if style.numbered else ""
    text = f"{label}{title}"
    text = text.upper() if level == 1 and style.top_capitals else text
    titles["".join(text.split())] = text
    return f"<h{level}>{html.escape(text)}</h{level}>"


def _front(rng: random.Random) -> str:
    """The title paragraph and version line that open page 1 (paragraphs, not headings: no section)."""
    code = f"{rng.choice('ABCDKPRSTX')}{rng.choice('ABCDKPRSTX')}-{rng.randint(100, 999)}"
    design = rng.choice(("A Randomised", "An Open-Label", "A Placebo-Controlled", "A Multi-Site", "A Pilot"))
    subject = f"{rng.choice(QUALIFIERS).capitalize()} {rng.choice(TOPICS).capitalize()}"
    return (f"<p class='title'>Study Protocol {code}: {design} Study of {subject}</p>"
            f"<p>Version {rng.randint(1, 5)}.{rng.randint(0, 3)}, {rng.randint(1, 28)} "
            f"{rng.choice(('January', 'March', 'May', 'July', 'September', 'November'))} {rng.randint(2015, 2026)}</p>")


def _body(rng: random.Random, style: Protocol, titles: dict[str, str]) -> str:
    """The protocol's sections: 4-7 at level 1, 1-4 level 2 under each, 2-3 level 3 under about a third."""
    seen: set[str] = set()
    counts = {"table": 0, "figure": 0}
    parts = [_front(rng)]
    for top in range(1, rng.randint(4, 7) + 1):
        parts.append(_heading(1, [top], _unique(rng, style.title_case, seen), style, titles))
        parts.extend(_blocks(rng, style, counts, seen, 1, 2))
        for second in range(1, rng.randint(1, 4) + 1):
            parts.append(_heading(2, [top, second], _unique(rng, style.title_case, seen), style, titles))
            parts.extend(_blocks(rng, style, counts, seen, 1, 4))
            for third in range(1, (rng.randint(2, 3) if rng.random() < 0.35 else 0) + 1):
                title = _unique(rng, style.title_case, seen)
                parts.append(_heading(3, [top, second, third], title, style, titles))
                parts.extend(_blocks(rng, style, counts, seen, 1, 2))
    return "".join(parts)


def _css(style: Protocol) -> str:
    """The producer's style sheet. Tables collapse their borders: with the engine's default separate borders, a
    table that reaches a frame's foot is reported filled far below it, and the rest of the table and about a
    page after it are never drawn (18 of the 200 development protocols lost a page so; none with collapsed
    borders). Everything the sheet leaves alone (margins, dd and blockquote indents, list markers) is MuPDF's
    default."""
    body = style.body_size
    return "\n".join([
        f"body {{ font-family: {'serif' if style.serif else 'sans-serif'}; font-size: {body}pt; "
        f"text-align: {'justify' if style.justified else 'left'}; }}",
        f"p.title {{ font-size: {style.title_size}pt; font-weight: bold; text-align: left; margin-bottom: 6pt; }}",
        f"h1 {{ font-size: {style.sizes[0]}pt; color: {style.top_colour}; }}",
        f"h2 {{ font-size: {style.sizes[1]}pt; }}",
        f"h3 {{ font-size: {body}pt; font-style: {'italic' if style.third_italic else 'normal'}; }}",
        f".caption {{ font-size: {body - 1}pt; font-style: italic; }}",
        f".pull {{ font-size: {style.pull_size}pt; font-style: italic; color: {style.pull_colour}; }}",
        "dt { font-weight: bold; }",
        "th { font-weight: bold; }",
        "table { border-collapse: collapse; }",
        "td, th { padding: 1pt 6pt 1pt 0; }",
    ])


def build_protocol(seed: int, path: Path) -> list[Section]:
    """Write protocol `seed` to `path`, one column; return the sections it prints, in reading order."""
    rng = random.Random(seed + SEED_OFFSET)
    style = draw_protocol(rng)
    page_rect = pymupdf.paper_rect(style.paper)
    frame = page_rect + (style.margin, style.margin, -style.margin, -style.margin)
    titles: dict[str, str] = {}
    body = _body(rng, style, titles)
    sections = [Section(s.level, titles.get("".join(s.title.split()), s.title), s.page)
                for s in _write(path, [f"<body>{body}</body>"], _css(style), page_rect, [frame])]
    return _on_own_lines(_printed(sections, path), path)


def _on_own_lines(sections: list[Section], path: Path) -> list[Section]:
    """The sections printed as lines of their own on their page. `_printed` asks only that a title's letters
    appear on the page; a protocol's short titles ("Data", "Laboratory cohort") are words its sentences are
    made of, so a heading the engine reported but never drew would pass that test on almost any page. (With
    collapsed table borders no development protocol has such a heading; this keeps the truth right if one
    comes.)"""
    doc = pymupdf.open(path)
    flags = pymupdf.TEXTFLAGS_TEXT & ~pymupdf.TEXT_PRESERVE_LIGATURES  # "efficacy", not "eﬃcacy"
    pages = [["".join("".join(span["text"] for span in line["spans"]).split()).lower()
              for block in page.get_text("dict", flags=flags)["blocks"] for line in block.get("lines", ())]
             for page in doc.pages()]
    doc.close()
    return [s for s in sections if _spans_lines("".join(s.title.split()).lower(), pages[s.page - 1])]


def _spans_lines(key: str, lines: list[str]) -> bool:
    """Whether `key` is one or more whole consecutive `lines` joined (a wrapped heading is several: each word of
    "5. INDEPENDENT ELIGIBILITY" may be a line of its own in the extracted text)."""
    for start in range(len(lines)):
        joined = ""
        for line in lines[start:]:
            joined += line
            if len(joined) >= len(key):
                break
        if joined == key:
            return True
    return False
