"""The assistant pane the window embeds; it lives in the `ui/assistant` package (objectName `assistantPane`,
`focus_question()` for Ctrl+L, `citationActivated(doc_id, page, passage)`)."""

from pageindex_desktop.ui.assistant import AssistantPane

__all__ = ["AssistantPane"]
