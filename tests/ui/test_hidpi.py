"""On a 2x screen pages are rendered with twice the pixels of their on-screen size (crisp text)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.ui.conftest import make_pdf

REPO = Path(__file__).resolve().parents[2]
SCRIPT = r"""
import json, sys
from pathlib import Path
import pageindex_desktop.ui.qt
from pageindex_desktop.ui.qt import QApplication, QTimer
from pageindex_desktop.ui.reader.render import RenderService
from pageindex_desktop.ui.reader.page_view import PageView

def main():
    app = QApplication([])
    renderer = RenderService()
    view = PageView(renderer)
    view.resize(700, 600)
    view.show()
    renderer.opened.connect(lambda key, n, w, h, err: view.set_document(key, n, (w, h)))
    out = {}
    def shown(page):
        if page == 1 and not out:
            image = renderer.cache.get(view.key, 1, view.render_scale())
            out.update(dpr=view.dpr(), zoom=view.zoom(), width=image.width(), logical=view.page_rect(1).width())
            renderer.shutdown()
            app.quit()
    view.pageShown.connect(shown)
    renderer.open("doc", sys.argv[1])
    QTimer.singleShot(30000, app.quit)
    app.exec()
    print(json.dumps(out))

if __name__ == "__main__":
    main()
"""


def test_pages_render_at_the_device_pixel_ratio(tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "doc.pdf", 3, chapters=("One",))
    script = tmp_path / "hidpi.py"
    script.write_text(SCRIPT)
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", QT_SCALE_FACTOR="2", PYTHONPATH=str(REPO))
    out = subprocess.run([sys.executable, str(script), str(pdf)], capture_output=True, text=True, env=env,
                         timeout=120, cwd=REPO)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["dpr"] == 2.0
    assert abs(result["width"] - 2 * result["logical"]) <= 2  # one image pixel per device pixel
