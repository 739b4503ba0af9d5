/*
 * c_reference.h: what every C reference (bluff_random.c, big_two_random.c) does the same
 * way: the SplitMix64 stream seeded per game as zooanalysis/rng.py seeds it, the CPU clock,
 * the command line (GAMES [SEED] [--lean]) and the JSON output's shared lines and lists.
 * Included by each program after its system headers; benchmarks/c_reference.py compiles
 * each program alone (the compiler finds this header next to the source).
 */

#ifndef ZOOSIM_C_REFERENCE_H
#define ZOOSIM_C_REFERENCE_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- SplitMix64, seeded per game as zooanalysis/rng.py does ---------------------------- */

static const uint64_t GOLDEN = 0x9E3779B97F4A7C15u;

static inline uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

/* The stream state of game `game` of batch `seed`. */
static inline uint64_t game_stream(uint64_t seed, uint64_t game)
{
    return mix64(seed ^ mix64(game + GOLDEN));
}

static inline uint64_t next_word(uint64_t *state)
{
    *state += GOLDEN;
    return mix64(*state);
}

/* A number in [0, n) from 32 random bits (multiply-shift, as rng.below). */
static inline uint32_t below(uint32_t bits, uint32_t n)
{
    return (uint32_t)(((uint64_t)bits * n) >> 32);
}

static inline uint32_t min_u32(uint32_t a, uint32_t b) { return a < b ? a : b; }

/* ---- the command line and the clock ------------------------------------------------------ */

static int usage(const char *program)
{
    fprintf(stderr, "usage: %s GAMES [SEED] [--lean]: GAMES a whole number >= 1 (1e6 allowed), "
                    "SEED a whole number >= 0\n", program);
    return 2;
}

/* Read GAMES [SEED] [--lean] into the three outputs (SEED 1 and full statistics unless
 * given); returns 0, or 2 after printing the usage line for `program`. */
static int parse_arguments(int argc, char **argv, const char *program, uint64_t *n_games,
                           uint64_t *seed, int *full)
{
    int positional = 0;
    *n_games = 0;
    *seed = 1;
    *full = 1;
    for (int i = 1; i < argc; i++) {
        char *end;
        if (strcmp(argv[i], "--lean") == 0) {
            *full = 0;
            continue;
        }
        if (positional == 0) { /* a game count, also written as 1e6 */
            double value = strtod(argv[i], &end);
            if (*end != '\0' || !(value >= 1 && value <= 1e15) || value != (uint64_t)value)
                return usage(program);
            *n_games = (uint64_t)value;
        } else if (positional == 1) {
            if (argv[i][0] == '-' || argv[i][0] == '\0')
                return usage(program);
            *seed = strtoull(argv[i], &end, 10);
            if (*end != '\0')
                return usage(program);
        } else {
            return usage(program);
        }
        positional++;
    }
    return *n_games == 0 ? usage(program) : 0;
}

static double cpu_now(void)
{
    struct timespec now;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return (double)now.tv_sec + 1e-9 * (double)now.tv_nsec;
}

/* ---- output ---------------------------------------------------------------------------- */

/* The lines every program prints after its own settings: the run and its CPU time. */
static void print_run(uint64_t seed, int full, uint64_t games, double cpu_seconds)
{
    printf("  \"seed\": %" PRIu64 ",\n", seed);
    printf("  \"full_statistics\": %s,\n", full ? "true" : "false");
    printf("  \"games\": %" PRIu64 ",\n", games);
    printf("  \"cpu_seconds\": %.6f,\n", cpu_seconds);
    printf("  \"games_per_second\": %.1f,\n", cpu_seconds > 0 ? games / cpu_seconds : 0.0);
}

static void print_list(const char *name, const uint64_t *values, int n, const char *after)
{
    printf("  \"%s\": [", name);
    for (int i = 0; i < n; i++)
        printf("%s%" PRIu64, i ? ", " : "", values[i]);
    printf("]%s\n", after);
}

/* A histogram up to its last non-empty bin. */
static void print_histogram(const char *name, const uint64_t *bins, int n, const char *after)
{
    int used = n;
    while (used > 1 && bins[used - 1] == 0)
        used--;
    print_list(name, bins, used, after);
}

#endif
