"""A page's links as the render process reads them (pymupdf `Page.get_links()`), in one plain shape for the window.

Runs in the render process (no Qt here, and pymupdf only there). Every target position is converted to the
coordinates the window draws in: points from the page's top-left corner, rotation applied. pymupdf hands those
for LINK_GOTO and LINK_GOTOR, but a named destination (LINK_NAMED, what LaTeX's hyperref writes for every
citation and section reference) comes with its point in PDF space (origin bottom left), so it is transformed with
the target page's matrix. A coordinate the PDF leaves open (`/XYZ null 41`, read as NaN) is None.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

Rect = tuple[float, float, float, float]

# pymupdf's link kinds (pymupdf.LINK_*), named here so the window need not import pymupdf
LINK_GOTO, LINK_URI, LINK_LAUNCH, LINK_NAMED, LINK_GOTOR = 1, 2, 3, 4, 5
KINDS = {LINK_GOTO: "goto", LINK_URI: "uri", LINK_LAUNCH: "launch", LINK_NAMED: "named", LINK_GOTOR: "gotor"}


class LinkInfo(NamedTuple):
    """One link on a page: where it is and where it leads."""

    rect: Rect  # the hot spot on the page, in points from the page's top-left corner
    kind: str  # 'goto' (this document), 'gotor' (another PDF), 'uri', 'launch', or 'named' (a PDF action by name)
    page: int = 0  # target page, 1-based (0: none or unknown)
    y: float | None = None  # target point's distance from the target page's top, in points (None: the page's top)
    uri: str = ""  # 'uri': the address
    file: str = ""  # 'gotor' / 'launch': the file it names
    name: str = ""  # 'named' without a page: the action ('NextPage', 'PrevPage', 'FirstPage', 'LastPage', ...)


def read_links(doc: Any, page: Any) -> list[LinkInfo]:
    """The links of one pymupdf page of `doc`, in the window's coordinates; unknown kinds are left out."""
    matrices: dict[int, Any] = {}
    out: list[LinkInfo] = []
    for link in page.get_links():
        kind = KINDS.get(int(link.get("kind", 0)))
        area = link.get("from")
        if kind is None or area is None:
            continue
        rect = (float(area.x0), float(area.y0), float(area.x1), float(area.y1))
        target = int(link.get("page", -1))
        if kind == "named" and target < 0:  # a named action (or a destination the PDF does not define)
            out.append(LinkInfo(rect, kind, name=str(link.get("nameddest") or link.get("name") or "")))
            continue
        to = link.get("to")
        y = None
        if target >= 0 and to is not None and not isinstance(to, str):  # GoToR to a named place gives a string
            y = _pdf_to_page_y(doc, target, to, matrices) if kind == "named" else _finite(to[1])
        out.append(LinkInfo(rect, kind, page=target + 1 if target >= 0 else 0, y=y, uri=str(link.get("uri", "")),
                            file=str(link.get("file", ""))))
    return out


def _finite(value: Any) -> float | None:
    number = float(value)
    return number if math.isfinite(number) else None


def _pdf_to_page_y(doc: Any, target: int, point: Any, matrices: dict[int, Any]) -> float | None:
    """A named destination's point (PDF space) as a distance from the target page's top (the window's space)."""
    y = _finite(point[1])
    if y is None or not 0 <= target < doc.page_count:
        return None
    if target not in matrices:
        matrices[target] = doc.load_page(target).transformation_matrix
    m = matrices[target]
    x = _finite(point[0]) or 0.0
    return max(0.0, float(x * m.b + y * m.d + m.f))
