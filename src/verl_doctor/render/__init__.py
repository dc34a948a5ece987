"""Renderers: each turns a Report into text for one audience. They never see raw log bytes
that have not passed through `sanitize.visible` (text) or their format's own escaping."""
