"""Which page a citation means (the document it names is `core/document_resolver`'s, as for the CLI and tools).

A page may be written as the file's page number or as the label printed on it ("xiii", "A-3", "11" printed on
the file's page 17): both readings are tried.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PageReading:
    """One way to read a written page: the file's page it means and how it was read."""

    page: int
    printed: bool  # read as the label printed on the page

    def describe(self, token: str) -> str:
        """For the tooltip: which numbering the citation used."""
        return f"printed page {token} (page {self.page} of the file)" if self.printed else ""


def page_readings(token: str, labels: list[str], page_count: int) -> list[PageReading]:
    """Every page `token` may mean: the file's page number, then pages whose printed label is the token."""
    out: list[PageReading] = []
    if token.isdigit() and 1 <= int(token) <= page_count:
        out.append(PageReading(int(token), False))
    wanted = token.casefold().strip()
    for index, label in enumerate(labels):
        page = index + 1
        if label and label.casefold().strip() == wanted and all(r.page != page for r in out):
            out.append(PageReading(page, True))
    return out
