/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Private to fastmib-stat: its options, snapshots of a segment's counters
 * and the parts of the program, one concern a file.
 */
#ifndef FASTMIB_STAT_H
#define FASTMIB_STAT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include <jansson.h>

#include "cols.h"
#include "fastmib/names.h"
#include "json64.h"
#include "fastmib/reader.h"

#define EXIT_USAGE 2
/* A MIB name made of the prefix and two model names, with room to spare. */
#define NAME_BUF (3 * FASTMIB_MAX_NAME + 8)

struct stat_opts {
	const char *path;
	const char *reset_target; /* NULL: whole segment */
	double watch;             /* seconds; 0 = print once */
	uint64_t max_rows;        /* rows shown per table; UINT64_MAX = all */
	bool json;
	bool human;               /* -H: 1.2M, 1.5KiB instead of exact numbers */
	bool json_strings;         /* --json-strings: every 64-bit value a string */
	bool info;
	bool reset;
	bool yes;                 /* -y: reset without asking on a terminal */
	bool events;              /* --events: print the event log */
	bool follow;              /* --follow: keep printing new events */
	const char *event_name;   /* --event NAME filter; NULL = all */
	int max_level;            /* --level N filter; 9 = all */
	const char **match;       /* --match GLOB, each one */
	uint32_t n_match;
	const char *sort;         /* --sort [+|-]COLUMN */
	uint64_t top;             /* --top N; 0 = not given */
	const char *output;       /* --output COLUMNS, as given; NULL = default */
	bool raw;                 /* --raw: tables unaligned, nothing else */
	/* --ports: the ports of DPDK applications instead of a segment */
	const char **ports;       /* --ports PATH[,BASE], each */
	uint32_t n_ports;
	uint32_t ifindex_base;    /* --ifindex-base; 0 = the default */
	unsigned int timeout_ms;  /* --timeout; 0 = the default */
	const char *state_dir;    /* --state-dir; NULL = the default */
};

/* The columns of the list of a scalar group (--output keywords). */
enum list_col { LC_NAME, LC_VALUE, LC_UNITS, LC_RATE, LC_TYPE, LC_DESCRIPTION, LC_N };
/* view.c: their names, as --output takes them and the text heads them. */
extern const char *const fst_list_col_names[LC_N];

/* What a column of a table shows. */
enum tcol_kind { TC_INDEX, TC_COUNTER, TC_STATE };

/* A column of a table: one of its indexes, counters or states. */
struct tcol {
	uint8_t kind; /* enum tcol_kind */
	uint16_t n;   /* index, counter or state number in the group's schema */
};

/* The most columns a table has. */
#define TCOLS_MAX (FASTMIB_MAX_INDEXES + FASTMIB_MAX_COUNTERS + FASTMIB_MAX_STATES)

/* What is shown of one group (view.c). */
struct group_view {
	bool shown;                          /* some counter or state of it is shown */
	bool counter[FASTMIB_MAX_COUNTERS];  /* counters shown (--match); a
						histogram's: its block (hist.c),
						not a column */
	bool hist;                           /* some histogram of it is shown */
	bool named[FASTMIB_MAX_COUNTERS];    /* histograms --output names */
	bool state[FASTMIB_MAX_STATES];      /* states shown (--match) */
	uint32_t n_cols;                     /* a table's text columns (--output) */
	struct tcol cols[TCOLS_MAX];
	bool sorted;                         /* table rows ordered by `key` */
	bool descending;
	struct tcol key;
};

/* What of a segment is shown, from --match, --sort, --top and --rows. */
struct view {
	uint32_t n_groups;
	struct group_view *g;
	uint64_t max_rows; /* rows shown of each table, after ordering */
	bool all_rows;     /* some table is sorted: snapshots keep every row */
	uint32_t n_list_cols;              /* columns of scalar lists (--output) */
	enum list_col list_cols[LC_N];
};

/* Values of the rows shown for one group, taken in one pass. */
struct group_snap {
	uint64_t n_present; /* rows present in the table (all, not just shown) */
	uint32_t n_shown;
	uint32_t *rows;     /* 0-based row numbers, in SNMP order (a keyed
			       table's by key, others' ascending) */
	uint64_t *vals;     /* n_shown x n_counters reported values */
	uint8_t *states;    /* n_shown x state_size: each row's states, one
			       publication (fastmib_state_read()), C forms */
	uint64_t *bad;      /* n_shown x FASTMIB_STATE_MASK_WORDS: the states
			       left out (not allowed by the model, or a setter
			       stayed inside its section) */
	uint64_t mono_ns;   /* fastmib_monotonic_ns() when read: timestamps' ages */
	uint8_t *keys;      /* keyed tables: each row's order key, the one it
			       was read for, key_stride bytes apart */
	uint16_t *key_lens;
	uint32_t key_stride;
	uint32_t n_bounded; /* rows read best-effort (writer stalled) */
	uint8_t *busy;      /* n_shown: 1 for each row read best-effort */
	uint32_t n_words;   /* groups with histograms: words kept of each row
			       (fst_hist_row_words()), else 0 */
	uint64_t *words;    /* n_shown x n_words: each row's words as read,
			       the same read as its vals */
};

/* Where the next range of a table's rows starts (fst_snap_range()); zeroed:
 * at the first row. */
struct row_cursor {
	uint32_t row;       /* tables of integer indexes: the next row number */
	bool past;          /* keyed tables: the rows up to SNMP index idx[0..n)
			       are done */
	size_t n;
	uint64_t idx[FASTMIB_MAX_INDEX_SUBIDS];
};

struct snap {
	uint32_t n_groups;
	struct group_snap *g;
	struct timespec at;   /* CLOCK_MONOTONIC, for rates */
	struct timespec wall; /* CLOCK_REALTIME, for the JSON "time" */
};

/*
 * The parts of the program, one file each, from the command line down to
 * the modes; main.c calls them and nothing calls main.c.
 */

/*
 * args.c: fill `o` from the command line and check the options together
 * (main()). Returns -1 to go on, or the exit status after --help,
 * --version or a message naming the option. The caller frees o->match and
 * o->ports, whatever it returns.
 */
int fst_parse_args(int argc, char **argv, struct stat_opts *o);

/*
 * report.c: "fastmib-stat: PATH: [WHAT: ]message of the last failed call"
 * on stderr (fastmib_last_error(); PATH left out when the message names
 * it). For main() and every mode after a reader call failed.
 */
void fst_report_error(const char *path, const char *what);

/*
 * signals.c: the end of the loops of --watch, --follow and --ports --watch.
 * fst_stop_on_signals() makes SIGINT and SIGTERM set fst_stop_requested
 * instead of ending the process; fst_sleep_interruptible() sleeps
 * `seconds`, or less when one of them comes (or came).
 */
extern volatile sig_atomic_t fst_stop_requested;
void fst_stop_on_signals(void);
void fst_sleep_interruptible(double seconds);

/* snapshot.c: reading the rows of a segment, and rates between two reads. */
/* Next present row >= row of group gi, or -1: the walk the subagent does
 * (info.c, reset.c). */
int64_t fst_next_row(struct fastmib_segment *seg, const struct fastmib_group_schema *g,
		     unsigned gi, uint32_t row);
/* Groups `v` shows, at most the rows it may show; every row of all with NULL.
 * 0, or a negative errno (nothing to free then). main(), fst_watch(). */
int fst_snap_take(struct fastmib_segment *seg, const struct view *v, struct snap *s);
/*
 * Add to `gs` the rows of group gi from `*cur` on, in SNMP order, until it
 * holds `max_rows` rows: returns 1 when rows are left (`*cur` is where the
 * next range starts), 0 after the last row, or a negative errno. With
 * `count_rest`, rows past `max_rows` are only counted (n_present) and 0
 * is returned. A range at a time is how the outputs stream: memory for
 * `max_rows` rows, however large the table. A keyed table's row is read
 * for the key it was found by (fastmib_keyed_read()).
 */
int fst_snap_range(struct fastmib_segment *seg, unsigned gi, struct row_cursor *cur,
		   uint64_t max_rows, bool count_rest, struct group_snap *gs);
/* Rows present in group gi now (no counter is read): presence bits, or
 * for a keyed table the keys a reader can read. */
uint64_t fst_count_present(struct fastmib_segment *seg, unsigned gi);
/* Row i of `gs`: its order key (keyed tables) and the key's length. */
const uint8_t *fst_snap_key(const struct group_snap *gs, uint32_t i, size_t *len);
/* Row i of `gs`: its words as read (groups with histograms). */
const uint64_t *fst_snap_words(const struct group_snap *gs, uint32_t i);
/* Whether a counter of `type` is a level (Gauge32, peak): no rate. */
bool fst_is_level(uint32_t type);
/* Free what a snapshot holds and leave it empty; again is harmless. */
void fst_snap_free(struct snap *s);
void fst_group_snap_free(struct group_snap *gs);
/* The position in previous snapshot `p` of row i of `gs` (the same row,
 * or for a keyed table the same key), or -1. */
int64_t fst_prev_row(const struct group_snap *p, const struct fastmib_group_schema *g,
		     const struct group_snap *gs, uint32_t i);
/* Row i of `gs`: its counters' values, its states' C forms (state_size
 * bytes in the group's struct layout), whether its state s was left out. */
const uint64_t *fst_snap_vals(const struct group_snap *gs, const struct fastmib_group_schema *g,
			      uint32_t i);
const uint8_t *fst_snap_states(const struct group_snap *gs,
			       const struct fastmib_group_schema *g, uint32_t i);
bool fst_snap_state_bad(const struct group_snap *gs, uint32_t i, uint32_t s);
/* Whether state s of row i of `gs` changed since row pi of previous
 * snapshot `p` (fst_prev_row()): its value, or whether it was left out;
 * false without a previous row (p NULL, pi < 0). */
bool fst_state_changed(const struct group_snap *p, int64_t pi, const struct group_snap *gs,
		       uint32_t i, const struct fastmib_group_schema *g, uint32_t s);
/* Per-second rate of a counter of `type` from `prev` to `cur` in `dt`
 * seconds: false for a gauge, or a Counter64 that went down (reset). */
bool fst_rate_of(uint32_t type, uint64_t prev, uint64_t cur, double dt, double *rate);

/*
 * states.c: a state object's value, its C form as fastmib_state_read()
 * gives it (a value it left out is the caller's), as fastmib-stat shows it.
 */
/* Whether the model has states: messages name them and --info lists
 * them only then, so that a model without any reads as before states. */
bool fst_model_has_states(const struct fastmib_schema *sc);
/* Bytes any state's text takes at most: the hex of the longest octet string. */
#define FST_STATE_TEXT (2 * FASTMIB_MAX_OCTET_STRING + 1)
/* Bytes the text of state `st` takes at most, its NUL included. */
size_t fst_state_text_size(const struct fastmib_state_schema *st);
/* Its text (the text output): `now_ns`, fastmib_monotonic_ns() of the
 * snapshot, dates a timestamp. */
void fst_state_text(const struct fastmib_state_schema *st, const uint8_t *v, uint64_t now_ns,
		    char *buf, size_t len);
/* Its JSON object {"type", "value", ...}; `bad`: the value was left out. */
json_t *fst_state_json(const struct fastmib_state_schema *st, const uint8_t *v, bool bad,
		       uint64_t now_ns);
/* --sort: < 0, 0, > 0; numbers by value, the others by their text. */
int fst_state_cmp(const struct fastmib_state_schema *st, const uint8_t *a, const uint8_t *b);
/* Whether the type sorts as a number (then largest first by default). */
bool fst_state_is_number(const struct fastmib_state_schema *st);
/* Whether two values are the same value (--watch marks the others). */
bool fst_state_equal(const struct fastmib_state_schema *st, const uint8_t *a,
		     const uint8_t *b);

/*
 * hist.c: histograms, from the words of one read of their row.
 */
/* Words of a row to keep for its histograms: 0 in a group without any. */
uint32_t fst_hist_row_words(const struct fastmib_group_schema *g);
/* One histogram's values, pointing into a row's words. */
struct fst_hist {
	uint32_t n_bounds;
	const uint64_t *bounds;  /* n_bounds */
	const uint64_t *buckets; /* n_bounds + 1, the last unbounded */
	uint64_t count, sum;
};
void fst_hist_of(const struct fastmib_counter_schema *cs, const uint64_t *words,
		 struct fst_hist *h);
/* An estimated percentile (q in 0..1): a value, above the last bound, or
 * none (no observation). */
enum fst_pct { FST_PCT_NONE, FST_PCT_VALUE, FST_PCT_ABOVE };
enum fst_pct fst_hist_percentile(const struct fst_hist *h, double q, double *v);
/* The text block: name, units, `row` (a table row's name, else NULL),
 * count, sum, p50/p90/p99, then a line per bucket. */
void fst_hist_print(const struct fastmib_schema *sc, const struct fastmib_group_schema *g,
		    const struct fastmib_counter_schema *cs, const char *row,
		    const uint64_t *words, bool human);
/* The JSON object {"bounds", "buckets", "count", "sum"}. */
json_t *fst_hist_json(const struct fastmib_counter_schema *cs, const uint64_t *words);

/* view.c: what is shown, from --match, --sort, --top, --rows, --output. */
/* 0, or an exit status after a message naming the option (nothing to free
 * then). main() and fst_watch() (again for a re-created segment). */
int fst_view_build(const struct fastmib_schema *sc, const struct stat_opts *o, struct view *v);
void fst_view_free(struct view *v);
/*
 * The rows of a table to show, as positions in `gs`, in the order of the
 * view (by rate with `prev`), at most `max_rows`; returns how many.
 */
uint32_t fst_view_order(const struct group_view *gv, const struct fastmib_group_schema *g,
			const struct group_snap *gs, const struct group_snap *prev, double dt,
			uint64_t max_rows, uint32_t *order);

/* text.c: the counters as tables; with `prev`, counters per second. */
void fst_print_text(struct fastmib_segment *seg, const struct stat_opts *o,
		    const struct view *v, const struct snap *s, const struct snap *prev);
/* The same, once, read and printed a range of rows at a time (a view
 * without --sort): memory independent of the tables' sizes. 0 or -errno. */
int fst_print_text_stream(struct fastmib_segment *seg, const struct stat_opts *o,
			  const struct view *v);

/* json.c: the counters and states as one JSON document (--json). */
/* The document of snapshot `s` as `v` shows it, for fst_print_json();
 * `prev`: the snapshot of the previous document under --watch (its states
 * that changed since are marked "changed"), else NULL. */
json_t *fst_json_doc(struct fastmib_segment *seg, const char *path, const struct view *v,
		     const struct snap *s, const struct snap *prev);
/* Print and free `doc`: indented, or one line when `compact`. 0 or -EIO.
 * main(), fst_watch(), --info and --events print through it. */
int fst_print_json(json_t *doc, bool compact);
/* The document of fst_json_doc(), printed with each table's rows read and
 * written a range at a time (a view without --sort). 0 or -errno. */
int fst_print_json_stream(struct fastmib_segment *seg, const char *path, const struct view *v);

/* The modes, each called by main() alone. */

/* watch.c: --watch: redraw until SIGINT/SIGTERM, re-attaching a segment the
 * application re-created (*segp is then the new one). An exit status. */
int fst_watch(struct fastmib_segment **segp, const struct stat_opts *o);

/* info.c: --info: the segment's header, as text or JSON. 0, or a negative
 * errno (the caller reports it). */
int fst_do_info(struct fastmib_segment *seg, const char *path, bool json);

/* reset.c: --reset of the segment, a group or one row (`target`, NULL: the
 * whole segment); with `ask`, only after a yes on the terminal; `quiet`:
 * no confirmation on stdout. An exit status. */
int fst_do_reset(struct fastmib_segment *seg, const char *path, const char *target, bool quiet,
		 bool ask);

/* events.c: --events: the event log, once or (--follow) until SIGINT/SIGTERM,
 * re-attaching a re-created segment (*segp is then the new one). An exit
 * status. */
int fst_do_events(struct fastmib_segment **segp, const struct stat_opts *o);

/* ports.c: --ports: the ports of DPDK applications, without a segment. An
 * exit status. */
int fst_do_ports(const struct stat_opts *o);

#endif
