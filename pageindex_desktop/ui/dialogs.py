"""Help ▸ Keyboard Shortcuts: every menu shortcut plus the keys that have no menu item."""

from __future__ import annotations

from pageindex_desktop.ui.qt import (
    QAction,
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QKeySequence,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

EXTRA_KEYS = (
    ("Page Down / Space", "Next screen or page"),
    ("Page Up", "Previous screen or page"),
    ("Home / End", "First / last page"),
    ("Ctrl + mouse wheel", "Zoom around the pointer"),
    ("Enter in the outline", "Show the section's first page"),
    ("Enter / Shift+Enter in Find", "Next / previous hit"),
    ("Delete in the library", "Remove the selected documents"),
)


class ShortcutsDialog(QDialog):
    """Every menu shortcut and the keys that have no menu item."""

    def __init__(self, actions: list[QAction], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard Shortcuts")
        self.resize(520, 560)
        rows = [
            (", ".join(s.toString(QKeySequence.SequenceFormat.NativeText) for s in a.shortcuts()),
             a.text().replace("&", "").rstrip("…").rstrip("."))
            for a in actions
            if a.shortcuts()
        ]
        rows += list(EXTRA_KEYS)
        table = QTableWidget(len(rows), 2, self)
        table.setHorizontalHeaderLabels(["Keys", "Action"])
        table.verticalHeader().hide()
        table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        table.horizontalHeader().setStretchLastSection(True)
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for r, (keys, what) in enumerate(rows):
            table.setItem(r, 0, QTableWidgetItem(keys))
            table.setItem(r, 1, QTableWidgetItem(what))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(table)
        layout.addWidget(buttons)

