"""The window's main thread and the render process run on different cores; worker threads use them all."""

from __future__ import annotations

import os
import threading

import pytest

from pageindex_desktop.ui.cores import use_all_cores
from pageindex_desktop.ui.main_window import MainWindow

pytestmark = pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
                                reason="needs Linux with two cores or more")


def test_the_render_process_and_the_main_thread_do_not_share_a_core(home, qtbot) -> None:  # type: ignore[no-untyped-def]
    everything = os.sched_getaffinity(0)
    window = MainWindow(home)
    qtbot.addWidget(window)
    try:
        main, render = os.sched_getaffinity(0), os.sched_getaffinity(window.renderer.process_id())
        assert main and render and not main & render and main | render == everything

        seen: dict[str, set[int]] = {}

        def worker() -> None:  # a thread started by the confined main thread, as the workers are
            seen["inherited"] = os.sched_getaffinity(0)
            use_all_cores()
            seen["after"] = os.sched_getaffinity(0)

        thread = threading.Thread(target=worker)
        thread.start()
        thread.join()
        assert seen == {"inherited": main, "after": everything}
    finally:
        window.close()
    assert os.sched_getaffinity(0) == everything  # the window closed: the main thread is free again
