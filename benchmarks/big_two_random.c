/*
 * big_two_random.c: a hand-written C reference for the speed of the Big Two kernel.
 *
 * Plays GAMES games of Big Two with four `random` players under the settings defaults of
 * zooanalysis/games/big_two/rules.py (13 cards each, suits DCHS, the holder of the 3 of
 * diamonds leads and must play it, hard passing, a game is one round that ends when the
 * first player is out, penalty per card left doubled from 10 cards and tripled from 13),
 * following zooanalysis/games/big_two/kernel.py step by step, and the `random` policy of
 * zooanalysis/games/big_two/strategies.py: uniformly random over the legal plays, and over
 * passing too when the player does not lead (a player who cannot beat the table passes
 * without a draw). It prints the statistics the kernel keeps as one JSON object on stdout.
 *
 * The random stream is SplitMix64 seeded per game as zooanalysis/rng.py seeds it, but it is
 * used differently from the kernel's (its own shuffle, one 64-bit word per decision, the
 * plays counted in another order), so single games differ from the kernel's while every
 * statistic agrees within sampling error; benchmarks/c_reference.py checks that.
 *
 * Written as fast C is written: a hand is a 52-bit mask (bit = big rank * 4 + suit
 * strength), so the suits held of one rank are a nibble and pairs, triples, full houses and
 * four of a kind are counted from nibble tables; a lead counts its plays by formula and
 * lists the five-card plays only when the draw falls among them; a single, pair or triple
 * is found by counting, never by listing; only five-card follows (and the opening lead,
 * which must hold the 3 of diamonds) list their plays, into one buffer allocated once.
 *
 * Build: gcc -O2 -march=native -std=c11 -o big_two_random big_two_random.c
 * Usage: big_two_random GAMES [SEED] [--lean]
 *   SEED    batch seed (default 1); game i uses the stream of (SEED, i)
 *   --lean  keep only the summary counts: no play and lead tables by kind, no decision,
 *           cards-left or place tables, no score trajectories
 */

#define _POSIX_C_SOURCE 199309L

#include "c_reference.h"
#ifdef __BMI2__
#include <immintrin.h>
#endif

enum {
    PLAYERS = 4,
    HAND = 13,
    DECK = 52,
    RANKS = 13,
    DOUBLE_FROM = 10, /* rules.BigTwoSettings.double_from */
    TRIPLE_FROM = 13, /* rules.BigTwoSettings.triple_from */
};

/* Kinds and keys as rules.py: a play's key is kind << KIND_SHIFT | strength, and a play
 * beats the table when it has the same number of cards and a bigger key. */
enum { PASS, SINGLE, PAIR, TRIPLE, STRAIGHT, FLUSH, FULL_HOUSE, FOUR, STRAIGHT_FLUSH, N_KINDS };
enum { KIND_SHIFT = 24 };
#define KEY(kind, strength) (((int64_t)(kind) << KIND_SHIFT) | (int64_t)(strength))

/* ---- statistics bins, as in zooanalysis/games/big_two/counts.py and trajectory.py ------- */

enum {
    CARDS_BINS = 28,
    TURN_BINS = 512,
    TRICK_BINS = 128,
    OPTION_BINS = 1024,
    GAME_BINS = 1024,
    LEAD_CHANGE_BINS = 64,
    SETTLED_BINS = 20,
};

enum { MAX_LISTED = 2048 }; /* > every play of 13 cards: 13 + 78 + 52 + C(13, 5) */

/* ---- masks and nibble tables ------------------------------------------------------------ */

static inline int popcount(uint64_t x) { return __builtin_popcountll(x); }
static inline int low_bit(uint64_t x) { return __builtin_ctzll(x); }
static inline int high_bit(uint64_t x) { return 63 - __builtin_clzll(x); }
static inline uint32_t nibble(uint64_t hand, int rank) { return (uint32_t)(hand >> (4 * rank)) & 15u; }

/* The index of the n-th (from 0) set bit of x. */
static inline int nth_bit(uint64_t x, uint32_t n)
{
#ifdef __BMI2__
    return low_bit(_pdep_u64((uint64_t)1 << n, x));
#else
    while (n--)
        x &= x - 1;
    return low_bit(x);
#endif
}

static uint8_t n_pairs[16], n_triples[16], suit_count[16];
static uint8_t pair_of[16][6], triple_of[16][4];
static const uint16_t comb5[14] = {0, 0, 0, 0, 0, 1, 6, 21, 56, 126, 252, 462, 792, 1287};
static uint64_t suit_lane[4];

static void init_tables(void)
{
    for (int suits = 0; suits < 16; suits++) {
        suit_count[suits] = (uint8_t)popcount((uint64_t)suits);
        for (int subset = 1; subset < 16; subset++) {
            if (subset & ~suits)
                continue;
            if (popcount((uint64_t)subset) == 2)
                pair_of[suits][n_pairs[suits]++] = (uint8_t)subset;
            if (popcount((uint64_t)subset) == 3)
                triple_of[suits][n_triples[suits]++] = (uint8_t)subset;
        }
    }
    for (int suit = 0; suit < 4; suit++)
        for (int rank = 0; rank < RANKS; rank++)
            suit_lane[suit] |= (uint64_t)1 << (4 * rank + suit);
}

/* ---- the legal plays ---------------------------------------------------------------------- */

typedef struct {
    uint64_t mask[MAX_LISTED];
    int64_t key[MAX_LISTED];
} Listing;

static inline int emit(Listing *out, int n, uint64_t mask, int64_t key, int64_t table_key,
                       uint64_t must)
{
    if (key <= table_key || (must && !(mask & must)))
        return n;
    out->mask[n] = mask;
    out->key[n] = key;
    return n + 1;
}

/* A flush's strength: its ranks from the highest down (4 bits each), then its suit. */
static inline int64_t flush_key(uint64_t mask, int suit)
{
    int64_t strength = 0;
    for (int i = 0; i < 5; i++) {
        int top = high_bit(mask);
        strength = (strength << 4) | (top >> 2);
        mask &= ~((uint64_t)1 << top);
    }
    return KEY(FLUSH, (strength << 2) | suit);
}

/* Every five-card play of `hand` with a key above `table_key` (0 when leading) that holds
 * `must` (or any, when 0), appended from n; returns the new count. Kinds that cannot beat
 * the table are skipped whole. */
static int list_five(uint64_t hand, int64_t table_key, uint64_t must, Listing *out, int n)
{
    if (table_key < KEY(STRAIGHT + 1, 0)) {
        for (int top = 4; top < RANKS; top++) {
            uint32_t s4 = nibble(hand, top), s3 = nibble(hand, top - 1), s2 = nibble(hand, top - 2);
            uint32_t s1 = nibble(hand, top - 3), s0 = nibble(hand, top - 4);
            if (!(s4 && s3 && s2 && s1 && s0))
                continue;
            for (int a = 0; a < 4; a++) {
                if (!(s4 >> a & 1))
                    continue;
                int64_t key = KEY(STRAIGHT, top * 4 + a);
                if (key <= table_key)
                    continue;
                for (int b = 0; b < 4; b++) {
                    if (!(s3 >> b & 1))
                        continue;
                    for (int c = 0; c < 4; c++) {
                        if (!(s2 >> c & 1))
                            continue;
                        for (int d = 0; d < 4; d++) {
                            if (!(s1 >> d & 1))
                                continue;
                            for (int e = 0; e < 4; e++) {
                                if (!(s0 >> e & 1) || (a == b && b == c && c == d && d == e))
                                    continue;
                                uint64_t mask = (uint64_t)1 << (4 * top + a)
                                                | (uint64_t)1 << (4 * top - 4 + b)
                                                | (uint64_t)1 << (4 * top - 8 + c)
                                                | (uint64_t)1 << (4 * top - 12 + d)
                                                | (uint64_t)1 << (4 * top - 16 + e);
                                n = emit(out, n, mask, key, table_key, must);
                            }
                        }
                    }
                }
            }
        }
    }
    if (table_key < KEY(FLUSH + 1, 0)) {
        for (int suit = 0; suit < 4; suit++) {
            uint64_t lane = hand & suit_lane[suit];
            if (popcount(lane) < 5)
                continue;
            for (uint64_t r1 = lane; r1; r1 &= r1 - 1) {
                uint64_t b1 = r1 & -r1;
                for (uint64_t r2 = r1 & (r1 - 1); r2; r2 &= r2 - 1) {
                    uint64_t b2 = r2 & -r2;
                    for (uint64_t r3 = r2 & (r2 - 1); r3; r3 &= r3 - 1) {
                        uint64_t b3 = r3 & -r3;
                        for (uint64_t r4 = r3 & (r3 - 1); r4; r4 &= r4 - 1) {
                            uint64_t b4 = r4 & -r4;
                            for (uint64_t r5 = r4 & (r4 - 1); r5; r5 &= r5 - 1) {
                                uint64_t b5 = r5 & -r5;
                                if ((low_bit(b5) >> 2) - (low_bit(b1) >> 2) == 4)
                                    continue; /* five ranks in a row: a straight flush */
                                uint64_t mask = b1 | b2 | b3 | b4 | b5;
                                n = emit(out, n, mask, flush_key(mask, suit), table_key, must);
                            }
                        }
                    }
                }
            }
        }
    }
    if (table_key < KEY(FULL_HOUSE + 1, 0)) {
        for (int three = 0; three < RANKS; three++) {
            uint32_t suits = nibble(hand, three);
            int64_t key = KEY(FULL_HOUSE, three);
            if (!n_triples[suits] || key <= table_key)
                continue;
            for (int i = 0; i < n_triples[suits]; i++) {
                uint64_t three_mask = (uint64_t)triple_of[suits][i] << (4 * three);
                for (int two = 0; two < RANKS; two++) {
                    uint32_t pair_suits = nibble(hand, two);
                    if (two == three)
                        continue;
                    for (int j = 0; j < n_pairs[pair_suits]; j++)
                        n = emit(out, n, three_mask | (uint64_t)pair_of[pair_suits][j] << (4 * two),
                                 key, table_key, must);
                }
            }
        }
    }
    if (table_key < KEY(FOUR + 1, 0)) {
        for (int rank = 0; rank < RANKS; rank++) {
            int64_t key = KEY(FOUR, rank);
            if (nibble(hand, rank) != 15 || key <= table_key)
                continue;
            uint64_t four = (uint64_t)15 << (4 * rank);
            for (uint64_t rest = hand & ~four; rest; rest &= rest - 1)
                n = emit(out, n, four | (rest & -rest), key, table_key, must);
        }
    }
    for (int top = 4; top < RANKS; top++) {
        uint32_t common = 15;
        for (int rank = top - 4; rank <= top; rank++)
            common &= nibble(hand, rank);
        for (int suit = 0; common; suit++, common >>= 1) {
            if (!(common & 1))
                continue;
            uint64_t mask = 0;
            for (int rank = top - 4; rank <= top; rank++)
                mask |= (uint64_t)1 << (4 * rank + suit);
            n = emit(out, n, mask, KEY(STRAIGHT_FLUSH, top * 4 + suit), table_key, must);
        }
    }
    return n;
}

/* Every lead of `hand` that holds `must` (the opening lead), singles to five-card plays. */
static int list_leads(uint64_t hand, uint64_t must, Listing *out)
{
    int n = 0;
    for (uint64_t rest = hand; rest; rest &= rest - 1) {
        int card = low_bit(rest);
        n = emit(out, n, rest & -rest, KEY(SINGLE, card), -1, must);
    }
    for (int rank = 0; rank < RANKS; rank++) {
        uint32_t suits = nibble(hand, rank);
        for (int i = 0; i < n_pairs[suits]; i++) {
            uint32_t subset = pair_of[suits][i];
            n = emit(out, n, (uint64_t)subset << (4 * rank),
                     KEY(PAIR, rank * 4 + high_bit(subset)), -1, must);
        }
        for (int i = 0; i < n_triples[suits]; i++)
            n = emit(out, n, (uint64_t)triple_of[suits][i] << (4 * rank), KEY(TRIPLE, rank), -1,
                     must);
    }
    return list_five(hand, -1, must, out, n);
}

/* How many five-card plays a leader has, by formula (strategies.count_leads): full houses
 * (threes times pairs of other ranks), four of a kind with any fifth card, 5-subsets of
 * each suit (flushes and straight flushes), straights (the product of the suits held at
 * five ranks in a row, less the straight flushes). Also the pairs and triples. */
static inline void count_leads(uint64_t hand, int *pairs, int *triples, int *five)
{
    int p = 0, t = 0, cross = 0, fours = 0;
    uint32_t present = 0;
    for (int rank = 0; rank < RANKS; rank++) {
        uint32_t suits = nibble(hand, rank);
        present |= (uint32_t)(suits != 0) << rank;
        p += n_pairs[suits];
        t += n_triples[suits];
        cross += n_triples[suits] * n_pairs[suits];
        fours += suits == 15;
    }
    int f = t * p - cross + fours * (popcount(hand) - 4);
    for (int suit = 0; suit < 4; suit++)
        f += comb5[popcount(hand & suit_lane[suit])];
    for (int low = 0; low + 5 <= RANKS; low++) {
        if ((present >> low & 31) != 31)
            continue;
        int product = 1;
        uint32_t common = 15;
        for (int rank = low; rank < low + 5; rank++) {
            uint32_t suits = nibble(hand, rank);
            product *= suit_count[suits];
            common &= suits;
        }
        f += product - suit_count[common];
    }
    *pairs = p;
    *triples = t;
    *five = f;
}

/* The pick-th pair (or triple, with `table`/`sizes`) over the ranks from `low_rank` up. */
static inline uint64_t pick_group(uint64_t hand, const uint8_t table[][6], const uint8_t *sizes,
                                  int low_rank, int pick, int *rank_out, uint32_t *subset_out)
{
    for (int rank = low_rank; rank < RANKS; rank++) {
        uint32_t suits = nibble(hand, rank);
        if (pick < sizes[suits]) {
            *rank_out = rank;
            *subset_out = table[suits][pick];
            return (uint64_t)table[suits][pick] << (4 * rank);
        }
        pick -= sizes[suits];
    }
    return 0; /* not reached: pick < the count */
}

static uint8_t triple_table[16][6]; /* triple_of widened to pick_group's row type */

/* ---- one decision --------------------------------------------------------------------- */

typedef struct {
    uint64_t mask; /* 0: a pass */
    int64_t key;
    int options;   /* legal options (engine.play_options): plays, and passing unless leading */
} Choice;

/* A follower's draw among `n` legal plays and passing, each as likely, from `bits`: the
 * play's index, or -1 to pass; records the n + 1 options in `choice`. */
static inline int follow_pick(uint32_t bits, int n, Choice *choice)
{
    choice->options = n + 1;
    int pick = (int)below(bits, (uint32_t)n + 1);
    return pick == n ? -1 : pick;
}

/* The `random` policy's choice: a uniformly random legal play, or passing (when not
 * leading) with the same chance as each play. `table_size` 0: the player leads. */
static Choice decide(uint64_t hand, int64_t table_key, int table_size, uint64_t must,
                     uint64_t *rng, Listing *listing)
{
    Choice choice = {0, 0, 0};
    uint32_t bits = (uint32_t)(next_word(rng) >> 32);
    if (must) { /* the opening lead: every play must hold the lowest card */
        int n = list_leads(hand, must, listing);
        uint32_t pick = below(bits, (uint32_t)n);
        choice.mask = listing->mask[pick];
        choice.key = listing->key[pick];
        choice.options = n;
        return choice;
    }
    if (table_size == 0) {
        int n1 = popcount(hand), n2, n3, n5;
        count_leads(hand, &n2, &n3, &n5);
        int n = n1 + n2 + n3 + n5;
        int pick = (int)below(bits, (uint32_t)n);
        choice.options = n;
        if (pick < n1) {
            int card = nth_bit(hand, (uint32_t)pick);
            choice.mask = (uint64_t)1 << card;
            choice.key = KEY(SINGLE, card);
        } else if ((pick -= n1) < n2) {
            int rank = 0;
            uint32_t subset = 0;
            choice.mask = pick_group(hand, pair_of, n_pairs, 0, pick, &rank, &subset);
            choice.key = KEY(PAIR, rank * 4 + high_bit(subset));
        } else if ((pick -= n2) < n3) {
            int rank = 0;
            uint32_t subset = 0;
            choice.mask = pick_group(hand, triple_table, n_triples, 0, pick, &rank, &subset);
            choice.key = KEY(TRIPLE, rank);
        } else {
            list_five(hand, -1, 0, listing, 0);
            choice.mask = listing->mask[pick - n3];
            choice.key = listing->key[pick - n3];
        }
        return choice;
    }
    int n = 0;
    int strength = (int)(table_key & ((1 << KIND_SHIFT) - 1));
    if (table_size == 1) {
        uint64_t legal = hand & ~(((uint64_t)2 << strength) - 1);
        int pick = follow_pick(bits, popcount(legal), &choice);
        if (pick >= 0) {
            int card = nth_bit(legal, (uint32_t)pick);
            choice.mask = (uint64_t)1 << card;
            choice.key = KEY(SINGLE, card);
        }
        return choice;
    }
    if (table_size == 2) {
        int low_rank = strength >> 2, top_suit = strength & 3;
        uint32_t suits = nibble(hand, low_rank);
        int same = 0; /* pairs of the table's rank with a stronger top suit */
        for (int i = 0; i < n_pairs[suits]; i++)
            same += high_bit(pair_of[suits][i]) > top_suit;
        n = same;
        for (int rank = low_rank + 1; rank < RANKS; rank++)
            n += n_pairs[nibble(hand, rank)];
        int pick = follow_pick(bits, n, &choice);
        if (pick < 0)
            return choice;
        if (pick < same) {
            for (int i = 0; i < n_pairs[suits]; i++) {
                uint32_t subset = pair_of[suits][i];
                if (high_bit(subset) > top_suit && pick-- == 0) {
                    choice.mask = (uint64_t)subset << (4 * low_rank);
                    choice.key = KEY(PAIR, low_rank * 4 + high_bit(subset));
                    return choice;
                }
            }
        }
        int rank = 0;
        uint32_t subset = 0;
        choice.mask = pick_group(hand, pair_of, n_pairs, low_rank + 1, pick - same, &rank, &subset);
        choice.key = KEY(PAIR, rank * 4 + high_bit(subset));
        return choice;
    }
    if (table_size == 3) {
        for (int rank = strength + 1; rank < RANKS; rank++)
            n += n_triples[nibble(hand, rank)];
        int pick = follow_pick(bits, n, &choice);
        if (pick < 0)
            return choice;
        int rank = 0;
        uint32_t subset = 0;
        choice.mask = pick_group(hand, triple_table, n_triples, strength + 1, pick, &rank, &subset);
        choice.key = KEY(TRIPLE, rank);
        return choice;
    }
    int pick = follow_pick(bits, list_five(hand, table_key, 0, listing, 0), &choice);
    if (pick >= 0) {
        choice.mask = listing->mask[pick];
        choice.key = listing->key[pick];
    }
    return choice;
}

/* ---- the statistics ---------------------------------------------------------------------- */

typedef struct {
    uint64_t games;
    uint64_t turns_sum, turns_squares, tricks_sum, tricks_squares;
    uint64_t wins[PLAYERS], sole_wins[PLAYERS];
    uint64_t penalty_sum[PLAYERS], penalty_squares[PLAYERS];
    uint64_t opener_rounds[PLAYERS], opener_firsts[PLAYERS], position_firsts[PLAYERS];
    /* full statistics only */
    uint64_t position_cards[PLAYERS];
    uint64_t cards_left[PLAYERS][CARDS_BINS], places[PLAYERS][PLAYERS];
    uint64_t plays[PLAYERS][N_KINDS], leads[N_KINDS];
    uint64_t turns_hist[TURN_BINS], tricks_hist[TRICK_BINS];
    uint64_t decision_options[OPTION_BINS], game_decisions[GAME_BINS];
    uint64_t decisions_sum, decisions_squares;
    uint64_t lead_changes_hist[LEAD_CHANGE_BINS], settled_hist[SETTLED_BINS];
} Totals;

static inline int penalty_of(int cards)
{
    int factor = cards >= TRIPLE_FROM ? 3 : cards >= DOUBLE_FROM ? 2 : 1;
    return cards * factor;
}

/* ---- the games ----------------------------------------------------------------------------- */

static void deal(uint64_t *rng, uint64_t hands[PLAYERS])
{
    uint8_t deck[DECK];
    for (int i = 0; i < DECK; i++)
        deck[i] = (uint8_t)i;
    uint64_t word = 0;
    for (int i = DECK - 1; i > 0; i--) { /* Fisher-Yates, 32 random bits a swap */
        uint32_t bits;
        if (i & 1) {
            word = next_word(rng);
            bits = (uint32_t)word;
        } else {
            bits = (uint32_t)(word >> 32);
        }
        uint32_t j = below(bits, (uint32_t)i + 1);
        uint8_t card = deck[i];
        deck[i] = deck[j];
        deck[j] = card;
    }
    for (int seat = 0; seat < PLAYERS; seat++) {
        uint64_t hand = 0;
        for (int k = 0; k < HAND; k++)
            hand |= (uint64_t)1 << deck[seat * HAND + k];
        hands[seat] = hand;
    }
}

static void play_games(uint64_t seed, uint64_t n_games, int full, Totals *t)
{
    static Listing listing;
    for (uint64_t game = 0; game < n_games; game++) {
        uint64_t rng = game_stream(seed, game);
        uint64_t hands[PLAYERS];
        int sizes[PLAYERS];
        deal(&rng, hands);
        for (int p = 0; p < PLAYERS; p++)
            sizes[p] = HAND;
        /* the holder of the lowest card (the 3 of diamonds, bit 0) leads and must play it */
        int seat = 0;
        while (!(hands[seat] & 1))
            seat++;
        int opener = seat;
        uint64_t must = 1;
        int64_t table_key = 0;
        int table_size = 0, table_seat = -1;
        uint32_t passed = 0;
        uint32_t turns = 0, tricks = 1, moves = 0, decided = 0;
        int last = -1, streak = -2;
        uint32_t changes = 0, streak_start = 0;
        for (;;) {
            Choice choice = decide(hands[seat], table_key, table_size, must, &rng, &listing);
            turns++;
            if (full) {
                t->decision_options[min_u32((uint32_t)choice.options, OPTION_BINS - 1)]++;
                decided += choice.options > 1;
            }
            if (choice.mask == 0) {
                passed |= 1u << seat;
                if (full)
                    t->plays[seat][PASS]++;
            } else {
                int kind = (int)(choice.key >> KIND_SHIFT);
                if (full) {
                    t->plays[seat][kind]++;
                    if (table_size == 0)
                        t->leads[kind]++;
                }
                hands[seat] &= ~choice.mask;
                table_key = choice.key;
                table_size = popcount(choice.mask);
                sizes[seat] -= table_size;
                table_seat = seat;
                must = 0;
                if (full) { /* a score check: the sole player with the fewest cards */
                    int best = 1 << 30, sole = -1;
                    for (int p = 0; p < PLAYERS; p++) {
                        if (sizes[p] < best) {
                            best = sizes[p];
                            sole = p;
                        } else if (sizes[p] == best) {
                            sole = -1;
                        }
                    }
                    if (sole != streak) {
                        streak = sole;
                        streak_start = moves;
                    }
                    if (sole >= 0) {
                        changes += last >= 0 && sole != last;
                        last = sole;
                    }
                }
                moves++;
                if (hands[seat] == 0)
                    break; /* the first out ends the round */
            }
            /* hard passing: the trick ends when every other player has passed */
            uint32_t waiting = ~passed & ((1u << PLAYERS) - 1) & ~(1u << table_seat);
            if (waiting == 0) {
                seat = table_seat;
                table_key = 0;
                table_size = 0;
                table_seat = -1;
                passed = 0;
                tricks++;
                continue;
            }
            do
                seat = seat + 1 < PLAYERS ? seat + 1 : 0;
            while (passed >> seat & 1);
        }
        /* ---- the game's counts (one round: first out wins, the others hold cards) ---- */
        int first = seat;
        t->games++;
        t->turns_sum += turns;
        t->turns_squares += (uint64_t)turns * turns;
        t->tricks_sum += tricks;
        t->tricks_squares += (uint64_t)tricks * tricks;
        t->wins[first]++;
        t->sole_wins[first]++;
        t->opener_rounds[opener]++;
        t->opener_firsts[opener] += first == opener;
        t->position_firsts[(first - opener + PLAYERS) % PLAYERS]++;
        for (int p = 0; p < PLAYERS; p++) {
            int penalty = penalty_of(sizes[p]);
            t->penalty_sum[p] += (uint64_t)penalty;
            t->penalty_squares[p] += (uint64_t)penalty * penalty;
        }
        if (full) {
            for (int p = 0; p < PLAYERS; p++) {
                int place = 0; /* the winner first, then by cards left; ties share */
                for (int q = 0; q < PLAYERS; q++)
                    place += p != first && (q == first || sizes[q] < sizes[p]);
                t->places[p][place]++;
                t->cards_left[p][sizes[p]]++;
                t->position_cards[(p - opener + PLAYERS) % PLAYERS] += (uint64_t)sizes[p];
            }
            t->turns_hist[min_u32(turns, TURN_BINS - 1)]++;
            t->tricks_hist[min_u32(tricks, TRICK_BINS - 1)]++;
            t->game_decisions[min_u32(decided, GAME_BINS - 1)]++;
            t->decisions_sum += decided;
            t->decisions_squares += (uint64_t)decided * decided;
            t->lead_changes_hist[min_u32(changes, LEAD_CHANGE_BINS - 1)]++;
            uint32_t start = streak == first ? streak_start : moves;
            t->settled_hist[min_u32(SETTLED_BINS - 1, (SETTLED_BINS * start) / moves)]++;
        }
    }
}

/* ---- output ---------------------------------------------------------------------------- */

static void print_rows(const char *name, const uint64_t *cells, int rows, int columns)
{
    printf("  \"%s\": [", name);
    for (int r = 0; r < rows; r++) {
        printf("%s[", r ? ", " : "");
        for (int c = 0; c < columns; c++)
            printf("%s%" PRIu64, c ? ", " : "", cells[r * columns + c]);
        printf("]");
    }
    printf("],\n");
}

static void print_totals(const Totals *t, uint64_t seed, int full, double cpu_seconds)
{
    uint64_t games = t->games;
    printf("{\n");
    printf("  \"program\": \"big_two_random\",\n");
    printf("  \"players\": %d,\n", PLAYERS);
    print_run(seed, full, games, cpu_seconds);
    printf("  \"mean_turns\": %.6f,\n", (double)t->turns_sum / games);
    printf("  \"mean_tricks\": %.6f,\n", (double)t->tricks_sum / games);
    printf("  \"turns_sum\": %" PRIu64 ",\n", t->turns_sum);
    printf("  \"turns_squares\": %" PRIu64 ",\n", t->turns_squares);
    printf("  \"tricks_sum\": %" PRIu64 ",\n", t->tricks_sum);
    printf("  \"tricks_squares\": %" PRIu64 ",\n", t->tricks_squares);
    print_list("wins", t->wins, PLAYERS, ",");
    print_list("sole_wins", t->sole_wins, PLAYERS, ",");
    print_list("penalty_sum", t->penalty_sum, PLAYERS, ",");
    print_list("penalty_squares", t->penalty_squares, PLAYERS, ",");
    print_list("opener_rounds", t->opener_rounds, PLAYERS, ",");
    print_list("opener_firsts", t->opener_firsts, PLAYERS, ",");
    print_list("position_firsts", t->position_firsts, PLAYERS, full ? "," : "");
    if (full) {
        print_list("position_cards", t->position_cards, PLAYERS, ",");
        print_rows("plays", &t->plays[0][0], PLAYERS, N_KINDS);
        print_list("leads", t->leads, N_KINDS, ",");
        print_rows("places", &t->places[0][0], PLAYERS, PLAYERS);
        print_rows("cards_left", &t->cards_left[0][0], PLAYERS, CARDS_BINS);
        print_histogram("turns_hist", t->turns_hist, TURN_BINS, ",");
        print_histogram("tricks_hist", t->tricks_hist, TRICK_BINS, ",");
        print_histogram("decision_options", t->decision_options, OPTION_BINS, ",");
        print_histogram("game_decisions", t->game_decisions, GAME_BINS, ",");
        printf("  \"decisions_sum\": %" PRIu64 ",\n", t->decisions_sum);
        printf("  \"decisions_squares\": %" PRIu64 ",\n", t->decisions_squares);
        print_list("lead_changes_hist", t->lead_changes_hist, LEAD_CHANGE_BINS, ",");
        print_list("settled_hist", t->settled_hist, SETTLED_BINS, "");
    }
    printf("}\n");
}

int main(int argc, char **argv)
{
    uint64_t n_games, seed;
    int full;
    if (parse_arguments(argc, argv, "big_two_random", &n_games, &seed, &full) != 0)
        return 2;

    init_tables();
    for (int suits = 0; suits < 16; suits++)
        for (int i = 0; i < 4; i++)
            triple_table[suits][i] = triple_of[suits][i];
    static Totals totals;
    double start = cpu_now();
    play_games(seed, n_games, full, &totals);
    double cpu_seconds = cpu_now() - start;
    print_totals(&totals, seed, full, cpu_seconds);
    return 0;
}
