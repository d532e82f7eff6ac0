/* SPDX-License-Identifier: Apache-2.0
** test_kustomize.c: the Kustomize builder (src/render/kustomize/) on a tree in a scratch directory:
** which kustomizations are roots (one another includes is not built alone), what a build holds
** (namePrefix and the references it renames, namespace, labels with their selectors, a
** strategic merge patch; checked as kubectl kustomize builds the same tree), which files a plan
** consumes, its patch files, the build's own findings for what it does not apply or cannot
** match, and the remap of a finding in the built text to the base, patch or kustomization line
** that made the node (a base's suppression comment still silencing it). tests/kustomize/ sets
** whole builds beside kubectl kustomize. */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lint/engine.h"
#include "lint/remap.h"
#include "render/kustomize/kustomize.h"
#include "config/registry.h"
#include "support.h"

static char root[256];

static const char *at(const char *rel)
{
	static char p[8][1024];
	static int i;
	i = (i + 1) % 8;
	snprintf(p[i], sizeof p[i], "%s/%s", root, rel);
	return p[i];
}

static void put(const char *rel, const char *text)
{
	sl_test_put(root, rel, text);
}

static const char DEPLOY[] =
	"apiVersion: apps/v1\n"
	"kind: Deployment\n"
	"metadata:\n"
	"  name: reranker\n"
	"  labels: {app: reranker}\n"
	"spec:\n"
	"  replicas: 1\n"
	"  selector:\n"
	"    matchLabels: {app: reranker}\n"
	"  template:\n"
	"    metadata:\n"
	"      labels: {app: reranker}\n"
	"    spec:\n"
	"      priorityClassName: serving\n"
	"      containers:\n"
	"        - name: model\n"
	"          image: reranker:1.4   # schedlint: ignore[schema-type] the tag is pinned\n"
	"          resources:\n"
	"            requests: {nvidia.com/gpu: 1}\n";

static const char PATCH[] =
	"apiVersion: apps/v1\n"
	"kind: Deployment\n"
	"metadata:\n"
	"  name: reranker\n"
	"spec:\n"
	"  template:\n"
	"    spec:\n"
	"      nodeSelector:\n"
	"        accelerator: a100\n"
	"      containers:\n"
	"        - name: model\n"
	"          resources:\n"
	"            limits: {nvidia.com/gpu: 1}\n";

static void setup(void)
{
	sl_test_scratch(root, sizeof root, "kustomize");
	put("base/kustomization.yaml", "resources:\n  - deploy.yaml\n  - pc.yaml\n");
	put("base/deploy.yaml", DEPLOY);
	put("base/pc.yaml", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
	    "metadata:\n  name: serving\nvalue: 1000\n");
	put("base/unused.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: unused}\n");
	put("overlay/kustomization.yaml",
	    "resources:\n"
	    "  - ../base\n"
	    "namePrefix: prod-\n"
	    "namespace: serving-prod\n"
	    "labels:\n"
	    "  - pairs: {env: prod}\n"
	    "    includeSelectors: true\n"
	    "patches:\n"
	    "  - path: gpu.yaml\n");
	put("overlay/gpu.yaml", PATCH);
}

static void teardown(void)
{
	sl_test_rm_rf(root);
}

TestSuite(kustomize, .init = setup, .fini = teardown);

static void on_tree_issue(void *payload, const char *rule, unsigned doc, size_t start,
			  size_t end, const char *message)
{
	(void)payload; (void)rule; (void)doc; (void)start; (void)end;
	cr_assert_fail("the build must be valid YAML: %s", message);
}

static sl_kustomize *plan(const char *const *rels, size_t n)
{
	const char *paths[8];
	for (size_t i = 0; i < n; i++)
		paths[i] = at(rels[i]);
	sl_kustomize *k = NULL;
	cr_assert_eq(sl_kustomize_plan(paths, n, 2, &k), SL_OK);
	return k;
}

/* The scalar at a path of space-separated keys and item indexes under n. */
static const char *get(const sl_node *n, const char *path)
{
	char key[128];
	while (n && *path) {
		size_t l = strcspn(path, " ");
		snprintf(key, sizeof key, "%.*s", (int)l, path);
		char *end;
		long i = strtol(key, &end, 10);
		if (*end)
			n = sl_map_get(n, key);
		else
			n = i >= 0 && (size_t)i < sl_seq_n(n) ? sl_seq_item(n, (size_t)i) : NULL;
		path += l + (path[l] == ' ');
	}
	return n ? sl_scalar(n) : NULL;
}

#define EXPECT_AT(doc, path, want) do { \
	const char *got_ = get((doc), (path)); \
	cr_expect(got_ && strcmp(got_, (want)) == 0, "%s: %s, want %s", (path), \
		  got_ ? got_ : "(none)", (want)); \
} while (0)

Test(kustomize, kustomization_files)
{
	cr_expect(sl_kustomize_is_file("a/b/kustomization.yaml"));
	cr_expect(sl_kustomize_is_file("kustomization.yml"));
	cr_expect(sl_kustomize_is_file("overlay/Kustomization"));
	cr_expect_not(sl_kustomize_is_file("a/kustomization.yaml.bak"));
	cr_expect_not(sl_kustomize_is_file("a/my-kustomization.yaml"));
	cr_expect_not(sl_kustomize_is_file("kustomization.json"));
}

/* The overlay is the root: the base it includes is not built alone. The build is what kubectl
** kustomize makes of the tree (kustomize v5; resources in their order). */
Test(kustomize, an_overlay_over_its_base)
{
	static const char *const k2[] = {"base/kustomization.yaml", "overlay/kustomization.yaml"};
	sl_kustomize *k = plan(k2, 2);
	cr_assert_eq(sl_kustomize_n_builds(k), 1, "the base is included, not a root");
	const char *name, *text;
	size_t len;
	sl_kustomize_build *b = sl_kustomize_build_at(k, 0, &name, &text, &len);
	cr_expect_eq(sl_kustomize_build_root(b), 1);
	cr_expect_str_eq(name, at("overlay/kustomization.yaml"));
	cr_expect_eq(sl_kustomize_n_issues(b), 0);

	sl_source *src;
	cr_assert_eq(sl_source_from_buffer(name, text, len, &src), SL_OK);
	sl_arena *a = sl_arena_new();
	sl_tree t;
	cr_assert_eq(sl_tree_parse(src, a, &t, on_tree_issue, NULL), SL_OK);
	cr_assert_eq(t.n_docs, 2);
	const sl_node *d = t.docs[0]->root, *pc = t.docs[1]->root;
	EXPECT_AT(d, "kind", "Deployment");
	EXPECT_AT(d, "metadata name", "prod-reranker");
	EXPECT_AT(d, "metadata namespace", "serving-prod");
	EXPECT_AT(d, "metadata labels app", "reranker");
	EXPECT_AT(d, "metadata labels env", "prod");
	EXPECT_AT(d, "spec selector matchLabels env", "prod");   /* includeSelectors */
	EXPECT_AT(d, "spec template metadata labels env", "prod");
	EXPECT_AT(d, "spec template spec priorityClassName", "prod-serving");   /* the reference */
	EXPECT_AT(d, "spec template spec nodeSelector accelerator", "a100");   /* the patch */
	EXPECT_AT(d, "spec template spec containers 0 image", "reranker:1.4");
	EXPECT_AT(d, "spec template spec containers 0 resources requests nvidia.com/gpu", "1");
	EXPECT_AT(d, "spec template spec containers 0 resources limits nvidia.com/gpu", "1");
	cr_expect_null(get(d, "spec template spec containers 1 name"),
		       "the patch's container merged by name, not appended");
	EXPECT_AT(pc, "kind", "PriorityClass");
	EXPECT_AT(pc, "metadata name", "prod-serving");
	EXPECT_AT(pc, "metadata labels env", "prod");
	cr_expect_null(sl_map_get(sl_map_get(pc, "metadata"), "namespace"), "cluster-scoped");
	sl_arena_free(a);
	sl_source_free(src);

	/* what the plan consumes: the base's files, the patch, the base's kustomization */
	char *real = sl_kustomize_real(k, at("base/deploy.yaml"));
	cr_assert_not_null(real);
	cr_expect(sl_kustomize_consumed(k, real));
	const char *reals[] = {real};
	cr_expect(sl_kustomize_build_uses(b, reals, 1));
	free(real);
	static const char *const used[] = {"base/pc.yaml", "overlay/gpu.yaml",
					   "base/kustomization.yaml"};
	for (size_t i = 0; i < 3; i++) {
		real = sl_kustomize_real(k, at(used[i]));
		cr_expect(real && sl_kustomize_consumed(k, real), "%s", used[i]);
		free(real);
	}
	real = sl_kustomize_real(k, at("base/unused.yaml"));
	cr_expect_not(real && sl_kustomize_consumed(k, real), "a file no kustomization names");
	free(real);
	cr_expect(sl_kustomize_may_consume(k, "deploy.yaml"));
	cr_expect_not(sl_kustomize_may_consume(k, "unused.yaml"));
	cr_expect_geq(sl_kustomize_n_files(k), 5);
	sl_kustomize_free(k);
}

Test(kustomize, the_patch_files_of_a_kustomization)
{
	static const char *const k1[] = {"overlay/kustomization.yaml"};
	sl_kustomize *k = plan(k1, 1);
	char **v = NULL;
	size_t n = 0, cap = 0;
	cr_assert_eq(sl_kustomize_patch_files(k, at("overlay/kustomization.yaml"), &v, &n, &cap),
		     SL_OK);
	cr_assert_eq(n, 1);
	char *want = realpath(at("overlay/gpu.yaml"), NULL);
	cr_expect_str_eq(v[0], want);
	free(want);
	free(v[0]);
	free(v);
	v = NULL;
	n = cap = 0;
	cr_assert_eq(sl_kustomize_patch_files(k, at("base/kustomization.yaml"), &v, &n, &cap), SL_OK);
	cr_expect_eq(n, 0, "the base has no patches");
	free(v);
	sl_kustomize_free(k);
}

/* What the builder does not apply is said, and a patch that matches nothing is invalid, as
** kustomize refuses it. */
Test(kustomize, what_a_build_cannot_do_is_said)
{
	put("vars/kustomization.yaml", "resources:\n  - ../base\ncrds:\n  - crd.json\n");
	put("nomatch/kustomization.yaml", "resources:\n  - ../base\npatches:\n  - path: p.yaml\n");
	put("nomatch/p.yaml", "apiVersion: v1\nkind: Pod\nmetadata: {name: rerankr}\n"
	    "spec: {nodeName: x}\n");
	static const char *const k2[] = {"vars/kustomization.yaml", "nomatch/kustomization.yaml"};
	sl_kustomize *k = plan(k2, 2);
	cr_assert_eq(sl_kustomize_n_builds(k), 2);
	for (size_t i = 0; i < 2; i++) {
		const char *name, *text, *rule, *msg;
		size_t len;
		sl_kustomize_build *b = sl_kustomize_build_at(k, i, &name, &text, &len);
		cr_assert_eq(sl_kustomize_n_issues(b), 1, "%s", name);
		sl_kustomize_issue(b, 0, &rule, &msg, NULL, NULL);
		if (sl_kustomize_build_root(b) == 0) {
			cr_expect_str_eq(rule, "kustomize-unsupported");
			cr_expect_str_eq(msg, "crds is not applied by schedlint: the kustomization is built "
					 "and linted without it, so findings on the fields it sets may "
					 "differ from what is deployed");
			cr_expect_gt(len, 0, "built without it");
		} else {
			cr_expect_str_eq(rule, "kustomize-invalid");
			cr_expect(strstr(msg, "no resource matches strategic merge patch "
					 "\"Pod.v1.[noGrp]/rerankr.[noNs]\""), "%s", msg);
		}
	}
	sl_kustomize_free(k);
}

/* The overlay's plan (*k) and its build as the file the run lints (f: its path, text and arena;
** findings is its array), with the build's name. */
static const char *overlay_file(sl_kustomize **k, sl_file *f, sl_frec **findings)
{
	static const char *const k1[] = {"overlay/kustomization.yaml"};
	*k = plan(k1, 1);
	const char *name, *text;
	size_t len;
	sl_kustomize_build *b = sl_kustomize_build_at(*k, 0, &name, &text, &len);
	*f = (sl_file){0};
	cr_assert_eq(sl_source_from_buffer(name, text, len, &f->src), SL_OK);
	f->path = (char *)name;
	f->arena = sl_arena_new();
	f->findings = findings;
	f->build = b;   /* lint/remap.c moves a build's findings by the plan's origins */
	return name;
}

/* A finding in the built text moves to the line that made its node: a base's line, the patch's,
** or the kustomization's; a base's suppression comment still silences its line's finding. */
Test(kustomize, findings_move_to_where_their_nodes_came_from)
{
	sl_kustomize *k;
	sl_file f;
	sl_frec recs[4] = {0}, *ptrs[4];
	sl_fix fix = {0};
	const char *name = overlay_file(&k, &f, ptrs);
	sl_tree t;
	cr_assert_eq(sl_tree_parse(f.src, f.arena, &t, on_tree_issue, NULL), SL_OK);
	const sl_node *spec = sl_map_get(sl_map_get(sl_map_get(t.docs[0]->root, "spec"), "template"),
					 "spec");
	const sl_node *c0 = sl_seq_item(sl_map_get(spec, "containers"), 0);
	const sl_node *nodes[4] = {
		sl_map_get(sl_map_get(spec, "nodeSelector"), "accelerator"),   /* the patch's */
		sl_map_get(sl_map_get(sl_map_get(c0, "resources"), "requests"), "nvidia.com/gpu"),
		sl_map_get(sl_map_get(sl_map_get(t.docs[0]->root, "metadata"), "labels"), "env"),
		sl_map_get(c0, "image"),   /* a suppressed line of the base */
	};
	const char *rules[4] = {"invalid-node-selector", "gpu-request-without-limit",
				"invalid-node-selector", "schema-type"};
	for (size_t i = 0; i < 4; i++) {
		cr_assert_not_null(nodes[i], "node %zu", i);
		recs[i].rule_index = sl_registry_find(rules[i]);
		cr_assert_geq(recs[i].rule_index, 0);
		recs[i].pub = (sl_finding){.rule = rules[i], .path = name, .offset = nodes[i]->start,
					   .length = nodes[i]->end - nodes[i]->start, .pointer = "",
					   .fix = &fix};
		sl_source_position(f.src, nodes[i]->start, &recs[i].pub.line, &recs[i].pub.column);
		ptrs[f.n_findings++] = &recs[i];
	}
	cr_assert_eq(sl_remap_kustomize(k, &f), SL_OK);
	cr_assert_eq(f.n_findings, 3, "the suppressed one is dropped");
	const sl_finding *p = &f.findings[0]->pub;
	cr_expect(strstr(p->path, "overlay/gpu.yaml"), "%s", p->path);
	cr_expect_eq(p->line, 9);
	cr_expect_eq(p->column, 22);
	cr_expect_eq(p->length, 4);
	cr_expect_null(p->fix, "built text is not what a person edits");
	cr_expect(p->notes && strstr(p->notes, "in overlay ") && strstr(p->notes, "/overlay (built "
		  "by schedlint as kustomize builds it"), "%s", p->notes);
	p = &f.findings[1]->pub;
	cr_expect(strstr(p->path, "base/deploy.yaml"), "%s", p->path);
	cr_expect_eq(p->line, 19);
	cr_expect_eq(p->column, 40);
	p = &f.findings[2]->pub;
	cr_expect(strstr(p->path, "overlay/kustomization.yaml"), "%s", p->path);
	cr_expect_eq(p->line, 6, "the labels entry that added it");
	sl_arena_free(f.arena);
	sl_source_free(f.src);
	sl_kustomize_free(k);
}

/* A finding over bytes no node of the build covers (here: the built text's end) came from no
** file's line: it is put at the overlay's kustomization as about the whole file, with no line
** of its own (not at the built text's line, which names an unrelated line there), and says so. */
Test(kustomize, a_finding_from_no_line_is_about_the_kustomization)
{
	sl_kustomize *k;
	sl_file f;
	sl_frec rec = {0}, *ptr = &rec;
	const char *name = overlay_file(&k, &f, &ptr);
	size_t len = f.src->len;
	f.n_findings = 1;
	rec.rule_index = sl_registry_find("invalid-node-selector");
	rec.pub = (sl_finding){.rule = "invalid-node-selector", .path = name, .offset = len,
			       .pointer = "/spec", .notes = "why"};
	sl_source_position(f.src, len, &rec.pub.line, &rec.pub.column);
	cr_assert_gt(rec.pub.line, 20, "the built text is longer than the kustomization");
	cr_assert_eq(sl_remap_kustomize(k, &f), SL_OK);
	cr_assert_eq(f.n_findings, 1);
	const sl_finding *p = &f.findings[0]->pub;
	cr_expect_str_eq(p->path, name, "the overlay's kustomization");
	cr_expect(p->line == 1 && p->column == 1 && p->end_line == 1 && p->end_column == 1,
		  "%u:%u-%u:%u", p->line, p->column, p->end_line, p->end_column);
	cr_expect_eq(p->length, 0);
	cr_expect_eq(p->document, -1, "about the file");
	cr_expect_str_eq(p->pointer, "/spec", "the built object's field");
	static const char why[] = "why\nthe build made its node from no line of any file";
	cr_expect(p->notes && strncmp(p->notes, why, sizeof why - 1) == 0, "%s", p->notes);
	sl_arena_free(f.arena);
	sl_source_free(f.src);
	sl_kustomize_free(k);
}

/* A build's text and spans wait in the plan's spill file until asked for (forced here: no build
** held in memory), or held in memory while the builds are small (a small run writes no spill
** file); where no spill file can be made (TMPDIR a missing directory) they stay in memory: the
** same text, the same origins; a spilled or held build's text can be asked for again once
** released (a kept one's is released for good, as before). The base's line index, let go once no
** build reads it, comes back for a position. */
Test(kustomize, a_build_is_the_same_spilled_or_kept)
{
	static const char *const k1[] = {"overlay/kustomization.yaml"};
	const char *saved = getenv("TMPDIR");
	char *old = saved ? strdup(saved) : NULL;
	sl_kustomize *k[3];
	sl_kustomize_hold_max(0);
	k[0] = plan(k1, 1);
	setenv("TMPDIR", at("no-such-directory"), 1);
	k[1] = plan(k1, 1);
	if (old)
		setenv("TMPDIR", old, 1);
	else
		unsetenv("TMPDIR");
	free(old);
	sl_kustomize_hold_max(SL_KUSTOMIZE_HOLD_MAX);
	k[2] = plan(k1, 1);
	cr_expect_gt(sl_kustomize_spilled(k[0]), 0, "spilled to the file");
	cr_expect_eq(sl_kustomize_spilled(k[1]), 0, "no file");
	cr_expect_eq(sl_kustomize_spilled(k[2]), 0, "a small build is held in memory");
	const char *name[3], *text[3];
	size_t len[3];
	sl_kustomize_build *b[3];
	for (int i = 0; i < 3; i++) {
		b[i] = sl_kustomize_build_at(k[i], 0, &name[i], &text[i], &len[i]);
		cr_assert_not_null(b[i]);
	}
	cr_assert_gt(len[0], 0);
	cr_assert_eq(len[0], len[1]);
	cr_assert_eq(len[0], len[2]);
	cr_expect_eq(memcmp(text[0], text[1], len[0]), 0);
	cr_expect_eq(memcmp(text[0], text[2], len[0]), 0);
	char *copy = strndup(text[0], len[0]);
	cr_assert_not_null(copy);
	size_t placed = 0;
	for (size_t off = 0; off < len[0]; off += 7) {
		sl_kustomize_origin o[2];
		for (int i = 0; i < 2; i++)
			o[i] = sl_kustomize_origin_of(b[i == 0 ? 0 : off % 2 ? 1 : 2], off, 1);
		cr_expect_eq(!o[0].src, !o[1].src, "at %zu", off);
		if (!o[0].src || !o[1].src)
			continue;
		cr_expect_str_eq(o[0].src->path, o[1].src->path);
		cr_expect_eq(o[0].start, o[1].start);
		cr_expect_eq(o[0].end, o[1].end);
		uint32_t line[2], col[2];
		for (int i = 0; i < 2; i++)
			sl_source_position(o[i].src, o[i].start, &line[i], &col[i]);
		cr_expect_eq(line[0], line[1]);
		cr_expect_eq(col[0], col[1]);
		placed++;
	}
	cr_expect_gt(placed, 10);
	for (int i = 0; i < 3; i++) {   /* asked for again (spilled or held: once released) */
		if (i != 1)
			sl_kustomize_release(b[i], true);
		const char *again;
		size_t n;
		cr_assert_eq(sl_kustomize_text(b[i], &again, &n), SL_OK);
		cr_expect_eq(n, len[0]);
		cr_expect_eq(memcmp(again, copy, n), 0);
		char *taken;
		cr_assert_eq(sl_kustomize_take_text(b[i], &taken, &n), SL_OK);
		cr_expect_eq(n, len[0]);
		cr_expect_eq(memcmp(taken, copy, n), 0);
		free(taken);
		sl_kustomize_free(k[i]);
	}
	free(copy);
}

/* Each kustomization is built once per run (issue 26): four roots include the same chain of six
** kustomizations (the last a diamond of two that include one base), each under a name prefix
** of its own. The chain is built by the first root and taken by the others (4 roots + 6 + 3 of
** the diamond: 13 builds, not 4 x 10); each root's objects carry its prefix only (a copy each:
** no root sees another's transformers), and each root uses the chain's files. A chain that
** fails at its end (a missing resource) fails every root that includes it, with the same
** finding, built once too. */
Test(kustomize, a_base_shared_by_roots_is_built_once)
{
	char path[64], text[256];
	const char *paths[5];
	for (int r = 0; r < 4; r++) {
		snprintf(path, sizeof path, "memo/r%d/kustomization.yaml", r);
		snprintf(text, sizeof text, "namePrefix: r%d-\nresources:\n- ../c0\n", r);
		put(path, text);
		paths[r] = strdup(at(path));
	}
	for (int i = 0; i < 5; i++) {
		snprintf(path, sizeof path, "memo/c%d/kustomization.yaml", i);
		snprintf(text, sizeof text, "resources:\n- ../c%d\n- cm.yaml\ncommonLabels:\n  c%d: x\n",
			 i + 1, i);
		put(path, text);
		snprintf(path, sizeof path, "memo/c%d/cm.yaml", i);
		snprintf(text, sizeof text, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm%d\n", i);
		put(path, text);
	}
	put("memo/c5/kustomization.yaml", "resources:\n- ../da\n- ../db\n");
	put("memo/da/kustomization.yaml", "resources:\n- ../e\nnameSuffix: -a\n");
	put("memo/db/kustomization.yaml", "resources:\n- ../e\nnameSuffix: -b\n");
	put("memo/e/kustomization.yaml", "resources:\n- cm.yaml\n");
	put("memo/e/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: leaf\n");
	sl_kustomize *k = NULL;
	cr_assert_eq(sl_kustomize_plan(paths, 4, 1, &k), SL_OK);
	cr_assert_eq(sl_kustomize_n_builds(k), 4);
	size_t made, reused;
	sl_kustomize_counts(k, &made, &reused);
	cr_expect_eq(made, 4 + 6 + 3, "%zu kustomizations built", made);
	cr_expect_eq(reused, 3, "%zu taken from the memo", reused);
	char *leaf = sl_kustomize_real(k, at("memo/e/cm.yaml"));
	cr_assert_not_null(leaf);
	const char *reals[] = {leaf};
	for (size_t r = 0; r < 4; r++) {
		const char *name, *t;
		size_t len;
		sl_kustomize_build *b = sl_kustomize_build_at(k, r, &name, &t, &len);
		cr_assert_not_null(b);
		cr_expect_eq(sl_kustomize_n_issues(b), 0);
		cr_expect(sl_kustomize_build_uses(b, reals, 1), "root %zu uses the chain's leaf", r);
		char want[32];
		snprintf(want, sizeof want, " r%zu-leaf-b\n", r);
		cr_expect(memmem(t, len, want, strlen(want)), "root %zu: %.*s", r, (int)len, t);
		snprintf(want, sizeof want, " r%zu-cm0\n", r);
		cr_expect(memmem(t, len, want, strlen(want)), "root %zu: %.*s", r, (int)len, t);
		for (size_t o = 0; o < 4; o++) {
			snprintf(want, sizeof want, " r%zu-", o);
			cr_expect(o == r || !memmem(t, len, want, strlen(want)),
				  "root %zu holds root %zu's prefix", r, o);
		}
	}
	free(leaf);
	sl_kustomize_free(k);

	put("memo/e/kustomization.yaml", "resources:\n- cm.yaml\n- missing.yaml\n");
	cr_assert_eq(sl_kustomize_plan(paths, 4, 1, &k), SL_OK);
	sl_kustomize_counts(k, &made, &reused);
	cr_expect_eq(made, 4 + 6 + 2, "%zu kustomizations built (the first da fails)", made);
	cr_expect_eq(reused, 3);
	for (size_t r = 0; r < 4; r++) {
		const char *name, *rule, *msg;
		sl_kustomize_build *b = sl_kustomize_build_at(k, r, &name, NULL, NULL);
		cr_assert_eq(sl_kustomize_n_issues(b), 1, "root %zu", r);
		sl_kustomize_origin o;
		sl_kustomize_issue(b, 0, &rule, &msg, NULL, &o);
		cr_expect_str_eq(rule, "kustomize-invalid");
		cr_expect(strstr(msg, "missing.yaml"), "%s", msg);
		cr_expect(o.src && strstr(o.src->path, "memo/e/kustomization.yaml"));
	}
	sl_kustomize_free(k);
	for (int r = 0; r < 4; r++)
		free((char *)paths[r]);
}
