/*
 * bluff_random.c: a hand-written C reference for the speed of the Bluff in Zoo kernel.
 *
 * Plays GAMES games of Bluff in Zoo with four `random` players under the published rules
 * and the settings defaults of zooanalysis/games/bluff/rules.py (the 107-card deck, hands
 * of 5, the game ends at 30 penalty points or when the draw pile cannot refill every hand,
 * claim cap 168), following zooanalysis/games/bluff/engine.py step by step, and the
 * `random` policy of zooanalysis/games/bluff/strategies.py with the same probabilities.
 * It prints the statistics the kernel keeps as one JSON object on stdout.
 *
 * The random stream is SplitMix64 seeded per game as zooanalysis/rng.py seeds it, but it
 * is used differently from the kernel's (one 64-bit word per turn, a deck shuffled lazily
 * as cards are taken), so single games differ from the kernel's while every statistic
 * agrees within sampling error; benchmarks/c_reference.py checks that.
 *
 * Written as fast C is written: the pile is two packed words updated with one add per card
 * each, "how many animals of the claimed kind" is a field read from them, a move and its
 * claim come from one random word and two small tables, nothing the `random` policy does
 * not read is computed, and nothing is allocated per game.
 *
 * Build: gcc -O2 -march=native -std=c11 -o bluff_random bluff_random.c
 * Usage: bluff_random GAMES [SEED] [--lean]
 *   SEED    batch seed (default 1); game i uses the stream of (SEED, i)
 *   --lean  keep only the summary counts: no doubt or claim tables (so no claim-truth
 *           check at every claim), no histograms, no score trajectories
 */

#define _POSIX_C_SOURCE 199309L

#include "c_reference.h"

#ifndef PLAYERS
#define PLAYERS 4
#endif

/* ---- the game: card types as in zooanalysis/games/bluff/cards.py ---------------------- */

enum {
    N_KINDS = 5,      /* mouse, rabbit, fox, lion, elephant */
    WILD_1 = 15,      /* animal card of kind k and value v is type 3k + v - 1 (0-14) */
    WILD_2 = 16,
    COUNT_ONE = 17,   /* action "All cards count 1" */
    ALL_EQUAL = 18,   /* action "All animals are equal" */
    STOP = 19,
    N_TYPES = 20,
    NO_CARD = 20,     /* the "card" a move without a card adds: nothing */
    DECK_SIZE = 107,
    HAND_SIZE = 5,
};

/* Two settings may be changed when compiling (-DPOINTS_TO_END=1000, -DCLAIM_CAP=3), so the
 * statistics check can also reach the game's rare paths (a game ending with the draw pile;
 * the forced doubt at the claim cap). */
#ifndef POINTS_TO_END
#define POINTS_TO_END 30
#endif
#ifndef CLAIM_CAP
#define CLAIM_CAP 168 /* rules.most_animals_possible of the published deck */
#endif

enum { MOVE_DOUBT, MOVE_HAND, MOVE_DRAW, MOVE_NONE };
enum { END_POINTS, END_DECK };

/* ---- statistics bins, as in zooanalysis/games/bluff/kernel.py ------------------------- */

enum {
    COUNT_BINS = 31,
    PILE_BINS = 41,
    POINT_BINS = 128,
    ROUND_BINS = 256,
    MOVE_BINS = 1024,
    LEAD_CHANGE_BINS = 64,
    SETTLED_BINS = 20,
};

#define DOUBT_CELLS ((size_t)COUNT_BINS * N_KINDS * PILE_BINS * 3 * PLAYERS * PLAYERS * 2)
#define CLAIM_CELLS ((size_t)PLAYERS * COUNT_BINS * N_KINDS * PILE_BINS * 3 * 2)

/* ---- the pile as two packed words ------------------------------------------------------
 * PLAIN: byte k (k = 0-4) counts the animals of kind k at face value plus every wild card's
 *        value ("wild cards count as the kind last claimed"); byte 5 counts every animal and
 *        wild card at face value (the count under "All animals are equal"); bits 48-63
 *        count the pile's cards.
 * ONES:  the same with every animal and wild card counting 1 ("All cards count 1"; byte 5:
 *        both action cards), then 4-bit counts of COUNT_ONE (bits 48-51), ALL_EQUAL (52-55)
 *        and STOP (56-59) cards. No field can overflow with the published deck.
 * A card is added to the pile with one add to each word.
 */

static uint64_t plain_delta[N_TYPES + 1];
static uint64_t ones_delta[N_TYPES + 1];

static void init_pile_deltas(void)
{
    const uint64_t every_kind = 0x010101010101u; /* bytes 0-5 */
    const uint64_t one_card = (uint64_t)1 << 48;
    for (int kind = 0; kind < N_KINDS; kind++) {
        for (int value = 1; value <= 3; value++) {
            int type = 3 * kind + value - 1;
            plain_delta[type] = ((uint64_t)value << (8 * kind)) | ((uint64_t)value << 40);
            ones_delta[type] = ((uint64_t)1 << (8 * kind)) | ((uint64_t)1 << 40);
        }
    }
    plain_delta[WILD_1] = every_kind;
    plain_delta[WILD_2] = 2 * every_kind;
    ones_delta[WILD_1] = every_kind;
    ones_delta[WILD_2] = every_kind;
    ones_delta[COUNT_ONE] = (uint64_t)1 << 48;
    ones_delta[ALL_EQUAL] = (uint64_t)1 << 52;
    ones_delta[STOP] = (uint64_t)1 << 56;
    for (int type = 0; type < N_TYPES; type++)
        plain_delta[type] += one_card;
    /* plain_delta/ones_delta[NO_CARD] stay 0 */
}

static inline uint32_t pile_size(uint64_t plain) { return (uint32_t)(plain >> 48); }

/* How many animals of `kind` the pile shows when a claim of that kind is doubted
 * (rules.count_for_kind): an odd number of stop cards switches the action cards off. */
static inline uint32_t pile_count(uint64_t plain, uint64_t ones, uint32_t kind)
{
    uint32_t actions = (uint32_t)(ones >> 48);
    uint32_t on = ~(actions >> 8) & 1u;
    uint32_t count_one = on & ((actions & 0xfu) != 0);
    uint32_t all_equal = on & ((actions & 0xf0u) != 0);
    uint64_t word = count_one ? ones : plain;
    uint32_t field = all_equal ? 5u : kind;
    return (uint32_t)(word >> (8 * field)) & 0xffu;
}

/* ---- the random policy as tables -------------------------------------------------------
 * A claim is one number, count * 8 + kind; before a round's first claim it is NO_KIND
 * (count 0), so that "bests the standing claim" is simply "is a bigger number".
 * Move (strategies.random_move): the round's first move places a hand card (the top
 * draw-pile card if the hand is empty); later moves pick uniformly among doubt, hand (if
 * the hand holds a card), draw (if the draw pile does) and none; once the standing claim is
 * CLAIM_CAP elephants nobody can raise and the move is a doubt. A table row per situation
 * (phase + has_hand * 2 + has_draw) lists the options.
 * Claim (strategies.random_claim): the first claim is one animal of a uniformly random
 * kind; later, with probability 1/2 the same count and a uniformly random bigger kind (if
 * any), otherwise one more and a uniformly random kind. 120 equally likely cells per
 * standing kind give those probabilities exactly (120 is a multiple of 2 * (4 - kind) and
 * of 10); a cell holds what to add to the claim after clearing its kind.
 */

enum { NO_KIND = N_KINDS, KIND_BITS = 3, KIND_MASK = 7, CLAIM_CELLS_PER_KIND = 120 };
enum { PHASE_LATER = 0, PHASE_FIRST = 4, PHASE_FORCED_DOUBT = 8, N_ROWS = 12 };

static uint8_t move_options[N_ROWS];
static uint8_t move_of[N_ROWS][4];
static uint8_t claim_step[NO_KIND + 1][CLAIM_CELLS_PER_KIND];

static void init_policy_tables(void)
{
    for (int has_hand = 0; has_hand < 2; has_hand++) {
        for (int has_draw = 0; has_draw < 2; has_draw++) {
            int row = has_hand * 2 + has_draw, n = 0;
            move_of[row][n++] = MOVE_DOUBT;
            if (has_hand)
                move_of[row][n++] = MOVE_HAND;
            if (has_draw)
                move_of[row][n++] = MOVE_DRAW;
            move_of[row][n++] = MOVE_NONE;
            move_options[row] = (uint8_t)n;
            /* a round's starting player always holds a full hand after the refill */
            move_of[PHASE_FIRST + row][0] = has_hand ? MOVE_HAND : MOVE_DRAW;
            move_options[PHASE_FIRST + row] = 1;
            move_of[PHASE_FORCED_DOUBT + row][0] = MOVE_DOUBT;
            move_options[PHASE_FORCED_DOUBT + row] = 1;
        }
    }
    for (int kind = 0; kind <= NO_KIND; kind++) {
        int bigger = kind < N_KINDS ? N_KINDS - 1 - kind : 0;
        for (int cell = 0; cell < CLAIM_CELLS_PER_KIND; cell++) {
            int same_count = bigger > 0 && cell < 60;
            int new_kind = same_count      ? kind + 1 + cell / (60 / bigger)
                           : bigger > 0    ? (cell - 60) / 12
                                           : cell / 24;
            claim_step[kind][cell] = (uint8_t)((!same_count << KIND_BITS) + new_kind);
        }
    }
}

/* ---- statistics ------------------------------------------------------------------------ */

typedef struct {
    uint64_t games;
    uint64_t rounds_sum, rounds_squares, moves_sum, moves_squares;
    uint64_t end_reasons[2];
    uint64_t claims, doubts, doubts_succeeded; /* lean mode; full mode reads the tables */
    uint64_t wins[PLAYERS], sole_wins[PLAYERS], points_sum[PLAYERS], points_squares[PLAYERS];
    /* full statistics only, as the kernel keeps them */
    uint64_t move_counts[PLAYERS][4];
    uint64_t rounds_hist[ROUND_BINS], moves_hist[MOVE_BINS], points_hist[PLAYERS][POINT_BINS];
    uint64_t lead_changes_hist[LEAD_CHANGE_BINS], settled_hist[SETTLED_BINS];
    uint64_t *doubt_table; /* [count][kind][pile][claimant move - 1][doubter][claimant][held] */
    uint64_t *claim_table; /* [seat][count][kind][pile][move - 1][true when made] */
} Totals;

#ifdef __GNUC__
#define ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define ALWAYS_INLINE inline
#endif

/* The next card of the draw pile deck[top..]: one step of a forward Fisher-Yates shuffle
 * (a uniformly random undrawn card, swapped to the top), from 32 random bits. Taking the
 * cards this way as they are needed is the engine's shuffle-then-deal in distribution, and
 * a deck left in any order by the previous game is as good a start as the sorted one. */
static inline uint32_t take_card(uint8_t *deck, uint32_t *top, uint32_t bits)
{
    uint32_t at = *top, pick = at + below(bits, DECK_SIZE - at);
    uint8_t card = deck[pick];
    deck[pick] = deck[at];
    deck[at] = card;
    *top = at + 1;
    return card;
}

/* Play games [0, n_games) of batch `seed`, adding into `t`; `full` keeps every table.
 * Always inlined into the two callers below, so each is compiled for one value of `full`.
 * A hand is a 64-bit word holding its cards in bytes 0 .. hand_len - 1 (higher bytes 0). */
static ALWAYS_INLINE void play_games(uint64_t seed, uint64_t n_games, const int full, Totals *t)
{
    uint8_t deck[DECK_SIZE + 1]; /* deck[DECK_SIZE]: scratch for a branch-free read */
    for (int kind = 0, at = 0; kind < N_KINDS; kind++)
        for (int value = 1; value <= 3; value++)
            for (int copy = 0; copy < 5; copy++)
                deck[at++] = (uint8_t)(3 * kind + value - 1);
    {
        static const uint8_t special[] = {WILD_1, WILD_2, COUNT_ONE, ALL_EQUAL, STOP};
        static const int copies[] = {6, 6, 6, 6, 8};
        int at = 75;
        for (int i = 0; i < 5; i++)
            for (int copy = 0; copy < copies[i]; copy++)
                deck[at++] = special[i];
        deck[DECK_SIZE] = NO_CARD;
    }
    uint64_t hands[PLAYERS];
    uint32_t hand_len[PLAYERS], scores[PLAYERS];

    for (uint64_t game = 0; game < n_games; game++) {
        uint64_t state = game_stream(seed, game);
        uint32_t top = 0;
        for (int seat = 0; seat < PLAYERS; seat++) { /* deal: seat 1 takes the first five */
            uint64_t hand = 0;
            for (int slot = 0; slot < HAND_SIZE; slot++) {
                uint64_t card = take_card(deck, &top, (uint32_t)(next_word(&state) >> 32));
                hand |= card << (8 * slot);
            }
            hands[seat] = hand;
            hand_len[seat] = HAND_SIZE;
            scores[seat] = 0;
        }
        uint32_t round_index = 0, moves = 0;
        int end_reason;
        /* score trajectory, as the kernel keeps it */
        int last_leader = -1, leader = -1, streak_leader = -2;
        uint32_t lead_changes = 0, streak_start = 0;
        int64_t last_check = -1;

        for (;;) { /* one round */
            uint64_t plain = 0, ones = 0;
            uint32_t claim = NO_KIND, phase = PHASE_FIRST, claimant_move = 0;
            uint32_t seat = round_index % PLAYERS;
            for (;;) { /* one move: one random word for the move, its card and its claim */
                uint64_t word = next_word(&state);
                uint32_t len = hand_len[seat];
                uint32_t row = phase + (len != 0) * 2 + (top != DECK_SIZE);
                uint64_t scaled = (word >> 32) * move_options[row];
                uint32_t move = move_of[row][scaled >> 32];
                uint32_t fraction = (uint32_t)scaled; /* the bits the pick did not use */
                moves++;
                if (full)
                    t->move_counts[seat][move]++;

                if (move == MOVE_DOUBT) {
                    uint32_t count = claim >> KIND_BITS, kind = claim & KIND_MASK;
                    uint32_t claimant = seat == 0 ? PLAYERS - 1 : seat - 1;
                    uint32_t held = pile_count(plain, ones, kind) >= count;
                    uint32_t loser = held ? seat : claimant, pile_len = pile_size(plain);
                    scores[loser] += pile_len;
                    if (full) {
                        size_t cell = (size_t)min_u32(count, COUNT_BINS - 1);
                        cell = cell * N_KINDS + kind;
                        cell = cell * PILE_BINS + min_u32(pile_len, PILE_BINS - 1);
                        cell = cell * 3 + claimant_move - 1;
                        cell = (cell * PLAYERS + seat) * PLAYERS + claimant;
                        t->doubt_table[cell * 2 + held]++;
                        /* score check: only the loser's points grew, so a sole leader
                         * who did not lose stays the sole leader */
                        if (leader < 0 || leader == (int)loser) {
                            uint32_t fewest = scores[0];
                            leader = 0;
                            for (int p = 1; p < PLAYERS; p++) {
                                if (scores[p] < fewest) {
                                    fewest = scores[p];
                                    leader = p;
                                } else if (scores[p] == fewest) {
                                    leader = -1;
                                }
                            }
                        }
                        if (leader != streak_leader) {
                            streak_leader = leader;
                            streak_start = (uint32_t)(last_check + 1);
                        }
                        last_check = moves - 1;
                        if (leader >= 0) {
                            if (last_leader >= 0 && leader != last_leader)
                                lead_changes++;
                            last_leader = leader;
                        }
                    } else {
                        t->doubts++;
                        t->doubts_succeeded += !held;
                    }
                    break;
                }

                /* Place the card without branching on the move, with all-ones masks:
                 * a hand card at a random index (the last hand card takes its slot, as
                 * in the engine), or the top draw-pile card (the swap of the lazy shuffle
                 * is done whatever the move: swapping two undrawn cards changes nothing),
                 * or none. */
                uint32_t from_hand = move == MOVE_HAND, from_draw = move == MOVE_DRAW;
                uint64_t hand = hands[seat];
                uint32_t index = below(fraction, len), last = len - from_hand;
                uint32_t hand_card = (uint32_t)(hand >> (8 * index)) & 0xffu;
                uint32_t last_card = (uint32_t)(hand >> (8 * last)) & 0xffu;
                uint64_t moved = ((uint64_t)(hand_card ^ last_card) << (8 * index)) ^
                                 ((uint64_t)last_card << (8 * last));
                hands[seat] = hand ^ (moved & -(uint64_t)from_hand);
                hand_len[seat] = last;
                uint32_t pick = top + below(fraction, DECK_SIZE - top);
                uint32_t drawn = deck[pick];
                deck[pick] = deck[top];
                deck[top] = (uint8_t)drawn;
                top += from_draw;
                uint32_t card = NO_CARD ^ ((hand_card ^ NO_CARD) & -from_hand) ^
                                ((drawn ^ NO_CARD) & -from_draw);
                plain += plain_delta[card];
                ones += ones_delta[card];

                /* the claim, from the word's low half */
                uint32_t kind = claim & KIND_MASK;
                if (claim < (CLAIM_CAP - 1) << KIND_BITS) { /* no claim near the cap */
                    uint32_t cell = below((uint32_t)word, CLAIM_CELLS_PER_KIND);
                    claim = (claim & ~(uint32_t)KIND_MASK) + claim_step[kind][cell];
                    phase = PHASE_LATER;
                } else { /* as strategies.random_claim words it */
                    uint32_t count = claim >> KIND_BITS;
                    uint32_t keep_count = (uint32_t)word >> 31, bits = (uint32_t)word << 1;
                    if ((keep_count || count >= CLAIM_CAP) && kind < N_KINDS - 1)
                        claim = claim + 1 + below(bits, N_KINDS - 1 - kind);
                    else
                        claim = ((count + 1) << KIND_BITS) + below(bits, N_KINDS);
                    phase = claim == (CLAIM_CAP << KIND_BITS) + N_KINDS - 1 ? PHASE_FORCED_DOUBT
                                                                           : PHASE_LATER;
                }
                if (full) {
                    uint32_t count = claim >> KIND_BITS;
                    kind = claim & KIND_MASK;
                    uint32_t truth = pile_count(plain, ones, kind) >= count;
                    size_t cell = (size_t)seat * COUNT_BINS + min_u32(count, COUNT_BINS - 1);
                    cell = cell * N_KINDS + kind;
                    cell = cell * PILE_BINS + min_u32(pile_size(plain), PILE_BINS - 1);
                    cell = cell * 3 + move - 1;
                    t->claim_table[cell * 2 + truth]++;
                    claimant_move = move;
                } else {
                    t->claims++;
                }
                seat = (seat + 1) % PLAYERS;
            }
            /* end of round: the points limit first, then the refill */
            uint32_t highest = 0, needed = 0;
            for (int p = 0; p < PLAYERS; p++) {
                highest = scores[p] > highest ? scores[p] : highest;
                needed += HAND_SIZE - hand_len[p];
            }
            if (highest >= POINTS_TO_END) {
                end_reason = END_POINTS;
                break;
            }
            if (needed > DECK_SIZE - top) {
                end_reason = END_DECK;
                break;
            }
            uint32_t starter = round_index % PLAYERS;
            for (uint32_t offset = 0; offset < PLAYERS; offset++) {
                uint32_t p = starter + offset < PLAYERS ? starter + offset
                                                        : starter + offset - PLAYERS;
                for (uint32_t slot = hand_len[p]; slot < HAND_SIZE; slot++) {
                    uint64_t card = take_card(deck, &top, (uint32_t)(next_word(&state) >> 32));
                    hands[p] |= card << (8 * slot);
                }
                hand_len[p] = HAND_SIZE;
            }
            round_index++;
        }

        /* record the game */
        uint32_t rounds = round_index + 1, best = scores[0], n_best = 0;
        for (int p = 1; p < PLAYERS; p++)
            best = scores[p] < best ? scores[p] : best;
        for (int p = 0; p < PLAYERS; p++)
            n_best += scores[p] == best;
        t->games++;
        t->rounds_sum += rounds;
        t->rounds_squares += (uint64_t)rounds * rounds;
        t->moves_sum += moves;
        t->moves_squares += (uint64_t)moves * moves;
        t->end_reasons[end_reason]++;
        for (int p = 0; p < PLAYERS; p++) {
            uint32_t won = scores[p] == best;
            t->wins[p] += won;
            t->sole_wins[p] += won & (n_best == 1);
            t->points_sum[p] += scores[p];
            t->points_squares[p] += (uint64_t)scores[p] * scores[p];
            if (full)
                t->points_hist[p][min_u32(scores[p], POINT_BINS - 1)]++;
        }
        if (full) {
            t->rounds_hist[min_u32(rounds, ROUND_BINS - 1)]++;
            t->moves_hist[min_u32(moves, MOVE_BINS - 1)]++;
            t->lead_changes_hist[min_u32(lead_changes, LEAD_CHANGE_BINS - 1)]++;
            if (n_best == 1)
                t->settled_hist[min_u32(SETTLED_BINS - 1,
                                        (SETTLED_BINS * streak_start) / moves)]++;
        }
    }
}

static void play_full(uint64_t seed, uint64_t n_games, Totals *t)
{
    play_games(seed, n_games, 1, t);
}

static void play_lean(uint64_t seed, uint64_t n_games, Totals *t)
{
    play_games(seed, n_games, 0, t);
}

/* ---- output ---------------------------------------------------------------------------- */

static void print_shares(const char *name, const uint64_t *values, uint64_t games)
{
    printf("  \"%s\": [", name);
    for (int p = 0; p < PLAYERS; p++)
        printf("%s%.6f", p ? ", " : "", (double)values[p] / (double)games);
    printf("],\n");
}

static void print_totals(const Totals *t, uint64_t seed, int full, double cpu_seconds)
{
    uint64_t games = t->games;
    uint64_t doubts = t->doubts, doubts_succeeded = t->doubts_succeeded;
    uint64_t claims = t->claims, true_claims = 0;
    if (full) { /* every count from the tables, so nothing kept is dead code */
        doubts = doubts_succeeded = claims = 0;
        for (size_t cell = 0; cell < DOUBT_CELLS; cell += 2) {
            doubts_succeeded += t->doubt_table[cell];
            doubts += t->doubt_table[cell] + t->doubt_table[cell + 1];
        }
        for (size_t cell = 0; cell < CLAIM_CELLS; cell += 2) {
            true_claims += t->claim_table[cell + 1];
            claims += t->claim_table[cell] + t->claim_table[cell + 1];
        }
    }
    printf("{\n");
    printf("  \"program\": \"bluff_random\",\n");
    printf("  \"players\": %d,\n", PLAYERS);
    printf("  \"points_to_end\": %d,\n", POINTS_TO_END);
    printf("  \"claim_cap\": %d,\n", CLAIM_CAP);
    print_run(seed, full, games, cpu_seconds);
    printf("  \"mean_rounds\": %.6f,\n", (double)t->rounds_sum / games);
    printf("  \"mean_moves\": %.6f,\n", (double)t->moves_sum / games);
    printf("  \"doubt_success_rate\": %.6f,\n", (double)doubts_succeeded / doubts);
    printf("  \"end_reason_shares\": {\"points\": %.6f, \"deck\": %.6f},\n",
           (double)t->end_reasons[END_POINTS] / games, (double)t->end_reasons[END_DECK] / games);
    print_shares("win_shares", t->wins, games);
    print_shares("mean_points", t->points_sum, games);
    printf("  \"rounds_sum\": %" PRIu64 ",\n", t->rounds_sum);
    printf("  \"rounds_squares\": %" PRIu64 ",\n", t->rounds_squares);
    printf("  \"moves_sum\": %" PRIu64 ",\n", t->moves_sum);
    printf("  \"moves_squares\": %" PRIu64 ",\n", t->moves_squares);
    print_list("end_reasons", t->end_reasons, 2, ",");
    printf("  \"doubts\": %" PRIu64 ",\n", doubts);
    printf("  \"doubts_succeeded\": %" PRIu64 ",\n", doubts_succeeded);
    printf("  \"claims\": %" PRIu64 ",\n", claims);
    print_list("wins", t->wins, PLAYERS, ",");
    print_list("sole_wins", t->sole_wins, PLAYERS, ",");
    print_list("points_sum", t->points_sum, PLAYERS, ",");
    print_list("points_squares", t->points_squares, PLAYERS, full ? "," : "");
    if (full) {
        printf("  \"true_claims\": %" PRIu64 ",\n", true_claims);
        printf("  \"move_counts\": [");
        for (int p = 0; p < PLAYERS; p++) {
            printf("%s[", p ? ", " : "");
            for (int m = 0; m < 4; m++)
                printf("%s%" PRIu64, m ? ", " : "", t->move_counts[p][m]);
            printf("]");
        }
        printf("],\n");
        print_histogram("rounds_hist", t->rounds_hist, ROUND_BINS, ",");
        print_histogram("moves_hist", t->moves_hist, MOVE_BINS, ",");
        for (int p = 0; p < PLAYERS; p++) {
            char name[32];
            snprintf(name, sizeof name, "points_hist_seat_%d", p + 1);
            print_histogram(name, t->points_hist[p], POINT_BINS, ",");
        }
        print_list("lead_changes_hist", t->lead_changes_hist, LEAD_CHANGE_BINS, ",");
        print_list("settled_hist", t->settled_hist, SETTLED_BINS, "");
    }
    printf("}\n");
}

int main(int argc, char **argv)
{
    uint64_t n_games, seed;
    int full;
    if (parse_arguments(argc, argv, "bluff_random", &n_games, &seed, &full) != 0)
        return 2;

    init_pile_deltas();
    init_policy_tables();
    static Totals totals;
    if (full) {
        totals.doubt_table = calloc(DOUBT_CELLS, sizeof(uint64_t));
        totals.claim_table = calloc(CLAIM_CELLS, sizeof(uint64_t));
        if (!totals.doubt_table || !totals.claim_table) {
            fprintf(stderr, "bluff_random: out of memory for the statistics tables\n");
            return 1;
        }
    }
    double start = cpu_now();
    if (full)
        play_full(seed, n_games, &totals);
    else
        play_lean(seed, n_games, &totals);
    double cpu_seconds = cpu_now() - start;
    print_totals(&totals, seed, full, cpu_seconds);
    free(totals.doubt_table);
    free(totals.claim_table);
    return 0;
}
