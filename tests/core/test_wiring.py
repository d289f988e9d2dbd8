"""Explicit wiring, checked statically (ARCHITECTURE.md, "Wiring"; issue 14 item 3): main_window.py is the one
place that knows the whole window, so

- no module imports `ui.main_window` but the window itself and start-up (`app.py`, `smoke.py`), which build it;
- no function outside those takes a parameter annotated `MainWindow` (a part gets what it works on; mypy then
  holds a part handed a plain QMainWindow to what a QMainWindow has);
- no module reads or writes another object's private attributes (`x._name` with x not self/cls, or
  `setattr(x, "name", ...)`), and outside the store's own room (`core/library`) nothing runs SQL on the
  library's connection (`.conn`) or opens its transactions: a question's path from the chat box to the
  highlighted passage crosses ui → worker → core → store and back through methods and signals only.

The few exceptions are listed below with the reason each is allowed; a new one must be argued here.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "pageindex_desktop"
BUILDS_THE_WINDOW = {"ui/main_window.py", "app.py", "smoke.py"}

# (module, the expression as ast.unparse writes it): why it may stay
PRIVATE_ALLOWED = {
    ("core/ingest/child.py", "os._exit"): "the standard library's own name for leaving a forked child at once",
    ("core/ingest/pdf_pages.py", "doc._get_page_labels"): "pymupdf has no public call for all label rules at once",
    ("core/ingest/pdf_pages.py", "setattr(doc, '_pageindex_label_rules', rules)"):
        "caches the label rules on the pymupdf Document it reads (left for the ingest room to replace)",
    ("log.py", "handler._pageindex_log"): "marks the handler this module itself made, for idempotent set-up",
    ("ui/reader/render_server.py", "server._keep"): "the module's own _Server, released where it was made",
}
CONNECTION_ALLOWED: dict[tuple[str, str], str] = {}


def modules() -> list[tuple[str, ast.Module]]:
    return [(p.relative_to(PACKAGE).as_posix(), ast.parse(p.read_text(encoding="utf-8")))
            for p in sorted(PACKAGE.rglob("*.py"))]


def imports_main_window(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = {node.module} | {f"{node.module}.{a.name}" for a in node.names}
            if "pageindex_desktop.ui.main_window" in names:
                return True
        if isinstance(node, ast.Import) and any(a.name == "pageindex_desktop.ui.main_window" for a in node.names):
            return True
    return False


def names_main_window(annotation: ast.expr | None) -> bool:
    """True for `MainWindow`, `"MainWindow"`, `main_window.MainWindow`, `MainWindow | None` and the like."""
    if annotation is None:
        return False
    text = annotation.value if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str) \
        else ast.unparse(annotation)
    return "MainWindow" in text.replace("QMainWindow", "")


def test_only_the_window_and_start_up_import_main_window() -> None:
    offenders = [name for name, tree in modules() if name not in BUILDS_THE_WINDOW and imports_main_window(tree)]
    assert offenders == []


def test_no_part_takes_the_whole_window() -> None:
    offenders = []
    for name, tree in modules():
        if name in BUILDS_THE_WINDOW:
            continue
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                args = node.args
                every = args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]
                offenders += [f"{name}:{node.lineno} {a.arg}" for a in every if names_main_window(a.annotation)]
    assert offenders == []


def private_reaches(tree: ast.Module) -> list[ast.AST]:
    found: list[ast.AST] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                found.append(node)
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "setattr"
                and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant)
                and not (isinstance(node.args[0], ast.Name) and node.args[0].id in ("self", "cls"))):
            found.append(node)
    return found


def test_no_module_reaches_into_another_objects_private_attributes() -> None:
    seen = {(name, ast.unparse(node)) for name, tree in modules() for node in private_reaches(tree)}
    assert sorted(seen - set(PRIVATE_ALLOWED)) == []
    assert sorted(set(PRIVATE_ALLOWED) - seen) == []  # an exception no longer needed is taken off the list


def test_only_the_store_runs_sql_on_the_library_connection() -> None:
    seen = set()
    for name, tree in modules():
        if name.startswith("core/library/"):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and node.attr in ("conn", "transaction"):
                if not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
                    seen.add((name, ast.unparse(node)))
    assert sorted(seen - set(CONNECTION_ALLOWED)) == []
    assert sorted(set(CONNECTION_ALLOWED) - seen) == []


def test_the_checks_see_what_they_forbid() -> None:
    """The walkers above find each kind of reach-in they are meant to refuse (so an empty result means none)."""
    sample = ast.parse(
        "from pageindex_desktop.ui.main_window import MainWindow\n"
        "def attach(window: 'MainWindow', other: QMainWindow) -> None:\n"
        "    window.viewer._pending = None\n"
        "    setattr(other, 'recent_menu', None)\n"
        "    self._fine = other._not_fine\n")
    assert imports_main_window(sample)
    function = next(n for n in ast.walk(sample) if isinstance(n, ast.FunctionDef))
    assert [names_main_window(a.annotation) for a in function.args.args] == [True, False]
    assert sorted(ast.unparse(n) for n in private_reaches(sample)) == [
        "other._not_fine", "setattr(other, 'recent_menu', None)", "window.viewer._pending"]
    assert imports_main_window(ast.parse("from pageindex_desktop.ui import main_window"))
