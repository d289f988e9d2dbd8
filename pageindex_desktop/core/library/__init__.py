"""The library: the SQLite store, its migrations, files, locks, reading positions, chats and search."""
