/*
 * keymap.h - byte strings to dense indexes (0, 1, 2, ... in order of first
 * insertion): the one hash table of the server stage, keyed by a series'
 * canonical key (SPEC 10: name and label set in a canonical order) or an
 * endpoint's name. Open addressing over a power-of-two table; the keys are
 * copied into one arena the map owns. ss_keymap_hash() is also the
 * fingerprint the exposition reader takes of a series' text.
 *
 * A hash decides nothing alone: a found key is always compared byte for
 * byte. The hash is keyed (SipHash-1-3 under a key drawn once per
 * process), so that input chosen to collide cannot pile keys into one
 * probe run either; indexes never depend on it, so output does not.
 */
#ifndef SS_SERVER_KEYMAP_H
#define SS_SERVER_KEYMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ss_keymap_entry {
	uint64_t hash;
	size_t off, len; /* the key in the arena */
};

struct ss_keymap {
	uint32_t *slots; /* index + 1; 0 is empty */
	size_t nslots;
	struct ss_keymap_entry *ent;
	size_t n, cap;
	char *arena;
	size_t arena_len, arena_cap;
};

void ss_keymap_init(struct ss_keymap *m);
void ss_keymap_release(struct ss_keymap *m);

/* A 64-bit keyed hash of n bytes (never 0). */
uint64_t ss_keymap_hash(const void *p, size_t n);

/*
 * Tests only: with `on`, every hash is 1 from now on (every key collides
 * with every other), so that a test can show that no result depends on a
 * hash. Not for use while another thread hashes.
 */
void ss_keymap_collide_for_tests(bool on);

/*
 * Tests only: the hash key is a constant from now on instead of a random
 * one, so that a run's probe sequences, and a fuzzer's coverage, are the
 * same in every process (a fixed libFuzzer seed then replays the same
 * inputs). Call before the first hash.
 */
void ss_keymap_fixed_key_for_tests(void);

/* The index of the key when held (hash from ss_keymap_hash); nothing is added. */
bool ss_keymap_find(const struct ss_keymap *m, const void *key, size_t len, uint64_t hash,
		    uint32_t *index);

/*
 * The index of the key (hash from ss_keymap_hash), added when new (*added
 * says so). false when out of memory or when `limit` keys are already
 * held and this one is new (*added then false and *full true).
 */
bool ss_keymap_put(struct ss_keymap *m, const void *key, size_t len, uint64_t hash,
		   size_t limit, uint32_t *index, bool *added, bool *full);

/* The key bytes of an index (valid until the next put). */
static inline const char *ss_keymap_key(const struct ss_keymap *m, uint32_t i, size_t *len)
{
	*len = m->ent[i].len;
	return m->arena + m->ent[i].off;
}

#endif
