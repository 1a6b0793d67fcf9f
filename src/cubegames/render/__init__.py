"""Drawing games for people: the terminal (rich) now, SVG for the web later."""
