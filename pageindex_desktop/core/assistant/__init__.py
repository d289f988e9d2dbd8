"""The assistant: model client and settings, tools, the agent and chat session, citations, summaries."""
