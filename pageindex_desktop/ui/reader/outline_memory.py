"""The outline's folding, kept per document: sections the reader opened or closed stay so when the document is
opened again, in this session or after a restart.

The expanded sections are saved by node id in the window settings whenever the folding changes (not while a
title filter decides it), and put back after the tree is shown; a document never folded by hand keeps the usual
folding (top-level sections open).
"""

from __future__ import annotations

from pageindex_desktop.ui import settings as window_settings
from pageindex_desktop.ui.reader.outline_panel import OutlinePanel
from pageindex_desktop.ui.qt import QModelIndex, QObject

KEY = "outline/expanded/{doc_id}"
MAX_SAVED = 5000  # node ids kept per document (a 2,400-section reference stays well under)


class OutlineMemory(QObject):
    """Watches the outline view's folding for the document `current()` names and restores it on show."""

    def __init__(self, panel: OutlinePanel) -> None:
        super().__init__(panel)
        self.panel = panel
        self._shown = ""  # the document whose tree the panel shows (its folding is what gets saved)
        self._restoring = False
        panel.view.expanded.connect(lambda _index: self._save())
        panel.view.collapsed.connect(lambda _index: self._save())

    def begin(self) -> None:
        """Before a new tree goes in: the folding it is built with is not the reader's."""
        self._restoring = True

    def restore(self, doc_id: str) -> None:
        """After the tree of `doc_id` is shown: its saved folding, if the reader ever changed it."""
        self._shown = doc_id
        saved = window_settings.app_settings().value(KEY.format(doc_id=doc_id))
        if saved is None or self.panel.filter.active():
            self._restoring = False
            return
        wanted = {str(v) for v in (saved if isinstance(saved, list) else [saved]) if v}
        self._restoring = True
        try:
            view, model = self.panel.view, self.panel.model
            view.collapseAll()
            for index in self._indexes(QModelIndex()):
                node = model.node(index)
                if node is not None and node.node_id in wanted:
                    view.expand(index)
        finally:
            self._restoring = False

    def _save(self) -> None:
        doc_id = self._shown
        if self._restoring or not doc_id or self.panel.filter.active() or not self.panel.model.rowCount():
            return
        view, model = self.panel.view, self.panel.model
        opened = [node.node_id for index in self._indexes(QModelIndex()) if view.isExpanded(index)
                  and (node := model.node(index)) is not None]
        window_settings.app_settings().setValue(KEY.format(doc_id=doc_id), opened[:MAX_SAVED] or [""])

    def _indexes(self, parent: QModelIndex) -> list[QModelIndex]:
        """Every index with children under `parent`, depth first (leaves cannot be expanded)."""
        model = self.panel.model
        out = []
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            if model.rowCount(index):
                out.append(index)
                out += self._indexes(index)
        return out
