"""Adventuring Party powers, and the eighth party card (Sanctum map, see test_turn.py)."""

from __future__ import annotations

from simcore.games.ring_of_chaos import GAME
from simcore.games.ring_of_chaos.config import NO_POWER, POWER_KEYS
from simcore.games.ring_of_chaos.rules import (
    DEAD,
    DEFENDERS_POWER,
    DISCARD_PILE,
    DRAW_CARD,
    DRAW_PILE,
    FULL,
    K_COUNTER,
    K_DEFENDERS_DISCARD,
    K_DEFENDERS_HERO,
    K_DRAFT,
    K_HELL_OFFER,
    K_MAIN,
    K_RAISE,
    PASS,
    PLAY,
    PLAY_AS_RANGED,
    STEAL_CARD,
    WOUNDED,
    RingState,
)

from .helpers import DEFAULT, act, build, card, configured, hand_names, hero, play, position_of

NEUTRAL = "nameless_band"
FULL_4 = (2, 2, 2, 2)


def _playable(state: RingState, name: str) -> bool:
    return PLAY.encode(position_of(state, state.current_player, name)) in state.legal_actions()


def test_brute_squad_melee_hits_count_twice_and_its_ranged_hits_once() -> None:
    state = build(["brute_squad", NEUTRAL], [1, 2], [["sword"], []])
    play(state, "sword")
    act(state, 1)
    act(state, hero("wizard"))
    assert state.status(1, hero("wizard")) == DEAD  # Full Strength straight to Dead
    state = build(["brute_squad", NEUTRAL], [1, 15], [["bow"], []])
    play(state, "bow")
    act(state, 1)
    act(state, hero("wizard"))
    assert state.status(1, hero("wizard")) == WOUNDED


def test_a_parried_brute_squad_attack_does_nothing() -> None:
    state = build(["brute_squad", NEUTRAL], [1, 2], [["sword"], ["parry"]])
    play(state, "sword")
    act(state, 1)
    act(state, hero("wizard"))
    act(state, position_of(state, 1, "parry"))
    assert state.statuses(1) == [FULL] * 4


def test_death_from_above_plays_any_attack_card_as_a_standard_ranged_attack_of_any_class() -> None:
    state = build(["death_from_above", NEUTRAL], [1, 15], [["sword_of_slaying"], ["dodge", "parry"]],
                  heroes=[(2, 2, 0, 2), (2, 2, 2, 2)])
    position = position_of(state, 0, "sword_of_slaying")
    assert PLAY.encode(position) not in state.legal_actions()  # not as itself: no Adjacent target
    act(state, PLAY_AS_RANGED.encode(position))
    assert list(state.legal_actions()) == [1]  # a non-Adjacent party
    act(state, 1)
    act(state, hero("rogue"))
    assert state.decisions.asked.kind == K_COUNTER
    assert sorted(state.legal_actions()) == [position_of(state, 1, "dodge"), PASS]
    act(state, PASS)
    assert state.status(1, hero("rogue")) == WOUNDED


def test_other_parties_cannot_play_cards_as_ranged_attacks() -> None:
    state = build([NEUTRAL, NEUTRAL], [1, 15], [["sword"], []])
    assert not any(PLAY_AS_RANGED.matches(action) for action in state.legal_actions())


def test_defenders_of_the_faith_discard_two_cards_as_a_bonus_action_to_raise_a_hero_one_level() -> None:
    state = build(["defenders_of_the_faith", NEUTRAL], [13, 16], [["sword", "bow", "dodge"], []],
                  heroes=[(2, 0, 1, 2), (2, 2, 2, 2)])
    act(state, DEFENDERS_POWER)
    assert state.decisions.asked.kind == K_DEFENDERS_HERO
    assert sorted(state.legal_actions()) == [hero("fighter"), hero("rogue")]
    act(state, hero("rogue"))
    assert state.decisions.asked.kind == K_DEFENDERS_DISCARD
    act(state, position_of(state, 0, "sword"))
    act(state, position_of(state, 0, "bow"))
    assert state.status(0, hero("rogue")) == FULL and hand_names(state, 0) == {"dodge": 1}
    assert DEFENDERS_POWER not in state.legal_actions()  # the Bonus Action is used


def test_defenders_of_the_faith_need_two_cards_and_a_hero_below_full_strength() -> None:
    state = build(["defenders_of_the_faith", NEUTRAL], [13, 16], [["sword"], []], heroes=[(2, 0, 1, 2), FULL_4])
    assert DEFENDERS_POWER not in state.legal_actions()
    state = build(["defenders_of_the_faith", NEUTRAL], [13, 16], [["sword", "bow"], []])
    assert DEFENDERS_POWER not in state.legal_actions()


def test_a_dead_hero_raised_by_defenders_of_the_faith_can_be_negated_by_hell_raisers() -> None:
    state = build(["defenders_of_the_faith", "hell_raisers"], [13, 16], [["sword", "bow"], ["dodge"]],
                  heroes=[(2, 0, 2, 2), FULL_4])
    act(state, DEFENDERS_POWER)
    act(state, hero("fighter"))
    act(state, 0)
    act(state, 0)
    assert state.decisions.asked.kind == K_HELL_OFFER and state.current_player == 1
    act(state, 0)
    assert state.status(0, hero("fighter")) == DEAD and state.hand(1) == []


def test_den_of_thieves_may_take_a_random_card_from_any_player_instead_of_drawing() -> None:
    state = build(["den_of_thieves", NEUTRAL, NEUTRAL], [13, 15, 17], [[], ["fireball"], []])
    assert DRAW_CARD in state.legal_actions() and STEAL_CARD.encode(1) in state.legal_actions()
    assert STEAL_CARD.encode(2) not in state.legal_actions()  # an empty hand
    act(state, STEAL_CARD.encode(1))
    assert hand_names(state, 0) == {"fireball": 1} and state.hand(1) == []
    assert DRAW_CARD not in state.legal_actions()  # that was the Attack Action
    other = build([NEUTRAL, NEUTRAL], [13, 15], [[], ["fireball"]])
    assert not any(STEAL_CARD.matches(action) for action in other.legal_actions())


def test_dread_legion_uses_class_cards_of_dead_heroes_but_never_resurrection() -> None:
    state = build(["dread_legion", NEUTRAL], [1, 2], [["sword", "resurrection"], []], heroes=[(2, 0, 2, 2), FULL_4])
    assert _playable(state, "sword") and not _playable(state, "resurrection")
    other = build([NEUTRAL, NEUTRAL], [1, 2], [["sword", "resurrection"], []], heroes=[(2, 0, 2, 2), FULL_4])
    assert not _playable(other, "sword") and _playable(other, "resurrection")


def test_giant_slayers_draw_a_card_after_each_successful_attack_too_late_to_counter_it() -> None:
    state = build([NEUTRAL, "giant_slayers"], [1, 2], [["sword"], []], draw_top=["parry"])
    play(state, "sword")
    act(state, 1)
    act(state, hero("cleric"))
    assert state.status(1, hero("cleric")) == WOUNDED  # no counter question: the Parry came afterwards
    assert hand_names(state, 1) == {"parry": 1}


def test_giant_slayers_draw_nothing_when_the_attack_is_countered() -> None:
    state = build([NEUTRAL, "giant_slayers"], [1, 2], [["sword"], ["parry"]], draw_top=["dodge"])
    play(state, "sword")
    act(state, 1)
    act(state, hero("cleric"))
    act(state, 0)
    assert state.hand(1) == [] and state.zones[DRAW_PILE].cards[-1] == card("dodge")


def test_hell_raisers_negate_a_resurrection_with_a_random_card_from_their_hand() -> None:
    state = build([NEUTRAL, "hell_raisers"], [13, 16], [["resurrection"], ["sword"]], heroes=[(2, 0, 2, 2), FULL_4])
    play(state, "resurrection")
    assert state.decisions.asked.kind == K_HELL_OFFER and state.current_player == 1
    act(state, 0)
    assert state.status(0, hero("fighter")) == DEAD and state.hand(1) == []
    assert card("sword") in state.zones[DISCARD_PILE].cards
    assert state.decisions.asked.kind == K_MAIN and state.stats.get(0, 3, card("resurrection")) == 1


def test_hell_raisers_negate_necromancy_and_may_let_it_pass() -> None:
    state = build([NEUTRAL, "hell_raisers"], [1, 2], [["necromancy"], ["sword"]],
                  heroes=[(2, 0, 2, 2), (0, 2, 2, 2)])
    play(state, "necromancy")
    act(state, PASS)
    assert state.decisions.asked.kind == K_RAISE
    act(state, hero("fighter"))
    act(state, hero("cleric"))
    assert state.status(0, hero("fighter")) == WOUNDED and state.status(1, hero("cleric")) == WOUNDED


def test_when_two_parties_have_the_hell_raisers_power_the_second_may_negate_a_raise_the_first_let_pass() -> None:
    config = configured({"parties.brute_squad.power": "hell_raisers"})
    hands = [["resurrection"], ["sword"], ["bow"]]
    state = build([NEUTRAL, "brute_squad", "hell_raisers"], [13, 15, 17], hands, heroes=[(2, 0, 2, 2)],
                  config=config)
    play(state, "resurrection")
    assert state.decisions.asked.kind == K_HELL_OFFER and state.current_player == 1  # clockwise from the caster
    act(state, PASS)
    assert state.decisions.asked.kind == K_HELL_OFFER and state.current_player == 2
    act(state, 0)
    assert state.status(0, hero("fighter")) == DEAD and state.hand(2) == [] and hand_names(state, 1) == {"sword": 1}
    state = build([NEUTRAL, "brute_squad", "hell_raisers"], [13, 15, 17], hands, heroes=[(2, 0, 2, 2)],
                  config=config)
    play(state, "resurrection")
    act(state, PASS)
    act(state, PASS)  # both let it pass: the Hero rises
    assert state.decisions.asked.kind == K_RAISE
    act(state, hero("fighter"))
    assert state.status(0, hero("fighter")) == WOUNDED


def test_without_cards_hell_raisers_cannot_negate() -> None:
    state = build([NEUTRAL, "hell_raisers"], [13, 16], [["resurrection"], []], heroes=[(2, 0, 2, 2), FULL_4])
    play(state, "resurrection")
    assert state.decisions.asked.kind == K_RAISE


def test_the_eighth_party_card_has_no_power_and_is_left_out_of_the_draft_unless_enabled() -> None:
    assert DEFAULT.party_keys[-1] == "nameless_band" and len(DEFAULT.party_keys) == 8
    assert DEFAULT.party_keys.index("nameless_band") not in DEFAULT.draft_parties
    assert len(DEFAULT.draft_parties) == 7
    enabled = configured({"parties.nameless_band.in_draft": True})
    assert len(enabled.draft_parties) == 8
    seen: set[int] = set()
    for seed in range(30):
        state = GAME.new_state(enabled, 6, seed)
        while state.decisions.asked.kind == K_DRAFT:
            seen.update(state.legal_actions())
            state.apply(state.legal_actions()[0])
    assert enabled.party_keys.index("nameless_band") in seen


# ---------------------------------------------------- powers as parameters (cards.toml)


def test_every_party_in_the_draft_has_its_own_power_by_default() -> None:
    for index, key in enumerate(DEFAULT.party_keys):
        expected = POWER_KEYS.index(key) if key in POWER_KEYS else NO_POWER
        assert DEFAULT.party_powers[index] == expected


def test_a_party_given_another_partys_power_plays_with_that_power() -> None:
    config = configured({"parties.giant_slayers.power": "brute_squad"})
    state = build(["giant_slayers", NEUTRAL], [1, 2], [["sword"], []], config=config)
    play(state, "sword")
    act(state, 1)
    act(state, hero("wizard"))
    assert state.status(1, hero("wizard")) == DEAD  # Brute Squad's two hits
    state = build([NEUTRAL, "giant_slayers"], [1, 2], [["sword"], []], draw_top=["parry"], config=config)
    play(state, "sword")
    act(state, 1)
    act(state, hero("cleric"))
    assert state.hand(1) == []  # and no longer the Giant Slayers' draw


def test_a_party_whose_power_is_none_has_no_power() -> None:
    config = configured({"parties.den_of_thieves.power": "none"})
    state = build(["den_of_thieves", NEUTRAL], [13, 15], [[], ["fireball"]], config=config)
    assert DRAW_CARD in state.legal_actions()
    assert not any(STEAL_CARD.matches(action) for action in state.legal_actions())


def test_brute_squad_melee_hits_set_to_one_counts_a_melee_hit_once() -> None:
    config = configured({"powers.brute_squad.melee_hits": 1})
    state = build(["brute_squad", NEUTRAL], [1, 2], [["sword"], []], config=config)
    play(state, "sword")
    act(state, 1)
    act(state, hero("wizard"))
    assert state.status(1, hero("wizard")) == WOUNDED
    assert state.power_used[0] == 0  # no second hit, no use of the power


def test_giant_slayers_draw_as_many_cards_per_hit_as_the_power_says() -> None:
    for cards_per_hit in (0, 2):
        config = configured({"powers.giant_slayers.cards_per_hit": cards_per_hit})
        state = build([NEUTRAL, "giant_slayers"], [1, 2], [["sword"], []], draw_top=["parry", "dodge"], config=config)
        play(state, "sword")
        act(state, 1)
        act(state, hero("cleric"))
        assert state.status(1, hero("cleric")) == WOUNDED
        assert len(state.hand(1)) == cards_per_hit
        assert state.power_used[1] == (1 if cards_per_hit else 0)


def test_defenders_of_the_faith_discard_as_many_cards_as_the_power_says() -> None:
    config = configured({"powers.defenders_of_the_faith.cards_to_discard": 1})
    state = build(["defenders_of_the_faith", NEUTRAL], [13, 16], [["sword"], []],
                  heroes=[(2, 0, 1, 2), FULL_4], config=config)
    assert DEFENDERS_POWER in state.legal_actions()  # one card is enough now
    act(state, DEFENDERS_POWER)
    act(state, hero("rogue"))
    assert state.decisions.asked.kind == K_DEFENDERS_DISCARD
    act(state, position_of(state, 0, "sword"))
    assert state.status(0, hero("rogue")) == FULL and state.hand(0) == []
    assert state.decisions.asked.kind == K_MAIN
    config = configured({"powers.defenders_of_the_faith.cards_to_discard": 3})
    state = build(["defenders_of_the_faith", NEUTRAL], [13, 16], [["sword", "bow"], []],
                  heroes=[(2, 0, 1, 2), FULL_4], config=config)
    assert DEFENDERS_POWER not in state.legal_actions()  # two cards cannot pay three
