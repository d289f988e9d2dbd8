"""Every Qt import of the UI goes through here, so a binding change touches one file.

It also carries the one workaround the binding needs: PySide6 6.12 returns `None` (and bools) to Python
without taking a reference, which is harmless on Python 3.12+ where those objects are immortal (PEP 683) but,
on 3.11, drops a reference on every call of a void Qt method until CPython aborts with "none_dealloc".
`_pin_singletons` gives None, True and False a reference count no program can spend, which is what 3.12 does.
"""

from __future__ import annotations

import ctypes
import sys

import PySide6


def _pin_singletons() -> None:
    """Make None/True/False effectively immortal on CPython < 3.12 with PySide6 >= 6.12 (see module docstring)."""
    if sys.version_info >= (3, 12) or sys.implementation.name != "cpython":
        return
    if tuple(int(x) for x in PySide6.__version__.split(".")[:2]) < (6, 12):
        return
    for obj in (None, True, False):
        refcount = ctypes.c_ssize_t.from_address(id(obj))  # ob_refcnt is the first field of every PyObject
        if refcount.value < (1 << 40):
            refcount.value += 1 << 40


_pin_singletons()

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractListModel,
    QByteArray,
    QCoreApplication,
    QEvent,
    QItemSelectionModel,
    QMimeData,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    QPointF,
    QRect,
    QRectF,
    QSettings,
    QStandardPaths,
    QSocketNotifier,
    QSize,
    QSortFilterProxyModel,
    QThread,
    QTimer,
    QUrl,
    Qt,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QAction,
    QBrush,
    QColor,
    QDesktopServices,
    QDragEnterEvent,
    QDropEvent,
    QFont,
    QFontMetrics,
    QGuiApplication,
    QHideEvent,
    QIcon,
    QImage,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QResizeEvent,
    QShowEvent,
    QCloseEvent,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QAbstractScrollArea,
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListView,
    QMainWindow,
    QMenu,
    QMessageBox,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QStatusBar,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionProgressBar,
    QStyleOptionViewItem,
    QTabBar,
    QTableWidget,
    QTableWidgetItem,
    QTextBrowser,
    QToolButton,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

__all__ = [name for name in dir() if name.startswith("Q") or name in ("Qt", "Signal", "Slot")]
