/* SPDX-License-Identifier: Apache-2.0
** engine.h (private): one file's state through both passes, the run-wide state rules see, and
** the finding records. run.c owns the list of files; engine.c parses, binds, runs rules and
** records findings; the reporters read the sorted records. */
#ifndef SL_ENGINE_H
#define SL_ENGINE_H

#include <pthread.h>
#include <stdatomic.h>
#include "schedlint/lint.h"
#include "util/arena.h"
#include "util/regex.h"
#include "config/rule_def.h"
#include "fs/walk.h"
#include "sched/index.h"
#include "yaml/source.h"
#include "yaml/edit.h"
#include "yaml/yaml_tree.h"

/* A config a file is linted under, with what the engine derives from it once (scopes.h makes
** them: driver/scopes.c). */
typedef struct sl_scope {
	const sl_config *cfg;        /* the config (NULL only when error is set) */
	sl_config *owned;            /* cfg when the scope loaded it, else NULL */
	sl_severity *severity;       /* per registry entry: SL_SEV_OFF = the rule is off */
	int *declared;               /* the registry indices of its config's custom-rules: */
	size_t n_declared;
	sl_globs *globs;             /* its exclude globs, relative to its directory */
	sl_globs **file_ignores;     /* cfg->file_ignores[i]'s glob, compiled (per-file-ignores:
					suppress.c drops the findings it names) */
	char *default_mode_config;   /* "path:line" of its kserve-default-deployment-mode, or NULL */
	char *error;                 /* why its config could not be used ("path:line:col: error:
					..."): the files under it report this instead of findings */
} sl_scope;
typedef struct sl_scopes sl_scopes;

/* A finding as the engine keeps it: the public view plus what fixes and sorting need. */
typedef struct sl_frec {
	sl_finding pub;
	int rule_index;              /* in sl_registry */
	const sl_unit *unit;         /* the unit it is about (identity only: valid while the file's
				        tree is), NULL when none */
	const char *causes;          /* what it reports, in words another rule's finding may share:
				        one per line (sl_report_cause); NULL when none */
	bool fix_void;               /* a helper declined: the fix is dropped whole, never partial */
	uint32_t cond;               /* a split check's (SL_CHECK_NOW) finding on a template whose use
				        is not known yet: kept only when template sl_split.uses[cond -
				        1] turns out used (cond_used) or unused (!cond_used), once every
				        file's facts are in (sl_engine_cond_holds); 0: kept */
	bool cond_used;
	sl_fix fix;                  /* pub.fix points here once a fix has edits */
	sl_edit *edits;
	const struct sl_file **edit_files;   /* edits[i] changes edit_files[i]: the fixer finds
						every edit's file without comparing paths */
	size_t cap_edits;
} sl_frec;

/* What the passes (passes.c) do with a file next. A whole run takes every file from READ to
** CHECK (pass 1) to DONE (pass 2). A streaming run decides in pass 1 from the kinds a file's
** text names: PARSE (pass 2) for a file that names a serving kind, CHECK_LAST or PARSE_LAST
** (pass 3) for one that defines a kind the index looks up, names no serving kind, or whose rules
** compare it with every serving unit; CHECK_REST (pass 3) for one checked in pass 2 but for the
** rules that wait. */
typedef enum sl_file_next {
	SL_NEXT_READ,            /* pass 1: read it, and parse it unless a streaming run can wait */
	SL_NEXT_CHECK,           /* pass 2: check it (a whole run: its tree is here) */
	SL_NEXT_PARSE,           /* pass 2: parse it again, gather its serving facts, check it */
	SL_NEXT_CHECK_LAST,      /* pass 3: check it (it kept its tree: the index reads it) */
	SL_NEXT_CHECK_KEPT,      /* pass 3: check the tree pass 1 parsed, kept in an arena of its
				    own within the run's budget (the index reads its digests) */
	SL_NEXT_PARSE_LAST,      /* pass 3: parse it again and check it */
	SL_NEXT_CHECK_REST,      /* pass 3: checked in pass 2 but for the rules that wait for every
				    serving unit (its findings so far copied out as DONE_COMPACT's):
				    parse the documents of the units they wait on, check those;
				    settle what pass 2 kept on a template's use, resume what its
				    checks deferred (sl_split: no parse when nothing else waits) */
	SL_NEXT_DONE,            /* nothing: checked, or it could not be read */
	SL_NEXT_DONE_COMPACT     /* nothing: checked, its tree let go and its findings copied to the
				    engine's keep arena */
} sl_file_next;

typedef struct sl_file {
	char *path;                  /* as reported (in the same block as the record) */
	sl_source *src;              /* NULL when it could not be read; the fixed text after fixes */
	sl_source *orig;             /* the text as read, once fixes replaced src; else NULL */
	sl_arena *arena;
	sl_tree tree;
	sl_object **objects;
	size_t n_objects;
	sl_frec **findings;
	size_t n_findings, cap_findings;
	char *error;                 /* why it could not be read */
	char *write_error;           /* why its fixed text was not written (sl_run_file_write) */
	const char *root;            /* the real directory it was found under, which a fix must
				        not leave (a symlink's target outside it is not written);
				        NULL for stdin and buffers */
	sl_stamp stamp;              /* the file as read (device, inode, size, mtime) */
	sl_serving_fact *facts;      /* its serving units, for the index */
	size_t n_facts;
	const sl_object **digests;   /* streamed: what the index keeps of its objects once its tree
				        is gone (sl_index_digest; in the engine's keep arena) */
	size_t n_digests;
	sl_err oom;                  /* SL_ENOMEM when a report could not be recorded */
	unsigned documents;          /* documents seen, broken ones included */
	sl_style style;              /* the file's layout, for inserted text */
	bool style_known;
	bool on_disk;                /* read from path in pass 1 (and again when streamed); false
				        for buffers and stdin */
	uint8_t next;                /* an sl_file_next: what the passes do with it next */
	bool broken;                 /* the parser found a YAML syntax error (whether or not the
				        yaml-syntax rule is selected): no fix may touch the file */
	bool capped;                 /* SL_FINDINGS_MAX reached: the last finding says so */
	bool templated;              /* a template, not a manifest (template.h): its one finding is
				        the template-not-rendered notice, no rule reads it, its only
				        objects are its node pools (the inventory's, their
				        placeholders unknown) and no fix touches it */
	uint32_t index;              /* its place in the engine's files, once pass 1 settled them */
	size_t fixes;                /* fixes applied to its text, every round (sl_file_info.fixes) */
	const sl_scope *scope;       /* the config it is linted under (scopes.h) */
	bool context;                /* one of the project's other files, read for the cross-file
				        facts only: never checked, reported or written */
	bool borrowed;               /* a context file of a project read once (sl_run_use_project):
				        its digests and facts are that run's, never freed here */
	uint64_t kinds;              /* streamed: the kinds its text names (sl_kinds_named_in) */
	bool pinned;                 /* streamed: the index holds copies of its documents whose
				        positions are in its text (sl_index_needs_tree), which it
				        keeps for the run */
	size_t kept_bytes;           /* streamed: not 0 while it holds an arena of its own, which
				        with its text counts this much against the run's budget
				        (SL_KEPT_BUDGET): a tree kept for its check (CHECK_KEPT) */
	bool partial;                /* used by a kustomization (a patch, a built resource): not
				        linted on its own, never read for facts */
	struct sl_kustomize_build *build;   /* the text of a kustomization's build: its
						     findings move to their nodes' origins */
	uint32_t view;               /* a build's: its index is views[view - 1] (0: the run's) */
	bool only_named;             /* a build of the project's, linted for the files named: only
				        its findings in them (engine's named) are kept */
	uint8_t outside;             /* a symlink a walk did not follow (SL_OUTSIDE_FILE or _DIR):
				        never read, its text empty, its one finding the
				        symlink-outside-tree notice */
	size_t parsed;               /* the bytes its parses read (an excerpt's: the excerpt's) */
	unsigned disk_reads;         /* the times sl_engine_read read it from disk */
	size_t recorded;             /* findings recorded (sl_engine_record) since its last parse,
				        dropped ones included */
	bool defines;                /* streamed: may define a kind the index looks up, read for it
				        in pass 1 and parsed again in pass 2 (passes.c, first_look) */
	struct sl_rest *rest;        /* streamed, CHECK_REST: what its check in pass 3 needs
					(passes.c), malloc'd; else NULL */
	struct sl_excerpt *excerpt;  /* streamed: set before a parse that reads f for some of its
				        documents, the excerpt of its text that holds only them
				        (yaml/excerpt.h), which sl_engine_parse parses in its place
				        and frees; else NULL */
	sl_index_reads *reads;       /* the facts its rules read of the index (record_reads; its
				        views carry it), malloc'd; else NULL */
} sl_file;

enum { SL_OUTSIDE_NO, SL_OUTSIDE_FILE, SL_OUTSIDE_DIR };

typedef struct sl_engine {
	const sl_config *cfg;
	bool stream;                 /* free each file's tree as soon as no rule needs it */
	bool record_reads;           /* each checked file notes the facts its rules read (reads) */
	bool keep_facts;             /* a project read once: the files' serving facts outlive the
				        serving table, for the runs that borrow them */
	sl_arena *keep;              /* streamed: what outlives the trees (findings), one arena
				        so the heap does not fragment; under keep_lock */
	pthread_mutex_t keep_lock;
	long long kept_budget;       /* streamed: the most the trees kept for pass 3 may take
				        (SL_KEPT_BUDGET; 0: none is kept, each is parsed again) */
	_Atomic long long kept_room; /* what is left of it while the passes run */
	_Atomic size_t parses;       /* sl_engine_parse calls (each file is parsed once if it can) */
	uint64_t waiting_kinds;      /* streamed: kinds whose units an enabled rule may check only
				        once every serving unit is known (waits_on_kinds) */
	uint64_t deciding[3];        /* streamed: looked-up kinds, serving kinds (sl_kinds_named_in),
				        and waiting_kinds */
	bool split;                  /* streamed: a file's check may be split (sl_check_part): no
				        rule that waits for every serving unit yields to another
				        rule or is yielded to (settle's yields stay within a part) */
	bool context_facts;          /* streamed: the context files' serving units' facts are needed
				        (a file of the run's own names a waiting kind) */
	bool has_context;            /* streamed: the run reads context files (a project) */
	_Atomic uint64_t own_kinds;  /* streamed, with context: every kind the run's own files name */
	uint64_t context_lookups;    /* streamed: the looked-up kinds a context file is parsed for
				        (passes.c, context_lookups) */
	sl_regex_budget regex_budget;   /* the run's, for declared rules' patterns (regex.h) */
	sl_index index;
	sl_index *views;             /* one per build: the plain files' facts and its own only (an
				        overlay's facts never reach another overlay) */
	size_t n_views;
	sl_scopes *scopes;           /* the configs the files are linted under */
	sl_file **files;
	size_t n_files;
	struct sl_helm *helm;        /* --helm-chart: the inputs are its rendered output (helm.h) */
	struct sl_kustomize *kust;   /* the kustomizations built (kustomize.h) */
} sl_engine;

/* The most a streaming run keeps of the trees (and texts) pass 1 parsed for the index, so
** that pass 3 checks them without parsing them again: a few megabytes, next to the tree of the
** largest file a pass holds anyway; a file beyond it is parsed again. */
#ifndef SL_KEPT_BUDGET   /* -DSL_KEPT_BUDGET=0 to measure a big file's path on a small one */
#define SL_KEPT_BUDGET ((long long)16 << 20)
#endif

/* What a rule sees (rule.h's sl_ctx): the file, the object and unit under check and the running
** rule; sl_engine_check fills it, the SDK (sdk.c) reads it. */
struct sl_ctx {
	sl_engine *eng;
	sl_file *file;
	int rule_index;
	const struct sl_rule *rule;  /* sl_registry_at(rule_index)'s, NULL when none runs */
	const sl_index *index;       /* the index as the file's config sees it (its cluster:) */
	const sl_object *obj;
	const sl_unit *unit;
	const char **labels;   /* obj's units' labels, made when a rule first asks (sl_ctx_label) */
	struct sl_ctx_placement *placements;   /* obj's units' placements (sl_ctx_placement) */
	void *object_cache;    /* sl_ctx_object_cache: NULL at each new object */
	bool use_unknown;      /* obj is a template whose use is not known yet (SL_CHECK_NOW):
				  sl_ctx_unit_is_used_template answers assume_used for its units
				  and notes asked_use */
	bool assume_used;
	bool asked_use;
	struct sl_split *defer;   /* where sl_ctx_defer puts the checks left until every
				     serving unit is known: the SL_CHECK_NOW part's split, else
				     the list of those resumed as soon as the check returns */
	const struct sl_later *later;   /* the check being resumed (sl_report_deferred
					   reports at its place); NULL in a check */
};

/* Reads f's file (once added by path; a kustomization's build: its text, from its plan) into
** f->src; a file that cannot be read gets f->error.
** text_only: without the line index (sl_source_read_text), for a look at the bytes.
** SL_ENOMEM only. */
sl_err sl_engine_read(sl_file *f, bool text_only);
/* True when some enabled rule's waits_for_units holds for a unit of f: a streaming run checks
** f only once every file's serving units are in the index. */
bool sl_engine_waits(sl_engine *e, sl_file *f);
/* Pass 1: parses f and binds its objects; parse and schema problems become findings. The tree
** goes into f->arena when the caller set one (it must be empty), else into a new arena. */
sl_err sl_engine_parse(sl_engine *e, sl_file *f);
/* Pass 2: runs every enabled rule over f's objects and units, those of the kinds and modes it
** declares (sl_engine_admits). Suppressions are the pass's next step (sl_suppress_apply). */
sl_err sl_engine_check(sl_engine *e, sl_file *f);
/* Which of f's checks sl_engine_check_part runs: all of them; all but those that wait for every
** file's serving units (a rule's on a unit it waits for, waits_for_units); only those. A template
** whose use a check asks (sl_ctx_unit_is_used_template), which every file's serving facts tell,
** is checked wholly in SL_CHECK_NOW: a check that asks runs for both answers, what each reports
** kept on its answer (sl_frec.cond), unless a unit of f's own uses it (sl_index_template_used_here:
** that answer is final) or such a finding meets another of its unit whose rule yields to its
** rule or is yielded to (yields resolve within a part): then the template's checks all wait. */
typedef enum { SL_CHECK_ALL, SL_CHECK_NOW, SL_CHECK_WAITING } sl_check_part;
/* A template whose use is not known yet, by what sl_index_template_name_used asks. */
typedef struct sl_use_key {
	sl_kind kind;
	char *name;                  /* malloc'd */
} sl_use_key;
/* Where a finding goes, as sl_engine_record sets it from a node: kept past the tree. */
typedef struct sl_place {
	size_t start, end;           /* bytes of the file */
	uint32_t line, column, end_line, end_column;
	unsigned doc;
	const char *pointer;
	const char *api_version, *kind, *namespace_, *name;   /* the object's, NULL: none */
	const char *unit;            /* the unit's name, NULL: none */
} sl_place;
/* A check's rest left until every serving unit is known (sl_ctx_defer, sdk/rule.h): its rule's
** resume runs with data and reports at place (sl_report_deferred). */
typedef struct sl_later {
	int rule_index;
	sl_place place;
	bool elsewhere;              /* place is the unit's field that names a template in another
				        file: the finding says so in a note (sdk.c, vreport) */
	const sl_unit *unit;         /* while the tree is (yields compare it); NULL after */
	bool silenced;               /* a split check's: its finding is suppressed (judged in
				        pass 2, sl_suppress_judge_laters) */
	void *data;
} sl_later;
/* What SL_CHECK_NOW leaves for later (malloc'd; sl_engine_split_free). */
typedef struct sl_split {
	size_t *waiting;             /* where each document that holds a unit it left for later
				        starts (its root's offset in f's text), increasing */
	size_t n_waiting;
	size_t *whole;               /* those of them whose every check waits (a template whose
				        conditional findings meet a yield), increasing */
	size_t n_whole;
	sl_use_key *uses;            /* the templates of the findings kept on a condition (cond) */
	size_t n_uses;
	sl_later **laters;           /* the checks to resume (in its arena), in check order;
				        laters[i]'s finding is kept on condition n_uses + 1 + i
				        (that it is reported: what it silences counts only then) */
	size_t n_laters;
	sl_arena *arena;             /* the laters' (SL_CHECK_NOW: its own; else the file's) */
} sl_split;
void sl_engine_split_free(sl_split *s);
/* sl_engine_check, part of it. SL_CHECK_NOW fills *split (zeroed by the caller); the two parts
** together run what sl_engine_check runs (SL_CHECK_WAITING reads split's whole). Everything else
** a check reads of the index is known once pass 1 built it. */
sl_err sl_engine_check_part(sl_engine *e, sl_file *f, sl_check_part part, sl_split *split);
/* Once every file's facts are in: used[k] (for split's uses[k], n_uses of them) set from view;
** then rec is kept when sl_engine_cond_holds(rec, used). */
void sl_engine_uses_settle(const sl_index *view, const sl_split *split, bool *used);
bool sl_engine_cond_holds(const sl_frec *rec, const bool *used);
/* Runs the check l left (sl_later), its finding at l's place; every serving unit is known. In a
** check as one the engine resumes each as soon as its check returns; a split check's wait in
** split->laters for pass 3 (passes.c). SL_ENOMEM. */
sl_err sl_engine_resume(sl_engine *e, sl_file *f, const sl_index *view, const sl_later *l);
/* The index as f's config sees it: the shared tables, with f's config for the facts a config
** may state (Knative flags, PriorityClasses, KServe's default mode, the cluster: settings).
** A shallow copy, valid while the index is. */
sl_index sl_engine_index_view(const sl_engine *e, const sl_file *f);
/* True when rule r applies to an object of kind k, or a unit, run in mode m: its .kinds and
** .modes (0: all) hold them. */
bool sl_engine_admits(const struct sl_rule *r, sl_kind k, sl_mode m);
/* At most this many findings are recorded per file (a generated file of a million bad lines
** must not take gigabytes); the next one becomes a last finding that says the file's report
** stopped there, and later ones are dropped. */
#define SL_FINDINGS_MAX 10000
/* The longest message (before its first line is cut: engine.c), note, and notes of one finding
** (each cut with "\u2026": sl_arena_cut). What a message quotes of a name or value is cut
** shorter (SL_QUOTED_MAX, util/arena.h), so a hostile manifest's megabyte name costs a
** finding no more than this. */
#define SL_MESSAGE_MAX 4000
#define SL_NOTE_MAX 4000
#define SL_NOTES_MAX 12000
/* A finding's first line is at most this many characters (code points; spec/rules.md "Messages
** are short"). Rules keep theirs within it; sl_engine_record cuts a longer one (an object with a
** very long name) at a word, marks the cut with "…" and keeps the whole line as the first note. */
#define SL_FIRST_LINE_MAX 160
/* The code points of the first line of s. */
size_t sl_engine_first_line_chars(const char *s);

/* A new edit of rec's fix (in f's arena), on file target: zeroed but for its path; the caller
** fills it and counts it (rec->fix.n_edits++). NULL when out of memory. */
sl_edit *sl_engine_edit(sl_file *f, sl_frec *rec, const sl_file *target);
/* One finding for one cause: drops each finding of f whose rule yields to another
** (sl_rule.yields_to) when a finding of that rule about the same unit shares one of its causes;
** the kept finding gets the dropped one's message and notes as notes, and the more severe of
** their severities. Run after the suppressions (a suppressed finding takes nothing), before any
** remap. SL_ENOMEM. */
sl_err sl_engine_yield(sl_file *f);
/* Records a finding of rule ri (registry index) over bytes [start,end) of f, for document doc,
** with its pointer, message (kept, not copied), object and unit; NULL when the rule is off or
** memory ran out (f->oom is set then). */
sl_frec *sl_engine_record(sl_file *f, int ri, unsigned doc, size_t start,
			  size_t end, const char *pointer, const char *message, const sl_object *obj,
			  const sl_unit *unit);
/* sl_engine_record at a place made before (its names cut as sl_engine_record cuts them): reads
** nothing of f's text or tree. */
sl_frec *sl_engine_record_at(sl_file *f, int ri, const sl_place *at, const char *message,
			     const sl_unit *unit);
/* The place of a finding over bytes [start,end) of f (its text's lines), about obj and unit,
** its strings in arena a (the pointer copied). False when out of memory. */
bool sl_engine_place(sl_file *f, sl_arena *a, unsigned doc, size_t start, size_t end,
		     const char *pointer, const sl_object *obj, const sl_unit *unit, sl_place *at);

#endif
