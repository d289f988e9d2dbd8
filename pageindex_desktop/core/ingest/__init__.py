"""The import pipeline: PDF reading in child processes, the import steps, the indexer and titles."""
