/*
 * server_int.h - the state behind struct ss_server, shared by window.c
 * (which feeds it) and results.c (which reads it at the end). Nothing
 * outside src/server includes it.
 *
 * Every kept series belongs to one "family on an endpoint" (struct
 * ss_server_fe: a row of the families table at one endpoint): a family's
 * snapshots on an endpoint are those that hold one of its series (SPEC
 * 10.5), so each fe counts its own snapshots and keeps its own sums.
 * Everything here belongs to its struct ss_server and is freed by
 * ss_server_free().
 */
#ifndef SS_SERVER_INT_H
#define SS_SERVER_INT_H

#include "server/keymap.h"
#include "server/server.h"
#include "server/server_log.h"
#include "util/buf.h"

#define SS_SERVER_NONE SS_SERVER_NO_HANDLE
/* A new process refused (past a bound). */
#define SS_SERVER_FULL (UINT32_MAX - 1)

/* Sums of one kind (since start, window differences, increments). */
struct ss_server_acc {
	unsigned __int128 v[SS_ROLE_SCALARS];
	unsigned __int128 *pos[2]; /* P_i and DP_i at [i - 1] */
	uint32_t npos[2], cap[2];
};

/* One interval t, derived as the row says (S, D, A), not yet divided. */
struct ss_server_raw_interval {
	bool has_start, has_end;
	int64_t start_ns, end_ns;
	unsigned __int128 steps, drafted;
	__int128 accepted;
};

/* One interval's sums by role, before the row's rule makes S, D and A of them. */
struct ss_server_iv_sums {
	unsigned __int128 v[SS_ROLE_SCALARS];
	unsigned __int128 dp1;
};

/*
 * Where one series stands in one order (SPEC 10.3's "Order"): its value at
 * the lowest and highest key seen (a snapshot's time, or the sum of its
 * family's counters in the snapshot), and whether a value broke the order
 * (went down as the key went up).
 */
struct ss_server_track {
	bool has, broken;
	__int128 lo_key, hi_key;
	uint64_t lo, hi;
};

/*
 * One closed snapshot of an fe, kept for SPEC 10.3's order (order.c): its
 * time, the sum of the fe's counters in it, its number in input order and
 * its values (n of them from `off` in the fe's vals).
 */
struct ss_server_point {
	bool has_time;
	int64_t t_ns;
	__int128 sum;
	uint32_t nth;
	size_t off, n;
};

struct ss_server_pval {
	uint32_t ps;       /* the pseries */
	uint64_t v;
};

struct ss_server_fe {
	uint32_t row, process;
	uint32_t head, tail;      /* the fe's series, in order of first sight */
	uint64_t snaps, incrs, resets;
	uint64_t touched;         /* the snapshot id that last gave it a value */
	/* first_time: the earliest snapshot time, last_time the latest (first and last when in order) */
	bool has_first_time, has_last_time;
	int64_t first_time, last_time;
	bool has_prev_time;       /* the time of the snapshot before: the next interval's start */
	int64_t prev_time;
	uint64_t backwards;       /* intervals whose end came before their start: times left out */
	/*
	 * The orders of SPEC 10.3: timed counts the timed snapshots; a key
	 * (time, or the sum of the fe's counters) below the one before says
	 * that input order is not that order (the window is then taken from
	 * each series' track); min_* is the first snapshot's key in that order.
	 */
	uint64_t timed, slices;
	bool time_back, sum_back, sparse;
	bool has_min_time;
	int64_t min_time, max_time;
	__int128 min_sum, max_sum;
	__int128 snap_sum;        /* the closing snapshot's sum */
	/* the closing snapshot's scratch */
	uint64_t t;
	bool reset;
	struct ss_server_iv_sums ivs;
	struct ss_server_acc first;  /* s_0's values: since the server started */
	struct ss_server_acc delta;  /* Σ_t d_t */
	struct ss_server_acc incr;   /* increments, as they came */
	struct ss_server_raw_interval *iv;
	size_t niv, ivcap;
	struct ss_server_raw_interval pending; /* `stride` raw intervals make one kept */
	/* its snapshots kept for the order (order.c); let go past the bounds */
	struct ss_server_point *pts;
	size_t npts, pts_cap;
	struct ss_server_pval *vals;
	size_t nvals, vals_cap;
	uint64_t pts_charged;
	bool pts_dropped;
	uint64_t pend_n, stride;
};

/*
 * A series as the readers see it (name and label set, at one endpoint):
 * its value in the open snapshot. Its state in each process (the previous
 * value, the tracks) is a struct ss_server_pseries, found when the
 * snapshot closes and its process is known.
 */
struct ss_server_series {
	uint32_t endpoint;
	uint16_t row;
	uint8_t role, gauge;
	uint32_t position;   /* 1-based; 0 without a position label */
	uint64_t seen;       /* the snapshot id of its last sample, good or bad */
	uint64_t valued;     /* the snapshot id of its last good value */
	uint64_t cur;
	uint32_t last_proc, last_ps; /* the pseries it had in its last process */
	bool prepaid;        /* its first pseries was counted against the budget with it */
};

/* A series within one process (SPEC 10.3: each series is diffed within its process). */
struct ss_server_pseries {
	uint32_t fe, next, series;
	uint32_t position;
	uint8_t role;
	bool has_prev;
	bool baseline;       /* its first sample was bad: its first good value is no difference */
	uint64_t prev;
	struct ss_server_track by_time, by_sum;
};

/*
 * A process (SPEC 10.3): the endpoint, the space (text pages or Prometheus
 * API results), process_start_time_seconds and the `# endpoint:` name.
 */
struct ss_server_process {
	bool has_start;
	double start_s;
	char *name;          /* shown: `# endpoint:`, AIPerf's endpoint_url, else the first input's; NULL: unnamed */
	bool used;           /* a snapshot ended there */
};

/* A gauge of a row: the mean of its series in the last snapshot that had it. */
struct ss_server_gauge_state {
	uint64_t stamp;
	double sum, scaled;  /* Σ g, and Σ g·2^-64 for when Σ g overflows (SPEC 13) */
	uint64_t n;
	bool has;
	double last;
};

/*
 * The series key (SPEC 10.3: process, name, canonical label set): its
 * fixed part, row (2 bytes), role, gauge (which name of the row), the
 * process (4 bytes) and the position (4 bytes); the label set follows it.
 * `x` and `x_total` are one name (SPEC 13). The process is today the
 * endpoint the snapshot came from (snapshot_process()); naming processes
 * by process_start_time_seconds or `# endpoint:` changes that one value.
 */
#define SS_SERVER_KEY_HEAD 12

/* procs.c: the open snapshot's process, and each series' state in it. */
uint32_t ss_server_proc_resolve(struct ss_server *s);
uint32_t ss_server_ps_get(struct ss_server *s, uint32_t series, uint32_t process);
bool ss_server_charge(struct ss_server *s, uint64_t n);
/* What a series' state in one process costs (counted with the series, for its first). */
#define SS_SERVER_PS_COST (2 * (8 + sizeof(struct ss_server_pseries) + sizeof(struct ss_keymap_entry)) + 4 * sizeof(uint32_t))
bool ss_server_pos_grow(struct ss_server_acc *a, int which, uint32_t cap);
uint32_t ss_server_pos_cap(uint32_t cap, uint32_t pos);

struct ss_server {
	struct ss_msg *msg;
	struct ss_keymap series_map; /* series key -> index into `series` */
	struct ss_server_series *series;
	size_t nseries, series_cap;
	struct ss_keymap endpoints;  /* endpoint key -> index */
	struct ss_keymap procmap;    /* process key -> index into `procs` */
	struct ss_server_process *procs;
	size_t procs_cap;
	struct ss_keymap psmap;      /* (series, process) -> index into `ps` */
	struct ss_server_pseries *ps;
	size_t nps, ps_cap;
	struct ss_server_fe *fe;
	size_t nfe, fe_cap;
	uint32_t *fe_of;             /* [process * rows + row] -> fe index, or SS_SERVER_NONE */
	size_t fe_of_cap;            /* processes fe_of has room for */
	/* the open snapshot */
	bool open;
	uint64_t snap_id;
	uint32_t endpoint;
	enum ss_server_source source;
	unsigned flags;
	uint32_t *touched;           /* the fes that got a value in the open snapshot */
	size_t ntouched, touched_cap;
	uint32_t *tseries;           /* its counter series with a sample, good or bad */
	size_t ntseries, tseries_cap;
	uint32_t *tps;               /* their pseries in its process */
	size_t tps_cap;
	int64_t slice_start;
	struct ss_server_proc_info pend; /* the process it belongs to (ss_server_set_process) */
	struct ss_buf pend_name, pend_input;
	/* the memory budget (ss_server_set_budget; with a pool, shared) */
	uint64_t budget, charged;
	uint64_t *pool;              /* the bytes charged by every state sharing it, or NULL */
	const char *told[8];         /* the bounds told so far */
	size_t ntold;
	/* per row */
	bool *inexact;
	struct ss_server_gauge_state (*gauge)[SS_FAMILY_GAUGES];
	bool nomem;                  /* an allocation failed where no caller could be told */
	/* counts */
	uint64_t snapshots, bad_lines, bad_shown;
	struct ss_buf key;           /* scratch: the key being built */
	struct ss_server_log *log;   /* the log inputs' state (server_log.c), made at the first */
};

/* Count n bytes against the budget (its pool's when shared) whatever is left. */
void ss_server_charge_anyway(struct ss_server *s, uint64_t n);
/* Give back n bytes counted before. */
void ss_server_refund(struct ss_server *s, uint64_t n);

/*
 * order.c: keep the closing snapshot's points (its n pseries tps, each
 * touched fe's point); free an fe's. At the end, for an fe whose input
 * order was not its order: whether every pair of neighbours in counter
 * order holds (1; 0 a counter went down; -1 out of memory; 1 too when
 * the points were let go), and its intervals in its order (by time or by
 * the counters' sum; none when the points were let go), owned by the caller.
 */
void ss_server_points_add(struct ss_server *s, const uint32_t *tps, size_t n, bool has_time,
			  int64_t t_ns);
void ss_server_points_free(struct ss_server_fe *f);
int ss_server_order_check(const struct ss_server *s, const struct ss_server_fe *f);
bool ss_server_order_intervals(const struct ss_server *s, const struct ss_server_fe *f,
			       bool by_time, struct ss_server_raw_interval **out, size_t *nout);
/*
 * The window of an fe whose timed snapshots came out of time order: each
 * series diffed between its neighbours in time order, a value that went
 * down a reset (d = v), as the pages would have been read in that order;
 * *resets the snapshots where one went down. *kept false (nothing added)
 * when the points were let go. false when out of memory.
 */
bool ss_server_order_window(const struct ss_server *s, const struct ss_server_fe *f,
			    struct ss_server_acc *delta, struct ss_server_acc *first,
			    uint64_t *resets, bool *kept);
/* results.c: add d at a pseries' role to an acc (its position arrays grown). */
bool ss_server_acc_put(struct ss_server_acc *a, const struct ss_server_pseries *se, uint64_t d);

#endif
