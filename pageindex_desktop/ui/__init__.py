"""The window: widgets, item models, the render process's front end and the QThread workers over the engine.

Importing this package loads no Qt (the render process imports `ui.render_server` through it).
"""
