"""Full-text search over a library's pages: FTS5 finds the candidates, `search_rank` orders a question's.

`Library.search` is `search(conn, …)`. An exact query (terms as typed, a quoted phrase) is ranked by FTS5's own
BM25. A question is read into concepts (`search_query.plan`); FTS5 returns the pages that print every required
concept, best BM25 first, and the first `RERANK` of them are ordered by `search_rank.rank` (BM25 over concepts
with synonyms as one term, optional concepts, proximity). After them come the pages with only some concepts,
ordered the same way. Symbol terms the tokenizer cannot index are matched verbatim on the page text.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from pageindex_desktop.core.library.search_query import SearchPlan, plan
from pageindex_desktop.core.library.search_rank import Concept, rank, snippet

UBIQUITOUS_SHARE = 0.4  # a question's name printed on more of the searched pages than this is not required
UBIQUITOUS_MIN_PAGES = 10
RERANK = 50  # candidates per tier a question's ranking reads (FTS5's BM25 order picks them)


@dataclass(frozen=True)
class SearchHit:
    """A page that matched a search, with a short snippet (matches wrapped in [[ ]]); lower `score` is better."""

    doc_id: str
    page: int
    snippet: str
    score: float
    matched_all: bool = True  # False: the page holds only some of the query's terms


@dataclass
class _Scope:
    """The documents searched: a SQL condition on `p.doc_id` with its parameters (None: every document)."""

    ids: list[str] | None
    _rowids: set[int] | None = None

    def rowids(self, conn: sqlite3.Connection) -> set[int]:
        """The searched pages' rowids (read once): counting an FTS match by intersecting its rowids with these
        took 1-2 ms where the join on `pages` filtered by document took 20-90 ms per concept."""
        if self._rowids is None:
            self._rowids = {int(r[0]) for r in conn.execute(
                "SELECT rowid FROM pages p WHERE 1" + self.where, self.params).fetchall()}
        return self._rowids

    @property
    def where(self) -> str:
        return "" if self.ids is None else f" AND p.doc_id IN ({','.join('?' * len(self.ids))})"

    @property
    def params(self) -> list[object]:
        return [] if self.ids is None else list(self.ids)


def search(conn: sqlite3.Connection, query: str, doc_ids: list[str] | None, limit: int) -> list[SearchHit]:
    """Pages matching `query` in the documents `doc_ids` (None: all), best first (see the module docstring)."""
    wanted = plan(query)
    if doc_ids is not None and not doc_ids:
        return []
    scope = _Scope(doc_ids)
    if not wanted.fts_all():
        return _verbatim(conn, wanted.symbols, scope, limit) if wanted.symbols else []
    several = len(wanted.words) + len(wanted.phrases) + len(wanted.symbols) > 1
    if not wanted.natural:
        hits = _fts(conn, wanted.fts_all(), scope, limit, wanted)
        if several and not hits:
            hits = [_partial(h) for h in _fts(conn, wanted.fts_any(), scope, limit, wanted)]
        return hits
    return _question(conn, wanted, scope, limit, several)


def _question(conn: sqlite3.Connection, wanted: SearchPlan, scope: _Scope, limit: int, several: bool) -> list[SearchHit]:
    """A question's pages: every required concept first, then (when fewer than `limit`) some of them."""
    total = int(conn.execute("SELECT count(*) FROM pages p WHERE 1" + scope.where, scope.params).fetchone()[0])
    groups = len(wanted.groups())
    names = _ubiquitous(conn, wanted, scope, total)  # not required, and no help in ranking either
    optional = frozenset(wanted.optional_groups()) - names
    if len(optional | names) >= groups:
        optional = frozenset()
    concepts = wanted.ranked_concepts(optional, names)
    dfs = [_count(conn, c.fts(), scope) if c.forms else 0 for c in concepts]  # a printed "73%" is not indexed
    # the whole company: asked for in words, or a statement figure of the documents' own company (no segment named)
    whole = wanted.whole or (wanted.asks_statement_item() and bool(names) and names.issuperset(wanted.name_groups()))
    hits = _ranked(conn, wanted.fts_all(optional | names), scope, limit, wanted, concepts, dfs, total, whole)
    if several and len(hits) < limit:
        seen = {(h.doc_id, h.page) for h in hits}
        more = _ranked(conn, wanted.fts_any(), scope, limit + len(seen), wanted, concepts, dfs, total, whole)
        hits += [_partial(h) for h in more if (h.doc_id, h.page) not in seen][: limit - len(hits)]
    return hits


def _ranked(conn: sqlite3.Connection, match: str, scope: _Scope, limit: int, wanted: SearchPlan,
            concepts: list[Concept], dfs: list[int], total: int, whole: bool) -> list[SearchHit]:
    rows = _candidates(conn, match, scope, RERANK, wanted, snippets=False)
    scores = rank([r["text"] or "" for r in rows], concepts, dfs, total, whole)
    order = sorted(range(len(rows)), key=lambda i: -scores[i])[:limit]
    return [_hit(rows[i], wanted, -scores[i], None if wanted.symbols else snippet(rows[i]["text"] or "", concepts))
            for i in order]


def _count(conn: sqlite3.Connection, match: str, scope: _Scope) -> int:
    if scope.ids is None:  # the index alone counts its matches
        return int(conn.execute("SELECT count(*) FROM pages_fts WHERE pages_fts MATCH ?", [match]).fetchone()[0])
    rows = conn.execute("SELECT rowid FROM pages_fts WHERE pages_fts MATCH ?", [match]).fetchall()
    return len(scope.rowids(conn).intersection(int(r[0]) for r in rows))


def _ubiquitous(conn: sqlite3.Connection, wanted: SearchPlan, scope: _Scope, total: int) -> frozenset[int]:
    """Names in a question that are the searched documents' own (in their title or file name) or printed on most
    of their pages (the company's name in every running header): requiring them would only drop the answer page
    when it happens not to print the name. What the question asks about ("revenue", "employees") stays
    required however common it is."""
    groups = wanted.groups()
    if len(groups) < 2 or not wanted.name_groups() or total < UBIQUITOUS_MIN_PAGES:
        return frozenset()
    where = "" if scope.ids is None else f" WHERE id IN ({','.join('?' * len(scope.ids))})"
    titles = " ".join(" ".join(r) for r in conn.execute(
        "SELECT title, file_name FROM documents" + where, scope.params).fetchall()).casefold()
    common = set()
    for index in wanted.name_groups():
        if any(term.strip('"*') in titles for term in groups[index]):
            common.add(index)  # the document's own name: every page of it is about that company
        elif _count(conn, wanted.fts_concept(index), scope) > total * UBIQUITOUS_SHARE:
            common.add(index)
    return frozenset(common) if len(common) < len(groups) else frozenset()


def _candidates(conn: sqlite3.Connection, match: str, scope: _Scope, limit: int, wanted: SearchPlan,
                snippets: bool = True) -> list[sqlite3.Row]:
    """Rows (rowid, doc_id, page, text, snippet, score) matching `match`, best BM25 first, that print every
    symbol; `snippets` False leaves the snippet out (FTS5 makes one per row: most of the cost for 100 rows)."""
    snippet = "snippet(pages_fts, 0, '[[', ']]', ' … ', 16)" if snippets else "''"
    sql = ("SELECT p.rowid AS rowid, p.doc_id AS doc_id, p.page AS page, p.text AS text,"
           f" {snippet} AS snippet, bm25(pages_fts) AS score"
           " FROM pages_fts JOIN pages p ON p.rowid = pages_fts.rowid WHERE pages_fts MATCH ?"
           + scope.where + " ORDER BY score LIMIT ?")
    rows = conn.execute(sql, [match, *scope.params, limit * 4 if wanted.symbols else limit]).fetchall()
    symbols = [t.casefold() for t in wanted.symbols]
    return [r for r in rows if all(t in (r["text"] or "").casefold() for t in symbols)][:limit]


def _fts(conn: sqlite3.Connection, match: str, scope: _Scope, limit: int, wanted: SearchPlan) -> list[SearchHit]:
    return [_hit(r, wanted, float(r["score"])) for r in _candidates(conn, match, scope, limit, wanted)]


def _hit(row: sqlite3.Row, wanted: SearchPlan, score: float, snippet: str | None = None) -> SearchHit:
    text = row["text"] or ""
    if snippet is None:
        snippet = _snippet(text, wanted.symbols[0]) if wanted.symbols else row["snippet"]
    return SearchHit(row["doc_id"], int(row["page"]), snippet, score)


def _partial(hit: SearchHit) -> SearchHit:
    return SearchHit(hit.doc_id, hit.page, hit.snippet, hit.score, matched_all=False)


def _verbatim(conn: sqlite3.Connection, terms: list[str], scope: _Scope, limit: int) -> list[SearchHit]:
    """Pages that print every term as written (symbols the tokenizer drops: '<<-', 'C++'), in page order."""
    sql = ("SELECT doc_id, page, text FROM pages p WHERE "
           + " AND ".join("instr(lower(text), ?) > 0" for _ in terms) + scope.where
           + " ORDER BY doc_id, page LIMIT ?")
    rows = conn.execute(sql, [*(t.casefold() for t in terms), *scope.params, limit]).fetchall()
    return [SearchHit(r["doc_id"], int(r["page"]), _snippet(r["text"] or "", terms[0]), 0.0) for r in rows]


def _snippet(text: str, term: str, around: int = 60) -> str:
    """A snippet of `text` around the first place it prints `term`, the term marked as FTS snippets mark it."""
    at = text.casefold().find(term.casefold())
    if at < 0:
        return " ".join(text[: 2 * around].split())
    start, end = max(0, at - around), min(len(text), at + len(term) + around)
    body = text[start:at] + "[[" + text[at : at + len(term)] + "]]" + text[at + len(term) : end]
    return ("… " if start else "") + " ".join(body.split()) + (" …" if end < len(text) else "")
