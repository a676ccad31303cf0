"""KitState: a simultaneous move's committed choices stay hidden until revealed and are redrawn by re-sampling.

``Duel`` is a toy kit game: two seats hold two cards each; in each of two
rounds both choose a card at once (seat 0 answers first, its choice waits
committed and hidden), then both cards are revealed and the higher one
scores a point for its seat; its one card counter counts the cards played.
"""

from __future__ import annotations

from simcore.api import TraceSink
from simcore.kit.cardstats import CardStats
from simcore.kit.decisions import NO_CHOICE, ActionTypes, Task, TaskKinds
from simcore.kit.state import KitState
from simcore.kit.zones import HIDDEN, OWNER_ONLY, PUBLIC, TABLE, Zone, move_card
from simcore.rng import Generator

ACTIONS = ActionTypes()
CARD = ACTIONS.add("card", ("position",))
TASKS = TaskKinds()
CHOOSE = TASKS.add("choose")
REVEAL = TASKS.add("reveal")
PILE, PLAYED = 0, 1


class DuelState(KitState):
    """The toy game of the module docstring."""

    def __init__(self, trace: TraceSink | None = None) -> None:
        super().__init__(2, Generator(1), trace, 0, 1, CardStats(2, 1, 6))

    @staticmethod
    def new_game(seed: int) -> DuelState:
        """Shuffle six cards, deal two to each seat, ask seat 0 first."""
        state = DuelState()
        state.rng = Generator(seed)
        pile = Zone("pile", TABLE, HIDDEN, pool=0)
        state.add_zone(pile)
        state.add_zone(Zone("played", TABLE, PUBLIC))
        for seat in (0, 1):
            state.add_zone(Zone("hand", seat, OWNER_ONLY, pool=0))
        pile.extend(list(range(6)))
        pile.shuffle(state.rng)
        for _ in range(2):
            for seat in (0, 1):
                move_card(pile, len(pile) - 1, state.zones[2 + seat])
        state.push(Task(REVEAL, -1))
        state.push(Task(CHOOSE, 1))
        state.push(Task(CHOOSE, 0))
        state.run()
        return state

    def blank(self) -> DuelState:
        """An empty duel (``clone`` fills it)."""
        return DuelState()

    def choices_for(self, seat: int) -> list[int]:
        """Any card of the seat's hand."""
        return [CARD.encode(position) for position in range(len(self.zones[2 + seat]))]

    def perform(self, task: Task, choice: int) -> None:
        """Choose (ask, then commit the answer) or reveal both choices and score."""
        if task.kind == CHOOSE:
            if choice == NO_CHOICE:
                self.ask(task, self.choices_for(task.seat))
            else:
                self.decisions.commit(task.seat, choice)
            return
        cards = [self.zones[2 + seat].cards[CARD.value(self.decisions.committed[seat])] for seat in (0, 1)]
        for seat in (0, 1):
            hand = self.zones[2 + seat]
            move_card(hand, hand.cards.index(cards[seat]), self.zones[PLAYED])
            self.stats.add(seat, 0, cards[seat])  # the one counter: cards played
        winner = 0 if cards[0] > cards[1] else 1
        self.set_seat_number(winner, 0, self.seat_number(winner, 0) + 1)
        self.decisions.clear_commitments()
        if len(self.zones[2]):
            self.push(Task(REVEAL, -1))
            self.push(Task(CHOOSE, 1))
            self.push(Task(CHOOSE, 0))
        else:
            self.end("hands_empty")


def test_a_committed_choice_is_hidden_from_the_other_seat_until_the_reveal() -> None:
    state = DuelState.new_game(3)
    before = state.observation(1)
    state.apply(CARD.encode(0))
    other = state.clone()
    other_choice = other.decisions.copy()
    assert state.decisions.committed == [CARD.encode(0), NO_CHOICE] == other_choice.committed
    first = DuelState.new_game(3)
    first.apply(CARD.encode(1))
    # Seat 1 cannot tell which card seat 0 chose, only that it chose.
    assert first.observation(1) == state.observation(1) != before
    assert first.observation(0) != state.observation(0)
    state.apply(CARD.encode(0))
    assert state.decisions.committed == [NO_CHOICE, NO_CHOICE] and len(state.zones[PLAYED]) == 2


def test_re_sampling_redraws_another_seats_committed_choice_among_its_answers_and_keeps_the_seats_own() -> None:
    state = DuelState.new_game(5)
    state.apply(CARD.encode(1))
    redrawn = set()
    for seed in range(30):
        copy = state.resample_hidden(1, Generator(seed))
        assert copy.observation(1) == state.observation(1)
        redrawn.add(copy.decisions.committed[0])
        assert state.resample_hidden(0, Generator(seed)).decisions.committed[0] == CARD.encode(1)
    assert redrawn == {CARD.encode(0), CARD.encode(1)}


def test_a_clone_of_a_duel_plays_on_like_the_original() -> None:
    state = DuelState.new_game(8)
    state.apply(CARD.encode(1))
    copy = state.clone()
    for game in (state, copy):
        while not game.is_terminal():
            game.apply(game.legal_actions()[0])
    assert copy.observation(0) == state.observation(0) and copy.seat_numbers == state.seat_numbers
    assert state.end_reason() == "hands_empty" and sum(state.seat_numbers) == 2


def test_a_clone_keeps_the_card_counters_and_a_re_sampled_copy_counts_into_a_scratch_the_game_never_reads() -> None:
    state = DuelState.new_game(8)
    state.apply(CARD.encode(0))
    state.apply(CARD.encode(0))  # the first round revealed: two cards played, counted
    counted = list(state.stats.counts)
    assert sum(counted) == 2
    clone = state.clone()
    assert list(clone.stats.counts) == counted and clone.stats is not state.stats
    redrawn = state.resample_hidden(0, Generator(4))
    # The re-sampled copy does not hold the real counters (they show what the
    # other seat played and drew): it counts into the shape's shared scratch.
    assert redrawn.stats is state.stats.scratch() is clone.stats.scratch()
    for game in (redrawn, clone):
        while not game.is_terminal():
            game.apply(game.legal_actions()[0])
    assert list(state.stats.counts) == counted  # the real game's counters untouched
    assert sum(clone.stats.counts) == 4


class CopiesDuelState(DuelState):
    """The duel with cards 0-5 as three pairs of copies (types 0, 0, 1, 1, 2, 2)."""

    def blank(self) -> CopiesDuelState:
        """An empty duel (``clone`` fills it)."""
        return CopiesDuelState()

    def observe_as(self) -> list[int] | None:
        """Each card as its type."""
        return [0, 0, 1, 1, 2, 2]


def test_a_state_with_observe_as_shows_its_seen_cards_as_observe_as_maps_them() -> None:
    plain = DuelState.new_game(4)
    copies = CopiesDuelState()
    copies.zones = plain.clone().zones
    copies.decisions = plain.decisions.copy()
    copies.current_player = plain.current_player
    hand = tuple(copies.zones[2].cards)
    assert plain.observation(0)[5][2] == hand
    assert copies.observation(0)[5][2] == tuple(card // 2 for card in hand)
    assert copies.observation(1)[5][2] == (-1, -1)  # the other hand: unseen either way
    assert copies.clone().observation(0) == copies.observation(0)


def test_every_game_s_seat_zones_are_one_run_per_seat_with_the_seat_s_hand_in_it() -> None:
    """``SeatZonesState``: zone ``which`` of a seat is the seat's own, the runs follow each other,
    and ``hand``/``hand_zone`` are the zone called "hand" (Theseus: "hand") of that seat, in clones too."""
    from simcore.kit.state import SeatZonesState
    from simcore.registry import CARD_FACES, GAMES

    # The shipped games (the ones with card faces): tests register games of their own, such as the
    # impact tests' token duel, which need not be built on the kit's state.
    for game_id in sorted(CARD_FACES):
        game = GAMES[game_id]
        config = game.configure(game.default_parameters())
        n_players = max(2, game.info.min_players)
        state = game.new_state(config, n_players, 5)
        assert isinstance(state, SeatZonesState), game_id
        copy = state.clone()
        assert isinstance(copy, SeatZonesState)
        for seat in range(n_players):
            run = [state.seat_zone(seat, which) for which in range(state.zones_per_seat)]
            assert all(zone.owner == seat for zone in run), game_id
            assert state.zones.index(run[0]) == state.first_seat_zone + state.zones_per_seat * seat
            assert state.seat_zone_index(seat, 1) == state.zones.index(run[1])
            assert state.hand_zone(seat) is run[state.hand_zone_index] and state.hand_zone(seat).name == "hand"
            assert state.hand(seat) is state.hand_zone(seat).cards
            assert copy.hand(seat) == state.hand(seat) and copy.hand_zone(seat) is not state.hand_zone(seat)
