"""The reader: the page view and render process, the outline panel, find, links and history."""
