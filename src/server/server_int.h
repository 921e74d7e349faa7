/*
 * server_int.h - the state behind struct ss_server, shared by window.c
 * (which feeds it) and results.c (which reads it at the end). Nothing
 * outside src/server includes it.
 *
 * Every kept series belongs to one "family on an endpoint" (struct
 * ss_srv_fe: a row of the families table at one endpoint): a family's
 * snapshots on an endpoint are those that hold one of its series (SPEC
 * 10.5), so each fe counts its own snapshots and keeps its own sums.
 * Everything here belongs to its struct ss_server and is freed by
 * ss_server_free().
 */
#ifndef SS_SERVER_INT_H
#define SS_SERVER_INT_H

#include "server/keymap.h"
#include "server/server.h"
#include "util/buf.h"

#define SS_SRV_NONE SS_SERVER_NO_HANDLE

/* Sums of one kind (since start, window differences, increments). */
struct ss_srv_acc {
	unsigned __int128 v[SS_ROLE_SCALARS];
	unsigned __int128 *pos[2]; /* P_i and DP_i at [i - 1] */
	uint32_t npos[2], cap[2];
};

/* One interval t, derived as the row says (S, D, A), not yet divided. */
struct ss_srv_raw_interval {
	bool has_start, has_end;
	int64_t start_ns, end_ns;
	unsigned __int128 steps, drafted;
	__int128 accepted;
};

struct ss_srv_fe {
	uint32_t row, endpoint;
	uint32_t head, tail;      /* the fe's series, in order of first sight */
	uint64_t snaps, incrs, resets;
	uint64_t touched;         /* the snapshot id that last gave it a value */
	bool has_first_time, has_last_time;
	int64_t first_time, last_time;
	struct ss_srv_acc first;  /* s_0's values: since the server started */
	struct ss_srv_acc delta;  /* Σ_t d_t */
	struct ss_srv_acc incr;   /* increments, as they came */
	struct ss_srv_raw_interval *iv;
	size_t niv, ivcap;
	struct ss_srv_raw_interval pending; /* `stride` raw intervals make one kept */
	uint64_t pend_n, stride;
};

struct ss_srv_series {
	uint32_t fe, next;
	uint32_t position;   /* 1-based; 0 without a position label */
	uint8_t role, gauge;
	bool has_prev;
	bool baseline;       /* its first sample was bad: its first good value is no difference */
	uint64_t seen;       /* the snapshot id of its last sample, good or bad */
	uint64_t valued;     /* the snapshot id of its last good value */
	uint64_t cur, prev;
};

/* A gauge of a row: the mean of its series in the last snapshot that had it. */
struct ss_srv_gauge_state {
	uint64_t stamp;
	double sum;
	uint64_t n;
	bool has;
	double last;
};

/* The series key's fixed part; the canonical label set follows it. */
#define SS_SRV_KEY_HEAD 13

struct ss_server {
	struct ss_msg *msg;
	struct ss_keymap series_map; /* series key -> index into `series` */
	struct ss_srv_series *series;
	size_t nseries, series_cap;
	struct ss_keymap endpoints;  /* endpoint key -> index */
	bool *endpoint_used;         /* [endpoint]: a snapshot ended there */
	struct ss_srv_fe *fe;
	size_t nfe, fe_cap;
	uint32_t *fe_of;             /* [endpoint * rows + row] -> fe index, or SS_SRV_NONE */
	size_t fe_of_cap;            /* endpoints fe_of and endpoint_used have room for */
	/* the open snapshot */
	bool open;
	uint64_t snap_id;
	uint32_t endpoint;
	enum ss_srv_source source;
	unsigned flags;
	uint32_t *touched;
	size_t ntouched, touched_cap;
	/* per row */
	bool *inexact;
	struct ss_srv_gauge_state (*gauge)[SS_FAMILY_GAUGES];
	/* counts */
	uint64_t snapshots, bad_lines, bad_shown;
	struct ss_buf key;           /* scratch: the key being built */
};

#endif
