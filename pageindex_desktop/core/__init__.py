"""The engine: PDF reading, tree building, store, model calls, agent, citations. Never imports Qt."""
