"""The render process's pixel path, driven in this process: pages drawn straight into a free arena slot, drawn
aside then copied when both slots are still held by the window, pages in flight never drawn twice, and the
RGB fallback for a binding without MuPDF's low-level calls."""

from __future__ import annotations

import multiprocessing as mp
from dataclasses import dataclass
from multiprocessing import shared_memory
from multiprocessing.connection import Connection
from pathlib import Path
from types import SimpleNamespace
from typing import Iterator

import pymupdf
import pytest

from pageindex_desktop.ui.reader.render_server import SLOT_BYTES, SLOTS, _Server


@dataclass
class Rig:
    """A render server in this process with a two-page PDF open under key "k"."""

    server: _Server
    arena: shared_memory.SharedMemory
    requests: Connection  # the window's end: write requests
    results: Connection  # the window's end: read answers


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Rig]:
    path = tmp_path / "two.pdf"
    doc = pymupdf.open()
    for colour in ((1, 0, 0), (0, 0, 1)):  # a red, then a blue square on the left half of a 200 x 100 page
        page = doc.new_page(width=200, height=100)
        page.draw_rect(pymupdf.Rect(0, 0, 100, 100), color=None, fill=colour)
    doc.save(path)
    doc.close()
    req_r, req_w = mp.Pipe(duplex=False)
    res_r, res_w = mp.Pipe(duplex=False)
    arena = shared_memory.SharedMemory(create=True, size=SLOTS * SLOT_BYTES)
    server = _Server(req_r, res_w, arena)
    try:
        assert res_r.recv() == ("ready",)
        server.open("k", str(path), None)
        assert res_r.recv()[0] == "opened"
        yield Rig(server, arena, req_w, res_r)
    finally:
        server._keep = None
        for open_doc in server.docs.values():
            open_doc.close()
        arena.close()
        arena.unlink()


def _bgr_at(arena: shared_memory.SharedMemory, slot: int, stride: int, x: int, y: int) -> tuple[int, int, int]:
    at = slot * SLOT_BYTES + y * stride + x * 4
    b, g, r = arena.buf[at], arena.buf[at + 1], arena.buf[at + 2]
    return r, g, b


def test_pages_land_in_the_slot_the_image_message_names(rig: Rig) -> None:
    server, arena = rig.server, rig.arena
    server.render("k", 1, 1.0)  # a free slot: MuPDF draws into it
    verb, key, page, _scale, width, height, stride, slot, _ms, fmt = rig.results.recv()
    assert (verb, key, page, width, height, fmt) == ("image", "k", 1, 200, 100, "bgra")
    assert _bgr_at(arena, slot, stride, 50, 50) == (255, 0, 0)
    assert _bgr_at(arena, slot, stride, 150, 50) == (255, 255, 255)

    other = [s for s in range(SLOTS) if s in server.free_slots]
    server.free_slots.clear()  # the window still copies both slots; it hands one back while page 2 renders
    rig.requests.send(("ack", other[0]))
    server.render("k", 2, 1.0)
    _verb, _key, page, _scale, _w, _h, stride, slot2, _ms, _fmt = rig.results.recv()
    assert (page, slot2) == (2, other[0])
    assert _bgr_at(arena, slot2, stride, 50, 50) == (0, 0, 255)
    assert _bgr_at(arena, slot, stride, 50, 50) == (255, 0, 0)  # the unacked slot was left alone


def test_a_page_sent_and_not_yet_acknowledged_is_not_rendered_again(rig: Rig) -> None:
    server = rig.server
    server.render("k", 1, 1.0)
    slot = rig.results.recv()[7]
    # the window asks for the neighbours while page 1 is still on its way: page 1 is left out
    server.handle(("want", [("k", 1, 1.0), ("k", 2, 1.0)], 2))
    assert server.wanted == [("k", 2, 1.0)] and server.urgent == 1
    server.handle(("ack", slot))  # copied into the window's cache; asking again now means render again
    server.handle(("want", [("k", 1, 1.0)], 1))
    assert server.wanted == [("k", 1, 1.0)] and server.urgent == 1


def test_without_mupdf_s_low_level_calls_pages_come_as_rgb_copied_into_a_slot(rig: Rig) -> None:
    rig.server.pymupdf = SimpleNamespace(mupdf=None, Matrix=pymupdf.Matrix, TOOLS=pymupdf.TOOLS)  # another binding
    rig.server.render("k", 2, 1.0)
    verb, _key, page, _scale, width, height, stride, slot, _ms, fmt = rig.results.recv()
    assert (verb, page, width, height, fmt) == ("image", 2, 200, 100, "rgb")
    at = slot * SLOT_BYTES + 50 * stride + 50 * 3
    assert tuple(rig.arena.buf[at : at + 3]) == (0, 0, 255)  # R, G, B: the blue square


def test_a_page_s_links_are_read_after_the_visible_pages_are_drawn(rig: Rig) -> None:
    server = rig.server
    server.docs["k"].load_page(0).insert_link({"kind": pymupdf.LINK_GOTO, "from": pymupdf.Rect(10, 10, 60, 30),
                                               "page": 1, "to": pymupdf.Point(0, 40)})
    server.handle(("links", 7, "k", 1))
    server.handle(("want", [("k", 2, 1.0)], 1))
    server.step()  # the visible page first: a contents page's links can take tens of milliseconds to read
    assert rig.results.recv()[:3] == ("image", "k", 2)
    server.step()
    verb, rid, key, page, links = rig.results.recv()
    assert (verb, rid, key, page) == ("links", 7, "k", 1)
    assert [(link.kind, link.page, link.y, link.rect) for link in links] == [("goto", 2, 40.0, (10, 10, 60, 30))]


def test_thumbnails_wait_for_the_main_view_s_visible_page_and_a_free_second_slot(rig: Rig) -> None:
    server = rig.server
    server.handle(("thumbs", [("k", 1, 0.2), ("k", 2, 0.2)]))
    server.handle(("want", [("k", 2, 1.0), ("k", 1, 1.0)], 1))  # page 2 on screen, page 1 its neighbour
    server.sizes_todo.clear()
    server.step()
    verb, _key, page, scale, width, *_rest = rig.results.recv()
    assert (verb, page, scale) == ("image", 2, 1.0)  # the page being read first
    assert not server.can_thumb()  # its slot is not handed back yet: a thumbnail must not take the other one
    slot = _rest[2]
    server.handle(("ack", slot))
    server.step()  # the thumbnails come before the prefetched neighbour
    verb, _key, page, scale, width, height, stride, slot, _ms, fmt = rig.results.recv()
    assert (verb, page, scale, width, height) == ("thumb", 1, 0.2, 40, 20)
    assert _bgr_at(rig.arena, slot, stride, 10, 10) == (255, 0, 0)
    server.handle(("ack", slot))
    server.handle(("thumbs", [("k", 2, 0.2)]))
    server.handle(("want", [("k", 1, 1.0)], 1))  # the reader moved on: a visible page again waits
    server.step()
    assert rig.results.recv()[:3] == ("image", "k", 1)
    server.handle(("close", "k"))
    assert server.thumbs == []  # a closed document's thumbnails are dropped with it
