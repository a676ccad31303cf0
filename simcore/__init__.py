"""simcore: the seeded rules core of cardlab.

Pure Python, no I/O and no Ray. Games implement the protocol in
``simcore.api``; ``simcore.registry`` finds them by id; ``simcore.play`` plays
one game with agents and returns a ``GameRecord``.
"""
