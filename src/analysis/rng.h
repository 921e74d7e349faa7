/*
 * rng.h - the bootstrap's random numbers, exactly as SPEC 7.2 defines them
 * (SplitMix64 steps; all arithmetic mod 2^64).
 *
 * A stream is named by a seed S, a group number g (0 for the main results,
 * 1..G for the groups of 7.3 in their order) and a resample number b, so
 * every resample can be drawn on any thread, in any order, and give the
 * same numbers. Header-only: the bootstrap's inner loop inlines them.
 *
 * Ownership: a stream is a value on the caller's stack; nothing here
 * allocates.
 */
#ifndef SS_RNG_H
#define SS_RNG_H

#include <stdint.h>

#define SS_RNG_GAMMA UINT64_C(0x9E3779B97F4A7C15)

struct ss_rng {
	uint64_t state;
};

static inline uint64_t ss_mix64(uint64_t z)
{
	z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
	return z ^ (z >> 31);
}

/* Start stream (g, b) of seed `seed`: state = mix64(S ^ mix64((g << 32) | b)). */
static inline void ss_rng_stream(struct ss_rng *r, uint64_t seed, uint32_t g, uint32_t b)
{
	r->state = ss_mix64(seed ^ ss_mix64(((uint64_t)g << 32) | b));
}

static inline uint64_t ss_rng_next(struct ss_rng *r)
{
	r->state += SS_RNG_GAMMA;
	return ss_mix64(r->state);
}

/*
 * An index in [0, n): the top 53 bits of the next number times n, shifted
 * down by 53, with the exact 117-bit product (no modulo bias to speak of,
 * and the same result on every machine).
 */
static inline uint64_t ss_rng_scale(uint64_t x, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)(x >> 11) * n) >> 53);
}

static inline uint64_t ss_rng_draw(struct ss_rng *r, uint64_t n)
{
	return ss_rng_scale(ss_rng_next(r), n);
}

#endif
