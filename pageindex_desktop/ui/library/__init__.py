"""The library sidebar: its model, delegate, sync with the store and the document actions."""
