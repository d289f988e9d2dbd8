"""The agent's instructions (design §5), kept in one place so their size is easy to watch: every turn re-sends them."""

from __future__ import annotations

from pageindex_desktop.core.library.store import DocumentRecord

SYSTEM_PROMPT = """Answer questions about the user's PDF documents using only what your tools return.
- Over 20 pages: call get_document_structure first, then get_page_content for tight page ranges of the right sections.
- search_document finds exact names, figures and terms; read a page before citing it.
- Never invent ids or pages; on a tool error, use its options instead of retrying blindly.
- Never answer from general knowledge. If the documents do not answer the question, say so.
- Cite every claim, figure by figure, right after it as [Document title, p. N]: N is a page's "page" number from
  the tools (not its printed "label"); cite only pages you read. You may name the section as well,
  [Document title, § Section title, p. N], or only the section, [Document title, § Section title], when you read it.
- Be concise."""

MAX_LISTED = 8


def system_prompt(docs: list[DocumentRecord]) -> str:
    """The instructions plus the documents in scope (a short list saves a browse_documents turn)."""
    if not docs:
        return SYSTEM_PROMPT + "\nNo documents are available in this chat."
    lines = [f'- "{d.title}" (doc id {d.doc_id}, {d.page_count} pages)' for d in docs[:MAX_LISTED]]
    more = ""
    if len(docs) > MAX_LISTED:
        more = f"\n(and {len(docs) - MAX_LISTED} more: use browse_documents)"
    return SYSTEM_PROMPT + "\nDocuments in this chat:\n" + "\n".join(lines) + more


SUMMARY_PROMPT = """Summarize sections of the document "{title}" for a reader deciding which pages to open.
For each section below write 1-2 factual sentences (at most 40 words) naming its main topics, figures and terms.{description_task}
Reply with one JSON object only, no prose: {{"summaries": {{"<id>": "<summary>", ...}}{description_key}}}

{sections}"""

DESCRIPTION_TASK = '\nAlso write "description": one sentence saying what the whole document is.'
DESCRIPTION_KEY = ', "description": "<one sentence>"'

JUDGE_PROMPT = """Judge whether each numbered claim below is backed by its passage (text from the page the claim cites).
- "supported": the passage says what the claim says (same figures, same direction).
- "contradicted": the passage says something that conflicts with the claim.
- "not_stated": the passage neither says nor contradicts it.
"quote" is the shortest stretch (at most 30 words) copied exactly from the passage that shows it; for "not_stated", the passage's words closest to the claim.
Reply with one JSON object only, no prose: {{"verdicts": [{{"id": 1, "verdict": "supported|contradicted|not_stated", "quote": "<exact words copied from the passage>"}}]}}

{items}"""

EXPAND_PROMPT = """Below are long sections of the document "{title}", page by page ("--- page N ---" starts page N).
For each section, list the headings printed inside it that start its parts: copy each heading's words exactly as
printed, with the page it is printed on. Only headings printed in the text, in page order; none of the section's own
title; no running headers, figure captions or table rows. An empty list when the section has no such headings.
Reply with one JSON object only, no prose: {{"sections": {{"<id>": [{{"title": "<heading as printed>", "page": N}}, ...]}}}}

{sections}"""

MODEL_TREE_PROMPT = """Below are pages {first}-{last} of the document "{title}" ("--- page N ---" starts page N). It has no
table of contents. List the headings printed on these pages that start its chapters and sections: copy each heading's
words exactly as printed, with the page it is printed on and its level (1 chapter, 2 section, 3 subsection). Only
headings printed in the text, in page order; no running headers, figure captions or table rows.
Reply with one JSON object only, no prose: {{"headings": [{{"title": "<heading as printed>", "page": N, "level": 1}}, ...]}}

{pages}"""
