"""Build small real PDFs with pymupdf for the extraction and outline tests (no fixtures checked in)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import pymupdf

BODY = (
    "The committee reviewed the figures for the year and found that revenue grew in every region, "
    "while costs stayed within the limits agreed at the start of the period."
)


@dataclass(frozen=True)
class Text:
    """One line to print: text, font size, bold or not."""

    text: str
    size: float = 10.0
    bold: bool = False


def heading(text: str, size: float = 16.0) -> Text:
    """A bold, larger line."""
    return Text(text, size, True)


def body(lines: int = 6) -> list[Text]:
    """Ordinary body lines at 10 pt."""
    return [Text(BODY[: 60 + (i * 7) % 40]) for i in range(lines)]


def make_pdf(
    path: Path,
    pages: Sequence[Sequence[Text]],
    toc: list[list[int | str]] | None = None,
    labels: list[dict[str, object]] | None = None,
    title: str = "",
    size: tuple[float, float] = (595, 842),
) -> Path:
    """Write a PDF with one entry of `pages` per page, lines printed top-down from y=72."""
    doc = pymupdf.open()
    for lines in pages:
        page = doc.new_page(width=size[0], height=size[1])
        y = 72.0
        for line in lines:
            y += line.size * 1.4
            page.insert_text((72, y), line.text, fontsize=line.size, fontname="hebo" if line.bold else "helv")
    if toc:
        doc.set_toc(toc)
    if labels:
        doc.set_page_labels(labels)
    if title:
        doc.set_metadata({"title": title})
    doc.save(str(path))
    doc.close()
    return path


def make_image_only_pdf(path: Path, page_count: int = 3) -> Path:
    """A PDF whose pages carry only a picture (like a scan): no text layer at all."""
    pixmap = pymupdf.Pixmap(pymupdf.csRGB, pymupdf.IRect(0, 0, 64, 64), False)
    pixmap.clear_with(200)
    png = pixmap.tobytes("png")
    doc = pymupdf.open()
    for _ in range(page_count):
        page = doc.new_page(width=595, height=842)
        page.insert_image(pymupdf.Rect(72, 72, 523, 770), stream=png)
    doc.save(str(path))
    doc.close()
    return path
