/* SPDX-License-Identifier: Apache-2.0
** test_passes.c: the passes of a lint run (src/driver/passes.c) move every file to a state that needs
** nothing more: streamed, every file has its findings compacted, each parsed once while the
** budget of kept trees has room (again beyond it, with the same findings), a context file at
** most once, and the index reads copies (Knative's config-features: a copy of its document,
** its file's text kept for the positions); a whole run keeps every tree,
** and forgetting sends every readable file back to pass 1. A batch Job in a file of its own is
** still compared with the serving units of the other files (pass 3, once they are all known). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "driver/passes.h"
#include "config/registry.h"
#include "driver/scopes.h"
#include "sdk/rule.h"

static const char PRIORITY_CLASSES[] =
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: training-high\n"
	"value: 100000\n---\n"
	"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n  name: inference-low\n"
	"value: 1000\n";
static const char JOB[] =
	"apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: finetune\nspec:\n  template:\n"
	"    spec:\n      priorityClassName: training-high\n      containers:\n"
	"        - name: trainer\n          image: trainer:1\n";
static const char ISVC[] =
	"apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: chat\n"
	"spec:\n  predictor:\n    priorityClassName: inference-low\n    model:\n"
	"      modelFormat:\n        name: huggingface\n";
static const char FEATURES[] =
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: config-features\n"
	"  namespace: knative-serving\ndata:\n  kubernetes.podspec-nodeselector: enabled\n";

static sl_config *cfg;

static void add_buffer(sl_passes *p, const char *path, const char *text)
{
	sl_file *f = sl_passes_new_file(p, path);
	cr_assert_not_null(f);
	cr_assert_eq(sl_source_from_buffer(path, text, strlen(text), &f->src), SL_OK);
	f->src->owner = f;
}

static const char CONFIGMAP[] =
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: chat-settings\ndata:\n  port: \"80\"\n";

static void setup(sl_passes *p, bool stream)
{
	memset(p, 0, sizeof *p);
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	sl_run_options o = {.version = SL_RUN_OPTIONS_VERSION, .low_memory = stream, .jobs = 2};
	cr_assert_eq(sl_passes_init(p, cfg, &o, NULL), SL_OK);
}

/* p set up and linted over the four buffers and a path that does not exist (in path order). */
static void lint_budget(sl_passes *p, bool stream, long long budget)
{
	setup(p, stream);
	p->eng.kept_budget = budget;
	add_buffer(p, "a-priority.yaml", PRIORITY_CLASSES);
	add_buffer(p, "b-job.yaml", JOB);
	add_buffer(p, "c-isvc.yaml", ISVC);
	add_buffer(p, "d-features.yaml", FEATURES);
	sl_file *missing = sl_passes_new_file(p, "/nonexistent/e.yaml");
	cr_assert_not_null(missing);
	missing->on_disk = true;
	cr_assert_eq(sl_passes_lint(p), SL_OK);
	cr_assert_eq(p->eng.n_files, 5);
}

static void lint(sl_passes *p, bool stream)
{
	lint_budget(p, stream, SL_KEPT_BUDGET);
}

static void done(sl_passes *p)
{
	sl_passes_free(p);
	sl_config_free(cfg);
}

/* True when the sorted findings hold one of rule in path. */
static bool has_finding(const sl_passes *p, const char *path, const char *rule)
{
	for (size_t i = 0; i < p->n_sorted; i++)
		if (!strcmp(p->sorted[i]->pub.path, path) && !strcmp(p->sorted[i]->pub.rule, rule))
			return true;
	return false;
}

Test(passes, streamed_every_file_ends_done_and_the_index_keeps_copies)
{
	sl_passes p;
	lint(&p, true);
	sl_file **f = p.eng.files;
	for (size_t i = 0; i < 4; i++) {
		cr_expect_eq(f[i]->next, SL_NEXT_DONE_COMPACT, "%s: state %d", f[i]->path, f[i]->next);
		cr_expect_eq(f[i]->n_objects, 0, "%s kept its objects", f[i]->path);
		cr_expect_null(f[i]->arena, "%s kept its arena", f[i]->path);
	}
	/* config-features, which the index reads with its lines: a copy of its document, whose
	** positions are the file's text, kept for the run */
	cr_expect_eq(f[3]->n_digests, 1);
	cr_expect(f[3]->pinned, "config-features let its text go");
	cr_expect(f[3]->n_digests && f[3]->digests[0]->doc->src == f[3]->src);
	cr_expect(!f[0]->pinned && !f[2]->pinned);
	cr_expect_eq(f[4]->next, SL_NEXT_DONE, "the missing file: state %d", f[4]->next);
	cr_expect_not_null(f[4]->error);
	cr_expect(has_finding(&p, "b-job.yaml", "batch-outranks-serving"),
		  "the Job was checked before the serving units were all known");
	/* each file parsed once: the PriorityClasses, parsed in pass 1 for the index, keep their
	** tree for their check in pass 3 */
	cr_expect_eq(p.eng.parses, 4, "%zu parses of 4 files", (size_t)p.eng.parses);
	cr_expect_eq(p.eng.kept_room, SL_KEPT_BUDGET, "the kept trees' room was not given back");
	done(&p);
}

/* The findings of p, one line each (path, line, column, rule, message). */
static char *report(const sl_passes *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	cr_assert_not_null(m);
	for (size_t i = 0; i < p->n_sorted; i++) {
		const sl_finding *x = &p->sorted[i]->pub;
		fprintf(m, "%s:%u:%u (document %d) %s %s%s\n", x->path, x->line, x->column,
			x->document, x->rule, x->message, x->fix ? " (fix)" : "");
	}
	fclose(m);
	return buf;
}

Test(passes, streamed_without_room_parses_again_and_finds_the_same)
{
	sl_passes p;
	lint(&p, true);
	char *kept = report(&p);
	done(&p);
	lint_budget(&p, true, 0);
	char *again = report(&p);
	/* the PriorityClasses and config-features parsed twice (pass 1 for the index, pass 3
	** for their check), as before trees were kept */
	cr_expect_eq(p.eng.parses, 6, "%zu parses", (size_t)p.eng.parses);
	for (size_t i = 0; i < 3; i++)
		cr_expect_eq(p.eng.files[i]->next, SL_NEXT_DONE_COMPACT);
	done(&p);
	lint(&p, false);
	char *whole = report(&p);
	done(&p);
	cr_expect(kept[0], "no finding at all");
	cr_expect_str_eq(again, kept);
	cr_expect_str_eq(whole, kept, "streaming changed the findings");
	free(kept);
	free(again);
	free(whole);
}

/* The pre-commit case: the project's other files are context, read for facts only. Each is
** parsed at most once: a PriorityClass file in pass 1 (the index), a serving file in pass 2
** (its units' facts, since the named Job waits for them), a file of neither never; and the Job
** named alone finds what it finds in a whole run of the same files. */
Test(passes, a_context_file_is_parsed_at_most_once)
{
	static const char *const paths[] = {"a-priority.yaml", "b-job.yaml", "c-isvc.yaml",
					    "e-settings.yaml"};
	static const char *const texts[] = {PRIORITY_CLASSES, JOB, ISVC, CONFIGMAP};
	char *reports[2];
	for (int stream = 0; stream < 2; stream++) {
		sl_passes p;
		setup(&p, stream);
		for (size_t i = 0; i < 4; i++) {
			add_buffer(&p, paths[i], texts[i]);
			p.eng.files[i]->context = i != 1;
		}
		cr_assert_eq(sl_passes_lint(&p), SL_OK);
		if (stream)
			cr_expect_eq(p.eng.parses, 3, "%zu parses", (size_t)p.eng.parses);
		cr_expect(has_finding(&p, "b-job.yaml", "batch-outranks-serving"));
		for (size_t i = 0; i < p.n_sorted; i++)
			cr_expect_str_eq(p.sorted[i]->pub.path, "b-job.yaml", "a context file reported");
		reports[stream] = report(&p);
		done(&p);
	}
	cr_expect_str_eq(reports[1], reports[0], "the streamed run differs from the whole one");
	free(reports[0]);
	free(reports[1]);
}

Test(passes, whole_run_keeps_every_tree_and_forgetting_starts_over)
{
	sl_passes p;
	lint(&p, false);
	sl_file **f = p.eng.files;
	for (size_t i = 0; i < 5; i++)
		cr_expect_eq(f[i]->next, SL_NEXT_DONE, "%s: state %d", f[i]->path, f[i]->next);
	for (size_t i = 0; i < 4; i++)
		cr_expect_eq(f[i]->n_objects, i == 0 ? 2 : 1, "%s lost its tree", f[i]->path);
	cr_expect(has_finding(&p, "b-job.yaml", "batch-outranks-serving"));
	size_t n = p.n_sorted;
	cr_assert_eq(sl_passes_forget(&p), SL_OK);
	for (size_t i = 0; i < 4; i++)
		cr_expect_eq(f[i]->next, SL_NEXT_READ, "%s: state %d", f[i]->path, f[i]->next);
	cr_expect_eq(f[4]->next, SL_NEXT_DONE, "an unreadable file is not read again");
	cr_expect_eq(p.n_sorted, 0);
	cr_assert_eq(sl_passes_lint(&p), SL_OK);
	cr_expect_eq(p.n_sorted, n, "a second lint of the same text found %zu, not %zu", p.n_sorted, n);
	done(&p);
}

/* A file that names a serving kind is parsed in pass 2; when its Job waits for every serving
** unit, it keeps that tree for pass 3 instead of being parsed again, and finds the same. */
Test(passes, a_waiting_file_keeps_its_pass_2_tree)
{
	char mixed[sizeof JOB + sizeof ISVC + 8];
	snprintf(mixed, sizeof mixed, "%s---\n%s", JOB, ISVC);
	char *reports[2];
	for (int stream = 0; stream < 2; stream++) {
		sl_passes p;
		setup(&p, stream);
		add_buffer(&p, "a-priority.yaml", PRIORITY_CLASSES);
		add_buffer(&p, "b-mixed.yaml", mixed);
		cr_assert_eq(sl_passes_lint(&p), SL_OK);
		if (stream) {
			cr_expect_eq(p.eng.parses, 2, "%zu parses", (size_t)p.eng.parses);
			cr_expect_eq(p.eng.files[1]->next, SL_NEXT_DONE_COMPACT);
			cr_expect_null(p.eng.files[1]->arena);
			cr_expect_eq(p.eng.kept_room, SL_KEPT_BUDGET);
		}
		cr_expect(has_finding(&p, "b-mixed.yaml", "batch-outranks-serving"));
		reports[stream] = report(&p);
		done(&p);
	}
	cr_expect_str_eq(reports[1], reports[0], "the streamed run differs from the whole one");
	free(reports[0]);
	free(reports[1]);
}

static const char DEPLOYMENT[] =
	"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n"
	"    spec:\n      containers:\n        - name: web\n          image: web:1\n";

/* p after a streamed run of the file named (the run's own, a-named.yaml) and a context file. */
static void lint_with_context(sl_passes *p, const char *named_text, const char *context_text)
{
	setup(p, true);
	add_buffer(p, "a-named.yaml", named_text);
	add_buffer(p, "b-context.yaml", context_text);
	p->eng.files[1]->context = true;
	cr_assert_eq(sl_passes_lint(p), SL_OK);
}

/* The bytes of s that are neither "\r" nor "\n": what an excerpt without it leaves out. */
static size_t ink(const char *s)
{
	size_t n = 0;
	for (; *s; s++)
		n += *s != '\r' && *s != '\n';
	return n;
}

/* The bytes the parse of the context file read in a streamed run of it and the file named (its
** documents left out count only their line breaks); its text stays its own. */
static size_t context_parsed(const char *named_text, const char *context_text)
{
	sl_passes p;
	lint_with_context(&p, named_text, context_text);
	cr_assert_not_null(p.eng.files[1]->src);
	cr_expect_str_eq(p.eng.files[1]->src->data, context_text, "the text changed");
	size_t n = p.eng.files[1]->parsed;
	done(&p);
	return n;
}

/* A context file is read for the documents that may define a looked-up kind: the others are
** left out of its parse (their lines and "---" kept), its serving documents too unless a file
** of the run waits for every serving unit; a text that may be a template is parsed whole. */
Test(passes, a_context_file_parses_only_the_documents_it_is_read_for)
{
	char text[2048];
	snprintf(text, sizeof text, "%s---\n%s---\n%s", DEPLOYMENT, PRIORITY_CLASSES, ISVC);
	cr_expect_eq(context_parsed(ISVC, text), strlen(text) - ink(DEPLOYMENT) - ink(ISVC),
		     "not only the PriorityClasses were parsed");
	/* the Job waits: the serving units' facts count */
	cr_expect_eq(context_parsed(JOB, text), strlen(text) - ink(DEPLOYMENT),
		     "not the PriorityClasses and the InferenceService were parsed");
	/* a template's documents judge each other: a document that may hold a template marker,
	** or is next to one, is parsed; an excerpt judged a template is parsed again whole */
	char templ[2048];
	snprintf(templ, sizeof templ, "%s---\n%s# {{ .Values.x }}\n", DEPLOYMENT, PRIORITY_CLASSES);
	cr_expect_eq(context_parsed(ISVC, templ), strlen(templ) - ink(DEPLOYMENT),
		     "a marker in a comment of a document read kept another one");
	snprintf(templ, sizeof templ, "%s  replicas: {{ .Values.n }}\n---\n%s", DEPLOYMENT,
		 PRIORITY_CLASSES);
	cr_expect_eq(context_parsed(ISVC, templ), strlen(templ),
		     "a document that may hold a template marker was left out");
	snprintf(templ, sizeof templ, "%s---\n# {{ .Values.x }}\n%s", DEPLOYMENT, PRIORITY_CLASSES);
	cr_expect_eq(context_parsed(ISVC, templ), strlen(templ),
		     "a document next to a template marker was left out");
	snprintf(templ, sizeof templ, "%s---\n%s---\n%s  labels: {{ .Values.labels }}\n", DEPLOYMENT,
		 ISVC, PRIORITY_CLASSES);
	cr_expect_eq(context_parsed(ISVC, templ), 2 * strlen(templ) - ink(DEPLOYMENT) - ink(ISVC),
		     "an excerpt judged a template was not parsed again whole");
}

/* A document is read for the kind its root's "kind:" line names, not for every kind its text
** names: a CRD that names a PriorityClass and an InferenceService in its schema is left out; a
** List's or Template's items are objects, a second "kind:" a duplicate key and a quoted kind
** not a plain word: those are read for every kind they name. */
Test(passes, a_document_is_read_for_its_own_kind)
{
	static const char CRD[] =
		"apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nspec:\n"
		"  names:\n    kind: InferenceService\n  versions:\n    - schema:\n"
		"        description: 'kind: PriorityClass'\n";
	static const char LIST[] =
		"apiVersion: v1\nkind: List\nitems:\n  - apiVersion: scheduling.k8s.io/v1\n"
		"    kind: PriorityClass\n    metadata: {name: in-a-list}\n    value: 7\n";
	static const char TEMPLATE[] =
		"apiVersion: template.openshift.io/v1\nkind: Template # wraps\nobjects:\n"
		"  - apiVersion: scheduling.k8s.io/v1\n    kind: PriorityClass\n"
		"    metadata: {name: in-a-template}\n    value: 8\n";
	static const char TWICE[] = "kind: ConfigMap\nkind: PriorityClass\nvalue: 9\n";
	static const char QUOTED[] = "kind: \"PriorityClass\"\nvalue: 9\n";
	char text[4096];
	snprintf(text, sizeof text, "%s---\n%s", CRD, PRIORITY_CLASSES);
	cr_expect_eq(context_parsed(ISVC, text), strlen(text) - ink(CRD),
		     "a CRD was read for the kinds its schema names");
	/* a "kind:" line at the left margin that is the text of a node opened before it (a flow
	** document's quoted scalar, a quoted key's document's) is no root key: those are read for
	** every kind they name, the PriorityClass each defines */
	static const char FLOW[] =
		"{apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, metadata: {name: flow},\n"
		"value: 5, description: 'not for\nkind: Job\nunits'}\n";
	static const char QUOTED_KEY[] =
		"apiVersion: scheduling.k8s.io/v1\n\"kind\": PriorityClass\nmetadata: {name: key}\n"
		"value: 6\ndescription: \"not for\nkind: Job\nunits\"\n";
	static const char ROOT_FLOW[] =   /* opened on the "---" line */
		" {apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, value: 7, description: 'x\n"
		"kind: Job\ny'}\n";
	const char *opened[] = {FLOW, QUOTED_KEY, ROOT_FLOW};
	for (size_t i = 0; i < 3; i++) {
		snprintf(text, sizeof text, "%s---%s%s", PRIORITY_CLASSES, i == 2 ? "" : "\n",
			 opened[i]);
		cr_expect_eq(context_parsed(ISVC, text), strlen(text),
			     "document %zu, a PriorityClass, was left out", i);
	}
	const char *kept[] = {LIST, TEMPLATE, TWICE, QUOTED};
	for (size_t i = 0; i < 4; i++) {
		snprintf(text, sizeof text, "%s---\n%s---\n%s", CRD, kept[i], PRIORITY_CLASSES);
		cr_expect_eq(context_parsed(ISVC, text), strlen(text) - ink(CRD),
			     "document %zu was left out", i);
	}
}

/* A context file parsed in pass 2 for its serving units' facts alone (it defines no looked-up
** kind) has its other documents left out, as pass 1 leaves one's out; the facts still count. */
Test(passes, a_context_file_read_for_facts_parses_only_its_serving_documents)
{
	char text[2048];
	snprintf(text, sizeof text, "%s---\n%s", DEPLOYMENT, ISVC);
	char job[2048];
	snprintf(job, sizeof job, "%s---\n%s", JOB, PRIORITY_CLASSES);
	cr_expect_eq(context_parsed(job, text), strlen(text) - ink(DEPLOYMENT),
		     "not only the InferenceService was parsed");
	sl_passes p;
	lint_with_context(&p, job, text);
	cr_expect(has_finding(&p, "a-named.yaml", "batch-outranks-serving"),
		  "the context file's InferenceService was not compared with the Job");
	done(&p);
}

static const char SERVER[] =
	"apiVersion: mlops.seldon.io/v1alpha1\nkind: Server\nmetadata:\n  name: mlserver\n"
	"spec:\n  serverConfig: mlserver\n  replicas: 1\n";
static const char MODEL[] =
	"apiVersion: mlops.seldon.io/v1alpha1\nkind: Model\nmetadata:\n  name: iris\nspec:\n"
	"  storageUri: gs://models/iris\n  server: mlserver\n";

/* A looked-up kind that only some kinds' rules look up (a Seldon Server: its Models) is read from
** a context file only when a file of the run's own may look it up: an InferenceService's run
** leaves the Server out and keeps the PriorityClasses; a Model's keeps the Server and finds it. */
Test(passes, a_context_file_is_read_for_what_the_run_may_look_up)
{
	char text[2048];
	snprintf(text, sizeof text, "%s---\n%s", SERVER, PRIORITY_CLASSES);
	cr_expect_eq(context_parsed(ISVC, text), strlen(text) - ink(SERVER),
		     "not only the PriorityClasses were parsed for an InferenceService");
	cr_expect_eq(context_parsed(MODEL, text), strlen(text),
		     "the Seldon Server was left out for its Model");
	sl_passes p;
	lint_with_context(&p, MODEL, text);
	cr_expect(!has_finding(&p, "a-named.yaml", "seldon-server-not-found"),
		  "the Model's Server, in a context file, was not found");
	done(&p);
	/* the rule says nothing without a Server to compare with: one of another name in the
	** context file shows the Servers were read */
	char other[2048];
	snprintf(other, sizeof other, "%s---\n%s", SERVER, PRIORITY_CLASSES);
	memcpy(strstr(other, "name: mlserver"), "name: otherxxx", 14);
	lint_with_context(&p, MODEL, other);
	cr_expect(has_finding(&p, "a-named.yaml", "seldon-server-not-found"),
		  "the context file's Server was not read for the Model");
	done(&p);
}

/* A file of the run's own that may define a looked-up kind and gets no kept tree (no room) is
** parsed in pass 1 for its digests and facts without its other documents, and whole for its
** check in pass 3: the syntax error in the document left out is reported once, where it is,
** and the report is the whole run's. When the index must read its tree (an alias in a
** PriorityClass), the tree it keeps for its check is the whole file's. */
Test(passes, an_own_file_without_room_parses_only_what_the_index_reads_then_whole)
{
	static const char NS[] = "apiVersion: v1\nkind: Namespace\nmetadata: {name: [x\n";
	static const char ALIASED[] =
		"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n"
		"  name: &n aliased\nvalue: 5\ndescription: *n\n";
	char plain[2048], aliased[2048];
	snprintf(plain, sizeof plain, "%s---\n%s", PRIORITY_CLASSES, NS);
	snprintf(aliased, sizeof aliased, "%s---\n%s", ALIASED, NS);
	const char *texts[] = {plain, aliased};
	for (size_t k = 0; k < 2; k++) {
		char *reports[2];
		for (int stream = 0; stream < 2; stream++) {
			sl_passes p;
			setup(&p, stream);
			p.eng.kept_budget = 0;
			add_buffer(&p, "a-own.yaml", texts[k]);
			add_buffer(&p, "b-job.yaml", JOB);
			cr_assert_eq(sl_passes_lint(&p), SL_OK);
			const sl_file *f = p.eng.files[0];
			size_t len = strlen(texts[k]);
			if (stream)   /* an excerpt, then the whole (kept for the index: once) */
				cr_expect_eq(f->parsed, len - ink(NS) + len, "%zu: %zu bytes parsed", k,
					     f->parsed);
			else
				cr_expect_eq(f->parsed, len);
			cr_expect(has_finding(&p, "a-own.yaml", "yaml-syntax"));
			reports[stream] = report(&p);
			done(&p);
		}
		cr_expect_str_eq(reports[1], reports[0], "the streamed run differs from the whole one");
		free(reports[0]);
		free(reports[1]);
	}
}

/* What a split run leaves out of its excerpt must count as a whole run counts it (found by
** fuzz_lint with the kept-tree budget at 0: the split run put mid-gpu's finding in another
** document): text after a document's root without a "---" (libyaml: "did not find expected
** <document start>") is that document's, one index; an invalid byte in the comments before the
** first "---" makes no document of its own (sl_source_text_holds_content decides for both). */
Test(passes, a_split_run_numbers_documents_after_a_broken_one_as_a_whole_run)
{
	static const char POOLS[] =
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: small-gpu\nspec:\n"
		"  template:\n    spec:\n      requirements:\n"
		"        - {key: karpenter.k8s.aws/instance-gpu-count, operator: Lt, values: [\"2\"]}\n"
		"---\n"
		"apiVersion: karpenter.sh/v1\nkind: NodePool\nmetadata:\n  name: mid-gpu\nspec:\n"
		"  template:\n    spec:\n      requirements:\n"
		"        - {key: karpenter.k8s.aws/instance-gpu-count, operator: Gt, values: [\"1\"]}\n";
	static const struct {
		const char *first;
		unsigned documents;
		const char *syntax, *pool;
	} cases[] = {
		{"  a: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\n"
		 " b: 1\n---\n", 3, "(document 0) yaml-syntax", "(document 2) gpu-pool-untainted"},
		{"# GPUs per node bounded by the instance type's label, see karpenter's docs \xff\"]\n"
		 "# and the provider's instancetype package for how it is computed\n---\n", 2,
		 "(document 0) yaml-syntax", "(document 1) gpu-pool-untainted"},
		/* a tab before the comment: no token may start with one, so the region is a
		** (broken) document of its own, for the excerpt and the whole parse alike */
		{"\t# GPUs per node bounded by the instance type's label, see karpenter's docs \xff\n"
		 "# and the provider's instancetype package for how it is computed\n---\n", 3,
		 "(document 0) yaml-syntax", "(document 2) gpu-pool-untainted"},
	};
	for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
		char text[2048];
		snprintf(text, sizeof text, "%s%s", cases[c].first, POOLS);
		char *reports[3];
		for (int k = 0; k < 3; k++) {   /* whole; streamed, kept; streamed, split */
			sl_passes p;
			setup(&p, k > 0);
			p.eng.kept_budget = k == 1 ? SL_KEPT_BUDGET : 0;
			add_buffer(&p, "pools.yaml", text);
			cr_assert_eq(sl_passes_lint(&p), SL_OK);
			cr_expect(has_finding(&p, "pools.yaml", "gpu-pool-untainted"));
			cr_expect_eq(p.eng.files[0]->documents, cases[c].documents, "%zu: %u documents", c,
				     p.eng.files[0]->documents);
			reports[k] = report(&p);
			done(&p);
		}
		cr_expect(strstr(reports[0], cases[c].syntax), "%zu: %s", c, reports[0]);
		cr_expect(strstr(reports[0], cases[c].pool), "%zu: %s", c, reports[0]);
		cr_expect_str_eq(reports[1], reports[0], "%zu: the streamed run differs", c);
		cr_expect_str_eq(reports[2], reports[0], "%zu: the split run differs", c);
		for (int k = 0; k < 3; k++)
			free(reports[k]);
	}
}

/* An own file that would leave out less than an eighth of its bytes is parsed whole in pass 1
** (no excerpt to move onto its text) and whole again for its check: the same report. */
Test(passes, an_own_file_read_almost_whole_is_parsed_whole)
{
	static const char NS[] = "apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n";
	char text[4096];
	int n = snprintf(text, sizeof text, "%s---\napiVersion: scheduling.k8s.io/v1\n"
			 "kind: PriorityClass\nmetadata:\n  name: padded\nvalue: 7\ndescription: \"",
			 PRIORITY_CLASSES);
	memset(text + n, 'd', 1000);
	snprintf(text + n + 1000, sizeof text - (size_t)n - 1000, "\"\n---\n%s", NS);
	cr_assert_lt(ink(NS) * 8, strlen(text));
	char *reports[2];
	for (int stream = 0; stream < 2; stream++) {
		sl_passes p;
		setup(&p, stream);
		p.eng.kept_budget = 0;
		add_buffer(&p, "a-own.yaml", text);
		add_buffer(&p, "b-job.yaml", JOB);
		cr_assert_eq(sl_passes_lint(&p), SL_OK);
		size_t len = strlen(text);
		cr_expect_eq(p.eng.files[0]->parsed, stream ? 2 * len : len, "%zu bytes parsed",
			     p.eng.files[0]->parsed);
		reports[stream] = report(&p);
		done(&p);
	}
	cr_expect_str_eq(reports[1], reports[0], "the streamed run differs from the whole one");
	free(reports[0]);
	free(reports[1]);
}

/* p after a run (streamed or not) of text alone, a-own.yaml, without room for a kept tree. */
static void lint_alone(sl_passes *p, bool stream, const char *text)
{
	setup(p, stream);
	p->eng.kept_budget = 0;
	add_buffer(p, "a-own.yaml", text);
	cr_assert_eq(sl_passes_lint(p), SL_OK);
}

/* A file of the run's own that defines a looked-up kind, holds serving units and Jobs that wait
** for every serving unit, and gets no kept tree (no room) is checked in two parts: pass 1 parses
** only its PriorityClasses (for the index), pass 2 the whole file (its serving facts, and every
** check, the Jobs' batch-outranks-serving leaving its comparison with every serving unit for
** later: sl_ctx_defer), pass 3 nothing (the comparisons resume without the tree). Its suppressions
** work across the parts as over one: a directive used in pass 2, ones used by the findings pass
** 3 reports, unused ones (and an id beside a used one) reported once, "schedlint:" in a block
** scalar no directive; the report is the whole run's. */
Test(passes, a_waiting_own_file_is_checked_in_two_parts)
{
	static const char *const docs[] = {
		/* 0: a serving unit, first: left out of pass 1 and pass 3 */
		"apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n"
		"  name: chat\nspec:\n  predictor:\n    priorityClassName: inference-low"
		" # schedlint: ignore[knative-feature-flag-required, gpu-without-toleration]\n"
		"    model:\n      modelFormat:\n        name: huggingface\n",
		/* 1, 2: read in pass 1 */
		"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n"
		"  name: training-high\nvalue: 100000\n",
		"apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata:\n"
		"  name: inference-low\nvalue: 1000\n",
		/* 3: neither; an unused directive, and a block scalar that is no directive */
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: notes"
		" # schedlint: ignore[batch-outranks-serving]\ndata:\n  readme: |\n"
		"    # schedlint: ignore-file\n",
		/* 4, 5, 6: the waiting Jobs, parsed in pass 3: one silenced by the line above, one at
		** the end of its line (beside an id that names no rule), one reported */
		"apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: finetune\nspec:\n  template:\n"
		"    spec:\n      # schedlint: ignore[batch-outranks-serving] trained first\n"
		"      priorityClassName: training-high\n      containers:\n"
		"        - name: trainer\n          image: trainer:1\n",
		"apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: nightly\nspec:\n  template:\n"
		"    spec:\n      priorityClassName: training-high"
		" # schedlint: ignore[batch-outranks-serving, no-such-rule]\n      containers:\n"
		"        - name: trainer\n          image: trainer:1\n",
		"apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: eval\nspec:\n  template:\n"
		"    spec:\n      priorityClassName: training-high\n      containers:\n"
		"        - name: trainer\n          image: trainer:1\n",
	};
	char text[8192] = "";
	size_t n_docs = sizeof docs / sizeof *docs;
	for (size_t i = 0; i < n_docs; i++)
		snprintf(text + strlen(text), sizeof text - strlen(text), "%s%s", i ? "---\n" : "",
			 docs[i]);
	size_t len = strlen(text);
	size_t pass1 = len;   /* what the excerpt leaves out */
	for (size_t i = 0; i < n_docs; i++)
		pass1 -= i == 1 || i == 2 ? 0 : ink(docs[i]);
	char *reports[2];
	for (int stream = 0; stream < 2; stream++) {
		sl_passes p;
		lint_alone(&p, stream, text);
		const sl_file *f = p.eng.files[0];
		if (stream) {
			cr_expect_eq(f->parsed, pass1 + len, "%zu bytes parsed, not %zu + %zu",
				     f->parsed, pass1, len);
			cr_expect_eq(p.eng.parses, 2, "%zu parses", (size_t)p.eng.parses);
			cr_expect_eq(f->next, SL_NEXT_DONE_COMPACT);
			cr_expect_null(f->rest);
			cr_expect_null(f->arena);
		} else {
			cr_expect_eq(f->parsed, len);
		}
		reports[stream] = report(&p);
		done(&p);
	}
	const char *want[] = {
		"a-own.yaml:7:38 (document 0) unused-suppression rule gpu-without-toleration",
		"a-own.yaml:27:15 (document 0) unused-suppression rule batch-outranks-serving",
		"a-own.yaml:52:84 (document 0) unknown-rule-id",
		"a-own.yaml:64:26 (document 6) batch-outranks-serving Job eval",
	};
	for (size_t i = 0; i < sizeof want / sizeof *want; i++)
		cr_expect(strstr(reports[0], want[i]), "the whole run has no %s:\n%s", want[i],
			  reports[0]);
	cr_expect(!strstr(reports[0], "knative-feature-flag-required"));
	cr_expect(!strstr(reports[0], "Job finetune") && !strstr(reports[0], "Job nightly"));
	cr_expect_str_eq(reports[1], reports[0], "the streamed run differs from the whole one");
	free(reports[0]);
	free(reports[1]);
}

/* A template's checks (a Seldon ServerConfig's) ask whether a unit uses it, which every file's
** serving facts tell: in a file checked in two parts they run in pass 2 for both answers, what
** each reports kept on its answer until every file's facts are in (pass 3 parses nothing: the
** Job's comparison resumes without it, and outranks no serving unit: the Server is critical);
** a unit of the file's
** own that uses it settles the answer in pass 2; either way the report is the whole run's (the
** ServerConfig's spot settings reported at its Server only). */
static const char SERVER_CONFIG[] =
	"apiVersion: mlops.seldon.io/v1alpha1\nkind: ServerConfig\nmetadata:\n  name: mlserver\n"
	"spec:\n  podSpec:\n    priorityClassName: system-cluster-critical\n"
	"    nodeSelector:\n      karpenter.sh/capacity-type: spot\n    containers:\n"
	"      - name: mlserver\n        image: seldonio/mlserver\n";
static const char CRITICAL_SERVER[] =
	"apiVersion: mlops.seldon.io/v1alpha1\nkind: Server\nmetadata:\n  name: critical\n"
	"spec:\n  serverConfig: mlserver\n";

/* The report of a run over text (a-own.yaml) and, unless NULL, other (b-other.yaml), whole or
** streamed without room for kept trees; *parsed: the bytes of a-own.yaml parsed. */
static char *template_run(bool stream, const char *text, const char *other, size_t *parsed)
{
	sl_passes p;
	setup(&p, stream);
	/* the rules a test added (sl_registry_add), on as a config that declares them would be */
	for (size_t k = 0; k < sl_scopes_count(p.eng.scopes); k++)
		for (size_t i = sl_registry_count; i < sl_registry_n(); i++)
			((sl_scope *)sl_scopes_at(p.eng.scopes, k))->severity[i] = SL_SEV_WARNING;
	p.eng.kept_budget = 0;
	add_buffer(&p, "a-own.yaml", text);
	if (other)
		add_buffer(&p, "b-other.yaml", other);
	cr_assert_eq(sl_passes_lint(&p), SL_OK);
	*parsed = p.eng.files[0]->parsed;
	char *r = report(&p);
	done(&p);
	return r;
}

/* The ServerConfig's spot settings reported at its Server (at), not at it; the streamed report
** is the whole one. Frees both. */
static void reported_at_server(char *whole, char *streamed, const char *at)
{
	char want[256];
	snprintf(want, sizeof want, "%s critical-on-spot Seldon Server critical is critical but "
		 "the nodeSelector of its ServerConfig", at);
	cr_expect(strstr(whole, want), "no %s in:\n%s", want, whole);
	cr_expect(!strstr(whole, "Seldon ServerConfig"), "%s", whole);
	cr_expect_str_eq(streamed, whole, "the streamed run differs from the whole one");
	free(whole);
	free(streamed);
}

Test(passes, a_template_in_a_file_checked_in_two_parts_is_checked_in_pass_2)
{
	char text[4096];
	snprintf(text, sizeof text, "%s---\n%s---\n%s---\n%s", SERVER_CONFIG, CRITICAL_SERVER,
		 PRIORITY_CLASSES, JOB);
	size_t len = strlen(text), parsed;
	char *whole = template_run(false, text, NULL, &parsed);
	char *streamed = template_run(true, text, NULL, &parsed);
	/* pass 1: all but the Job; pass 2: all; pass 3: nothing */
	cr_expect_eq(parsed, 2 * len - ink(JOB), "%zu bytes parsed", parsed);
	reported_at_server(whole, streamed, "a-own.yaml:18:1 (document 1)");

	/* its Server in another file: only every file's facts tell that it is used */
	snprintf(text, sizeof text, "%s---\n%s---\n%s---\n%s", SERVER_CONFIG, ISVC,
		 PRIORITY_CLASSES, JOB);
	len = strlen(text);
	whole = template_run(false, text, CRITICAL_SERVER, &parsed);
	streamed = template_run(true, text, CRITICAL_SERVER, &parsed);
	/* pass 1: all but the Job and the InferenceService; pass 2: all; pass 3: nothing */
	cr_expect_eq(parsed, 2 * len - ink(JOB) - ink(ISVC), "%zu bytes parsed", parsed);
	reported_at_server(whole, streamed, "b-other.yaml:5:1 (document 0)");
}

/* The ServerConfig of SERVER_CONFIG, with a directive for critical-on-spot at the finding's line
** (its nodeSelector's value) when ignore. */
static const char *server_config(bool ignore)
{
	return ignore ? "apiVersion: mlops.seldon.io/v1alpha1\nkind: ServerConfig\nmetadata:\n"
			"  name: mlserver\nspec:\n  podSpec:\n"
			"    priorityClassName: system-cluster-critical\n    nodeSelector:\n"
			"      karpenter.sh/capacity-type: spot # schedlint: ignore[critical-on-spot]\n"
			"    containers:\n      - name: mlserver\n        image: seldonio/mlserver\n"
		      : SERVER_CONFIG;
}

/* A file checked in two parts whose only wait is its template's use (no Job): pass 3 parses
** none of it. What critical-on-spot reports at the ServerConfig is kept while no unit uses it
** and dropped when one in another file does; a directive that silences only that finding is
** used in the first case and reported unused in the second, as a whole run does. */
Test(passes, a_template_alone_waits_for_no_parse_and_its_findings_follow_its_use)
{
	for (int ignore = 0; ignore < 2; ignore++) {
		for (int with_server = 0; with_server < 2; with_server++) {
			const char *sc = server_config(ignore);
			char text[4096];
			snprintf(text, sizeof text, "%s---\n%s---\n%s", sc, PRIORITY_CLASSES, ISVC);
			size_t len = strlen(text), parsed;
			const char *other = with_server ? CRITICAL_SERVER : NULL;
			char *whole = template_run(false, text, other, &parsed);
			cr_expect_eq(parsed, len);
			char *streamed = template_run(true, text, other, &parsed);
			/* pass 1: all but the InferenceService; pass 2: all; pass 3: nothing */
			cr_expect_eq(parsed, 2 * len - ink(ISVC), "%zu bytes parsed, not %zu", parsed,
				     2 * len - ink(ISVC));
			bool at_config = strstr(whole, "a-own.yaml:9:7 (document 0) critical-on-spot");
			bool unused = strstr(whole, "a-own.yaml:9:40 (document 0) unused-suppression");
			cr_expect_eq(at_config, !ignore && !with_server, "%s", whole);
			cr_expect_eq(unused, ignore && with_server, "%s", whole);
			cr_expect_eq(!!strstr(whole, "b-other.yaml:5:1 (document 0) critical-on-spot"),
				     with_server, "%s", whole);
			cr_expect_str_eq(streamed, whole, "the streamed run differs from the whole one");
			free(whole);
			free(streamed);
		}
	}
}

/* Whether a whole run of three documents and 9 999 directives that name no rule after them
** (each an unknown-rule-id finding), with other (b-other.yaml), reports the cap's last finding;
** the streamed run's report is the whole one. */
static bool capped_run(const char *a, const char *b, const char *c, const char *other)
{
	static const char line[] = "# schedlint: ignore[no-such-rule]\n";
	size_t n = 9999, cap = strlen(a) + strlen(b) + strlen(c) + n * strlen(line) + 16;
	char *text = malloc(cap);
	cr_assert_not_null(text);
	int at = snprintf(text, cap, "%s---\n%s---\n%s", a, b, c);
	for (size_t i = 0; i < n; i++)
		at += snprintf(text + at, cap - (size_t)at, "%s", line);
	size_t parsed;
	char *whole = template_run(false, text, other, &parsed);
	char *streamed = template_run(true, text, other, &parsed);
	bool capped = strstr(whole, "too many findings") != NULL;
	cr_expect(!strstr(whole, "a-own.yaml:9:7 (document 0) critical-on-spot"));
	cr_expect_str_eq(streamed, whole, "the streamed run differs from the whole one");
	free(whole);
	free(streamed);
	free(text);
	return capped;
}

/* The findings' cap counts what a split check keeps on a template's use: 9 999 directives that
** name no rule and the InferenceService's flag finding, after a ServerConfig another file's
** Server uses, fill a whole run's report exactly (critical-on-spot is not reported at the
** ServerConfig); pass 2 of a split check records that finding too, for the answer "unused",
** and one past the cap: the file is checked again whole, and the report is the whole run's,
** without the cap's last finding. */
Test(passes, the_cap_counts_a_templates_findings_kept_on_its_use)
{
	cr_expect(!capped_run(SERVER_CONFIG, PRIORITY_CLASSES, ISVC, CRITICAL_SERVER),
		  "the whole run's report is capped");
}

/* A Job's batch-outranks-serving in a file checked in two parts resumes in pass 3 without the
** tree, suppressed as in a whole run: by a directive at its line (used only when the Job
** outranks a serving unit, else reported unused), by its object's annotation (judged in pass 2,
** where the annotation is). */
Test(passes, a_deferred_check_is_suppressed_as_a_whole_run_does)
{
	static const char *const jobs[] = {
		"apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: finetune\nspec:\n  template:\n"
		"    spec:\n      priorityClassName: training-high"
		" # schedlint: ignore[batch-outranks-serving]\n      containers:\n"
		"        - name: trainer\n          image: trainer:1\n",
		"apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: finetune\n  annotations:\n"
		"    schedlint.io/ignore: batch-outranks-serving\nspec:\n  template:\n"
		"    spec:\n      priorityClassName: training-high\n      containers:\n"
		"        - name: trainer\n          image: trainer:1\n",
	};
	char high[1024];   /* ISVC above the Job */
	const char *low = strstr(ISVC, "inference-low");
	snprintf(high, sizeof high, "%.*ssystem-cluster-critical%s", (int)(low - ISVC), ISVC,
		 low + strlen("inference-low"));
	for (size_t k = 0; k < 2; k++) {
		for (int outranks = 0; outranks < 2; outranks++) {
			char text[4096];
			/* the InferenceService below the Job (inference-low) or above it */
			const char *isvc = outranks ? ISVC : high;
			snprintf(text, sizeof text, "%s---\n%s---\n%s", PRIORITY_CLASSES, jobs[k], isvc);
			size_t parsed;
			char *whole = template_run(false, text, NULL, &parsed);
			char *streamed = template_run(true, text, NULL, &parsed);
			size_t len = strlen(text);
			cr_expect_eq(parsed, 2 * len - ink(jobs[k]) - ink(isvc),
				     "%zu bytes parsed: pass 3 parsed some", parsed);
			cr_expect(!strstr(whole, "batch-outranks-serving Job"), "%s", whole);
			cr_expect_eq(!!strstr(whole, "unused-suppression"), k == 0 && !outranks, "%s",
				     whole);
			cr_expect_str_eq(streamed, whole, "the streamed run differs from the whole one");
			free(whole);
			free(streamed);
		}
	}
}

/* The findings' cap counts what a resumed check reports: 9 999 directives that name no rule,
** the InferenceService's flag finding and the Job's batch-outranks-serving fill a whole run's
** report past the cap (its last finding says so); pass 2 of a split check records all but the
** Job's, pass 3 that one: the file is checked again whole, and the report is the whole run's. */
Test(passes, the_cap_counts_a_deferred_finding)
{
	cr_expect(capped_run(PRIORITY_CLASSES, JOB, ISVC, NULL),
		  "the whole run's report is not capped");
}

/* A split file on disk is read in pass 1 and pass 2; pass 3, which parses none of it, reads its
** text again only for the places of its directives (an unused one is reported there). */
Test(passes, pass_3_reads_a_split_files_text_only_for_its_directives)
{
	char dir[] = "/tmp/schedlint-passes-XXXXXX";
	cr_assert_not_null(mkdtemp(dir));
	char path[sizeof dir + 16];
	snprintf(path, sizeof path, "%s/a-own.yaml", dir);
	for (int directive = 0; directive < 2; directive++) {
		char *reports[2];
		unsigned reads = 0;
		for (int stream = 0; stream < 2; stream++) {
			FILE *out = fopen(path, "w");
			cr_assert_not_null(out);
			fprintf(out, "%s---\n%s%s---\n%s", PRIORITY_CLASSES, JOB,
				directive ? "# schedlint: ignore[critical-on-spot]\n" : "", ISVC);
			fclose(out);
			sl_passes p;
			setup(&p, stream);
			p.eng.kept_budget = 0;
			sl_file *f = sl_passes_new_file(&p, path);
			cr_assert_not_null(f);
			f->on_disk = true;
			cr_assert_eq(sl_passes_lint(&p), SL_OK);
			reads = f->disk_reads;
			reports[stream] = report(&p);
			done(&p);
		}
		cr_expect_eq(reads, directive ? 3 : 2, "read %u times", reads);
		cr_expect(strstr(reports[0], "batch-outranks-serving Job finetune"), "%s", reports[0]);
		cr_expect_eq(!!strstr(reports[0], "unused-suppression"), directive, "%s", reports[0]);
		cr_expect_str_eq(reports[1], reports[0], "the streamed run differs from the whole one");
		free(reports[0]);
		free(reports[1]);
	}
	cr_expect_eq(remove(path), 0);
	cr_expect_eq(rmdir(dir), 0);
}

/* Rules added for the tests below (sl_registry_add): one that asks whether a unit uses its
** template and reports when none does, one that yields to it for the same cause, one whose
** deferred finding tries to take a fix. */
static sl_err asks_use(sl_ctx *ctx, const sl_unit *u)
{
	if (sl_ctx_unit_is_used_template(ctx, u))
		return SL_OK;
	sl_report *r = sl_report_at(ctx, u->obj->root, "no unit uses this runtime");
	sl_report_cause(ctx, r, "the runtime");
	return SL_OK;
}

static sl_err always(sl_ctx *ctx, const sl_unit *u)
{
	sl_report *r = sl_report_at(ctx, u->obj->root, "a runtime");
	sl_report_cause(ctx, r, "the runtime");
	return SL_OK;
}

static sl_err defers(sl_ctx *ctx, const sl_unit *u)
{
	(void)sl_ctx_defer(ctx, u->priority_class_name, 1);
	return SL_OK;
}

static sl_err fixes_later(sl_ctx *ctx, const void *data)
{
	(void)data;
	sl_report *r = sl_report_deferred(ctx, "deferred");
	return sl_fix_replace(ctx, r, 0, 0, "# fixed\n");
}

static const char *const to_asks_use[] = {"test-asks-use", NULL};
static const struct sl_rule test_rules[] = {
	{.id = "test-asks-use", .category = "test", .summary = "t", .severity = SL_SEV_WARNING,
	 .check_unit = asks_use, .kinds = SL_KIND_BIT(SL_KIND_SERVING_RUNTIME)},
	{.id = "test-yields", .category = "test", .summary = "t", .severity = SL_SEV_WARNING,
	 .check_unit = always, .kinds = SL_KIND_BIT(SL_KIND_SERVING_RUNTIME),
	 .yields_to = to_asks_use},
	{.id = "test-defers", .category = "test", .summary = "t", .severity = SL_SEV_WARNING,
	 .fix = SL_FIX_SAFE, .check_unit = defers, .resume = fixes_later,
	 .kinds = SL_KIND_BIT(SL_KIND_JOB)},
};

static void add_test_rules(void)
{
	for (size_t i = 0; i < sizeof test_rules / sizeof *test_rules; i++) {
		bool added;
		cr_assert_geq(sl_registry_add(&test_rules[i], "", "test_passes.c", test_rules[i].id,
					      &added), 0);
	}
}

static const char RUNTIME[] =
	"apiVersion: serving.kserve.io/v1alpha1\nkind: ServingRuntime\nmetadata:\n  name: rt\n"
	"spec:\n  supportedModelFormats:\n    - name: huggingface\n  containers:\n"
	"    - name: kserve-container\n      image: rt:1\n";
static const char ISVC_ON_RT[] =
	"apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\nmetadata:\n  name: uses\n"
	"spec:\n  predictor:\n    model:\n      runtime: rt\n      modelFormat:\n"
	"        name: huggingface\n";

/* A finding kept on a template's use that meets a finding yielding to it: which one stays is
** known only with the answer, and yields resolve within a part, so the template's checks wait
** for pass 3 as before (its document parsed there); either way the report is the whole run's
** (unused: the yielding finding goes into the other's notes; used: it stays alone). */
Test(passes, a_conditional_finding_that_meets_a_yield_makes_its_template_wait)
{
	add_test_rules();
	char text[4096];
	snprintf(text, sizeof text, "%s---\n%s---\n%s", RUNTIME, PRIORITY_CLASSES, ISVC);
	size_t len = strlen(text);
	for (int used = 0; used < 2; used++) {
		size_t parsed;
		char *whole = template_run(false, text, used ? ISVC_ON_RT : NULL, &parsed);
		char *streamed = template_run(true, text, used ? ISVC_ON_RT : NULL, &parsed);
		/* pass 1: all but the InferenceService; pass 2: all; pass 3: the runtime */
		cr_expect_gt(parsed, 2 * len - ink(ISVC), "%zu bytes parsed: the runtime did not wait",
			     parsed);
		cr_expect_eq(!!strstr(whole, "test-asks-use"), !used, "%s", whole);
		cr_expect_eq(!!strstr(whole, "test-yields"), used, "%s", whole);
		cr_expect_str_eq(streamed, whole, "the streamed run differs from the whole one");
		free(whole);
		free(streamed);
	}
}

/* A deferred finding takes no fix, whether resumed at once (a whole run) or in pass 3. */
Test(passes, a_deferred_finding_takes_no_fix)
{
	add_test_rules();
	char text[4096];
	snprintf(text, sizeof text, "%s---\n%s---\n%s", PRIORITY_CLASSES, JOB, ISVC);
	size_t parsed;
	char *whole = template_run(false, text, NULL, &parsed);
	char *streamed = template_run(true, text, NULL, &parsed);
	cr_expect(strstr(whole, "test-defers deferred\n"), "%s", whole);
	cr_expect(!strstr(whole, "deferred (fix)"), "%s", whole);
	cr_expect_str_eq(streamed, whole, "the streamed run differs from the whole one");
	free(whole);
	free(streamed);
}

/* A template without a name (found by fuzz_lint with every file split): no unit can use it, so
** its checks' answer is final in pass 2; the report is the whole run's. */
Test(passes, a_template_without_a_name_is_never_used)
{
	char text[4096];
	const char *name = strstr(RUNTIME, "  name: rt\n");
	snprintf(text, sizeof text, "%.*s%s---\n%s---\n%s", (int)(name - RUNTIME), RUNTIME,
		 name + strlen("  name: rt\n"), PRIORITY_CLASSES, ISVC);
	size_t parsed;
	char *whole = template_run(false, text, ISVC_ON_RT, &parsed);
	char *streamed = template_run(true, text, ISVC_ON_RT, &parsed);
	cr_expect_str_eq(streamed, whole, "the streamed run differs from the whole one");
	free(whole);
	free(streamed);
}
