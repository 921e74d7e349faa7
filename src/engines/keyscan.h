/*
 * keyscan.h - a fast scan of escaped JSON text (the inside of a JSON
 * string holding an object, as AIPerf's raw packets are) for the keys that
 * make an object worth parsing (SPEC 2.2, 2.3).
 *
 * Conservative both ways: a false answer guarantees that the capture would
 * gain nothing from the object; a true one only says it may. The scans
 * only read the caller's text and hand out nothing that needs freeing.
 */
#ifndef SS_KEYSCAN_H
#define SS_KEYSCAN_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Whether an object whose JSON text is given in escaped form may change the
 * capture: it may carry content (when `content_seen` is false), or it names
 * a payload or usage key.
 */
bool ss_keyscan_worth(bool content_seen, const char *escaped, size_t n);

/*
 * The same question for an object given as plain JSON text (an SSE
 * event), which must be padded like every batch text: SS_BATCH_PADDING
 * readable bytes after its end (the last vector step reads past it). A
 * `model` key matters too while no model was seen (SPEC 7.3's model is
 * the first object's that names one).
 */
bool ss_keyscan_worth_plain(bool content_seen, bool model_seen, const char *text, size_t n);

/*
 * In a longer text holding such escaped objects (a whole line), the first
 * position at or after `from` where a payload or usage key may end, or
 * something the fast scan cannot judge is; `n` when there is none. Any
 * object that holds a key that matters holds such a position.
 */
size_t ss_keyscan_next_payload_key(const char *s, size_t from, size_t n);

#endif
