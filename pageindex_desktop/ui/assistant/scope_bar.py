"""The scope bar over the chat: which documents the assistant reads, chosen explicitly and always in view.

Three exclusive choices: *This document* (the one the viewer shows, following it), *Selected (N)* (the ready
library rows selected with Ctrl/Shift-click, following that selection) and *All documents*. Under them a line
names what the tools can read now, as the assistant's worker reports it (`show_scope`), so the bar never claims
more than the tools see. The bar only emits `scopeChanged`; the window feeds it the open document and the
selection, and nothing else (a context menu on another row, say) can move it.
"""

from __future__ import annotations

from pageindex_desktop.ui.qt import (
    QButtonGroup,
    QHBoxLayout,
    QResizeEvent,
    QToolButton,
    QVBoxLayout,
    QWidget,
    Signal,
)
from pageindex_desktop.ui.assistant.worker import ScopeInfo
from pageindex_desktop.ui.elided_label import ElidedLabel

DOCUMENT, SELECTED, ALL = "document", "selected", "all"
MODES = (DOCUMENT, SELECTED, ALL)
MIN_SELECTED = 2  # one selected row is the open document's: "Selected" is for several
SHORT = {DOCUMENT: "Document", ALL: "All"}  # the buttons' words when the pane is too narrow for the full ones


class ScopeBar(QWidget):
    """This document / Selected (N) / All documents, and the line naming what the assistant reads."""

    scopeChanged = Signal(object)  # list[str] of doc ids ([] = nothing to read), or None for every document
    modeChanged = Signal(str)  # DOCUMENT, SELECTED or ALL, when the user picks one

    def __init__(self, parent: QWidget | None = None, mode: str = ALL) -> None:
        super().__init__(parent)
        self.setObjectName("scopeBar")
        self._mode = mode if mode in MODES else ALL
        self._document = ""
        self._selected: list[str] = []
        self._short = False
        self._group = QButtonGroup(self)
        self._group.setExclusive(True)
        self.buttons: dict[str, QToolButton] = {}
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(2)
        for name, text, tip in (
            (DOCUMENT, "This document", "Answer from the document the viewer shows (it follows the viewer)."),
            (SELECTED, "Selected (0)", "Answer from the documents selected in the library: Ctrl+click or "
                                       "Shift+click rows to select several."),
            (ALL, "All documents", "Answer from every ready document in the library."),
        ):
            button = QToolButton(self)
            button.setObjectName(f"scope_{name}")
            button.setText(text)
            button.setToolTip(tip)
            button.setCheckable(True)
            button.clicked.connect(lambda _checked=False, n=name: self._picked(n))
            self._group.addButton(button)
            self.buttons[name] = button
            row.addWidget(button)
        row.addStretch(1)
        self.buttons[SELECTED].setText("Selected (00)")  # the widest it usually gets
        self._full_width = sum(b.sizeHint().width() for b in self.buttons.values()) + 2 * row.spacing()
        self.label = ElidedLabel("", self)  # a long scope ends in '…'; the tooltip has all of it
        self.label.setObjectName("assistantScope")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(row)
        layout.addWidget(self.label)
        self.buttons[self._mode].setChecked(True)
        self._update_buttons()

    # ---- what the window tells the bar ---------------------------------------------------------------

    def mode(self) -> str:
        """The choice in effect: DOCUMENT, SELECTED or ALL."""
        return self._mode

    def set_mode(self, mode: str) -> None:
        """Choose a scope (a restored setting); unknown names are ignored."""
        if mode not in MODES or mode == self._mode:
            return
        before = self.scope()
        self._mode = mode
        self.buttons[mode].setChecked(True)
        self._update_buttons()
        self._emit_if_changed(before)

    def set_document(self, doc_id: str) -> None:
        """The viewer shows this document now ('' when it shows none)."""
        before = self.scope()
        self._document = doc_id
        self._emit_if_changed(before)

    def set_selection(self, doc_ids: list[str]) -> None:
        """The ready documents selected in the library (failed or importing rows are left out by the caller and
        again by the assistant's worker and tools)."""
        before = self.scope()
        self._selected = sorted(set(doc_ids))
        self._update_buttons()
        self._emit_if_changed(before)

    def scope(self) -> list[str] | None:
        """What the assistant is asked to read: doc ids, or None for every document."""
        if self._mode == ALL:
            return None
        if self._mode == SELECTED:
            return list(self._selected)
        return [self._document] if self._document else []

    def show_scope(self, info: ScopeInfo) -> None:
        """Name what the tools can read now (the worker's answer to the last scope)."""
        if info.everything:
            text = {0: "No ready documents yet", 1: "The 1 ready document"}.get(
                info.documents, f"All {info.documents} ready documents")
            tip = "Questions are answered from every ready document in the library."
        elif not info.key:
            text = "No document open" if self._mode == DOCUMENT else "No documents selected"
            tip = "Open a document, select several in the library, or choose All documents."
        else:
            text = ", ".join(info.titles) if info.titles else "Nothing readable yet"
            if len(info.titles) > 1:
                text = f"{len(info.titles)} documents: {text}"
            if info.waiting:
                text += f" ({info.waiting} not ready yet)"
            tip = "Questions are answered from:\n" + "\n".join(info.titles or ("nothing yet",))
        self.label.setText(text)
        self.label.setToolTip(tip)

    # ---- inside ----------------------------------------------------------------------------------------

    def _picked(self, mode: str) -> None:
        before = self.scope()
        self._mode = mode
        self._update_buttons()
        self.modeChanged.emit(mode)
        self._emit_if_changed(before)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """A narrow pane gets the short words ("Document", "All"; the tooltips say the rest), never clipped buttons."""
        super().resizeEvent(event)
        short = self.width() < self._full_width
        if short != self._short:
            self._short = short
            self.buttons[DOCUMENT].setText(SHORT[DOCUMENT] if short else "This document")
            self.buttons[ALL].setText(SHORT[ALL] if short else "All documents")

    def _update_buttons(self) -> None:
        selected = self.buttons[SELECTED]
        selected.setText(f"Selected ({len(self._selected)})")
        selected.setEnabled(len(self._selected) >= MIN_SELECTED or self._mode == SELECTED)

    def _emit_if_changed(self, before: list[str] | None) -> None:
        if self.scope() != before:
            self.scopeChanged.emit(self.scope())
