"""Copier asks its questions through questionary and prompt_toolkit, whose validation toolbar is
one line high: a validator's message longer than the terminal is cut mid-word ("use 1-64 lowercase
letters, digits and sing"). Made to wrap instead. Guarded: a prompt_toolkit without that toolbar
keeps its own behaviour. Imported only when a render asks questions.
"""

from __future__ import annotations


def wrap_validation_errors() -> None:
    try:
        from prompt_toolkit.filters import has_validation_error
        from prompt_toolkit.layout import ConditionalContainer, Window
        from prompt_toolkit.widgets import toolbars
    except ImportError:  # pragma: no cover
        return
    toolbar = getattr(toolbars, "ValidationToolbar", None)
    if toolbar is None or getattr(toolbar, "_osmosis_wraps", False):
        return
    original = toolbar.__init__

    def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        original(self, *args, **kwargs)
        if hasattr(self, "control"):
            # as many rows as the message needs once wrapped, and no more
            self.container = ConditionalContainer(
                content=Window(self.control, wrap_lines=True, dont_extend_height=True), filter=has_validation_error,
            )

    toolbar.__init__ = __init__
    toolbar._osmosis_wraps = True
