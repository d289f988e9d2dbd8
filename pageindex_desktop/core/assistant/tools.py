"""The agent's read-only tools over the library (names follow PageIndex's), with OpenAI tool schemas.

Every call returns a JSON envelope and never raises: `{"ok": true, "result": ..., "next_steps": [...]}` or
`{"ok": false, "error": {"code", "message", "options"}}`. The chat's scope (a set of doc ids, or all documents)
is enforced here: a document outside it, or one that is not ready (failed, queued, being imported or re-indexed),
reads as not found. The toolbox remembers which (doc, page) it returned,
which is what citation checking relies on.
"""

from __future__ import annotations

import inspect
import json
import logging
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from pageindex_desktop.core.library import document_resolver
from pageindex_desktop.core.pages_range import PageRangeError, format_page_ranges, parse_page_ranges
from pageindex_desktop.core.library.store import DocumentRecord, Library
from pageindex_desktop.core.assistant.structure_view import find_node, render_structure
from pageindex_desktop.core.assistant.tool_schemas import TOOL_SCHEMAS

log = logging.getLogger(__name__)

PAGE_BUDGET = 30_000
STRUCTURE_BUDGET = 3_000
SEARCH_LIMIT = 10
LISTING_TOOLS = ("browse_documents", "get_document")


class ToolError(Exception):
    """Raised inside a tool to produce an error envelope (never escapes `ToolBox.call`)."""

    def __init__(self, code: str, message: str, options: list[str] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.options = options or []


_SPACES = re.compile(r"[ \t\u00a0]+")
_EDGE_SPACE = re.compile(r" ?\n ?")
_BLANK_LINES = re.compile(r"\n{3,}")
_SOFT_WRAP = re.compile(r"(?<=[^\s.:;!?])\n(?=[a-z(])")


def reflow(text: str) -> str:
    """Page text as the model gets it: runs of spaces collapsed and soft line wraps (a line that continues in
    lower case) joined. The words are unchanged; only whitespace that costs tokens on every turn goes."""
    text = _EDGE_SPACE.sub("\n", _SPACES.sub(" ", text))
    return _SOFT_WRAP.sub(" ", _BLANK_LINES.sub("\n\n", text)).strip()


def ok(result: Any, next_steps: list[str]) -> str:
    """A success envelope."""
    return json.dumps({"ok": True, "result": result, "next_steps": next_steps}, ensure_ascii=False)


def fail(code: str, message: str, options: list[str] | None = None) -> str:
    """An error envelope."""
    err = {"code": code, "message": message, "options": options or []}
    return json.dumps({"ok": False, "error": err}, ensure_ascii=False)


@dataclass
class ToolBox:
    """Tools bound to one library connection and one scope (None = every document)."""

    library: Library
    scope: frozenset[str] | None = None
    page_budget: int = PAGE_BUDGET
    structure_budget: int = STRUCTURE_BUDGET
    returned: set[tuple[str, int]] = field(default_factory=set)
    calls: list[dict[str, Any]] = field(default_factory=list)
    hits_returned: int = 0  # search hits (snippets of page text) sent to the model

    def has_read(self) -> bool:
        """Whether any page text or search hit reached the model in this chat (an answer can be grounded)."""
        return bool(self.returned) or self.hits_returned > 0

    def schemas(self, documents_listed: bool = False) -> list[dict[str, Any]]:
        """OpenAI `tools=` definitions; the listing tools are left out when the prompt already lists every document
        in scope (they would only repeat it, and schemas are re-sent on every turn). They stay callable."""
        if documents_listed:
            return [t for t in TOOL_SCHEMAS if t["function"]["name"] not in LISTING_TOOLS]
        return TOOL_SCHEMAS

    def call(self, name: str, raw_arguments: str | None) -> str:
        """Run a tool from the model's raw call; always returns an envelope string."""
        handlers: dict[str, Callable[..., str]] = {
            "browse_documents": self.browse_documents,
            "get_document": self.get_document,
            "get_document_structure": self.get_document_structure,
            "get_page_content": self.get_page_content,
            "search_document": self.search_document,
        }
        try:
            args = json.loads(raw_arguments or "{}")
        except json.JSONDecodeError as exc:
            self.calls.append({"name": name, "arguments": raw_arguments or ""})
            return fail("INVALID_INPUT", f"The arguments were not valid JSON ({exc.msg}); send one JSON object.",
                        ['{"doc": "<doc id or title>", "pages": "5-7"}'])
        self.calls.append({"name": name, "arguments": args})
        if name not in handlers:
            return fail("NOT_FOUND", f"There is no tool named '{name}'.", sorted(handlers))
        if not isinstance(args, dict):
            return fail("INVALID_INPUT", "The arguments must be a JSON object.", [])
        try:
            inspect.signature(handlers[name]).bind(**args)
        except TypeError as exc:
            return fail("INVALID_INPUT", f"Wrong arguments for {name}: {exc}.", _usage(name))
        try:
            return handlers[name](**args)
        except ToolError as exc:
            return fail(exc.code, exc.message, exc.options)
        except ValueError as exc:
            return fail("INVALID_INPUT", f"Wrong arguments for {name}: {exc}.", _usage(name))
        except Exception:  # noqa: BLE001 - a tool never raises into the agent loop
            log.exception("tool %s failed", name)
            return fail("INTERNAL_ERROR", f"{name} failed inside the app; try another tool or ask again.", [])

    # ---- documents -------------------------------------------------------------------------------------

    def in_scope(self) -> list[DocumentRecord]:
        """The documents this chat may read: those in its scope that are ready now (a failed import, or one still
        importing or re-indexing, is never read, whatever the scope says)."""
        return [d for d in self.library.documents()
                if d.status == "ready" and (self.scope is None or d.doc_id in self.scope)]

    def resolve(self, ref: Any) -> DocumentRecord:
        """A document in scope by id, id prefix, title or file name (`document_resolver`'s rule). With one
        document in scope, a missing or garbled reference means that one (small models mangle ids and titles)."""
        docs = self.in_scope()
        text = ref if isinstance(ref, str) else ""
        found = document_resolver.resolve(text, docs, lenient=True)
        if found.document is not None:
            return found.document
        if not text.strip():
            raise ToolError("INVALID_INPUT", "Give the document as a doc id or title.", self._names())
        if found.ambiguous:
            raise ToolError("AMBIGUOUS", f"'{ref}' fits {len(found.candidates)} documents in this chat; give the "
                            "doc id of the one you mean.",
                            [document_resolver.label(d, found.candidates) for d in found.candidates[:5]])
        options = [document_resolver.label(d) for d in document_resolver.close_names(text, docs)]
        raise ToolError("NOT_FOUND", f"No document matches '{ref}' in this chat.", options or self._names())

    def _names(self) -> list[str]:
        return [document_resolver.label(d) for d in self.in_scope()[:3]]

    def _ready(self, ref: Any) -> DocumentRecord:
        doc = self.resolve(ref)
        if doc.status != "ready":
            raise ToolError("INVALID_INPUT", f"'{doc.title}' is {doc.status}, not ready to read yet.", [])
        return doc

    def browse_documents(self, offset: int = 0, limit: int = 20) -> str:
        """Titles, descriptions and page counts of the documents in scope, a page at a time."""
        offset, limit = max(0, int(offset)), min(max(1, int(limit)), 50)
        docs = self.in_scope()
        shown = [
            {"doc_id": d.doc_id, "title": d.title, "pages": d.page_count, "status": d.status,
             "description": d.description}
            for d in docs[offset : offset + limit]
        ]
        steps = ["Read a document's outline: get_document_structure(doc=<doc_id>)."]
        if offset + limit < len(docs):
            steps.append(f"More documents: browse_documents(offset={offset + limit}, limit={limit}).")
        return ok({"total": len(docs), "offset": offset, "documents": shown}, steps)

    def get_document(self, doc: str | None = None) -> str:
        """One document's metadata: title, description, page count, outline source."""
        d = self.resolve(doc)
        result = {"doc_id": d.doc_id, "title": d.title, "file_name": d.file_name, "page_count": d.page_count,
                  "status": d.status, "outline_source": d.outline_source, "description": d.description,
                  "image_only_pages": d.image_only_pages}
        return ok(result, [f"Read its outline: get_document_structure(doc='{d.doc_id}')."])

    def get_document_structure(self, doc: str | None = None, part: int = 1, node_id: str | None = None) -> str:
        """The section tree, compact and budgeted; `node_id` expands one branch, `part` pages through wide trees."""
        d = self._ready(doc)
        roots = self.library.tree(d.doc_id)
        nodes, header = roots, ""
        if node_id:
            node = find_node(roots, str(node_id))
            if node is None:
                raise ToolError("NOT_FOUND", f"'{d.title}' has no node '{node_id}'.",
                                [f"[{n.node_id}] {n.title}" for n in roots[:3]])
            # Expanding a section shows its children as the top level, in parts when there are hundreds of them,
            # so every section of a wide reference can be reached (not only the section's own line).
            nodes = node.children
            header = f"[{node.node_id}] {node.title} p{node.start_page}-{node.end_page}, inside it:\n"
        view = render_structure(nodes, self.structure_budget - len(header), int(part or 1))
        outline = header + view.text if nodes else header + "(no subsections: read its pages)"
        result = {"doc_id": d.doc_id, "title": d.title, "page_count": d.page_count, "part": view.part,
                  "parts": view.parts, "outline": outline if nodes or header else "(no sections)"}
        steps = [f"Read a section: get_page_content(doc='{d.doc_id}', pages='START-END')."]
        if view.hidden:
            steps.append("Expand a [+N inside] section: get_document_structure(doc, node_id).")
        if view.part < view.parts:
            again = f", node_id='{node_id}'" if node_id else ""
            steps.append(f"Next part: get_document_structure(doc{again}, part={view.part + 1}).")
        return ok(result, steps)

    def get_page_content(self, doc: str | None = None, pages: Any = None) -> str:
        """Page text for specs like "5-7,12" under a character budget; says what was returned and what was not."""
        if pages is None or (isinstance(pages, str) and not pages.strip()):
            raise ToolError("INVALID_INPUT", "Give the pages to read in `pages`, e.g. '5-7,12'.", ["pages='1-3'"])
        d = self._ready(doc)
        spec = ",".join(str(p) for p in pages) if isinstance(pages, list) else str(pages)  # [5, 6] works too
        try:
            wanted, out_of_range = parse_page_ranges(spec, d.page_count)
        except PageRangeError as exc:
            raise ToolError("INVALID_INPUT", str(exc), ["pages='1-3'", f"pages='{d.page_count}'"]) from exc
        if not wanted:
            raise ToolError("INVALID_INPUT",
                            f"'{d.title}' has {d.page_count} pages; {format_page_ranges(out_of_range)} is out of range.",
                            [f"pages='1-{min(3, d.page_count)}'", f"pages='{d.page_count}'"])
        texts: list[dict[str, Any]] = []
        used = 0
        recognised = self.library.ocr_pages(d.doc_id)
        for page in self.library.pages(d.doc_id, wanted):
            body = reflow(page.text)
            if texts and used + len(body) > self.page_budget:
                break
            if not texts and len(body) > self.page_budget:
                body = body[: self.page_budget] + " […page cut at the size budget]"
            entry: dict[str, Any] = {"page": page.page, "text": body}
            if page.label and page.label != str(page.page):
                entry["label"] = page.label  # the printed page number, when it differs from the physical one
            if page.page in recognised:
                entry["text_source"] = "ocr"  # a scan: read by OCR, so a word may be misrecognised
            texts.append(entry)
            used += len(body)
            self.returned.add((d.doc_id, page.page))
        got = [t["page"] for t in texts]
        rest = [p for p in wanted if p not in set(got)]
        result: dict[str, Any] = {"doc_id": d.doc_id, "title": d.title, "returned": format_page_ranges(got),
                                  "pages": texts}
        steps = [f"Cite what you use as [{d.title}, p. N]."]
        if any("text_source" in t for t in texts):
            steps.append("Pages with text_source 'ocr' are scans read by OCR: quote them with care, a word or "
                         "figure may be misrecognised.")
        if rest:
            result["not_returned"] = format_page_ranges(rest)
            steps.insert(0, f"For the remaining pages, request pages='{format_page_ranges(rest)}'.")
        if out_of_range:
            result["skipped_out_of_range"] = format_page_ranges(out_of_range)
            steps.append(f"The document has {d.page_count} pages; pages beyond that were skipped.")
        return ok(result, steps)

    def search_hits(self, query: str, doc: str | None = None) -> list[dict[str, Any]]:
        """Search hits (doc_id, title, page, snippet) over one document or all in scope; nothing is recorded as
        shown to the model (the no-model answer and the ungrounded banner use this directly)."""
        docs = [self._ready(doc)] if doc and str(doc).strip() not in ("*", "all") else self.in_scope()
        titles = {d.doc_id: d.title for d in docs}
        hits = self.library.search(query, list(titles), limit=SEARCH_LIMIT)
        return [{"doc_id": h.doc_id, "title": titles.get(h.doc_id, ""), "page": h.page,
                 "snippet": " ".join(h.snippet.split()), "matched_all": h.matched_all} for h in hits]

    def search_document(self, doc: str | None = None, query: str = "") -> str:
        """Exact-term search over page text (one document, or all in scope when doc is omitted), with snippets.

        The document's id and title are said once, not on every hit: search results are among the bulkiest
        things a turn sends."""
        if not isinstance(query, str) or not query.strip():
            raise ToolError("INVALID_INPUT", "Give the exact words or figures to look for in `query`.", [])
        hits = self.search_hits(query, doc)
        self.hits_returned += len(hits)
        result: dict[str, Any] = {"query": query}
        if not hits:
            result["matched"] = "nothing"
            steps = ["Try other exact words or a figure, or read the outline: get_document_structure(doc=...)."]
            return ok({**result, "hits": []}, steps)
        result["matched"] = "all terms" if hits[0]["matched_all"] else "some of the terms"
        documents = {h["doc_id"]: h["title"] for h in hits}
        if len(documents) == 1:
            result.update(doc_id=hits[0]["doc_id"], title=hits[0]["title"])
            result["hits"] = [{"page": h["page"], "snippet": h["snippet"]} for h in hits]
        else:
            result["documents"] = documents
            result["hits"] = [{"doc_id": h["doc_id"], "page": h["page"], "snippet": h["snippet"]} for h in hits]
        steps = ["Read a matching page before citing it: get_page_content(doc=<doc_id>, pages='N')."]
        return ok(result, steps)


def _usage(name: str) -> list[str]:
    """The argument names a tool accepts, as an option for the model."""
    for schema in TOOL_SCHEMAS:
        if schema["function"]["name"] == name:
            params = schema["function"]["parameters"]["properties"]
            return [f"{name}({', '.join(params)})"]
    return []


def describe(name: str, args: Any, titles: dict[str, str] | None = None) -> str:
    """A line for the reading trail ("Read pages 12-14 of …", "Searched for 'EBITDA'")."""
    args = args if isinstance(args, dict) else {}
    doc = str(args.get("doc") or "")
    doc = (titles or {}).get(doc, doc)
    if name == "browse_documents":
        return "Listed the documents"
    if name == "get_document":
        return f"Looked up {doc}"
    if name == "get_document_structure":
        return f"Read the structure of {doc}" + (f" (section {args['node_id']})" if args.get("node_id") else "")
    if name == "get_page_content":
        return f"Read pages {args.get('pages', '?')} of {doc}"
    if name == "search_document":
        return f"Searched {doc + ' ' if doc else ''}for '{args.get('query', '')}'"
    return f"Called {name}"
