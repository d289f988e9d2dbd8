"""The item models pass pytest-qt's model tester and report changes row by row."""

from __future__ import annotations

from pageindex_desktop.core.outline.tree import Node
from pageindex_desktop.ui.library.library_model import LibraryModel, LibraryRow
from pageindex_desktop.ui.reader.outline_model import OutlineModel, StartPageRole
from pageindex_desktop.ui.qt import QColor, QFont, Qt


def _tree() -> list[Node]:
    leaf = Node("1.1", "Scope", 2, 2, 3, verified=False)
    return [
        Node("1", "Introduction", 1, 1, 4, verified=True, children=[leaf, Node("1.2", "Method", 2, 4, 4, True)]),
        Node("2", "Results", 1, 5, 9, verified=True, children=[Node("2.1", "Tables", 2, 6, 9, True)]),
    ]


def test_outline_model_passes_the_model_tester(qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    model = OutlineModel()
    model.set_tree(_tree(), [str(i) for i in range(1, 10)])
    qtmodeltester.check(model, force_py=True)  # keeps watching: the resets below are checked too
    model.set_tree([], [])
    model.set_tree(_tree(), [])


def test_outline_model_marks_unverified_nodes_and_finds_the_section_of_a_page() -> None:
    model = OutlineModel()
    roots = _tree()
    model.set_tree(roots, ["i", "ii", "1", "2", "3", "4", "5", "6", "7"])
    intro = model.index(0, 0)
    scope = model.index(0, 0, intro)
    assert scope.data() == "Scope"
    assert isinstance(scope.data(Qt.ItemDataRole.FontRole), QFont) and scope.data(Qt.ItemDataRole.FontRole).italic()
    assert isinstance(scope.data(Qt.ItemDataRole.ForegroundRole), QColor)
    assert "not found" in scope.data(Qt.ItemDataRole.ToolTipRole)
    assert intro.data(Qt.ItemDataRole.FontRole) is None
    assert model.index(1, 1).data() == "5–9"
    assert "printed 3–7" in model.index(1, 0).data(Qt.ItemDataRole.ToolTipRole)
    assert scope.data(StartPageRole) == 2
    assert model.parent(scope) == intro
    assert [n.title for n in model.chain_for_page(7)] == ["Results", "Tables"]
    assert model.index_of(roots[1].children[0]).row() == 0


def _row(key: str, status: str = "ready", **kw: object) -> LibraryRow:
    return LibraryRow(key=key, doc_id=key, title=key.upper(), file_name=f"{key}.pdf", status=status, **kw)  # type: ignore[arg-type]


def test_library_model_passes_the_model_tester_through_updates(qtmodeltester, qtbot) -> None:  # type: ignore[no-untyped-def]
    model = LibraryModel()
    model.set_rows([_row("a"), _row("b", "failed", error="The file is not a PDF.")])
    qtmodeltester.check(model, force_py=True)  # keeps watching every change below
    with qtbot.waitSignal(model.rowsInserted):
        model.set_rows([_row("a"), _row("b", "failed", error="x"), _row("c", "importing", done=3, total=9)])
    with qtbot.waitSignal(model.rowsRemoved):
        model.set_rows([_row("b", "failed", error="x"), _row("c", "importing", done=3, total=9)])
    with qtbot.waitSignal(model.dataChanged):
        model.update_row("c", done=5)
    assert [r.key for r in model.rows()] == ["b", "c"]
    assert model.rows()[1].detail().endswith("5/9")


def test_library_rows_say_why_an_import_failed() -> None:
    failed = _row("x", "failed", error="The PDF is encrypted: a password is needed.")
    assert failed.detail() == "The PDF is encrypted: a password is needed."
    assert "password" in failed.tooltip()
    ready = _row("y", page_count=222, outline_source="bookmarks")
    assert ready.detail() == "222 pages · outline from bookmarks"
    repaired = _row("z", page_count=25, outline_source="pages", note="repaired: 25 of 28 pages readable")
    assert repaired.detail() == "25 pages · outline by page groups · repaired: 25 of 28 pages readable"
    assert "repaired: 25 of 28 pages readable" in repaired.tooltip()
