"""Schema migrations for the library database, tracked in `PRAGMA user_version`.

Each entry upgrades the schema by one version inside one transaction; add new steps at the end, never edit old ones.
"""

from __future__ import annotations

import sqlite3

from pageindex_desktop.core.errors import LibraryTooNew

MIGRATIONS: list[str] = [
    # 1: documents, pages with an external-content FTS5 index, nodes.
    """
    CREATE TABLE documents (
        id TEXT PRIMARY KEY,
        sha256 TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL DEFAULT '',
        file_name TEXT NOT NULL DEFAULT '',
        page_count INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL CHECK (status IN ('queued', 'importing', 'ready', 'failed')),
        error TEXT NOT NULL DEFAULT '',
        outline_source TEXT NOT NULL DEFAULT '',
        description TEXT NOT NULL DEFAULT '',
        image_only_pages INTEGER NOT NULL DEFAULT 0,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE TABLE pages (
        rowid INTEGER PRIMARY KEY,
        doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        page INTEGER NOT NULL,
        label TEXT NOT NULL DEFAULT '',
        text TEXT NOT NULL DEFAULT '',
        UNIQUE (doc_id, page)
    );
    CREATE VIRTUAL TABLE pages_fts USING fts5(
        text, content='pages', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2'
    );
    CREATE TRIGGER pages_ai AFTER INSERT ON pages BEGIN
        INSERT INTO pages_fts(rowid, text) VALUES (new.rowid, new.text);
    END;
    CREATE TRIGGER pages_ad AFTER DELETE ON pages BEGIN
        INSERT INTO pages_fts(pages_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
    END;
    CREATE TRIGGER pages_au AFTER UPDATE ON pages BEGIN
        INSERT INTO pages_fts(pages_fts, rowid, text) VALUES ('delete', old.rowid, old.text);
        INSERT INTO pages_fts(rowid, text) VALUES (new.rowid, new.text);
    END;
    CREATE TABLE nodes (
        doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        node_id TEXT NOT NULL,
        parent_id TEXT,
        ord INTEGER NOT NULL,
        level INTEGER NOT NULL,
        title TEXT NOT NULL,
        start_page INTEGER NOT NULL,
        end_page INTEGER NOT NULL,
        verified INTEGER NOT NULL DEFAULT 0,
        summary TEXT NOT NULL DEFAULT '',
        PRIMARY KEY (doc_id, node_id)
    );
    CREATE INDEX nodes_by_doc ON nodes(doc_id, ord);
    """,
    # 2: chats and their messages (per scope), and the LLM cache keyed by content hash.
    """
    CREATE TABLE chats (
        id INTEGER PRIMARY KEY,
        scope TEXT NOT NULL,
        title TEXT NOT NULL DEFAULT '',
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL
    );
    CREATE INDEX chats_by_scope ON chats(scope, updated_at);
    CREATE TABLE messages (
        id INTEGER PRIMARY KEY,
        chat_id INTEGER NOT NULL REFERENCES chats(id) ON DELETE CASCADE,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
        content TEXT NOT NULL DEFAULT '',
        tool_calls TEXT NOT NULL DEFAULT '[]',
        citations TEXT NOT NULL DEFAULT '[]',
        usage TEXT NOT NULL DEFAULT '{}',
        created_at REAL NOT NULL
    );
    CREATE INDEX messages_by_chat ON messages(chat_id, id);
    CREATE TABLE llm_cache (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        created_at REAL NOT NULL
    );
    """,
    # 3: where each node's summary came from: 'model', 'excerpt' (the model's summary could not be had), 'text'
    # (a short section's own text) or '' (none yet).
    """
    ALTER TABLE nodes ADD COLUMN summary_source TEXT NOT NULL DEFAULT '';
    """,
    # 4: a note shown with the document, today what MuPDF's repair of a damaged file lost ("repaired: 25 of 28
    # pages readable"); '' when there is nothing to say.
    """
    ALTER TABLE documents ADD COLUMN note TEXT NOT NULL DEFAULT '';
    """,
    # 5: where the reader left each document (core/library/positions.py): the page shown, how far the viewport's top is
    # from that page's top (PDF points, negative in the gap above it), the zoom mode ('width', 'page', '' for a
    # fixed zoom) and factor. Gone with the document.
    """
    CREATE TABLE reading_positions (
        doc_id TEXT PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
        page INTEGER NOT NULL,
        top_points REAL NOT NULL DEFAULT 0,
        fit TEXT NOT NULL DEFAULT 'width',
        zoom REAL NOT NULL DEFAULT 1,
        updated_at REAL NOT NULL
    );
    CREATE INDEX reading_positions_by_time ON reading_positions(updated_at);
    """,
    # 6: 1 when the user renamed the document: a re-index keeps their title instead of the one extraction finds.
    """
    ALTER TABLE documents ADD COLUMN renamed INTEGER NOT NULL DEFAULT 0;
    """,
    # 7: 1 when a page's text was recognised by OCR from its image (core/ingest/ocr_read.py), not read from a text layer;
    # the tools say so beside the text.
    """
    ALTER TABLE pages ADD COLUMN ocr INTEGER NOT NULL DEFAULT 0;
    """,
    # 8: where each node came from ('' the document's tree source, 'model' a checked heading the index model
    # proposed: core/assistant/expand.py, core/assistant/model_tree.py), and the model tokens each document's follow-up jobs used.
    """
    ALTER TABLE nodes ADD COLUMN source TEXT NOT NULL DEFAULT '';
    CREATE TABLE model_usage (
        doc_id TEXT NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
        task TEXT NOT NULL,
        calls INTEGER NOT NULL DEFAULT 0,
        prompt_tokens INTEGER NOT NULL DEFAULT 0,
        completion_tokens INTEGER NOT NULL DEFAULT 0,
        updated_at REAL NOT NULL,
        PRIMARY KEY (doc_id, task)
    );
    """,
]


def migrate(conn: sqlite3.Connection) -> int:
    """Bring the database up to the newest schema; returns the resulting version.

    Raises LibraryTooNew (a sentence for the user, not an internal error) for a schema newer than this code's."""
    version = _version(conn)
    if version > len(MIGRATIONS):
        raise LibraryTooNew(
            f"The library was written by a newer version of PageIndex Desktop (schema {version}); please upgrade."
        )
    while version < len(MIGRATIONS):
        # Another process opening the same new library may be migrating too: the version is read again inside
        # the write lock, so each step runs once whoever wins (two `list`s on a fresh home used to collide on
        # "table documents already exists").
        conn.execute("BEGIN IMMEDIATE")
        try:
            version = _version(conn)
            if version < len(MIGRATIONS):
                for statement in _statements(MIGRATIONS[version]):
                    conn.execute(statement)
                version += 1
                conn.execute(f"PRAGMA user_version = {version}")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")
    return len(MIGRATIONS)


def _version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _statements(script: str) -> list[str]:
    """Split a migration script into statements, keeping trigger bodies (BEGIN … END;) whole."""
    statements: list[str] = []
    current: list[str] = []
    for line in script.strip().splitlines():
        current.append(line)
        joined = "\n".join(current).strip()
        if joined.endswith(";") and sqlite3.complete_statement(joined):
            statements.append(joined)
            current = []
    if "\n".join(current).strip():
        statements.append("\n".join(current).strip())
    return statements
