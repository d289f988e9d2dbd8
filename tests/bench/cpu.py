"""CPU time beside wall time for the benches.

Wall-time ratios swing with whatever else the machine runs (other jobs share its two cores); CPU time counts
only the work done, so a bench that prints a speed ratio prints the CPU-time one beside it. Linux/macOS only
(`resource`, `/proc`), imported inside the functions so that collecting the benches never fails elsewhere.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Iterable


def cpu_seconds() -> float:
    """CPU seconds of this process (every thread) plus those of every child it has reaped."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def process_cpu_seconds(pid: int) -> float:
    """CPU seconds a live process (not a child reaped yet) has used so far, from /proc at the kernel's tick
    resolution (1/CLK_TCK, 10 ms here); 0.0 when it is gone or there is no /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def live_cpu(pids: Iterable[int]) -> dict[int, float]:
    """`process_cpu_seconds` of each pid."""
    return {pid: process_cpu_seconds(pid) for pid in pids}
