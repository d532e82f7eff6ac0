/* SPDX-License-Identifier: Apache-2.0
** internal.h (private to render/kustomize/): what the files of the builder share: the
** plan's and a build's state, a build step's context, and the helpers they call each
** other by (sl_kustomize__*).
**
** Kustomize, built in C with provenance on every node.
**
** A kustomization is decoded as kustomize decodes it (decode.c) and built as kustomize v5
** builds it (api/internal/target/kusttarget.go, the builtin transformers in their order):
** resources (files, and directories with their own kustomization, recursively; the deprecated
** bases), configurations, configMapGenerator and secretGenerator, components, then
** patchesStrategicMerge and patches, namespace, namePrefix/nameSuffix, commonLabels/labels,
** commonAnnotations, patchesJson6902, replicas, images, replacements, and its vars merged; at
** the root, the hash suffixes, the references to renamed objects (nameref.c), the vars resolved
** (vars.c) and the local-config objects dropped.
** Every node of a built object is a knode that remembers its file and byte range, so
** the built text (knode.c) maps back to the base, patch or kustomization line a person edits.
** What kustomize would refuse is a kustomize-invalid finding at the offending key; what this
** builder does not do is a kustomize-unsupported finding, and the kustomization's files are then
** linted as plain files (configurations, crds: the build is linted without them, the finding
** says so; replacements and vars are applied, replacements.c and vars.c). Files a kustomization uses as patches are never linted alone. */
#ifndef SL_KUSTOMIZE_INTERNAL_H
#define SL_KUSTOMIZE_INTERNAL_H

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/hash.h"
#include "util/path.h"
#include "util/strmap.h"
#include "render/knode.h"
#include "render/kpatch.h"
#include "render/kustomize/kustomize.h"
#include "util/regex.h"
#include "config/registry.h"
#include "fs/repo.h"
#include "util/sha256.h"
#include "yaml/source.h"
#include "fs/walk.h"
#include "yaml/yaml_tree.h"

struct kfile {
	char *path;          /* as first asked for */
	char *real;          /* its real path */
	sl_source *src;      /* NULL when it cannot be read */
	sl_tree tree;        /* in its own arena: let go once no build left to make reads it
			     ** (plan.c's sweep), parsed again if one does after all */
	sl_arena *a;
	size_t pins;         /* builds under way that loaded it (their tree stays) */
	size_t last_user;    /* one past the last build (in the plan's order) whose kustomizations
			     ** it may lie under; SIZE_MAX: not known yet */
	bool dropped;        /* its tree was let go (and its text and line index: src->data
			     ** NULL; read again when a build or a finding's position needs them) */
	bool directive;      /* holds "schedlint:": its tree stays (a suppression's file) */
	bool provisional;    /* read by the plan's look ahead (plan.c's note_reach) under its real
			     ** path: the first to ask for it names it (path, src->path) */
	const char *syntax;  /* its first YAML syntax error (in the plan's arena), NULL: none */
	uint32_t syntax_start, syntax_end;
};

struct issue {
	const sl_source *src;
	uint32_t start, end;
	const char *rule;    /* kustomize-unsupported or kustomize-invalid */
	const char *msg;     /* in the plan's arena */
	const char *notes;   /* kustomize's own error text and the way out (NULL: none) */
	bool notice;         /* the build goes on without the key (reported once per plan) */
};

struct kres {
	sl_knode *obj;
	struct kid *prev;        /* its previous ids, oldest first (in the build's arena) */
	size_t n_prev;
	const char **pre, **suf; /* the name prefixes and suffixes it was given, innermost first
				 ** (kustomize's prefixes/suffixes build annotations) */
	size_t n_pre, n_suf;
	bool hash;               /* generated: kustomize's hash suffix is added once it is built */
	const char **refvars;    /* the vars whose objref names it (kustomize's AppendRefVarName) */
	size_t n_refvars;
	/* buildMetadata (a root's: its bases' are its): where it came from, as kustomize's
	** config.kubernetes.io/origin annotation says it, and the transformers of each
	** kustomization that was over it (alpha.config.kubernetes.io/transformations), oldest first;
	** NULL and 0 when the root tracks no origins */
	const char *origin;
	const struct ktrans *trans;
	size_t n_trans;
};

/* A transformer a kustomization configured, as buildMetadata's transformerAnnotations record it:
** the kustomization's path from the root's directory, and the builtin transformer's kind. */
struct ktrans {
	const char *in, *kind;
};

/* A var (kustomize's types.Var): its name, its declaration (objref, fieldref). */
struct kvar {
	const char *name;
	const sl_knode *decl;
};

/* A field spec: where a transformer writes or a reference stands (kustomize's
** types.FieldSpec). */
struct sl_kustomize__fs {
	const char *group, *version, *kind;   /* NULL or "": any */
	const char *path;        /* "spec/template/metadata/labels"; "x[]" a list's items */
	bool create;             /* made where missing */
};
struct sl_kustomize__fslist {
	struct sl_kustomize__fs *v;
	size_t n, cap;
};
/* The categories of kustomize's transformer configuration (builtinconfig.TransformerConfig). */
enum {
	CAT_PREFIX, CAT_SUFFIX, CAT_LABELS, CAT_TEMPLATE_LABELS, CAT_LABEL_FIELDS, CAT_ANNOTATIONS,
	CAT_NAMESPACE, CAT_VARREF, CAT_IMAGES, CAT_REPLICAS, CAT_N
};
/* A nameReference entry: the kind referred to, and the fields that refer to it. */
struct sl_kustomize__ref {
	const char *group, *version, *kind;
	struct sl_kustomize__fslist fs;
};
struct sl_kustomize__cfg {
	struct sl_kustomize__fslist cat[CAT_N];
	struct sl_kustomize__ref *refs;
	size_t n_refs, cap_refs;
};
/* A walk of one field spec's path through an object (sl_kustomize__fs_walk): set is called with
** each map holding the path's last field and that field's index in it. */
struct sl_kustomize__fswalk {
	sl_arena *a;
	const struct sl_kustomize__fs *fs;
	int create_kind;         /* the last field's type when made (SL_NODE_*); -1: never made */
	const sl_knode *origin;  /* what made fields come from */
	bool (*set)(struct sl_kustomize__fswalk *w, sl_knode *parent, size_t at);
	void *arg;
	const char *error;       /* set when the walk fails on the object's shape */
};

struct acc {
	struct kres *v;
	size_t n, cap;
	struct kvar *vars;       /* its var set (malloc'd) */
	size_t n_vars, cap_vars;
	struct sl_kustomize__cfg cfg;   /* what its configurations add to the builtin (fields.c) */
};

struct sl_kustomize_build {
	const char *name;    /* the kustomization's path */
	const char *dir;     /* the overlay, as the notes name it */
	const char *kpath;   /* its kustomization, as the run names it */
	size_t root;         /* its place in the plan's kpaths */
	size_t at;           /* its place in the plan's builds */
	sl_arena *a;         /* its knodes (builds run on threads of their own): freed once its text
			     ** and spans are made, so the plan never holds every build's tree */
	sl_arena *msgs;      /* its issues' messages */
	sl_strbuf text;      /* the built objects as YAML */
	sl_knode_span *spans;
	size_t n_spans, spans_cap;
	struct issue *issues;
	size_t n_issues, cap_issues;
	bool failed;
	bool oom;            /* out of memory while building */
	bool load_none;      /* built as with --load-restrictor LoadRestrictionsNone */
	char *project;       /* the real path of its project's root (the git work tree, else the
			     ** outermost .schedlint.yaml's directory), which no input it reads may
			     ** leave, whatever its load restrictor; NULL: none found, no bound */
	const sl_kustomize *k;   /* its plan */
	char **used;         /* real paths of the resource files it read */
	size_t n_used, cap_used;
	bool spilled;        /* its text and spans are in the plan's spill file (plan.c), read
			     ** back when asked for (text, spans NULL until then) */
	off_t spill_at;      /* where: the text's spill_text bytes, then spill_spans spans */
	size_t spill_text, spill_spans;
	sl_strbuf held_text; /* or, held in memory instead (within the plan's held): the text and */
	sl_knode_span *held_spans;   /* the spans, read back from here */
	struct kfile **pinned;   /* the files it loaded, pinned while it is built (under lock) */
	size_t n_pinned, cap_pinned;
	bool done;           /* built (under lock) */
};

/* A string -> string cache (a NULL value is an answer too: "none"), keys and values owned. The
** plan asks the file system about the same few directories thousands of times. */
struct memo {
	sl_strmap m;
};

/* Who includes a kustomization: its first includer, and whether it has another (a base the
** builds may reach by two ways, kept in the plan's memo once built; one included by one other
** kustomization only is built, once, where that one is). */
struct incl {
	char *parent;        /* the real path of its first includer's kustomization */
	bool multi;          /* another includes it too */
	bool component;      /* included as a component: applied where each includer is built */
};

struct sl_kustomize {
	sl_arena *a;         /* the files' trees (under lock) and the builds' names */
	pthread_mutex_t lock;   /* recursive: the files and the memos, shared by the builds */
	size_t next;         /* the next build a thread takes (under lock) */
	struct kfile **files;
	size_t n_files, cap_files;
	sl_strmap projects;  /* a real directory → its project (sl_config_project_root_memo: keys
			     ** and values owned; NULL: none) */
	sl_strmap files_by_path;   /* the files read, by each path they were asked by and by their */
	sl_strmap files_by_real;   /* real path (keys owned): a load finds a file without a scan */
	struct kfile **fresh;      /* the files (re)parsed since the last sweep (plan.c) */
	size_t n_fresh, cap_fresh;
	struct kbucket {
		struct kfile **v;
		size_t n, cap;
	} *by_last_user;   /* n_builds + 1: the files parsed whose last user (kfile's) is i, let go
			   ** once the builds up to it are finished (plan.c's sweep) */
	char **consumed;     /* sorted real paths */
	size_t n_consumed, cap_consumed;
	sl_kustomize_build **builds;
	size_t n_builds;
	struct src_real {
		const sl_source *src;
		const char *real;
		const sl_tree *tree;
		struct kfile *f;
	} *by_src;           /* the files read, sorted by src */
	size_t n_by_src;
	struct memo reals;   /* a path as named → its real path (directories too) */
	struct memo kusts;   /* a directory → the kustomization file in it */
	struct memo types;   /* a path → "d" (a directory), "f" (anything else) or none */
	const sl_walk_seen *seen;   /* what the run's walks listed (NULL: ask the kernel) */
	struct { const char *s; size_t len; } *bases;   /* the consumed files' base names, once */
	size_t n_bases;
	sl_repo *repo;       /* asked whether git ignores a missing input (opened when needed) */
	struct run_part *run;   /* a run's files (sl_kustomize_arrange), NULL: none */
	sl_strmap reach;     /* a kustomization's real directory → one past the last build (in
			     ** k->builds) that includes it (the value cast from size_t); keys owned */
	size_t reach_all;    /* one past the last build whose load restrictor is off: it may read
			     ** any file */
	size_t unfinished;   /* the first build not finished (under lock) */
	int spill;           /* an unlinked temporary file holding the builds' texts and spans
			     ** until the run lints them (-1: none could be made: kept in memory) */
	bool spill_tried;
	off_t spill_end;     /* its size (under lock) */
	off_t spill_max;     /* the most it may hold: the file size limit (RLIMIT_FSIZE) */
	size_t held;         /* the builds' texts and spans held in memory instead (under lock) */
	sl_strmap incl;      /* a kustomization's real path → who includes it (plan.c's struct
			     ** incl; keys owned) */
	sl_strmap shared;    /* the kustomizations built for every root that includes them: a
			     ** name → its struct shared list (keys owned; under lock) */
	struct sbucket {
		struct shared **v;
		size_t n, cap;
	} *shared_by_last;   /* n_builds + 1: the shared builds whose last is i, freed once the
			     ** builds up to it are finished (plan.c's sweep) */
	size_t n_made;       /* kustomizations built (roots, bases, components; under lock) */
	size_t n_reused;     /* builds of a base taken from the memo instead (under lock) */
	size_t memo_bytes;   /* what the memo's kept builds hold (their arenas; under lock) */
};

/* A kustomization included as a resource, built once per run (kustomize builds a directory the
** same way wherever it is included; build.c's build_once, plan.c's memo): what it built, kept as
** it was until the last build that may include it is finished; each inclusion takes a copy, and
** the issues (notices, or what failed it) and the files it read are replayed into each root that
** takes it. Kept apart by what else makes a build: the name it was reached by, the load
** restrictor, the project, the origin buildMetadata gives it; one that failed at the entry
** that included it, only for that entry. */
struct shared {
	char *kpath;         /* its kustomization as the includer named it (the memo's key) */
	bool load_none;      /* the variant: the root's load restrictor, */
	char *project;       /* its project (NULL: none), */
	char *origin;        /* the origin its resources get (NULL: none tracked) */
	bool at_ref;         /* failed at the entry that included it (its findings stand there): */
	const sl_source *ref_src;   /* taken only for that entry */
	uint32_t ref_start, ref_end;
	bool made;           /* built (else being built by the build owner: others build their own) */
	bool failed;         /* its issues failed the build (no objects kept) */
	bool in_memo;        /* in the plan's memo (else a root's own, freed with its build) */
	sl_arena *home;      /* the arena its objects are in (its own, or its includer's) */
	bool moved;          /* its objects were taken whole (a root's own): made again if met */
	size_t owner;        /* the build making it */
	size_t last;         /* one past the last build (in the plan's order) that may take it */
	int height;          /* the levels of kustomizations it nests below its includer */
	sl_arena *a;         /* its knodes */
	size_t size;         /* what a (when kept: counted in the plan's memo_bytes) */
	struct acc acc;
	struct issue *issues;   /* what its build recorded, in order (messages in that root's) */
	size_t n_issues;
	char **used;         /* the files it read (real paths), in order */
	size_t n_used;
	struct kfile **files;   /* the files it loaded, pinned while it is kept (its knodes point */
	size_t n_files;         /* into their trees) */
	struct shared *next; /* another with the same key */
};

/* The most the plan's memo holds of kept builds at once (their arenas): past it, a build is its
** includer's own, as before the memo. Kubeflow's manifests keep within 4 MiB most of what they
** share (394 builds of their kustomizations become 207), and the run peaks no higher than
** without the memo; a base of tens of MiB included by two roots is built twice rather than
** kept across every root between them. */
#define SL_KUSTOMIZE_MEMO_MAX ((size_t)4 << 20)

/* A kustomization a root's build included as a resource, once per root: met again while it is
** being built, a cycle; else copied from what it built (build.c). */
struct built {
	char *kpath;         /* its kustomization file's real path (malloc'd) */
	struct shared *s;    /* what it built (the plan's memo's, or this root's own) */
	bool building;       /* still being built: met again, a cycle */
	bool again;          /* met again after an includer took it whole: made once more and
			     ** copied from then on (a diamond through symlinked directories) */
};

struct ctx {
	sl_kustomize *k;
	sl_kustomize_build *b;
	sl_arena *a;         /* the build's */
	int depth;
	struct built *built; /* the kustomizations built so far (malloc'd) */
	size_t n_built, cap_built;
	int deepest;         /* the deepest depth reached (a kept build's height) */
	unsigned unstable;   /* cycles and depth limits met: a build that met one is not kept */
	/* while a kustomization is built for the plan's memo: */
	size_t pin_floor;    /* b->pinned from here on: the files it loaded */
	size_t life;         /* one past the last build that may take it: no more than any it took */
	bool local;          /* it took a build not in the memo: not kept */
	/* the root's buildMetadata: NULL (no origins tracked), else the path of the kustomization
	** being built from the root's directory ("" the root), as kustomize's origin joins the
	** resources entries that reached it */
	const char *origin;
	const sl_knode *build_metadata;   /* the root's list, NULL: none */
};

/* An id a resource had before a transformer changed it, as kustomize keeps them (the
** config.kubernetes.io/previousKinds, previousNames and previousNamespaces build annotations): a
** patch, a selector or a name reference may name a resource by any of them. */
struct kid {
	const char *kind;
	const char *ns;          /* effective: "default" for none, kustomize's word for cluster-scoped */
	const char *name;
};

/* Which list of the kustomization a patch comes from: kustomize words their refusals apart. */
enum patch_from { FROM_PATCHES, FROM_PSM, FROM_JSON6902 };

bool sl_kustomize__add_annotations(sl_arena *a, struct acc *acc, const sl_knode *ann);
bool sl_kustomize__add_file(struct ctx *c, struct kfile *f, const sl_knode *ref, struct acc *acc);
/* A kustomize-invalid finding at at: the build crossed a limit of the parser's (why: which);
** false, always. */
bool sl_kustomize__limit(struct ctx *c, const sl_knode *at, const char *why);
/* The document root of src as knodes (sl_knode_load); NULL when out of memory or when it crosses
** a limit of the parser's (a kustomize-invalid finding says which, at at, NULL: at the document's
** first byte). */
sl_knode *sl_kustomize__load_doc(struct ctx *c, const sl_node *root, const sl_source *src,
				 const sl_knode *at);
bool sl_kustomize__add_labels(sl_arena *a, struct acc *acc, const sl_knode *labels, bool selectors,
			      bool templates, const sl_knode *fields);
bool sl_kustomize__add_res(struct acc *acc, sl_knode *obj);
bool sl_kustomize__apply_patch(struct ctx *c, struct acc *acc, sl_knode **docs, size_t n,
			       const sl_knode *target, const sl_knode *options, const sl_knode *at,
			       enum patch_from from);
bool sl_kustomize__build_kust(struct ctx *c, const char *kpath, const sl_knode *ref,
			      struct acc *acc, bool component);
/* The kustomization at kpath (decoded: root) built into acc from resources first index on:
** kustomize's origin for each resource it added (a file's entry e or its generators), or the
** transformers it configured, appended to every resource of acc (transformers true). Nothing
** when the root tracks no origins. False when out of memory. */
bool sl_kustomize__track(struct ctx *c, struct acc *acc, size_t first, const char *kpath,
			 const sl_knode *e, const char *generator);
/* Enters the kustomization the entry rel names (a resource or a component directory): c's origin
** joined with rel (nothing when no origins are tracked); the caller puts the old one back. False
** when out of memory. */
bool sl_kustomize__origin_enter(struct ctx *c, const char *rel);
bool sl_kustomize__track_transformers(struct ctx *c, const sl_knode *root, const char *kpath,
				      struct acc *acc);
/* At a root's end: its buildMetadata's annotations and label on every object. */
bool sl_kustomize__build_metadata(struct ctx *c, struct acc *acc);
/* Finds kustomization kpath (by its real path) among those c built or is building, else adds it
** as being built: *at its index. False when out of memory. */
bool sl_kustomize__building(struct ctx *c, const char *kpath, size_t *at);
/* Frees what c remembers of the kustomizations it built (the ones not in the plan's memo). */
void sl_kustomize__built_free(struct ctx *c);
/* The plan's memo for the kustomization kpath (as named; real: its real path) that c's build
** includes at ref (plan.c, under lock): a kept build c may take (*make false), else a new one
** for c to make (*make true; sl_kustomize__shared_done when made), else NULL (c builds its own:
** another thread is making it, or the plan does not know the build to include it, or out of
** memory). */
struct shared *sl_kustomize__shared_find(struct ctx *c, const char *kpath, const char *real,
					 const sl_knode *ref, bool *make);
/* s, which c made, is done: kept in the memo (keep) until its last build is finished, else
** taken out of it (the caller's own). */
void sl_kustomize__shared_done(struct ctx *c, struct shared *s, bool keep);
/* Takes s out of the plan's memo (under lock): its includer's own from now on. */
void sl_kustomize__shared_unlink(sl_kustomize *k, struct shared *s);
/* Frees s (its files unpinned first, when the memo kept it). */
void sl_kustomize__shared_free(struct shared *s);
bool sl_kustomize__builtin(const sl_knode *obj);
extern const char *const sl_kustomize__cluster_scoped[];
sl_knode *sl_kustomize__decode(struct ctx *c, const sl_knode *raw, const char *dir,
			       const sl_knode *ref);
void sl_kustomize__dedupe_notices(sl_kustomize *k);
const char *sl_kustomize__eff_ns(const char *kind, const char *ns);
bool sl_kustomize__finish_hashes(struct ctx *c, struct acc *acc);
bool sl_kustomize__fix_refs(struct ctx *c, struct acc *acc);
const struct sl_kustomize__cfg *sl_kustomize__builtin_cfg(void);
void sl_kustomize__cfg_free(struct sl_kustomize__cfg *c);
bool sl_kustomize__cfg_merge(struct sl_kustomize__cfg *into, const struct sl_kustomize__cfg *from);
bool sl_kustomize__cfg_read(struct ctx *c, const sl_knode *doc, const sl_knode *at,
			    struct sl_kustomize__cfg *into);
bool sl_kustomize__fs_matches(const struct sl_kustomize__fs *fs, const sl_knode *obj);
/* An object's kind, group and version, taken once for the many field specs matched with it. */
struct sl_kustomize__gvk {
	const char *kind;    /* NULL: none */
	char group[256];
	const char *version;
};
void sl_kustomize__gvk_of(const sl_knode *obj, struct sl_kustomize__gvk *out);
bool sl_kustomize__fs_matches_gvk(const struct sl_kustomize__fs *fs,
				  const struct sl_kustomize__gvk *obj);
/* False (a kustomize-invalid finding at n) when field spec n's path has more than SL_MAX_DEPTH
** fields: made where missing, it would nest objects past the parser's limit. */
bool sl_kustomize__fs_short(struct ctx *c, const sl_knode *n, const char *path);
bool sl_kustomize__fs_walk(struct sl_kustomize__fswalk *w, sl_knode *obj);
bool sl_kustomize__generate(struct ctx *c, struct acc *acc, const sl_knode *list,
			    const sl_knode *opts, const char *kind, const char *dir);
void sl_kustomize__group_version(const sl_knode *obj, char *group, size_t gcap,
				 const char **version);
bool sl_kustomize__images_in(struct ctx *c, sl_knode *n, const sl_knode *images);
bool sl_kustomize__in(const char *s, const char *const *list);
struct kfile *sl_kustomize__input(struct ctx *c, const sl_knode *e, const char *dir,
				  const char *rel, const char *what);
/* sl_kustomize__input refusing a file larger than cap bytes (0: any), by its size before it is
** read (kustomize-invalid at e): a generator's files and envs, at most what a ConfigMap or a
** Secret holds (SL_KUSTOMIZE_GENERATOR_MAX). */
#define SL_KUSTOMIZE_GENERATOR_MAX (1u << 20)
struct kfile *sl_kustomize__input_capped(struct ctx *c, const sl_knode *e, const char *dir,
					 const char *rel, const char *what, size_t cap);
bool sl_kustomize__issue(struct ctx *c, const char *rule, const sl_knode *at, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
bool sl_kustomize__issue_n(struct ctx *c, const char *rule, const sl_knode *at, const char *notes,
			   const char *fmt, ...) __attribute__((format(printf, 5, 6)));
char *sl_kustomize__join(const char *dir, const char *rel);
bool sl_kustomize__known_as(const struct kres *r, const char *group, const char *version,
			    const char *kind, const char *name, const char *ens);
char *sl_kustomize__kustomization_in(sl_kustomize *k, const char *dir);
struct kfile *sl_kustomize__load(sl_kustomize *k, const char *path);
/* Reads f's text and line index again, once plan.c's sweep let them go (under lock): the same
** source, its bytes those on disk now. False when it cannot be read or out of memory. */
bool sl_kustomize__reread(struct kfile *f);
/* sl_kustomize__load for c's build: the file's tree stays while the build is under way (parsed
** again first when it was let go). NULL when out of memory. */
struct kfile *sl_kustomize__load_for(struct ctx *c, const char *path);
void sl_kustomize__memo_free(struct memo *m);
/* True when the input at path (as joined; it need not exist) lies in the project of c's build
** (its real path, or its nearest existing directory's); else false, with a kustomize-unsupported
** finding at e (what: kustomize's words for what it was reading): nothing outside is opened. */
bool sl_kustomize__in_project(struct ctx *c, const sl_knode *e, const char *path, const char *what);
bool sl_kustomize__missing(struct ctx *c, const sl_knode *e, const char *dir, const char *path,
			   const char *what);
const char *sl_kustomize__name_of(const sl_knode *obj);
void sl_kustomize__no_issue(void *payload, const char *rule, unsigned doc, size_t start, size_t end,
			    const char *message);
bool sl_kustomize__notice(struct ctx *c, const sl_knode *k);
const char *sl_kustomize__ns_of(const sl_knode *obj);
bool sl_kustomize__patch_docs(struct ctx *c, const char *dir, const sl_knode *path,
			      const sl_knode *inline_, sl_knode ***docs, size_t *n);
bool sl_kustomize__patches(struct ctx *c, const sl_knode *root, const char *dir, struct acc *acc,
			   bool strategic_list);
bool sl_kustomize__push_prev(struct ctx *c, struct kres *r, const char *name);
bool sl_kustomize__push_affix(struct ctx *c, struct kres *r, const char *s, bool prefix);
bool sl_kustomize__push_str(char ***v, size_t *n, size_t *cap, char *s);
char *sl_kustomize__real_of(sl_kustomize *k, const char *path);
bool sl_kustomize__remote(const char *s);
bool sl_kustomize__rename_all(struct ctx *c, struct acc *acc, const sl_knode *prefix,
			      const sl_knode *suffix);
bool sl_kustomize__room(void *v, size_t n, size_t *cap, size_t size);
bool sl_kustomize__labels_match(const sl_knode *obj, const sl_knode *target);
bool sl_kustomize__replacements(struct ctx *c, struct acc *acc, const sl_knode *list,
				const char *dir);
bool sl_kustomize__resolve_vars(struct ctx *c, struct acc *acc);
bool sl_kustomize__var_add(struct ctx *c, struct acc *acc, const struct kvar *v);
bool sl_kustomize__vars(struct ctx *c, struct acc *acc, const sl_knode *list);
bool sl_kustomize__same_id(const sl_knode *a, const sl_knode *b);
bool sl_kustomize__set_namespace(struct ctx *c, struct acc *acc, const sl_knode *ns);
bool sl_kustomize__set_replicas(struct ctx *c, struct acc *acc, const sl_knode *list);
bool sl_kustomize__store_prev(struct ctx *c, struct kres *r);
void sl_kustomize__tidy(sl_knode *n, bool metadata);
char sl_kustomize__type_of(sl_kustomize *k, const char *path);
bool sl_kustomize__unique_ids(struct ctx *c, const struct acc *acc, size_t from, const sl_knode *e);

#endif
