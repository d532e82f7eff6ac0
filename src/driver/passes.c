/* SPDX-License-Identifier: Apache-2.0
** passes.c: the passes of a lint run over its files, and the files' records.
**
** Pass 1 reads and parses the files; the project index is built from what it found; pass 2
** runs the rules; then every finding is sorted (path, line, column, rule, message) so output
** never depends on input order or timing. Within a pass the files are independent and taken by
** p->jobs threads in any order.
**
** A streaming run (a lint without fixes) keeps no tree longer than one file's check, and each
** file's state (sl_file_next, engine.h) says what it needs next:
**
**   pass 1  reads every file and looks at the kinds its text names (no parse), the run's own
**           files first, then the context files (knowing whether their serving units count):
**           - it may define a kind the index looks up: parsed now, digests of those objects
**             kept (an object read with its lines: a copy of its document, the text kept), its
**             serving facts gathered; checked in pass 3 (CHECK_KEPT within the budget below,
**             else PARSE_LAST; CHECK_LAST when it keeps its whole tree: aliases); without
**             room to keep its tree, only its documents read (a looked-up kind's, a serving
**             unit's) are parsed now (an excerpt: leave_unread; again whole when the index
**             must keep its tree); a file of the run's own without room that names a serving
**             kind is read for its looked-up kinds alone and goes on as PARSE (f->defines)
**           - it names a serving kind: parsed in pass 2 (PARSE)
**           - it names neither: parsed in pass 3 (PARSE_LAST)
**           a context file (never checked) is parsed at most once (an excerpt judged a
**           template: twice): in pass 1 when it may define a looked-up kind (its other
**           documents left out: leave_unread), else in pass 2 when it names a serving kind and
**           a file of the run waits, else never
**           then the index is built (objects and digests)
**   pass 2  parses each PARSE file, gathers its serving facts and checks it, copies its
**           findings out and lets its tree go (DONE_COMPACT); a file whose rules compare it with
**           every serving unit waits for pass 3 instead (PARSE_LAST, or CHECK_KEPT with room),
**           or, when it may be split (and always when f->defines: its templates' checks ask
**           which units use them), is checked but for the checks that wait for every file's
**           serving units (check_first: sl_engine_check_part; a check that defers its
**           comparison with every serving unit, sl_ctx_defer, runs now and leaves it for pass 3;
**           its templates are checked now,
**           a check that asks whether a unit uses one run for both answers and what each
**           reports kept on its answer, sl_frec.cond, unless a unit of the file's own uses it:
**           "used" stays true), its findings settled as far as they can be and copied out
**           (CHECK_REST)
**           then the serving table is built from every file's facts
**   pass 3  checks the files that waited (parsed again unless they kept their tree; a
**           CHECK_REST file: only the documents whose checks wait, an excerpt, for those
**           checks, none when only its templates' use and deferred checks were left; then the
**           findings kept on a template's use kept or dropped, the deferred checks resumed
**           without a tree, and its suppressions' rest); a file pass 1 parsed
**           keeps its tree for this check (CHECK_KEPT) while the trees so kept fit in
**           SL_KEPT_BUDGET (engine.h), and lets it go once checked
**
** A whole run (fixes need every tree) parses every file in pass 1 (CHECK), builds the index
** and the serving table, and checks every file in pass 2 (DONE). */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "driver/passes.h"
#include "lint/remap.h"
#include "config/registry.h"
#include "lint/suppress.h"
#include "util/v16.h"
#include "yaml/excerpt.h"
#include "yaml/template.h"

static void prepare_stream(sl_engine *e);
static sl_err run_pass(sl_passes *p, int pass);
static sl_err drop_duplicates(sl_engine *e);
static void free_file(sl_file *f);
static sl_err build_index(sl_engine *e);
static sl_err settle_used(sl_engine *e);
static sl_err build_serving_table(sl_engine *e);
static sl_err sort_findings(sl_passes *p);
static void count_inputs(sl_passes *p);

/* The kinds whose units an enabled rule (under any of the run's configs) may check only once
** every serving unit is known (waits_for_units, waits_on_kinds). */
static uint64_t waiting_kinds(const sl_engine *e)
{
	uint64_t wait = 0;
	for (size_t ri = 0; ri < sl_registry_n(); ri++) {
		const struct sl_rule *r = sl_registry_at(ri)->rule;
		for (size_t i = 0; r->waits_for_units && i < sl_scopes_count(e->scopes); i++) {
			const sl_scope *s = sl_scopes_at(e->scopes, i);
			if (s->cfg && s->severity && s->severity[ri] != SL_SEV_OFF)
				wait |= r->waits_on_kinds ? r->waits_on_kinds(s->cfg) : ~(uint64_t)0;
		}
	}
	return wait;
}

/* True when no rule that waits for every serving unit (waits_for_units) yields to another rule
** or is yielded to: the yields settle() resolves then stay within each part of a split check
** (check_first), so the parts settle apart. */
static bool split_safe(void)
{
	for (size_t ri = 0; ri < sl_registry_n(); ri++) {
		const struct sl_rule *r = sl_registry_at(ri)->rule;
		for (size_t k = 0; r->yields_to && r->yields_to[k]; k++) {
			int to = sl_registry_find(r->yields_to[k]);
			if (r->waits_for_units ||
			    (to >= 0 && sl_registry_at((size_t)to)->rule->waits_for_units))
				return false;
		}
	}
	return true;
}

/* True when f's check may be split (sl_check_part) in a streaming run: a plain file of the
** run's own (a build's or a rendered chart's findings move to their origins, which settle
** there as a whole). */
static bool may_split(const sl_engine *e, const sl_file *f)
{
	return e->split && !f->context && !f->build && !e->helm;
}

/* The project's context files are parsed for their serving units only for a rule that compares
** a unit with every serving unit (waits_for_units): when no file of the run names a kind such a
** rule may wait on, they need only what may define a looked-up kind. Streamed, pass 1 looks at
** the run's own files first and then decides (e->context_facts); a pre-commit run over one
** file then parses only the documents of the project that may define a looked-up kind. */
static void want_context_facts(sl_engine *e)
{
	e->context_facts = e->keep_facts;   /* a project read once: its borrowers may need them */
	for (size_t i = 0; i < e->n_files && !e->context_facts; i++)
		e->context_facts = !e->files[i]->context && (e->files[i]->kinds & e->waiting_kinds);
}

/* Looked-up kinds that only some kinds' rules look up, each with the kinds that do (every other
** looked-up kind matters to any file: a PriorityClass, a runtime, a node pool, an autoscaler):
** a Seldon Server is found by its Models (seldon-server-not-found) and is merged over its
** ServerConfig (sched/merge.c); a TrainJob's runtimes and the TrainJobs that use a runtime
** (sched/index.c, train_job_use); an LLMInferenceService's baseRefs. */
static const struct {
	sl_kind kind;
	uint64_t users;
} narrow_lookups[] = {
#define B(k) SL_KIND_BIT(SL_KIND_##k)
	{SL_KIND_SELDON_SERVER, B(SELDON_MODEL) | B(SELDON_SERVER) | B(SELDON_SERVER_CONFIG)},
	{SL_KIND_SELDON_SERVER_CONFIG, B(SELDON_MODEL) | B(SELDON_SERVER) | B(SELDON_SERVER_CONFIG)},
	{SL_KIND_TRAINING_RUNTIME, B(TRAIN_JOB) | B(TRAINING_RUNTIME) | B(CLUSTER_TRAINING_RUNTIME)},
	{SL_KIND_CLUSTER_TRAINING_RUNTIME,
	 B(TRAIN_JOB) | B(TRAINING_RUNTIME) | B(CLUSTER_TRAINING_RUNTIME)},
	{SL_KIND_TRAIN_JOB, B(TRAIN_JOB) | B(TRAINING_RUNTIME) | B(CLUSTER_TRAINING_RUNTIME)},
	{SL_KIND_LLM_INFERENCE_SERVICE_CONFIG,
	 B(LLM_INFERENCE_SERVICE) | B(LLM_INFERENCE_SERVICE_CONFIG)},
#undef B
};

/* The looked-up kinds a context file is parsed for: those the run's own files may look up.
** All of them when a rule was added to the built-in ones (a plugin's rule may look up any kind),
** when the project's facts outlive the run (its borrowers' files are not known yet), or when an
** own file's kinds could not be told. */
static uint64_t context_lookups(const sl_engine *e)
{
	uint64_t own = atomic_load(&e->own_kinds);
	if (e->keep_facts || sl_registry_n() != sl_registry_count || own == ~(uint64_t)0)
		return ~(uint64_t)0;
	uint64_t lookups = ~(uint64_t)0;
	for (size_t i = 0; i < sizeof narrow_lookups / sizeof *narrow_lookups; i++)
		if (!(own & narrow_lookups[i].users))
			lookups &= ~SL_KIND_BIT(narrow_lookups[i].kind);
	return lookups;
}

/* The kinds k (sl_kinds_named_in's) a context file is read for: all when they could not be
** told. */
static uint64_t read_for(const sl_engine *e, uint64_t k)
{
	return k == ~(uint64_t)0 ? k : k & e->context_lookups;
}

sl_err sl_passes_lint(sl_passes *p)
{
	sl_engine *e = &p->eng;
	if (e->stream && !e->keep && !(e->keep = sl_arena_new()))
		return SL_ENOMEM;
	atomic_store(&e->kept_room, e->kept_budget);
	prepare_stream(e);
	p->done = 0;
	if (!p->started.tv_sec)
		clock_gettime(CLOCK_REALTIME, &p->started);
	count_inputs(p);
	sl_err err;
	e->waiting_kinds = e->deciding[2] = e->stream ? waiting_kinds(e) : 0;
	/* a language server's run notes the index reads of each check: whole ones */
	e->split = e->stream && !e->record_reads && split_safe();
	/* streamed: the run's own files first, then the context files, knowing what they need */
	e->has_context = false;
	for (size_t i = 0; e->stream && i < e->n_files && !e->has_context; i++)
		e->has_context = e->files[i]->context;
	atomic_store(&e->own_kinds, 0);
	e->context_lookups = ~(uint64_t)0;
	if (e->stream && (err = run_pass(p, -1)))
		return err;
	want_context_facts(e);
	if (e->stream && e->has_context)
		e->context_lookups = context_lookups(e);
	if ((err = run_pass(p, 1)) || (err = drop_duplicates(e)))
		return err;
	count_inputs(p);   /* a file named twice is linted once */
	if ((err = build_index(e)))
		return err;
	/* a whole run gathered every serving unit's facts in pass 1, a streaming run in pass 2 */
	if (!e->stream && (err = build_serving_table(e)))
		return err;
	if ((err = run_pass(p, 2)))
		return err;
	if (e->stream && ((err = build_serving_table(e)) || (err = run_pass(p, 3))))
		return err;
	if ((err = settle_used(e)))
		return err;
	return sort_findings(p);
}

/* True when f is one of the files a caller sees and the summary counts (run.c's show_files):
** not the project's context files, nor a kustomization's build. */
static bool counted(const sl_file *f)
{
	return !f->context && !f->build;
}

/* The files a progress callback counts: the summary's. */
static void count_inputs(sl_passes *p)
{
	p->total = 0;
	for (size_t i = 0; i < p->eng.n_files; i++)
		p->total += counted(p->eng.files[i]);
}

/* Tells the progress callback that one more input is through (one call at a time). */
static void one_done(sl_passes *p)
{
	pthread_mutex_lock(&p->progress_lock);
	p->done++;
	p->progress(p->progress_ctx, p->done, p->total > p->done ? p->total : p->done);
	pthread_mutex_unlock(&p->progress_lock);
}

/* The kinds whose names decide, in pass 1, what a streamed file needs: one the index looks up
** (a ConfigMap needs its name too), and a serving kind. */
static void prepare_stream(sl_engine *e)
{
	for (int k = 0; k < SL_KIND__COUNT; k++) {
		uint64_t bit = (uint64_t)1 << k;
		if (sl_index_kind_looked_up((sl_kind)k) && k != SL_KIND_CONFIGMAP)
			e->deciding[0] |= bit;
		if (sl_kind_is_serving((sl_kind)k))
			e->deciding[1] |= bit;
	}
}

/* --- a pass ------------------------------------------------------------------------------ */

/* The pass that takes a file in state n; 0 for none. */
static int pass_of(sl_file_next n)
{
	switch (n) {
	case SL_NEXT_READ: return 1;
	case SL_NEXT_CHECK: case SL_NEXT_PARSE: return 2;
	case SL_NEXT_CHECK_LAST: case SL_NEXT_CHECK_KEPT: case SL_NEXT_PARSE_LAST:
	case SL_NEXT_CHECK_REST: return 3;
	default: return 0;
	}
}

static sl_err parse_whole(sl_engine *e, sl_file *f);
static sl_err first_look(sl_engine *e, sl_file *f, sl_arena **scratch);
static sl_err parse_and_check(sl_engine *e, sl_file *f, sl_arena **scratch);
static sl_err check_first(sl_engine *e, sl_file *f);
static sl_err check(sl_engine *e, sl_file *f, bool released, sl_err err);
static sl_err check_rest(sl_engine *e, sl_file *f, sl_arena **scratch);
static sl_err parse_into(sl_engine *e, sl_file *f, sl_arena **scratch);
static bool reserve(sl_engine *e, sl_file *f);
static sl_err parse_own(sl_engine *e, sl_file *f);

/* Does what f needs next, and moves it on. scratch is the thread's arena, which a streamed
** file is parsed into (and which it keeps when it keeps its tree). */
static sl_err step(sl_engine *e, sl_file *f, sl_arena **scratch)
{
	switch ((sl_file_next)f->next) {
	case SL_NEXT_READ:
		if (f->partial) {   /* linted through its kustomization, never alone */
			f->next = SL_NEXT_DONE;
			return SL_OK;
		}
		return e->stream ? first_look(e, f, scratch) : parse_whole(e, f);
	case SL_NEXT_CHECK:
	case SL_NEXT_CHECK_LAST:
		return check(e, f, false, SL_OK);
	case SL_NEXT_CHECK_KEPT:
		return check(e, f, true, SL_OK);
	case SL_NEXT_PARSE:
		return parse_and_check(e, f, scratch);
	case SL_NEXT_PARSE_LAST:
		return check(e, f, true, parse_into(e, f, scratch));
	case SL_NEXT_CHECK_REST:
		return check_rest(e, f, scratch);
	default:
		return SL_OK;
	}
}

/* One pass over the files on p->jobs threads: each takes the next file from a shared counter
** and steps it when it is this pass's. Files are independent within a pass (pass 2 only reads
** other files), so order of work does not matter; the output order comes from sorting. */
struct pass {
	sl_passes *p;
	int pass;
	atomic_size_t next;
	atomic_int err;
};

static void *pass_worker(void *arg)
{
	struct pass *ps = arg;
	sl_engine *e = &ps->p->eng;
	sl_arena *scratch = NULL;   /* when streaming, the arena every released file is parsed into */
	for (;;) {
		size_t i = atomic_fetch_add(&ps->next, 1);
		if (i >= e->n_files || atomic_load(&ps->err))
			break;
		sl_file *f = e->files[i];
		/* pass -1: pass 1 over the run's own files only */
		if (pass_of((sl_file_next)f->next) != (ps->pass < 0 ? 1 : ps->pass) ||
		    (ps->pass < 0 && f->context))
			continue;
		sl_err err = step(e, f, &scratch);
		bool done = f->next == SL_NEXT_DONE || f->next == SL_NEXT_DONE_COMPACT;
		if (ps->p->progress && done && counted(f))
			one_done(ps->p);
		if (err) {
			int none = SL_OK;
			atomic_compare_exchange_strong(&ps->err, &none, (int)err);
		}
	}
	sl_arena_free(scratch);
	return NULL;
}

static sl_err run_pass(sl_passes *p, int pass)
{
	struct pass ps = {.p = p, .pass = pass};
	atomic_init(&ps.next, 0);
	atomic_init(&ps.err, SL_OK);
	size_t n = p->jobs < p->eng.n_files ? p->jobs : p->eng.n_files;
	pthread_t tid[64];
	size_t started = 0;
	for (size_t t = 1; t < n && t < 64; t++)
		if (pthread_create(&tid[started], NULL, pass_worker, &ps) == 0)
			started++;
	pass_worker(&ps);   /* this thread works too */
	for (size_t t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	return (sl_err)atomic_load(&ps.err);
}

/* --- what a file needs ------------------------------------------------------------------- */

static sl_err gather_facts(sl_file *f);
static sl_err digest(sl_engine *e, sl_file *f, bool *keep);
static void drop_tree(sl_engine *e, sl_file *f);
static void release(sl_engine *e, sl_file *f);
static sl_err compact(sl_engine *e, sl_file *f);

/* Pass 1 of a whole run: f parsed and bound, its serving facts gathered; its tree stays. A
** context file that names no kind the index looks up and no serving kind is only read. */
static sl_err parse_whole(sl_engine *e, sl_file *f)
{
	if (f->context) {
		sl_err err = sl_engine_read(f, true);
		if (err || !f->src) {
			f->next = SL_NEXT_DONE;
			return err;
		}
		uint64_t kinds = sl_kinds_named_in_until(f->src->data, f->src->len, e->deciding, 2);
		if (!sl_index_may_define(kinds, f->src->data, f->src->len) &&
		    !(kinds & e->deciding[1])) {
			drop_tree(e, f);
			f->next = SL_NEXT_DONE;
			return SL_OK;
		}
	}   /* sl_engine_parse indexes the text it has */
	sl_err err = sl_engine_parse(e, f);
	f->next = f->src ? SL_NEXT_CHECK : SL_NEXT_DONE;
	if (err || !f->src)
		return err;
	return gather_facts(f);
}

/* True when the line at t[i..n) starts with the three bytes m and ends there or goes on with
** a space, a tab or a line break: a document marker ("---", "..."). */
static bool marker_line(const char *t, size_t i, size_t n, const char *m)
{
	return n - i >= 3 && memcmp(t + i, m, 3) == 0 &&
	       (n - i == 3 || t[i + 3] == ' ' || t[i + 3] == '\t' || t[i + 3] == '\r' ||
		t[i + 3] == '\n');
}

static size_t next_line(const char *t, size_t i, size_t n);

/* True when t[a..b) may open a scalar or a collection that goes on over the lines after it (a
** quoted or block scalar, a flow collection; a '"' in a comment counts too): a line at the left
** margin after it may be that node's text, not a key of the document's root. */
static bool may_open(const char *t, size_t a, size_t b)
{
	for (size_t i = a; i < b; i++)
		if (t[i] == '"' || t[i] == '\'' || t[i] == '{' || t[i] == '[' || t[i] == '|' ||
		    t[i] == '>')
			return true;
	return false;
}

/* The kinds document t[a..b) may hold objects of: the kind its one "kind:" line at the left
** margin names (a key of its root mapping) when that is a plain word, not a wrapper's (a List,
** a Template: their items are objects too), and nothing before that line (the rest of the "---"
** line included) may have opened a node the line could belong to (may_open: a flow-style
** document, a quoted key, a multi-line quoted scalar, a root block scalar); else every kind its
** text names. A CRD names the kind it defines in its schema, indented: read for none.
** The walk over the lines found the "kind:" lines: kind is where the first starts (b: none),
** twice when there is another. */
static uint64_t doc_kinds(const char *t, size_t a, size_t b, size_t kind, bool twice)
{
	if (twice)
		return sl_kinds_named_in(t + a, b - a);   /* a duplicate key */
	size_t at = kind == b ? b : kind + 5;
	if (at == b || may_open(t, a, at - 5))
		return sl_kinds_named_in(t + a, b - a);
	while (at < b && (t[at] == ' ' || t[at] == '\t'))
		at++;
	size_t w = at;
	while (w < b && ((t[w] >= 'A' && t[w] <= 'Z') || (t[w] >= 'a' && t[w] <= 'z') ||
			 (t[w] >= '0' && t[w] <= '9')))
		w++;
	size_t end = w;
	while (end < b && (t[end] == ' ' || t[end] == '\t'))
		end++;
	bool plain = w > at && (end == b || t[end] == '\n' || t[end] == '\r' ||
				(t[end] == '#' && end > w));
	uint64_t k = plain ? sl_kinds_named_in(t + at, w - at) : ~(uint64_t)0;
	if (!plain || (k & (SL_KIND_BIT(SL_KIND_NODE_LIST) | SL_KIND_BIT(SL_KIND_OPENSHIFT_TEMPLATE))))
		return sl_kinds_named_in(t + a, b - a);
	return k;
}

/* What a file checked in two parts keeps from pass 2 for pass 3 (CHECK_REST). */
struct sl_rest {
	sl_split split;              /* what its first part left: the documents that hold a unit
				        the rules wait on, the templates whose use decides which
				        findings stay */
	sl_suppress_held *held;      /* its directives, and what they silenced in pass 2 */
	size_t recorded;             /* the findings pass 2 recorded (f->recorded) */
	bool broken;                 /* pass 2's f->broken: the whole text's */
};

static void free_rest(struct sl_rest *r)
{
	if (r) {
		sl_engine_split_free(&r->split);
		sl_suppress_held_free(r->held);
	}
	free(r);
}

/* True when t[a..b), a document (its "kind:" lines: doc_kinds), is read: with rest, when it
** holds one of rest's documents; else when it may define a kind the index looks up (for a
** context file, one the run's own files may look up) or, with facts, holds a serving kind. */
static bool read_doc(const sl_engine *e, const sl_file *f, const char *t, size_t a, size_t b,
		     size_t kind, bool twice, bool facts, const struct sl_rest *rest)
{
	if (rest) {
		const sl_split *sp = &rest->split;
		size_t lo = 0, hi = sp->n_waiting;   /* the first document starting at a or after */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (sp->waiting[mid] < a)
				lo = mid + 1;
			else
				hi = mid;
		}
		return lo < sp->n_waiting && sp->waiting[lo] < b;
	}
	uint64_t k = doc_kinds(t, a, b, kind, twice);
	return sl_index_may_define(f->context ? read_for(e, k) : k, t + a, b - a) ||
	       (facts && (k & e->deciding[1]));
}

/* The start of the line after the one at i in t[0..n) (n after the last). */
static size_t next_line(const char *t, size_t i, size_t n)
{
	const char *nl = memchr(t + i, '\n', n - i);
	return nl ? (size_t)(nl - t) + 1 : n;
}

/* The start of the next line after the one at i in t[0..n) that starts with '%', '.', '-' or
** 'k' (n when none): the only lines leave_unread's walk looks at, found sixteen bytes at a time
** (a huge file's lines are mostly indented: their breaks are all the walk looks at). */
static size_t next_marked_line(const char *t, size_t i, size_t n)
{
	for (; i < n;) {
		unsigned m;
		size_t width;
		if (n - i >= 16) {
			m = sl_v16_mask(sl_v16_load(t + i) == '\n');
			width = 16;
		} else {
			m = t[i] == '\n';
			width = 1;
		}
		for (; m; m &= m - 1) {
			size_t j = i + (size_t)__builtin_ctz(m) + 1;
			if (j >= n || t[j] == '%' || t[j] == '.' || t[j] == '-' || t[j] == 'k')
				return j;
		}
		i += width;
	}
	return n;
}

/* True when a template marker may start in t[a..b) or on the lines around it (a syntax error
** is judged by the line before and after its own, and one may be reported at the next "---"):
** from the two lines before a's to the line after b's. */
static bool near_marker(const char *t, size_t n, size_t a, size_t b)
{
	size_t from = a;
	for (int k = 0; k < 3 && from > 0; k++) {   /* a's line, and two before it */
		from -= k > 0;
		while (from > 0 && t[from - 1] != '\n')
			from--;
	}
	size_t to = b < n ? next_line(t, b, n) : n;
	return sl_template_may_hold(t, from, to < n ? next_line(t, to, n) : n);
}

/* Appends the range [a,b) to the ranges *v (*n of them). */
static sl_err add_range(size_t **v, size_t *n, size_t a, size_t b)
{
	if (a == b)
		return SL_OK;
	if (sl_doubling_full(*n)) {
		size_t *nv = sl_xrealloc(*v, 2 * sl_doubling_cap(*n) * sizeof *nv);
		if (!nv)
			return SL_ENOMEM;
		*v = nv;
	}
	(*v)[2 * *n] = a;
	(*v)[2 * (*n)++ + 1] = b;
	return SL_OK;
}

/* f is read for what its documents that may define a looked-up kind hold (and, with facts, its
** serving units; with rest, only the documents of the units its rules wait on), so the next parse reads an excerpt of its text without the others
** (f->excerpt: yaml/excerpt.h): each left out but its line breaks, every "---" line's marker
** kept, so the documents read keep their lines and indices, the tree is moved onto f's text
** after the parse (the tree of the text with the others blanked), and libyaml never scans the
** rest. A template's documents judge each other (engine.c, judge_template): a document that
** may hold a template marker, or is next to one (a syntax error is judged by the lines around
** it), is never left out, and an excerpt judged a template is parsed again whole (parse_read).
** A text with a directive or a "..." line is parsed whole; so is a build's (read as it was
** emitted), and a file of the run's own that would leave out less than an eighth of its bytes
** (its tree is what a whole parse gives: moving it onto the text would cost more than what the
** parse leaves out). */
static sl_err leave_unread(const sl_engine *e, sl_file *f, bool facts,
			   const struct sl_rest *rest)
{
	const char *t = f->src->data;
	size_t n = f->src->len;
	if (f->build)
		return SL_OK;
	size_t *drop = NULL, n_drops = 0;
	size_t doc = 0;   /* where the document being looked at starts (after its "---") */
	size_t kind = SIZE_MAX;   /* where its first "kind:" line starts */
	bool twice = false;       /* and it has another */
	sl_err err = SL_OK;
	/* one walk over the lines: the documents' ends, their "kind:" lines, and a directive or a
	** "..." line, which makes it all moot */
	for (size_t i = 0; !err && i <= n; i = i < n ? next_marked_line(t, i, n) : n + 1) {
		if (i < n && (t[i] == '%' || marker_line(t, i, n, "..."))) {
			free(drop);
			return SL_OK;
		}
		if (i == n || marker_line(t, i, n, "---")) {
			if (!read_doc(e, f, t, doc, i, kind == SIZE_MAX ? i : kind, twice, facts, rest) &&
			    !near_marker(t, n, doc, i))
				err = add_range(&drop, &n_drops, doc, i);
			doc = i + 3;
			kind = SIZE_MAX;
			twice = false;
		} else if (t[i] == 'k' && n - i > 5 && memcmp(t + i, "kind:", 5) == 0) {
			twice = kind != SIZE_MAX;
			kind = twice ? kind : i;
		}
	}
	size_t dropped = 0;
	for (size_t r = 0; r < n_drops; r++)
		dropped += drop[2 * r + 1] - drop[2 * r];
	if (!err && (f->context || dropped >= n / 8))
		err = sl_excerpt_make(f->path, t, n, drop, n_drops, &f->excerpt);
	free(drop);
	return err;
}

/* Parses f into an arena of its own (own: reserve took its room) or the thread's; with part,
** only the documents it is read for (leave_unread; facts: its serving units too; rest: those
** of the units its rules wait on). An excerpt
** judged a template is parsed again whole: a document left out (a real syntax error) may have
** judged it otherwise. *excerpt: the tree is an excerpt's. */
static sl_err parse_read(sl_engine *e, sl_file *f, sl_arena **scratch, bool own, bool part,
			 bool facts, const struct sl_rest *rest, bool *excerpt)
{
	sl_err err;
	*excerpt = false;
	if (part && f->src && (err = leave_unread(e, f, facts, rest)))
		return err;
	bool x = f->excerpt != NULL;
	if ((err = own ? parse_own(e, f) : parse_into(e, f, scratch)) || !f->src || !x)
		return err;
	if (!f->templated) {
		*excerpt = true;
		return SL_OK;
	}
	release(e, f);
	return parse_into(e, f, scratch);
}

/* Pass 1 of a streaming run: f read, and the kinds its text names decide what it needs (the
** table at the top). */
static sl_err first_look(sl_engine *e, sl_file *f, sl_arena **scratch)
{
	sl_err err = sl_engine_read(f, true);
	f->next = SL_NEXT_DONE;   /* until it is read and looked at */
	if (err || !f->src)
		return err;
	/* a file of the run's own: every kind a rule may wait on too (want_context_facts) */
	/* a context file's scan goes on until it meets a kind it is read for */
	const uint64_t enough[3] = {f->context ? e->deciding[0] & e->context_lookups
					       : e->deciding[0], e->deciding[1], e->deciding[2]};
	uint64_t kinds = sl_kinds_named_in_until(f->src->data, f->src->len, enough,
						 f->context || !e->deciding[2] ? 2 : 3);
	f->kinds = kinds;
	/* with context files to choose from: what an own file names, all of it */
	if (!f->context && e->has_context)
		atomic_fetch_or(&e->own_kinds, sl_kinds_named_in(f->src->data, f->src->len));
	bool facts = !f->context || e->context_facts;   /* its serving units' facts are needed */
	if (!sl_index_may_define(f->context ? read_for(e, kinds) : kinds, f->src->data,
				 f->src->len)) {
		release(e, f);
		/* a context file is parsed only for its serving units' facts (pass 2) */
		f->next = (kinds & e->deciding[1]) && facts ? SL_NEXT_PARSE
			: f->context ? SL_NEXT_DONE : SL_NEXT_PARSE_LAST;
		return SL_OK;
	}
	/* a file to check in pass 3 is parsed into an arena of its own when the run's budget has
	** room: kept, it is parsed only once */
	bool own = !f->context && reserve(e, f);
	/* else a file of the run's own that names a serving kind, and whose check may be split,
	** is read now for its looked-up kinds alone: pass 2 parses it whole for its serving units'
	** facts and checks it (all but what waits: check_first) */
	bool later = !own && may_split(e, f) && (kinds & e->deciding[1]);
	bool keep = false;
	/* else it is read now for its digests and facts alone (a file of the run's own is parsed
	** whole again for its check): an excerpt of the documents read (leave_unread) */
	for (bool whole = own; ; whole = true) {
		bool excerpt;
		if ((err = parse_read(e, f, scratch, own, !whole, facts && !later, NULL,
				      &excerpt)) || !f->src)
			return err;
		/* parsed once already: its digests and facts now, and its check in pass 3 */
		if ((err = digest(e, f, &keep)) || (err = gather_facts(f))) {
			if (!own)
				f->arena = NULL;   /* the scratch arena: the worker frees it */
			return err;
		}
		if (!keep || !excerpt || f->context)
			break;
		/* the index reads its tree (aliases), which its check will read too: the whole */
		release(e, f);
		f->n_digests = 0;
		keep = false;
	}
	if (own && keep) {   /* the index reads its tree: kept anyway, not out of the budget */
		atomic_fetch_add(&e->kept_room, (long long)f->kept_bytes);
		f->kept_bytes = 0;
		f->next = SL_NEXT_CHECK_LAST;
	} else if (own) {
		f->next = SL_NEXT_CHECK_KEPT;
	} else if (keep) {
		*scratch = NULL;   /* f keeps its tree, and the arena with it */
		f->next = SL_NEXT_CHECK_LAST;
	} else {
		release(e, f);
		/* a context file is never checked: its digests and facts are all it gives */
		f->next = f->context ? SL_NEXT_DONE : later ? SL_NEXT_PARSE : SL_NEXT_PARSE_LAST;
		f->defines = later;
	}
	return SL_OK;
}

/* Pass 2 of a streaming run, for a file that names a serving kind: parsed (again), its serving
** units' facts gathered, then checked. A file pass 1 read for the looked-up kinds it defines
** (f->defines) is checked but for what waits for every file's serving units (check_first);
** another whole, unless its rules compare a unit of it with every serving unit
** (sl_engine_waits): then it keeps its tree for pass 3 when the budget has room, or is checked
** but for that when it may be split, or lets its tree go and waits for pass 3 whole. */
static sl_err parse_and_check(sl_engine *e, sl_file *f, sl_arena **scratch)
{
	/* a file that names a kind whose units may wait is parsed into an arena of its own when
	** the budget has room: if it waits, it keeps its tree for pass 3 */
	bool own = !f->context && !f->defines && (f->kinds & e->waiting_kinds) && reserve(e, f);
	/* a context file is parsed for its serving units' facts alone: an excerpt without its
	** other documents, as in pass 1 (it defines no looked-up kind, or it would have been
	** parsed then) */
	bool excerpt;
	sl_err err = f->context ? sl_engine_read(f, false) : SL_OK;
	if (!err)
		err = parse_read(e, f, scratch, own, f->context, true, NULL, &excerpt);
	if (!err && f->src)
		err = gather_facts(f);
	/* a file that defines a looked-up kind may hold a template, or a TrainJob whose units its
	** runtime gives: whether its checks wait is told as they run */
	if (!err && f->src && f->defines)
		return check_first(e, f);
	if (!err && f->src && !f->context && sl_engine_waits(e, f)) {
		if (own) {
			f->next = SL_NEXT_CHECK_KEPT;
			return SL_OK;
		}
		if (may_split(e, f))
			return check_first(e, f);
		release(e, f);
		f->next = SL_NEXT_PARSE_LAST;
		return SL_OK;
	}
	return check(e, f, true, err);
}

/* After f's suppressions ran (err: how that went): a finding that yields to another of the
** same cause is dropped; a file with a YAML syntax error is never fixed (the fixer blocks it),
** so its findings offer no fix and no report calls them fixable. */
static sl_err settled(sl_file *f, sl_err err)
{
	if (!err)
		err = sl_engine_yield(f);   /* one finding for one cause */
	for (size_t i = 0; !err && f->broken && i < f->n_findings; i++)
		f->findings[i]->pub.fix = NULL;
	return err;
}

/* After f's rules ran: its suppressions drop the findings they silence and report the unused
** ones, then settled. */
static sl_err settle(sl_file *f)
{
	return settled(f, sl_suppress_apply(f));
}

static sl_err finish(sl_engine *e, sl_file *f, bool released, sl_err err);

/* Checks f, unless reading or parsing it failed (err) or it could not be read; then finish. */
static sl_err check(sl_engine *e, sl_file *f, bool released, sl_err err)
{
	if (f->context)
		f->n_findings = 0;   /* the parser's: a context file is never reported */
	else if (!err && f->src)
		err = sl_engine_check(e, f);
	return finish(e, f, released, err);
}

/* After f's check: its findings settled and moved to their origins (a rendered chart's, a
** build's). A released file (one that let its tree go once already) then copies its findings
** out and lets the tree go again; on an error it leaves its arena, a thread's scratch one, to
** the worker. */
static sl_err finish(sl_engine *e, sl_file *f, bool released, sl_err err)
{
	if (!err && f->src && !f->context)
		err = settle(f);
	if (!err && f->src && !f->context && e->helm)
		err = sl_remap_helm(e->helm, f);   /* rendered: the findings go to the templates */
	if (!err && f->src && f->build && !(err = sl_kustomize_spans(f->build)))
		err = sl_remap_kustomize(e->kust, f);   /* built: to the bases and patches */
	if (!err && f->src && f->build && e->stream)
		sl_kustomize_release(f->build, true);   /* checked once: its knodes are done */
	bool compacted = !err && f->src && released;
	if (compacted)
		err = compact(e, f);
	if (err && released && !f->kept_bytes)
		f->arena = NULL;   /* a scratch arena (a kept one is freed with f) */
	f->next = compacted && !err ? SL_NEXT_DONE_COMPACT : SL_NEXT_DONE;
	return err;
}

/* Pass 2, for a file (may_split, in the thread's scratch arena) whose rules compare a unit of it
** with every serving unit: checked now but for those rules on those units (SL_CHECK_NOW), its
** findings settled as far as they can be without theirs (suppressions: their first step;
** yields: within the part, split_safe; what the checks left until every serving unit is known,
** sl_ctx_defer, judged against the suppressions now) and copied out, its tree let go; pass 3
** parses only the documents of those units and checks them, and resumes what was left
** (check_rest). A check that reached the findings' cap waits for pass 3 whole, as before (the
** cap would fall elsewhere in a split one). */
static sl_err check_first(sl_engine *e, sl_file *f)
{
	struct sl_rest *r = sl_xcalloc(1, sizeof *r);
	sl_err err = r ? sl_engine_check_part(e, f, SL_CHECK_NOW, &r->split) : SL_ENOMEM;
	const sl_split *sp = r ? &r->split : NULL;
	if (!err && (f->capped || (!sp->n_waiting && !sp->n_uses && !sp->n_laters))) {
		free_rest(r);
		if (!f->capped)   /* nothing waited after all (a merged unit): all checked */
			return finish(e, f, true, SL_OK);
		release(e, f);
		f->next = SL_NEXT_PARSE_LAST;
		return SL_OK;
	}
	if (!err)
		err = settled(f, sl_suppress_apply_first(f, &r->held));
	/* what the checks left for pass 3 would report: silenced or not, judged on this tree */
	if (!err)
		err = sl_suppress_judge_laters(f, r->held, r->split.laters, r->split.n_laters,
					       (uint32_t)r->split.n_uses + 1);
	for (size_t i = 0; r && i < r->split.n_laters; i++)
		r->split.laters[i]->unit = NULL;   /* the tree goes */
	if (!err) {
		r->recorded = f->recorded;
		r->broken = f->broken;
		err = compact(e, f);
	}
	if (err) {
		free_rest(r);
		f->arena = NULL;   /* the scratch arena: the worker frees it */
		f->next = SL_NEXT_DONE;
		return err;
	}
	f->rest = r;
	f->next = SL_NEXT_CHECK_REST;
	return SL_OK;
}

/* f's findings: first (n_first of them, in the keep arena) and then its own (compacted there
** too), in one list in the keep arena. */
static sl_err join(sl_engine *e, sl_file *f, sl_frec **first, size_t n_first)
{
	size_t n = n_first + f->n_findings;
	if (!n_first)
		return SL_OK;
	pthread_mutex_lock(&e->keep_lock);
	sl_frec **v = sl_arena_alloc(e->keep, n * sizeof *v);
	pthread_mutex_unlock(&e->keep_lock);
	if (!v)
		return SL_ENOMEM;
	memcpy(v, first, n_first * sizeof *v);
	if (f->n_findings)
		memcpy(v + n_first, f->findings, f->n_findings * sizeof *v);
	f->findings = v;
	f->n_findings = f->cap_findings = n;
	return SL_OK;
}

/* Pass 3, for a file check_first checked but for the rules that wait: an excerpt of the
** documents of the units they wait on parsed (the parse's own findings are pass 2's again:
** dropped; none when nothing waits: the text alone, for the suppressions' places), those rules
** run on those units (SL_CHECK_WAITING), the findings pass 2 kept on a template's use kept or
** dropped now that every file's facts tell it, the checks pass 2 left resumed (their findings
** at the places captured then, dropped when pass 2 found them suppressed), the findings
** settled (the suppressions' rest: the unused ones reported now) and joined to pass 2's. When the two parts together recorded as
** many findings as the cap, the file is parsed and checked whole instead (which findings a
** whole check keeps depends on their order). */
static sl_err check_rest(sl_engine *e, sl_file *f, sl_arena **scratch)
{
	struct sl_rest *r = f->rest;
	sl_frec **first = f->findings;   /* in the keep arena */
	size_t n_first = f->n_findings;
	f->rest = NULL;
	f->findings = NULL;
	f->n_findings = f->cap_findings = 0;
	f->next = SL_NEXT_DONE;   /* its list of findings is its own again */
	sl_split *sp = &r->split;
	/* its text, only for a parse or the places of its directives */
	bool parse = sp->n_waiting > 0, text = parse || sl_suppress_held_reads_text(r->held), excerpt;
	sl_err err = f->src || !text ? SL_OK : sl_engine_read(f, parse);
	if (!err && parse)
		err = parse_read(e, f, scratch, false, true, false, r, &excerpt);
	else if (!err && !(f->arena = *scratch ? *scratch : (*scratch = sl_arena_new())))
		err = SL_ENOMEM;
	if (!err && !parse && f->src)
		err = sl_source_index(f->src);
	if (err || (text && !f->src)) {
		free_rest(r);
		return check(e, f, true, err);
	}
	f->n_findings = 0;   /* the parse's: pass 2 has them */
	f->capped = false;
	f->broken = r->broken;
	f->recorded = r->recorded;
	if (parse)
		err = sl_engine_check_part(e, f, SL_CHECK_WAITING, sp);
	/* every file's facts are in: what held on a template's use or a check's report settles */
	bool *holds = sl_xcalloc(sp->n_uses + sp->n_laters + 1, sizeof *holds);
	if (!err && !holds)
		err = SL_ENOMEM;
	sl_index view = sl_engine_index_view(e, f);
	if (!err) {
		sl_engine_uses_settle(&view, sp, holds);
		size_t w = 0;
		for (size_t i = 0; i < n_first; i++)
			if (sl_engine_cond_holds(first[i], holds))
				first[w++] = first[i];
		n_first = w;
	}
	for (size_t i = 0; !err && i < sp->n_laters; i++) {
		size_t before = f->n_findings, recorded = f->recorded;
		err = sl_engine_resume(e, f, &view, sp->laters[i]);
		holds[sp->n_uses + i] = f->recorded > recorded;
		if (sp->laters[i]->silenced)
			f->n_findings = before;
	}
	if (!err)
		err = settled(f, sl_suppress_apply_rest(f, r->held, holds));
	free(holds);
	if (!err && (f->capped || f->recorded >= SL_FINDINGS_MAX)) {
		free_rest(r);
		release(e, f);
		return check(e, f, true, parse_into(e, f, scratch));
	}
	if (!err)
		err = compact(e, f);   /* the laters' strings copied: their arena may go */
	free_rest(r);
	if (!err)
		err = join(e, f, first, n_first);
	if (err) {
		f->arena = NULL;   /* the scratch arena, if it still has it: the worker frees it */
		return err;
	}
	f->next = SL_NEXT_DONE_COMPACT;
	return SL_OK;
}

/* Parses f (in pass 1, or again in pass 2 or 3); when streaming, into the thread's scratch
** arena, which stays the thread's until a file keeps it. */
static sl_err parse_into(sl_engine *e, sl_file *f, sl_arena **scratch)
{
	if (!e->stream)
		return sl_engine_parse(e, f);
	f->arena = *scratch;
	sl_err err = sl_engine_parse(e, f);
	*scratch = f->arena;
	if (err || !f->src)
		f->arena = NULL;   /* the worker frees it */
	return err;
}

/* An arena of its own for a tree parsed from len bytes of text: sized for about 6 times the text
** (5.9 times on the bench's small files, 4.5 to 8.5), which sl_arena_new_sized rounds up to a
** power of two (up to a megabyte), its later chunks twice the one before. */
static size_t own_chunk(size_t len)
{
	size_t chunk = 1024;
	while (chunk < len * 6 && chunk < ((size_t)1 << 20))
		chunk *= 2;
	return chunk;
}

/* What such an arena holds once used bytes are handed out, the text and its line index with
** it (the line index: one size_t per line, a line of about 30 bytes). */
static size_t held(size_t len, size_t used, size_t lines)
{
	size_t chunk = own_chunk(len), total = chunk;
	for (size_t next = 2 * chunk; total < used; next *= 2)
		total += next;
	return total + len + lines * sizeof(size_t) + 256;
}

/* True when the run's budget of kept trees has room for f's (its least: held), taken from it
** (f->kept_bytes). */
static bool reserve(sl_engine *e, sl_file *f)
{
	/* a file waiting for pass 2 let its text go: its size as read */
	size_t len = f->src ? f->src->len : (size_t)f->stamp.size;
	long long want = (long long)held(len, 0, len / 30);
	if (atomic_fetch_sub(&e->kept_room, want) < want) {
		atomic_fetch_add(&e->kept_room, want);
		return false;
	}
	f->kept_bytes = (size_t)want;
	return true;
}

/* Parses f into an arena of its own (reserve took its room), then counts what it holds as it
** is. On an error its arena is freed with it. */
static sl_err parse_own(sl_engine *e, sl_file *f)
{
	size_t len = f->src ? f->src->len : (size_t)f->stamp.size;
	if (!(f->arena = sl_arena_new_sized(own_chunk(len))))
		return SL_ENOMEM;
	sl_err err = sl_engine_parse(e, f);
	if (!f->src) {   /* it could not be read again */
		sl_arena_free(f->arena);
		f->arena = NULL;
		atomic_fetch_add(&e->kept_room, (long long)f->kept_bytes);
		f->kept_bytes = 0;
		return err;
	}
	size_t used = held(f->src->len, sl_arena_used(f->arena), f->src->n_lines);
	atomic_fetch_add(&e->kept_room, (long long)f->kept_bytes - (long long)used);
	f->kept_bytes = used;
	return err;
}

/* Lets go of f's tree, and of its text when it can be read again; its arena, a thread's
** scratch one, is reset for the next file, one of its own (f->kept_bytes) freed and its room
** given back. */
static void drop_tree(sl_engine *e, sl_file *f)
{
	if (f->arena && f->kept_bytes) {
		atomic_fetch_add(&e->kept_room, (long long)f->kept_bytes);
		f->kept_bytes = 0;
		sl_arena_free(f->arena);
	} else if (f->arena)
		sl_arena_reset(f->arena);
	f->arena = NULL;
	memset(&f->tree, 0, sizeof f->tree);
	f->objects = NULL;
	f->n_objects = 0;
	if ((f->on_disk || f->build) && !f->pinned) {   /* read again: a build's from its plan */
		sl_source_free(f->src);
		f->src = NULL;
	}
}

/* drop_tree, findings included (a streamed file's findings come back when it is parsed
** again). */
static void release(sl_engine *e, sl_file *f)
{
	f->n_findings = 0;
	f->capped = false;
	f->style_known = false;
	drop_tree(e, f);
}

/* Digests (sl_index_digest, in the keep arena) of f's objects the index wants; *keep when the
** index must read f's tree itself (an object with aliases, which no copy stands for). An
** object the index reads in place with its lines (sl_index_needs_tree: a config-features
** ConfigMap, a node pool) is a copy of its whole document whose positions are f's text, which
** f then keeps for the run (pinned): a 4 MB file of CRDs that holds one such ConfigMap keeps
** its text and that document, not its whole tree. */
static sl_err digest(sl_engine *e, sl_file *f, bool *keep)
{
	sl_err err = SL_OK;
	for (size_t j = 0; !err && j < f->n_objects; j++) {
		const sl_object *o = f->objects[j];
		if (!sl_index_wants(o))
			continue;
		const sl_object **nv = !sl_doubling_full(f->n_digests) ? f->digests
			: sl_xrealloc(f->digests, sl_doubling_cap(f->n_digests) * sizeof *nv);
		if (!nv)
			return SL_ENOMEM;
		f->digests = nv;
		pthread_mutex_lock(&e->keep_lock);
		err = sl_index_digest(o, f->scope->cfg, e->keep, &f->digests[f->n_digests]);
		pthread_mutex_unlock(&e->keep_lock);
		const sl_object *d = err ? NULL : f->digests[f->n_digests];
		if (d && sl_index_needs_tree(o)) {
			((sl_doc *)d->doc)->src = f->src;   /* made in the keep arena: ours to set */
			f->pinned = true;
		}
		if (d)
			f->n_digests++;
		else
			*keep = true;   /* no digest (aliases): the index reads the tree itself */
	}
	return err;
}

/* f's serving units' facts, for the index's serving table. */
static sl_err gather_facts(sl_file *f)
{
	sl_index_free_facts(f->facts);
	sl_err err = sl_index_gather_facts((const sl_object *const *)f->objects, f->n_objects,
					   f->arena, &f->facts, &f->n_facts);
	for (size_t i = 0; !err && f->scope && i < f->n_facts; i++)
		f->facts[i].cfg = f->scope->cfg;
	return err;
}

/* Copies f's findings, fixes and strings into the engine's keep arena (one arena for the
** whole run, so what outlives the trees does not pin freed pages) and lets go of the tree. */
static sl_err compact(sl_engine *e, sl_file *f)
{
	size_t size = f->n_findings * (sizeof(sl_frec) + sizeof(sl_frec *));
	size_t n_edits = 0;
	for (size_t i = 0; i < f->n_findings; i++) {
		const sl_finding *p = &f->findings[i]->pub;
		const char *strs[] = {p->message, p->notes, p->pointer, p->api_version, p->kind, p->namespace_,
				      p->name, p->unit, p->fix ? p->fix->message : NULL};
		for (size_t k = 0; k < sizeof strs / sizeof *strs; k++)
			size += strs[k] ? strlen(strs[k]) + 1 : 0;
		for (size_t k = 0; p->fix && k < p->fix->n_edits; k++)
			size += strlen(p->fix->edits[k].content) + 1;
		n_edits += p->fix ? p->fix->n_edits : 0;
	}
	/* edit records first: they need the alignment the strings would break */
	size += n_edits * sizeof(sl_edit);
	char *block = NULL;
	if (size) {   /* a file without findings needs nothing (and no arithmetic on NULL) */
		pthread_mutex_lock(&e->keep_lock);
		block = sl_arena_alloc(e->keep, size);
		pthread_mutex_unlock(&e->keep_lock);
		if (!block)
			return SL_ENOMEM;
	}
	sl_frec *recs = (sl_frec *)block;
	sl_frec **ptrs = block ? (sl_frec **)(block + f->n_findings * sizeof(sl_frec)) : NULL;
	sl_edit *edits = block ? (sl_edit *)(block + f->n_findings * (sizeof(sl_frec) +
								     sizeof(sl_frec *))) : NULL;
	char *w = block ? (char *)(edits + n_edits) : NULL;
	for (size_t i = 0; i < f->n_findings; i++) {
		sl_frec *r = &recs[i];
		*r = *f->findings[i];
		r->edits = NULL;
		r->edit_files = NULL;   /* a streamed run is never fixed */
		r->cap_edits = 0;
		sl_finding *p = &r->pub;
		const char **strs[] = {&p->message, &p->notes, &p->pointer, &p->api_version, &p->kind,
				       &p->namespace_, &p->name, &p->unit};
		for (size_t k = 0; k < sizeof strs / sizeof *strs; k++) {
			if (!*strs[k])
				continue;
			size_t l = strlen(*strs[k]) + 1;
			memcpy(w, *strs[k], l);
			*strs[k] = w;
			w += l;
		}
		if (p->fix) {
			r->fix = *p->fix;
			if (r->fix.message) {
				size_t l = strlen(r->fix.message) + 1;
				memcpy(w, r->fix.message, l);
				r->fix.message = w;
				w += l;
			}
			for (size_t k = 0; k < r->fix.n_edits; k++) {
				edits[k] = r->fix.edits[k];
				size_t l = strlen(edits[k].content) + 1;
				memcpy(w, edits[k].content, l);
				edits[k].content = w;
				w += l;
			}
			r->fix.edits = edits;
			edits += r->fix.n_edits;
			p->fix = &r->fix;
		}
		ptrs[i] = r;
	}
	free(f->findings);
	f->findings = ptrs;
	f->cap_findings = f->n_findings;
	drop_tree(e, f);
	return SL_OK;
}

/* --- between the passes ------------------------------------------------------------------ */

static void free_views(sl_engine *e)
{
	for (size_t k = 0; k < e->n_views; k++)
		sl_index_free(&e->views[k]);
	free(e->views);
	e->views = NULL;
	e->n_views = 0;
}

/* The project index, filled in file order so "first" stays deterministic: a file's own objects
** when it has its tree, else the digests standing in for them. */
static sl_err build_index(sl_engine *e)
{
	size_t nb = 0;   /* each build gets its view: the plain files' objects and its own */
	for (size_t i = 0; i < e->n_files; i++)
		e->files[i]->view = e->files[i]->build ? (uint32_t)++nb : 0;
	if (nb && !(e->views = sl_xcalloc(nb, sizeof *e->views)))
		return SL_ENOMEM;
	e->n_views = nb;
	for (size_t k = 0; k < nb; k++)
		sl_index_init(&e->views[k], e->cfg);
	for (size_t i = 0; i < e->n_files; i++) {
		const sl_file *f = e->files[i];
		bool tree = f->next == SL_NEXT_CHECK || f->next == SL_NEXT_CHECK_LAST;
		const sl_object *const *v = tree ? (const sl_object *const *)f->objects : f->digests;
		size_t n = tree ? f->n_objects : f->n_digests;
		for (size_t j = 0; j < n; j++) {
			sl_err err = sl_index_add(&e->index, v[j]);
			for (size_t k = 0; !err && k < nb; k++)
				if (!f->view || f->view == k + 1)
					err = sl_index_add(&e->views[k], v[j]);
			if (err)
				return err;
		}
	}
	sl_err err = SL_OK;
	for (size_t k = 0; !err && k < nb; k++)
		err = sl_index_finish(&e->views[k]);
	return err ? err : sl_index_finish(&e->index);
}

/* Adds every file's serving facts to the index (and a build's view: the plain files' and its
** own), in file order, and builds the serving tables. */
static sl_err build_serving_table(sl_engine *e)
{
	for (size_t i = 0; i < e->n_files; i++) {
		const sl_file *f = e->files[i];
		sl_err err = sl_index_add_facts(&e->index, f->facts, f->n_facts);
		for (size_t k = 0; !err && k < e->n_views; k++)
			if (!f->view || f->view == k + 1)
				err = sl_index_add_facts(&e->views[k], f->facts, f->n_facts);
		if (err)
			return err;
	}
	sl_err err = SL_OK;
	for (size_t k = 0; !err && k < e->n_views; k++)
		err = sl_index_finish_serving(&e->views[k]);
	if (!err)
		err = sl_index_finish_serving(&e->index);
	for (size_t i = 0; !err && !e->keep_facts && i < e->n_files; i++) {
		if (e->files[i]->borrowed)
			continue;   /* the project's, for its next borrower too */
		sl_index_free_facts(e->files[i]->facts);
		e->files[i]->facts = NULL;
		e->files[i]->n_facts = 0;
	}
	return err;
}

struct file_id {
	bool context;   /* of two records of one file, the named one stays */
	bool on_disk;   /* ... and of two named ones, a buffer standing for it (stdin named by
			   --stdin-filename, an editor's buffer) */
	dev_t dev;
	ino_t ino;
	size_t i;
};

static int cmp_ids(const void *a, const void *b)
{
	const struct file_id *x = a, *y = b;
	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	if (x->ino != y->ino)
		return x->ino < y->ino ? -1 : 1;
	if (x->context != y->context)
		return x->context ? 1 : -1;
	if (x->on_disk != y->on_disk)
		return x->on_disk ? 1 : -1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* Two inputs that are one file (a.yaml and ./a.yaml, a symlink and its target, one file given
** twice or reached from two roots) would report every finding twice and each take the other's
** edits: the file is linted once, under the first of its paths in path order, or as the buffer
** that stands for it whatever the order (its device and inode, from the read, say which are
** one). Then each record learns its index. */
static sl_err drop_duplicates(sl_engine *e)
{
	struct file_id *ids = sl_xmalloc((e->n_files ? e->n_files : 1) * sizeof *ids);
	if (!ids)
		return SL_ENOMEM;
	size_t n = 0;
	for (size_t i = 0; i < e->n_files; i++)
		if (e->files[i]->stamp.valid)
			ids[n++] = (struct file_id){.context = e->files[i]->context,
						    .on_disk = e->files[i]->on_disk,
						    .dev = e->files[i]->stamp.dev,
						    .ino = e->files[i]->stamp.ino, .i = i};
	qsort(ids, n, sizeof *ids, cmp_ids);
	bool any = false;
	for (size_t k = 1; k < n; k++) {
		if (ids[k].dev == ids[k - 1].dev && ids[k].ino == ids[k - 1].ino) {
			free_file(e->files[ids[k].i]);
			e->files[ids[k].i] = NULL;
			any = true;
		}
	}
	free(ids);
	size_t w = 0;
	for (size_t i = 0; any && i < e->n_files; i++)
		if (e->files[i])
			e->files[w++] = e->files[i];
	if (any)
		e->n_files = w;
	for (size_t i = 0; i < e->n_files; i++)
		e->files[i]->index = (uint32_t)i;   /* the list is settled: each record knows its place */
	return SL_OK;
}

static int cmp_findings(const void *a, const void *b)
{
	const sl_finding *x = &(*(sl_frec *const *)a)->pub, *y = &(*(sl_frec *const *)b)->pub;
	int c = strcmp(x->path, y->path);
	if (c)
		return c;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->column != y->column)
		return x->column < y->column ? -1 : 1;
	c = strcmp(x->rule, y->rule);
	if (c)
		return c;
	return strcmp(x->message, y->message);
}

static int cmp_named(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Moves the findings the builds placed in t (by its path) to t's own list. SL_ENOMEM only. */
static sl_err take_findings(sl_engine *e, sl_file *t)
{
	for (size_t i = 0; i < e->n_files; i++) {
		sl_file *b = e->files[i];
		size_t w = 0;
		for (size_t j = 0; b->build && j < b->n_findings; j++) {
			if (b->findings[j]->pub.path != t->path) {
				b->findings[w++] = b->findings[j];
				continue;
			}
			if (t->n_findings == t->cap_findings) {
				size_t cap = t->cap_findings ? 2 * t->cap_findings : 8;
				sl_frec **nv = sl_xrealloc(t->findings, cap * sizeof *nv);
				if (!nv)
					return SL_ENOMEM;
				t->findings = nv;
				t->cap_findings = cap;
			}
			t->findings[t->n_findings++] = b->findings[j];
		}
		if (b->build)
			b->n_findings = w;
	}
	return SL_OK;
}

/* The run's files that builds use (bases, patches: linted only through their builds) keep their
** suppressions as plain files do: a file with a directive takes the findings the builds moved
** into it, its directives drop those they cover (sl_suppress_apply, on the plan's parse of it)
** and the unused ones are reported (without a fix: the run has not parsed the file). */
static sl_err settle_used(sl_engine *e)
{
	const sl_tree *tree;
	const char *real;
	const char *const *named, *const *as;
	size_t n_named;
	sl_kustomize_named(e->kust, &named, &as, &n_named);
	for (size_t i = 0; i < sl_kustomize_n_files(e->kust); i++) {
		const sl_source *src = sl_kustomize_file(e->kust, i, &tree, &real);
		if (!n_named || !tree || !memmem(src->data, src->len, "schedlint:", 10))
			continue;
		const char *const *at = bsearch(&real, named, n_named, sizeof *named, cmp_named);
		const char *path = at ? as[at - named] : NULL;
		sl_file *t = NULL;
		for (size_t j = 0; path && j < e->n_files && !t; j++)
			if (e->files[j]->path == path && !e->files[j]->src && e->files[j]->partial)
				t = e->files[j];
		if (!t)
			continue;
		if (!t->arena && !(t->arena = sl_arena_new()))
			return SL_ENOMEM;
		sl_err err = take_findings(e, t);
		if (err)
			return err;
		t->src = (sl_source *)src;   /* borrowed from the plan for the directives' places */
		t->tree = *tree;
		err = sl_suppress_apply(t);
		t->src = NULL;
		memset(&t->tree, 0, sizeof t->tree);
		for (size_t k = 0; k < t->n_findings; k++)
			t->findings[k]->pub.fix = NULL;
		if (err)
			return err;
	}
	return SL_OK;
}

/* Every file's findings in one list, sorted; then what the notice rules reported moved to a
** list of its own (in the same order). */
static sl_err sort_findings(sl_passes *p)
{
	sl_engine *e = &p->eng;
	size_t total = 0;
	for (size_t i = 0; i < e->n_files; i++)
		total += e->files[i]->n_findings;
	p->sorted = sl_xmalloc((total ? total : 1) * sizeof *p->sorted);
	p->notices = sl_xmalloc((total ? total : 1) * sizeof *p->notices);
	if (!p->sorted || !p->notices)
		return SL_ENOMEM;
	for (size_t i = 0; i < e->n_files; i++)
		for (size_t j = 0; !e->files[i]->context && j < e->files[i]->n_findings; j++)
			p->sorted[p->n_sorted++] = e->files[i]->findings[j];
	qsort(p->sorted, p->n_sorted, sizeof *p->sorted, cmp_findings);
	/* a base's finding that several overlays' builds share is reported once */
	size_t w = 0;
	for (size_t i = 0; i < p->n_sorted; i++)
		if (!w || cmp_findings(&p->sorted[w - 1], &p->sorted[i]) != 0)
			p->sorted[w++] = p->sorted[i];
	p->n_sorted = w;
	w = 0;
	for (size_t i = 0; i < p->n_sorted; i++) {
		if (sl_registry_at((size_t)p->sorted[i]->rule_index)->rule->notice[0])
			p->notices[p->n_notices++] = p->sorted[i];
		else
			p->sorted[w++] = p->sorted[i];
	}
	p->n_sorted = w;
	return SL_OK;
}

/* --- the files' records ------------------------------------------------------------------ */

/* Frees f and everything it owns. */
static void free_file(sl_file *f)
{
	free(f->error);
	free(f->write_error);
	sl_source_free(f->src);
	sl_source_free(f->orig);
	sl_arena_free(f->arena);
	sl_index_reads_free(f->reads);
	free(f->reads);
	if (!f->borrowed) {
		sl_index_free_facts(f->facts);
		free(f->digests);
	}
	free_rest(f->rest);
	if (f->next != SL_NEXT_DONE_COMPACT && f->next != SL_NEXT_CHECK_REST)
		free(f->findings);
	free(f);
}

sl_err sl_passes_init(sl_passes *p, const sl_config *cfg, const sl_run_options *opts,
		      char **error_out)
{
	p->eng.cfg = cfg;
	p->eng.stream = opts && opts->low_memory;
	p->eng.kept_budget = SL_KEPT_BUDGET;
	pthread_mutex_init(&p->eng.keep_lock, NULL);
	pthread_mutex_init(&p->progress_lock, NULL);
	p->progress = opts ? opts->progress : NULL;
	p->progress_ctx = opts ? opts->progress_ctx : NULL;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	p->jobs = opts && opts->jobs ? opts->jobs : cpus > 0 ? (unsigned)cpus : 1;
	sl_index_init(&p->eng.index, cfg);
	return sl_scopes_new(cfg, opts, opts && opts->nearest_config, &p->eng.scopes, error_out);
}

/* A new record for path, appended to e's files; its scope is the caller's to set. */
static sl_file *append(sl_engine *e, const char *path)
{
	if (e->n_files >= UINT32_MAX)
		return NULL;   /* sl_file.index */
	if ((e->n_files & (e->n_files + 1)) == 0 || e->n_files == 0) {
		size_t ncap = e->n_files ? (e->n_files + 1) * 2 : 8;
		sl_file **nf = sl_xrealloc(e->files, ncap * sizeof *nf);
		if (!nf)
			return NULL;
		e->files = nf;
	}
	/* the record and its path in one block: a run may hold a great many */
	size_t len = strlen(path) + 1;
	sl_file *f = sl_xcalloc(1, sizeof *f + len);
	if (!f)
		return NULL;
	f->path = memcpy((char *)(f + 1), path, len);
	e->files[e->n_files++] = f;
	return f;
}

sl_file *sl_passes_new_file(sl_passes *p, const char *path)
{
	sl_engine *e = &p->eng;
	const sl_scope *scope = sl_scopes_of(e->scopes, path);
	char *error = scope && scope->error ? sl_xstrdup(scope->error) : NULL;
	sl_file *f = scope && (!scope->error || error) ? append(e, path) : NULL;
	if (!f) {
		free(error);
		return NULL;
	}
	f->scope = scope;
	f->error = error;
	return f;
}

sl_err sl_passes_add_path(sl_passes *p, const char *path, const char *root, bool context)
{
	sl_file *f = sl_passes_new_file(p, path);
	if (!f)
		return SL_ENOMEM;
	f->context = context;
	f->on_disk = true;
	f->root = root;
	return SL_OK;
}

/* Sets f's error: "cannot read: <why errnum>". */
static sl_err set_error(sl_file *f, int errnum)
{
	free(f->error);
	f->error = sl_xprintf("cannot read: %s", sl_source_strerror(errnum));
	return f->error ? SL_OK : SL_ENOMEM;
}

sl_err sl_passes_add_error(sl_passes *p, const char *path, int errnum, const char *msg)
{
	sl_file *f = sl_passes_new_file(p, path);
	if (!f)
		return SL_ENOMEM;
	if (!msg)
		return set_error(f, errnum);
	free(f->error);
	f->error = sl_xstrdup(msg);
	return f->error ? SL_OK : SL_ENOMEM;
}

/* A buffer (or stdin) is the file it names: with that file's identity, the project's copy of
** it (sl_run_add_project) is the duplicate the lint drops, so its facts do not count twice and
** the buffer's replace them. Only the record's identity: the source keeps its own stamp (none
** for a buffer), which is what a write checks. */
static void stand_for(sl_file *f, const char *path)
{
	struct stat st;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		f->stamp = (sl_stamp){.valid = true, .dev = st.st_dev, .ino = st.st_ino};
}

sl_err sl_passes_add_fd(sl_passes *p, int fd, const char *display_path)
{
	sl_file *f = sl_passes_new_file(p, display_path);
	if (!f)
		return SL_ENOMEM;
	sl_err err = sl_source_read_fd(fd, display_path, &f->src);
	if (f->src)
		f->src->owner = f;
	if (strcmp(display_path, "-") != 0)
		stand_for(f, display_path);
	if (err == SL_EIO)
		return set_error(f, errno);
	return err;
}

sl_err sl_passes_add_buffer(sl_passes *p, const char *path, const char *data, size_t len)
{
	sl_file *f = sl_passes_new_file(p, path);
	if (!f)
		return SL_ENOMEM;
	sl_err err = sl_source_from_buffer(path, data, len, &f->src);
	if (f->src)
		f->src->owner = f;
	stand_for(f, path);
	return err;
}

sl_err sl_passes_add_outside(sl_passes *p, const char *path, bool is_dir)
{
	sl_file *f = sl_passes_new_file(p, path);
	if (!f)
		return SL_ENOMEM;
	f->outside = is_dir ? SL_OUTSIDE_DIR : SL_OUTSIDE_FILE;
	sl_err err = sl_source_from_buffer(path, "", 0, &f->src);
	if (f->src)
		f->src->owner = f;
	return err;
}

sl_err sl_passes_set_helm_chart(sl_passes *p, const char *dir, char **error_out)
{
	if (p->eng.helm)
		return SL_EUSAGE;
	return sl_helm_new(dir, &p->eng.helm, error_out);
}

void sl_passes_keep_facts(sl_passes *p)
{
	p->eng.keep_facts = true;
}

static int cmp_files(const void *a, const void *b)
{
	return strcmp((*(sl_file *const *)a)->path, (*(sl_file *const *)b)->path);
}

sl_err sl_passes_arrange(sl_passes *p, bool build, bool project, const sl_walk_seen *seen)
{
	sl_engine *e = &p->eng;
	sl_kustomize_input *v = sl_xmalloc((e->n_files ? e->n_files : 1) * sizeof *v);
	if (!v)
		return SL_ENOMEM;
	for (size_t i = 0; i < e->n_files; i++) {
		/* the load restrictor of the config a kustomization is linted under */
		const sl_config *cfg = e->files[i]->scope ? e->files[i]->scope->cfg : NULL;
		v[i] = (sl_kustomize_input){e->files[i]->path, e->files[i]->context,
					    e->files[i]->on_disk, e->files[i]->partial,
					    cfg && strcmp(cfg->kustomize_load_restrictor, "none") == 0};
	}
	sl_kustomize_free(e->kust);
	sl_err err = sl_kustomize_arrange(v, e->n_files, build, project, p->jobs, seen, &e->kust);
	size_t n = e->n_files;
	for (size_t i = 0; i < n; i++)
		e->files[i]->partial = v[i].partial;
	free(v);
	/* each build is linted in the place of the files it uses, as a file of its own */
	for (size_t i = 0; !err && i < sl_kustomize_n_linted(e->kust); i++) {
		const char *name;
		bool only_named, partial;
		sl_kustomize_build *b = sl_kustomize_linted(e->kust, i, &name, NULL, NULL, &only_named,
							    &partial);
		sl_file *f = sl_passes_new_file(p, name);
		if (!f)
			return SL_ENOMEM;
		f->build = b;   /* its text read when a pass reaches it (sl_engine_read) */
		f->only_named = only_named;
		f->partial = partial;
	}
	/* files in path order, so "first" (a first default PriorityClass) means the same thing
	** however the inputs were named */
	if (e->n_files)   /* qsort(NULL, 0, ...) is undefined */
		qsort(e->files, e->n_files, sizeof *e->files, cmp_files);
	return err;
}

sl_file *sl_passes_borrow(sl_passes *p, const sl_file *from)
{
	sl_file *f = append(&p->eng, from->path);
	if (!f)
		return NULL;
	f->scope = from->scope;   /* the project's config for it (no lookup: the project's scopes
				     outlive the borrower) */
	f->context = true;
	f->borrowed = true;
	f->next = SL_NEXT_DONE;
	f->stamp = from->stamp;   /* a buffer or input of the same file replaces it */
	f->on_disk = from->on_disk;   /* a kustomization Kustomize may plan */
	f->documents = from->documents;
	/* what build_index takes: the objects of a tree the project kept, else its digests */
	bool tree = from->n_objects > 0;
	f->digests = tree ? (const sl_object **)from->objects : from->digests;
	f->n_digests = tree ? from->n_objects : from->n_digests;
	f->facts = from->facts;
	f->n_facts = from->n_facts;
	return f;
}

sl_err sl_passes_forget(sl_passes *p)
{
	sl_engine *e = &p->eng;
	for (size_t i = 0; i < e->n_files; i++) {
		sl_file *f = e->files[i];
		if (!f->src)
			continue;
		sl_arena_free(f->arena);
		f->arena = NULL;   /* the next parse makes one to suit the fixed text */
		memset(&f->tree, 0, sizeof f->tree);
		f->objects = NULL;
		f->n_objects = 0;
		f->n_findings = 0;
		f->capped = false;
		f->style_known = false;
		f->oom = SL_OK;
		sl_index_free_facts(f->facts);
		f->facts = NULL;
		f->n_facts = 0;
		free(f->digests);
		f->digests = NULL;
		f->n_digests = 0;
		f->next = SL_NEXT_READ;
	}
	free_views(e);
	sl_index_free(&e->index);
	sl_index_init(&e->index, e->cfg);
	free(p->sorted);
	p->sorted = NULL;
	p->n_sorted = 0;
	free(p->notices);
	p->notices = NULL;
	p->n_notices = 0;
	return SL_OK;
}

void sl_passes_free(sl_passes *p)
{
	sl_engine *e = &p->eng;
	for (size_t i = 0; i < e->n_files; i++)
		free_file(e->files[i]);
	free(e->files);
	sl_arena_free(e->keep);
	pthread_mutex_destroy(&e->keep_lock);
	pthread_mutex_destroy(&p->progress_lock);
	sl_scopes_free(e->scopes);
	free_views(e);
	sl_index_free(&e->index);
	sl_helm_free(e->helm);
	sl_kustomize_free(e->kust);
	free(p->sorted);
	free(p->notices);
}
