/* Divvy the Loot, played out in plain C by two random agents: the speed
 * reference line of `cardlab bench` (how fast the same game can be played on
 * this machine at all). It follows simcore/games/divvy/rules.py step for step,
 * with the same generator (xoshiro128**, simcore/rng.py), the same legal
 * actions in the same order and the same random agent, so that a game seed and
 * two agent seeds give the very game that `play_game` plays; the test
 * tests/bench/test_c_reference.py checks that on hundreds of seeds.
 *
 * Nothing is recorded: this is the engine limit, not a shard task.
 *
 * Build: make reference   (cc -O2 -o build/divvy_playout bench/divvy_playout.c)
 * Usage: divvy_playout CONFIG --games N    plays N games (seeds 0..N-1 mixed by
 *                                          splitmix64), prints "games seconds decisions"
 *        divvy_playout CONFIG --check      reads "game_seed agent0_seed agent1_seed"
 *                                          lines on stdin, prints per game
 *                                          "coins0 coins1 decisions end turns"
 * CONFIG (written by workers/bench.py from the game's compiled parameters):
 *   hand_size hand_limit rounds treasure_target min_chaff bonus_draw carry_over_ties
 *   then one line per card kind: suit value icon d20 coins copies
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_CARDS 512 /* every card of the deck, all copies */
#define MAX_KINDS 256
#define MAX_ACTIONS 4096

enum { DISCARD, LEAD, CHAFF, BRAWL, REPLACE, REINFORCE, OVER };
enum { END_NONE, END_ROUNDS, END_DECK };

typedef struct {
    int hand_size, hand_limit, rounds, treasure_target, min_chaff, bonus_draw, carry_over_ties;
    int kinds, deck_size;
    int suit[MAX_KINDS], value[MAX_KINDS], icon[MAX_KINDS], d20[MAX_KINDS], coins[MAX_KINDS];
    int deck[MAX_CARDS];
} Config;

/* ---- simcore/rng.py: xoshiro128** on 32-bit words ---------------------------------- */

typedef struct { uint32_t s0, s1, s2, s3; } Generator;

static uint32_t mix32(uint32_t value) {
    value = (value ^ (value >> 16)) * 0x85EBCA6Bu;
    value = (value ^ (value >> 13)) * 0xC2B2AE35u;
    return value ^ (value >> 16);
}

static void seed_generator(Generator *rng, uint64_t seed) {
    uint32_t counter = (uint32_t)((seed ^ (seed >> 32)) & 0xFFFFFFFFu);
    uint32_t words[4];
    for (int index = 0; index < 4; index++) {
        counter = counter + 0x9E3779B9u + (uint32_t)((seed >> (16 * index)) & 0xFFFF);
        words[index] = mix32(counter);
    }
    if (!(words[0] | words[1] | words[2] | words[3])) words[0] = 1;
    rng->s0 = words[0]; rng->s1 = words[1]; rng->s2 = words[2]; rng->s3 = words[3];
}

static uint32_t next_u32(Generator *rng) {
    uint32_t scrambled = rng->s1 * 5;
    uint32_t result = ((scrambled << 7) | (scrambled >> 25)) * 9;
    uint32_t shifted = rng->s1 << 9;
    rng->s2 ^= rng->s0;
    rng->s3 ^= rng->s1;
    rng->s1 ^= rng->s2;
    rng->s0 ^= rng->s3;
    rng->s2 ^= shifted;
    rng->s3 = (rng->s3 << 11) | (rng->s3 >> 21);
    return result;
}

static uint32_t below(Generator *rng, uint32_t bound) { /* Lemire's method, unbiased */
    uint64_t product = (uint64_t)next_u32(rng) * bound;
    uint32_t low = (uint32_t)product;
    if (low < bound) {
        uint32_t threshold = (uint32_t)((0x100000000ull - bound) % bound);
        while (low < threshold) {
            product = (uint64_t)next_u32(rng) * bound;
            low = (uint32_t)product;
        }
    }
    return (uint32_t)(product >> 32);
}

static void shuffle(Generator *rng, int *items, int count) {
    for (int last = count - 1; last > 0; last--) {
        int other = (int)below(rng, (uint32_t)(last + 1));
        int kept = items[last];
        items[last] = items[other];
        items[other] = kept;
    }
}

/* ---- the state ------------------------------------------------------------------- */

typedef struct { int cards[MAX_CARDS]; int size; } Pile;

typedef struct {
    const Config *config;
    Generator rng;
    int phase, current_player, round, reshuffled, ended_by;
    Pile draw_pile, discard_pile, treasure_row;
    Pile hands[2], chaff[2], reinforcements[2];
    int coin_totals[2], lead[2], battle[2], pending[2], strengths[2];
} State;

static void push(Pile *pile, int card) { pile->cards[pile->size++] = card; }

static void extend(Pile *pile, const Pile *more) {
    memcpy(pile->cards + pile->size, more->cards, sizeof(int) * (size_t)more->size);
    pile->size += more->size;
}

static int pop_at(Pile *pile, int position) {
    int card = pile->cards[position];
    memmove(pile->cards + position, pile->cards + position + 1, sizeof(int) * (size_t)(pile->size - position - 1));
    pile->size--;
    return card;
}

/* (cards at the masked positions, the other cards), both in hand order: split_by_mask */
static void split_by_mask(const Pile *cards, int mask, Pile *chosen, Pile *kept) {
    int in[MAX_CARDS], size = cards->size;
    memcpy(in, cards->cards, sizeof(int) * (size_t)size);
    chosen->size = 0;
    kept->size = 0;
    for (int position = 0; position < size; position++) {
        if (mask >> position & 1) push(chosen, in[position]);
        else push(kept, in[position]);
    }
}

static void copy_pile(Pile *to, const Pile *from) {
    memcpy(to->cards, from->cards, sizeof(int) * (size_t)from->size);
    to->size = from->size;
}

static int draw(State *state) {
    if (state->draw_pile.size == 0) {
        if (state->reshuffled || state->discard_pile.size == 0) return -1;
        state->reshuffled = 1;
        copy_pile(&state->draw_pile, &state->discard_pile);
        state->discard_pile.size = 0;
        shuffle(&state->rng, state->draw_pile.cards, state->draw_pile.size);
    }
    return state->draw_pile.cards[--state->draw_pile.size];
}

static int draw_into_hand(State *state, int seat, int count) {
    for (int done = 0; done < count; done++) {
        int card = draw(state);
        if (card < 0) return done;
        push(&state->hands[seat], card);
    }
    return count;
}

static int deal(State *state) {
    for (int round = 0; round < state->config->hand_size; round++)
        for (int seat = 0; seat < 2; seat++)
            if (!draw_into_hand(state, seat, 1)) return 0;
    return 1;
}

static int reveal_treasure(State *state) {
    int total = 0;
    while (total < state->config->treasure_target) {
        int card = draw(state);
        if (card < 0) return 0; /* the cards turned over stay in the row, unclaimed */
        push(&state->treasure_row, card);
        total += state->config->d20[card];
    }
    return 1;
}

static void end_game(State *state, int reason) {
    state->phase = OVER;
    state->current_player = -1;
    state->ended_by = reason;
}

static void start_choices(State *state) {
    for (int seat = 0; seat < 2; seat++) {
        if (state->hands[seat].size > state->config->hand_limit) {
            state->phase = DISCARD;
            state->current_player = seat;
            return;
        }
    }
    state->phase = LEAD;
    state->current_player = 0;
}

static void new_game(State *state, const Config *config, uint64_t seed) {
    /* Every field set here: the piles' sizes, not their 2 KB of cards. */
    state->config = config;
    state->current_player = state->reshuffled = state->ended_by = 0;
    state->discard_pile.size = state->treasure_row.size = 0;
    for (int seat = 0; seat < 2; seat++) {
        state->hands[seat].size = state->chaff[seat].size = state->reinforcements[seat].size = 0;
        state->coin_totals[seat] = state->strengths[seat] = 0;
    }
    seed_generator(&state->rng, seed);
    state->phase = LEAD;
    state->round = 1;
    for (int seat = 0; seat < 2; seat++) state->lead[seat] = state->battle[seat] = state->pending[seat] = -1;
    memcpy(state->draw_pile.cards, config->deck, sizeof(int) * (size_t)config->deck_size);
    state->draw_pile.size = config->deck_size;
    shuffle(&state->rng, state->draw_pile.cards, state->draw_pile.size);
    if (!deal(state) || !reveal_treasure(state)) {
        end_game(state, END_DECK);
        return;
    }
    start_choices(state);
}

/* ---- legal actions, in the order rules.py lists them ------------------------------- */

#define MAX_HAND 12 /* 2**12 masks fill the action buffer */

/* masks_with_sizes: for each size, itertools.combinations order */
static int enumerate_masks(int count, int smallest, int largest, int *out) {
    int found = 0;
    int index[32];
    for (int size = smallest; size <= largest; size++) {
        if (size > count) break;
        for (int i = 0; i < size; i++) index[i] = i;
        for (;;) {
            int mask = 0;
            for (int i = 0; i < size; i++) mask |= 1 << index[i];
            out[found++] = mask;
            int i = size - 1;
            while (i >= 0 && index[i] == count - size + i) i--;
            if (i < 0) break;
            index[i]++;
            for (int j = i + 1; j < size; j++) index[j] = index[j - 1] + 1;
        }
    }
    return found;
}

static int compare_ints(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

static int enumerate_submasks(int mask, int *out) { /* every subset, ascending */
    int found = 0;
    out[found++] = 0;
    for (int sub = mask; sub; sub = (sub - 1) & mask) out[found++] = sub;
    qsort(out, (size_t)found, sizeof(int), compare_ints);
    return found;
}

/* The tables, made once per shape and kept (as rules.py keeps its tuples). */
typedef struct { int *actions; int count; } Table;
static Table mask_tables[MAX_HAND + 1][MAX_HAND + 2][MAX_HAND + 2];
static Table submask_tables[1 << MAX_HAND];

static int from_table(Table *table, const int *made, int count, const int **actions) {
    if (!table->actions) {
        table->actions = malloc(sizeof(int) * (size_t)(count ? count : 1));
        memcpy(table->actions, made, sizeof(int) * (size_t)count);
        table->count = count;
    }
    *actions = table->actions;
    return table->count;
}

static int masks_with_sizes(int count, int smallest, int largest, const int **actions) {
    static int made[MAX_ACTIONS];
    if (smallest < 0) smallest = 0;
    if (smallest > count) return 0; /* more cards to choose than held: no action */
    if (largest > count) largest = count;
    if (largest < smallest) largest = smallest - 1; /* empty range: no action */
    Table *table = &mask_tables[count][smallest][largest + 1];
    return from_table(table, made, table->actions ? 0 : enumerate_masks(count, smallest, largest, made), actions);
}

static int submasks(int mask, const int **actions) {
    static int made[MAX_ACTIONS];
    Table *table = &submask_tables[mask];
    return from_table(table, made, table->actions ? 0 : enumerate_submasks(mask, made), actions);
}

/* The current player's legal actions (pointed to by *actions), their number returned. */
static int legal_actions(const State *state, const int **actions) {
    static const int replace_actions[2] = {1, 0};
    static int positions[MAX_HAND];
    int seat = state->current_player;
    int hand_size = state->hands[seat].size;
    if (hand_size > MAX_HAND) {
        fprintf(stderr, "divvy_playout: a hand of %d cards is beyond this reference (%d at most)\n", hand_size,
                MAX_HAND);
        exit(3);
    }
    switch (state->phase) {
    case LEAD:
    case BRAWL:
        for (int position = 0; position < hand_size; position++) positions[position] = position;
        *actions = positions;
        return hand_size;
    case CHAFF:
        return masks_with_sizes(hand_size, state->config->min_chaff, hand_size - 1, actions);
    case REINFORCE: {
        int lead_suit = state->config->suit[state->lead[seat]], matching = 0;
        for (int position = 0; position < hand_size; position++)
            if (state->config->suit[state->hands[seat].cards[position]] == lead_suit) matching |= 1 << position;
        return submasks(matching, actions);
    }
    case REPLACE:
        *actions = replace_actions;
        return 2;
    case DISCARD: {
        int excess = hand_size - state->config->hand_limit;
        return masks_with_sizes(hand_size, excess, excess, actions);
    }
    }
    return 0;
}

/* ---- applying an action ------------------------------------------------------------ */

static int brawl_winner(int icon_a, int icon_b) {
    if (icon_a == icon_b) return -1;
    return icon_b == (icon_a + 1) % 3 ? 0 : 1;
}

static void take_back_placed(State *state, int seat) {
    extend(&state->hands[seat], &state->chaff[seat]);
    push(&state->hands[seat], state->battle[seat]);
    state->chaff[seat].size = 0;
}

static void settle_score(State *state) {
    const Config *config = state->config;
    int first = state->strengths[0], second = state->strengths[1];
    if (first != second) {
        int winner = first > second ? 0 : 1;
        for (int i = 0; i < state->treasure_row.size; i++)
            state->coin_totals[winner] += config->coins[state->treasure_row.cards[i]];
        state->treasure_row.size = 0;
    } else if (!config->carry_over_ties) {
        extend(&state->discard_pile, &state->treasure_row);
        state->treasure_row.size = 0;
    }
    for (int seat = 0; seat < 2; seat++) {
        push(&state->discard_pile, state->lead[seat]);
        extend(&state->discard_pile, &state->reinforcements[seat]);
        state->lead[seat] = state->battle[seat] = -1;
        state->reinforcements[seat].size = 0;
        state->strengths[seat] = 0;
    }
    if (state->round >= config->rounds) {
        end_game(state, END_ROUNDS);
        return;
    }
    state->round++;
    if (!reveal_treasure(state) || !deal(state)) {
        end_game(state, END_DECK);
        return;
    }
    start_choices(state);
}

static void apply(State *state, int action) {
    const Config *config = state->config;
    int seat = state->current_player;
    Pile chosen, kept;
    if (state->phase == REPLACE) {
        int winner = seat, placed = state->chaff[winner].size + 1;
        if (action) {
            extend(&state->discard_pile, &state->chaff[winner]);
            push(&state->discard_pile, state->battle[winner]);
            state->chaff[winner].size = 0;
            draw_into_hand(state, winner, placed);
        } else {
            take_back_placed(state, winner);
        }
        if (config->icon[state->battle[winner]] == config->icon[state->treasure_row.cards[state->treasure_row.size - 1]]
            && config->bonus_draw)
            draw_into_hand(state, winner, config->bonus_draw);
        state->phase = REINFORCE;
        state->current_player = 0;
        return;
    }
    if (state->phase == DISCARD) {
        split_by_mask(&state->hands[seat], action, &chosen, &kept);
        copy_pile(&state->hands[seat], &kept);
        extend(&state->discard_pile, &chosen);
        start_choices(state);
        return;
    }
    state->pending[seat] = action;
    if (seat == 0) {
        state->current_player = 1;
        return;
    }
    switch (state->phase) {
    case LEAD:
        for (int who = 0; who < 2; who++) {
            state->lead[who] = pop_at(&state->hands[who], state->pending[who]);
            state->pending[who] = -1;
        }
        state->phase = CHAFF;
        state->current_player = 0;
        break;
    case CHAFF:
        for (int who = 0; who < 2; who++) {
            split_by_mask(&state->hands[who], state->pending[who], &state->chaff[who], &kept);
            copy_pile(&state->hands[who], &kept);
            state->pending[who] = -1;
        }
        state->phase = BRAWL;
        state->current_player = 0;
        break;
    case BRAWL: {
        for (int who = 0; who < 2; who++) {
            state->battle[who] = pop_at(&state->hands[who], state->pending[who]);
            state->pending[who] = -1;
        }
        int winner = brawl_winner(config->icon[state->battle[0]], config->icon[state->battle[1]]);
        for (int who = 0; who < 2; who++)
            if (who != winner) take_back_placed(state, who);
        if (winner < 0) {
            state->phase = REINFORCE;
            state->current_player = 0;
        } else {
            state->phase = REPLACE;
            state->current_player = winner;
        }
        break;
    }
    default: /* REINFORCE */
        for (int who = 0; who < 2; who++) {
            split_by_mask(&state->hands[who], state->pending[who], &state->reinforcements[who], &kept);
            copy_pile(&state->hands[who], &kept);
            state->pending[who] = -1;
            int strength = config->value[state->lead[who]];
            for (int i = 0; i < state->reinforcements[who].size; i++)
                strength += config->value[state->reinforcements[who].cards[i]];
            state->strengths[who] = strength;
        }
        settle_score(state);
    }
}

/* play_game with two random agents; returns the decisions (choices of two or more actions) */
static int play(State *state, const Config *config, uint64_t game_seed, uint64_t agent_seeds[2]) {
    const int *actions;
    Generator agents[2];
    seed_generator(&agents[0], agent_seeds[0]);
    seed_generator(&agents[1], agent_seeds[1]);
    new_game(state, config, game_seed);
    int decisions = 0;
    while (state->current_player >= 0) {
        int count = legal_actions(state, &actions);
        int action = actions[0];
        if (count > 1) {
            decisions++;
            action = actions[below(&agents[state->current_player], (uint32_t)count)];
        }
        apply(state, action);
    }
    return decisions;
}

/* ---- the command line -------------------------------------------------------------- */

static int read_config(const char *path, Config *config) {
    FILE *file = fopen(path, "r");
    if (!file) return 0;
    if (fscanf(file, "%d %d %d %d %d %d %d", &config->hand_size, &config->hand_limit, &config->rounds,
               &config->treasure_target, &config->min_chaff, &config->bonus_draw, &config->carry_over_ties) != 7) {
        fclose(file);
        return 0;
    }
    config->kinds = config->deck_size = 0;
    int suit, value, icon, d20, coins, copies;
    while (fscanf(file, "%d %d %d %d %d %d", &suit, &value, &icon, &d20, &coins, &copies) == 6) {
        int kind = config->kinds++;
        if (kind >= MAX_KINDS) break;
        config->suit[kind] = suit;
        config->value[kind] = value;
        config->icon[kind] = icon;
        config->d20[kind] = d20;
        config->coins[kind] = coins;
        for (int copy = 0; copy < copies && config->deck_size < MAX_CARDS; copy++)
            config->deck[config->deck_size++] = kind;
    }
    fclose(file);
    return config->kinds > 0 && config->kinds <= MAX_KINDS;
}

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

int main(int argc, char **argv) {
    static Config config;
    static State state;
    if (argc < 3 || !read_config(argv[1], &config)) {
        fprintf(stderr, "usage: divvy_playout CONFIG --games N | --check  (CONFIG: see the file's header)\n");
        return 2;
    }
    if (strcmp(argv[2], "--check") == 0) {
        unsigned long long game_seed, seed0, seed1;
        while (scanf("%llu %llu %llu", &game_seed, &seed0, &seed1) == 3) {
            uint64_t agent_seeds[2] = {seed0, seed1};
            int decisions = play(&state, &config, game_seed, agent_seeds);
            int turns = state.ended_by == END_ROUNDS ? state.round : state.round - 1;
            printf("%d %d %d %s %d\n", state.coin_totals[0], state.coin_totals[1], decisions,
                   state.ended_by == END_ROUNDS ? "rounds_complete" : "deck_exhausted", turns);
        }
        return 0;
    }
    if (strcmp(argv[2], "--games") == 0 && argc > 3) {
        long games = atol(argv[3]);
        uint64_t seeds = 2026, checksum = 0;
        long long decisions = 0;
        struct timespec started, finished;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &started);
        for (long game = 0; game < games; game++) {
            uint64_t game_seed = splitmix64(&seeds) >> 1;
            uint64_t agent_seeds[2] = {splitmix64(&seeds) >> 1, splitmix64(&seeds) >> 1};
            decisions += play(&state, &config, game_seed, agent_seeds);
            checksum += (uint64_t)state.coin_totals[0] * 31u + (uint64_t)state.coin_totals[1];
        }
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &finished);
        double seconds = (double)(finished.tv_sec - started.tv_sec) + 1e-9 * (double)(finished.tv_nsec - started.tv_nsec);
        /* the checksum keeps the compiler from skipping the games */
        printf("%ld %.6f %lld %llu\n", games, seconds, decisions, (unsigned long long)checksum);
        return 0;
    }
    fprintf(stderr, "divvy_playout: expected --games N or --check\n");
    return 2;
}
