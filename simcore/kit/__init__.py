"""The game kit: the parts every cardlab game is built from (issue 20).

- ``simcore.kit.zones``: piles of cards with an owner and a visibility, and
  the one implementation of copying, observing and re-sampling them;
- ``simcore.kit.decisions``: the stack of named tasks, the question asked of
  a seat, and one documented encode/decode per action type;
- ``simcore.kit.cardstats``: the per-(seat, card) counters and the rows of
  the ``cards`` table;
- ``simcore.kit.state``: ``KitState``, a ``GameState`` made of the above,
  with ``clone``, ``observation``, ``resample_hidden``, ``legal_actions``,
  ``apply`` and the tracer written once; ``SeatZonesState``, one whose seats
  each own the same run of zones, with their accessors (``seat_zone``,
  ``hand_zone``, ``hand``);
- ``simcore.kit.game``: ``KitGame``, the generic game object;
- ``simcore.kit.view``: the designer's view of a kit state.

``docs/new-game.md`` walks through a game built with it; ``docs/game-kit.md``
says how the four registered games map onto it. The zones, decisions, card
statistics and state modules are compiled with the rules core.
"""
