/*
 * grow.h - growable arrays, written once (git's ALLOC_GROW).
 *
 * SS_ALLOC_GROW(x, need, cap) makes the array `x` (allocated for `cap`
 * elements) hold at least `need`, doubling its capacity; on failure `x` and
 * `cap` are left as they were. New elements are not initialized.
 *
 * SS_VEC(T) is the one vector type: a pointer, a length and a capacity;
 * struct ss_vec_i64 and struct ss_vec_f64 are its two instances.
 * SS_VEC_PUSH() appends, SS_VEC_RELEASE() frees and empties.
 */
#ifndef SS_GROW_H
#define SS_GROW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/alloc.h"

/* The reallocated array for at least `need` elements, or NULL (nothing
 * changed); *cap is updated on success. Use SS_ALLOC_GROW. */
void *ss_grow_array(void *p, size_t *cap, size_t need, size_t size);

#define SS_ALLOC_GROW(x, need, cap)                                               \
	__extension__({                                                           \
		bool ss_grown_ = true;                                            \
		if ((need) > (cap)) {                                             \
			void *ss_p_ = ss_grow_array((x), &(cap), (need), sizeof(*(x))); \
			if (ss_p_)                                                \
				(x) = ss_p_;                                      \
			else                                                      \
				ss_grown_ = false;                                \
		}                                                                 \
		ss_grown_;                                                        \
	})

#define SS_VEC(T)                                                                 \
	{                                                                         \
		T *v;                                                             \
		size_t len, cap;                                                  \
	}

struct ss_vec_i64 SS_VEC(int64_t);
struct ss_vec_f64 SS_VEC(double);

/* Append `x` to the vector `*vec`; false when out of memory. */
#define SS_VEC_PUSH(vec, x)                                                       \
	(SS_ALLOC_GROW((vec)->v, (vec)->len + 1, (vec)->cap) && ((vec)->v[(vec)->len++] = (x), true))

/* Free the vector's memory and leave it empty. */
#define SS_VEC_RELEASE(vec)                                                       \
	(ss_free((vec)->v), (vec)->v = NULL, (vec)->len = (vec)->cap = 0)

#endif
