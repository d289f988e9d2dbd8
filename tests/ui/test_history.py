"""Back and Forward's bookkeeping on its own, and the links of a page as the render process reads them."""

from __future__ import annotations

from pathlib import Path

import pymupdf

from pageindex_desktop.core.library.positions import ReadingPosition
from pageindex_desktop.ui.reader.history import History, Place
from pageindex_desktop.ui.reader.pdf_links import LinkInfo, read_links
from tests.ui.test_links import GOVERNANCE_Y, NAMED_LINK, linked_pdf


def at(page: int, top: float = 0.0, doc: str = "a") -> Place:
    return Place(doc, ReadingPosition(page, top))


def test_back_returns_to_the_place_left_and_forward_to_the_place_back_left() -> None:
    history = History()
    assert history.back(at(1)) is None and not history.can_go_back()
    history.leave(at(1))  # a jump from page 1 ...
    history.leave(at(12, 30.0))  # ... to page 12, read on a little, then another jump
    assert history.back(at(20)) == at(12, 30.0)  # where the reader was when they jumped, scroll included
    assert history.back(at(12, 30.0)) == at(1)
    assert history.back(at(1)) is None
    assert history.forward(at(1)) == at(12, 30.0)
    assert history.forward(at(12, 30.0)) == at(20)
    assert not history.can_go_forward()


def test_a_new_jump_forgets_what_was_ahead_and_one_place_is_kept_once() -> None:
    history = History(limit=3)
    history.leave(at(1))
    history.leave(at(1, 0.4))  # the same spot (a second jump before the reader moved): kept once
    assert history.behind == [at(1)]
    history.leave(at(5))
    assert history.back(at(9)) == at(5)
    history.leave(at(5))  # a jump after going back
    assert not history.can_go_forward()
    for page in range(10, 16):
        history.leave(at(page, doc="b"))
    assert len(history.behind) == 3 and history.behind[-1] == at(15, doc="b")
    assert history.back(at(15, doc="b")) == at(14, doc="b")  # the reader scrolled back to it: not a step


def test_links_read_in_the_window_s_coordinates(tmp_path: Path) -> None:
    doc = pymupdf.open(linked_pdf(tmp_path / "linked.pdf"))
    links = read_links(doc, doc[0])
    goto, web, named = sorted(links, key=lambda link: link.rect[1])
    assert (goto.kind, goto.page, goto.y) == ("goto", 12, 300.0)
    assert (web.kind, web.uri) == ("uri", "https://www.sec.gov/")
    # a named destination's point is in PDF space (origin bottom left): turned into a distance from the top
    assert (named.kind, named.page) == ("named", 16) and abs(named.y - GOVERNANCE_Y) < 0.01  # type: ignore[operator]
    assert abs(named.rect[1] - NAMED_LINK.y0) < 0.01
    page = doc[1]
    page.insert_link({"kind": pymupdf.LINK_NAMED, "from": pymupdf.Rect(0, 0, 50, 20), "name": "NextPage"})
    page.insert_link({"kind": pymupdf.LINK_GOTOR, "from": pymupdf.Rect(0, 30, 50, 50), "file": "dir/other.pdf",
                      "page": 2, "to": pymupdf.Point(0, 0)})
    page.set_rotation(90)  # the rectangles turn with the page, as it is drawn
    doc.save(tmp_path / "rotated.pdf")  # links inserted are read back from the saved file
    doc = pymupdf.open(tmp_path / "rotated.pdf")
    action, other = read_links(doc, doc[1])
    assert action == LinkInfo((772.0, 0.0, 792.0, 50.0), "named", name="NextPage")
    assert (other.kind, other.file, other.page) == ("gotor", "dir/other.pdf", 3)
