"""`python -m cubegames` runs the command line."""

from cubegames.cli import main

main()
