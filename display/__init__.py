"""The table display, drawn with pygame."""
