"""OCR of pages without a text layer: is Tesseract installed, which languages to read, what to say when it is not.

The recognition itself runs in the extraction child (`core/ingest/ocr_read.py`, through pymupdf's OCR text page); this
module runs in the importing process, finds the `tesseract` program on PATH and its language data (what
`tesseract --list-langs` prints), and turns the language setting (`ModelSettings.ocr_languages`, '' = from the
OS locale; several joined by '+') into what is installed. No pymupdf here.
"""

from __future__ import annotations

import locale
import logging
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from functools import lru_cache

log = logging.getLogger(__name__)

LIST_TIMEOUT = 10.0  # seconds for `tesseract --list-langs`
# ISO 639-1 codes of OS locales → Tesseract's language data names (ISO 639-2/T, as its packages are named).
LOCALE_LANGUAGES = {
    "en": "eng", "de": "deu", "fr": "fra", "es": "spa", "it": "ita", "pt": "por", "nl": "nld", "sv": "swe",
    "da": "dan", "nb": "nor", "no": "nor", "fi": "fin", "pl": "pol", "cs": "ces", "sk": "slk", "hu": "hun",
    "ro": "ron", "el": "ell", "tr": "tur", "ru": "rus", "uk": "ukr", "bg": "bul", "hr": "hrv", "sl": "slv",
    "ja": "jpn", "zh": "chi_sim", "ko": "kor", "ar": "ara", "he": "heb", "hi": "hin", "id": "ind", "vi": "vie",
}


@dataclass(frozen=True)
class OcrEngine:
    """An installed Tesseract: the program, its language data folder and the languages found there."""

    program: str
    tessdata: str
    languages: tuple[str, ...]


@dataclass(frozen=True)
class OcrPlan:
    """What an import does about pages without text: `languages` for Tesseract ('' when it cannot run) and
    `tessdata`, or `missing`: the sentence the library row shows instead."""

    languages: str = ""
    tessdata: str = ""
    missing: str = ""

    def for_child(self) -> dict[str, str] | None:
        """The options the extraction child takes (None: no OCR)."""
        return {"languages": self.languages, "tessdata": self.tessdata} if self.languages else None


def find_engine() -> OcrEngine | None:
    """The Tesseract on PATH with at least one language, or None (looked up once per program path)."""
    program = shutil.which("tesseract")
    return _engine(program, os.environ.get("TESSDATA_PREFIX", "")) if program else None


@lru_cache(maxsize=4)
def _engine(program: str, _prefix: str) -> OcrEngine | None:
    """Ask `program --list-langs` where its data is and what it holds."""
    try:
        done = subprocess.run([program, "--list-langs"], capture_output=True, text=True, timeout=LIST_TIMEOUT)
    except (OSError, subprocess.SubprocessError):
        log.warning("tesseract at %s could not be run", program, exc_info=True)
        return None
    output = done.stdout + done.stderr
    folder = re.search(r'languages in "([^"]+)"', output)
    names = tuple(line.strip() for line in done.stdout.splitlines()[1:] if re.fullmatch(r"[\w-]+", line.strip()))
    languages = tuple(n for n in names if n != "osd")
    if done.returncode != 0 or folder is None or not languages:
        log.warning("tesseract at %s lists no languages: %s", program, output.strip()[:200])
        return None
    return OcrEngine(program, folder.group(1), languages)


def locale_languages() -> list[str]:
    """Tesseract language names for the OS locale (LC_ALL, LC_MESSAGES, LANG, LANGUAGE), English last."""
    found: list[str] = []
    candidates = [os.environ.get(name, "") for name in ("LC_ALL", "LC_MESSAGES", "LANG")]
    candidates += os.environ.get("LANGUAGE", "").split(":")
    try:
        candidates.append(locale.getlocale()[0] or "")
    except ValueError:
        pass
    for value in candidates:
        code = LOCALE_LANGUAGES.get(value.split("_")[0].split(".")[0].lower())
        if code and code not in found:
            found.append(code)
    return found + ([] if "eng" in found else ["eng"])


def choose_languages(setting: str, engine: OcrEngine) -> str:
    """The languages to read with: the setting's ('deu+eng'), else the locale's, kept to those installed; the
    first installed language when none of them is."""
    wanted = [n for n in re.split(r"[+,\s]+", setting) if n] or locale_languages()
    usable = [n for n in wanted if n in engine.languages]
    if len(usable) < len(wanted):
        log.info("OCR languages not installed: %s", ", ".join(n for n in wanted if n not in usable))
    return "+".join(usable) if usable else engine.languages[0]


def install_hint() -> str:
    """How to install Tesseract on this system, in a few words."""
    if sys.platform == "darwin":
        return "brew install tesseract"
    if sys.platform.startswith("win"):
        return "the Tesseract installer from UB Mannheim, then add it to PATH"
    return "sudo apt-get install tesseract-ocr"


def missing_sentence(pages: int, total: int) -> str:
    """What the library row says when scanned pages met no Tesseract."""
    which = "No page has a text layer" if pages == total else f"{pages} of {total} pages have no text layer"
    return f"{which}; install Tesseract OCR to read them ({install_hint()}), then re-index"


def plan(setting: str) -> OcrPlan:
    """What this import does about pages without text, for the language setting."""
    engine = find_engine()
    if engine is None:
        return OcrPlan(missing="tesseract")
    return OcrPlan(languages=choose_languages(setting, engine), tessdata=engine.tessdata)
