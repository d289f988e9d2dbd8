"""The assistant pane and its parts: transcript rendering, citation links, reading trail, and the worker thread
that runs questions. `AssistantPane` is what the window embeds."""

from pageindex_desktop.ui.assistant.pane import AssistantPane

__all__ = ["AssistantPane"]
