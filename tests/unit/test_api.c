/* SPDX-License-Identifier: Apache-2.0
** test_api.c: the library's contract as a program linking it sees it: version macros that agree
** with sl_version(). */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "schedlint/schedlint.h"
#include "support.h"

Test(api, version_macros_match_the_library)
{
	cr_assert_str_eq(sl_version(), SL_VERSION_STRING);
	char made[32];
	snprintf(made, sizeof made, "%d.%d.%d", SL_VERSION_MAJOR, SL_VERSION_MINOR, SL_VERSION_PATCH);
	cr_assert_str_eq(made, SL_VERSION_STRING);
	cr_assert_eq(SL_VERSION_NUMBER,
		     SL_VERSION_MAJOR * 10000 + SL_VERSION_MINOR * 100 + SL_VERSION_PATCH);
	cr_assert(SL_VERSION_NUMBER >= SL_VERSION_ENCODE(0, 1, 0));
}

static const char GPU_NO_LIMIT[] =
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n"
	"    - name: c\n      image: x\n      resources:\n        requests:\n"
	"          nvidia.com/gpu: 1\n";
static const char CLEAN_POD[] =
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n"
	"    - name: c\n      image: x\n";

/* A new run on one thread under the default config (*cfg, for the caller to free). */
static sl_run *new_run(sl_config **cfg)
{
	cr_assert_eq(sl_config_new_default(cfg), SL_OK);
	sl_run_options o = SL_RUN_OPTIONS_INIT;
	o.jobs = 1;
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(*cfg, &o, &run, NULL), SL_OK);
	return run;
}

static sl_run *linted_buffer(sl_config **cfg, const char *path, const char *text)
{
	sl_run *run = new_run(cfg);
	cr_assert_eq(sl_run_add_buffer(run, path, text, strlen(text)), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	return run;
}

Test(api, options_of_an_unknown_version_are_refused_with_a_message)
{
	sl_config *cfg;
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	sl_run_options zero = {0};   /* not started from SL_RUN_OPTIONS_INIT */
	sl_run *run = NULL;
	char *msg = NULL;
	cr_expect_eq(sl_run_new(cfg, &zero, &run, &msg), SL_EUSAGE);
	cr_expect_null(run);
	cr_assert_not_null(msg);
	cr_expect(strstr(msg, "SL_RUN_OPTIONS_INIT"), "%s", msg);
	free(msg);
	sl_run_options future = SL_RUN_OPTIONS_INIT;
	future.version = SL_RUN_OPTIONS_VERSION + 1;
	cr_expect_eq(sl_run_new(cfg, &future, &run, NULL), SL_EUSAGE);
	/* NULL options are the defaults */
	cr_assert_eq(sl_run_new(cfg, NULL, &run, NULL), SL_OK);
	cr_assert_eq(sl_run_add_buffer(run, "p.yaml", GPU_NO_LIMIT, strlen(GPU_NO_LIMIT)), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	sl_fix_options fo = {0};
	cr_expect_eq(sl_run_fix(run, &fo, NULL, NULL), SL_EUSAGE);
	sl_output_options ro = {.format = SL_FORMAT_JSON};   /* no version */
	FILE *devnull = fopen("/dev/null", "w");
	cr_assert_not_null(devnull);
	cr_expect_eq(sl_run_write_output(run, &ro, devnull), SL_EUSAGE);
	ro.version = SL_OUTPUT_OPTIONS_VERSION;
	cr_expect_eq(sl_run_write_output(run, &ro, devnull), SL_OK);
	cr_expect_eq(sl_run_write_output(run, NULL, devnull), SL_OK);
	fclose(devnull);
	sl_fix_options ok = SL_FIX_OPTIONS_INIT;
	cr_expect_eq(sl_run_fix(run, &ok, NULL, NULL), SL_OK);
	sl_run_free(run);
	sl_config_free(cfg);
}

Test(api, indexed_accessors_check_their_index)
{
	sl_config *cfg;
	sl_run *run = linted_buffer(&cfg, "p.yaml", GPU_NO_LIMIT);
	size_t nf = sl_run_file_count(run), nd = sl_run_finding_count(run);
	cr_assert_eq(nf, 1);
	cr_assert_geq(nd, 1);
	cr_expect_not_null(sl_run_finding(run, nd - 1));
	cr_expect_null(sl_run_finding(run, nd));
	cr_expect_null(sl_run_finding(run, (size_t)-1));
	sl_file_info info = {.version = SL_FILE_INFO_VERSION, .path = "stale"};
	cr_expect_eq(sl_run_file(run, 0, &info), SL_OK);
	cr_expect_str_eq(info.path, "p.yaml");
	cr_expect_eq(sl_run_file(run, nf, &info), SL_EUSAGE);
	cr_expect_null(info.path);
	cr_expect_eq(info.version, SL_FILE_INFO_VERSION, "the caller's version stays");
	/* a struct not started from _INIT, or from a newer header: never written */
	sl_file_info bare = {0}, newer = {.version = SL_FILE_INFO_VERSION + 1};
	cr_expect_eq(sl_run_file(run, 0, &bare), SL_EUSAGE);
	cr_expect_null(bare.path);
	cr_expect_eq(sl_run_file(run, 0, &newer), SL_EUSAGE);
	cr_expect_null(newer.path);
	sl_rule_info rule = {0};
	cr_expect_eq(sl_rule_get(0, &rule), SL_EUSAGE);
	cr_expect_null(rule.id);
	rule.version = SL_RULE_INFO_VERSION;
	cr_expect_eq(sl_rule_get(0, &rule), SL_OK);
	cr_expect_not_null(rule.id);
	cr_expect_eq(sl_rule_get(sl_rule_count(), &rule), SL_ENOTFOUND);
	const char *data = NULL;
	size_t len = 99;
	bool changed = true;
	sl_run_file_text(run, nf, &data, &len, &changed);
	cr_expect_str_eq(data, "");
	cr_expect_eq(len, 0);
	cr_expect(!changed);
	sl_run_file_original(run, nf + 7, &data, &len);
	cr_expect_eq(len, 0);
	cr_expect_eq(sl_run_file_write(run, nf), SL_EUSAGE);
	cr_expect_null(sl_run_file_write_error(run, nf));
	FILE *devnull = fopen("/dev/null", "w");
	cr_expect_eq(sl_run_file_diff(run, nf, devnull), SL_EUSAGE);
	fclose(devnull);
	sl_run_free(run);
	sl_config_free(cfg);
}

/* An editor lints its buffer under the file's own path: the buffer is what is linted, whatever
** the file on disk says, and fixes apply to the buffer. */
Test(api, a_buffer_stands_in_for_the_file_on_disk)
{
	char dir[256];
	sl_test_scratch(dir, sizeof dir, "api");
	char path[sizeof dir + 16];
	snprintf(path, sizeof path, "%s/pod.yaml", dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(CLEAN_POD, f);   /* the disk: nothing to find */
	fclose(f);
	sl_config *cfg;
	sl_run *run = linted_buffer(&cfg, path, GPU_NO_LIMIT);   /* the buffer: a GPU without limit */
	bool found = false;
	for (size_t i = 0; i < sl_run_finding_count(run); i++)
		found |= strcmp(sl_run_finding(run, i)->rule, "gpu-request-without-limit") == 0;
	cr_expect(found, "the buffer's finding is reported");
	sl_run_free(run);
	sl_config_free(cfg);
	/* and the other way round: a buffer that is clean hides what the disk would show */
	run = linted_buffer(&cfg, path, CLEAN_POD);
	cr_expect_eq(sl_run_finding_count(run), 0);
	sl_run_options o = SL_RUN_OPTIONS_INIT;
	o.jobs = 1;
	sl_run_free(run);
	sl_config_free(cfg);
	/* fixes apply to the buffer, never to the file */
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	cr_assert_eq(sl_run_new(cfg, &o, &run, NULL), SL_OK);
	cr_assert_eq(sl_run_add_buffer(run, path, GPU_NO_LIMIT, strlen(GPU_NO_LIMIT)), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	sl_fix_options fo = SL_FIX_OPTIONS_INIT;
	size_t applied = 0;
	cr_assert_eq(sl_run_fix(run, &fo, &applied, NULL), SL_OK);
	cr_expect_geq(applied, 1);
	const char *data;
	size_t len;
	bool changed;
	sl_run_file_text(run, 0, &data, &len, &changed);
	cr_expect(changed);
	cr_expect(strstr(data, "limits:"), "the buffer's fix: %s", data);
	sl_file_info info = SL_FILE_INFO_INIT;
	cr_assert_eq(sl_run_file(run, 0, &info), SL_OK);
	cr_expect_eq(info.fixes, applied, "the file counts the fixes applied to it");
	char *disk = NULL;
	size_t disk_len = 0;
	FILE *g = fopen(path, "r");
	cr_assert_not_null(g);
	disk = malloc(4096);
	disk_len = fread(disk, 1, 4095, g);
	disk[disk_len] = '\0';
	fclose(g);
	cr_expect_str_eq(disk, CLEAN_POD, "the file on disk was not touched");
	free(disk);
	sl_run_free(run);
	sl_config_free(cfg);
	unlink(path);
	rmdir(dir);
}

/* A buffer named as a file of the project replaces that file for the cross-file rules too: the
** project's copy on disk is not read as a second definition (one default PriorityClass on disk
** and in the buffer is one, not two), and what the buffer says is what counts. */
Test(api, a_buffer_replaces_its_file_in_the_project)
{
	static const char PC[] = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
				 "metadata:\n  name: high\nvalue: 1000\nglobalDefault: true\n";
	static const char PC2[] = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
				  "metadata:\n  name: other\nvalue: 10\nglobalDefault: true\n";
	char dir[256];
	sl_test_scratch(dir, sizeof dir, "api");
	char path[sizeof dir + 16], cfgp[sizeof dir + 32];
	snprintf(path, sizeof path, "%s/pc.yaml", dir);
	snprintf(cfgp, sizeof cfgp, "%s/.schedlint.yaml", dir);   /* the project's root */
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f);
	fputs(PC, f);
	fclose(f);
	f = fopen(cfgp, "w");
	cr_assert_not_null(f);
	fputs("{}\n", f);
	fclose(f);
	char here[4096];
	cr_assert_not_null(getcwd(here, sizeof here));
	cr_assert_eq(chdir(dir), 0);
	for (int round = 0; round < 2; round++) {
		const char *text = round ? PC2 : PC;
		sl_config *cfg;
		cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
		sl_run_options o = SL_RUN_OPTIONS_INIT;
		o.jobs = 1;
		sl_run *run = NULL;
		cr_assert_eq(sl_run_new(cfg, &o, &run, NULL), SL_OK);
		cr_assert_eq(sl_run_add_buffer(run, "pc.yaml", text, strlen(text)), SL_OK);
		cr_assert_eq(sl_run_add_project(run, NULL), SL_OK);   /* from the working directory */
		cr_assert_eq(sl_run_lint(run), SL_OK);
		for (size_t i = 0; i < sl_run_finding_count(run); i++)
			cr_expect_neq(strcmp(sl_run_finding(run, i)->rule,
					     "multiple-default-priority-classes"), 0,
				      "round %d: %s", round, sl_run_finding(run, i)->message);
		cr_expect_eq(sl_run_file_count(run), 1, "the project's copy is not a file of the run");
		sl_run_free(run);
		sl_config_free(cfg);
	}
	cr_assert_eq(chdir(here), 0);
	unlink(path);
	unlink(cfgp);
	rmdir(dir);
}

/* The project read once (sl_run_read_project) and lent to run after run (sl_run_use_project)
** gives every buffer the findings sl_run_add_project gives it, the project whole or streamed,
** fixes included: over a project of every rule fixture (PriorityClasses that clash, serving
** units to outrank, runtimes...), each sampled file linted as a buffer in place of itself. */
#include <dirent.h>
#include <glob.h>

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	cr_assert_not_null(f, "%s", path);
	char *buf = malloc(1 << 20);
	*len = fread(buf, 1, (1 << 20) - 1, f);
	buf[*len] = '\0';
	fclose(f);
	return buf;
}

/* "rule line:col message" per finding, then the fixed text, of a buffer linted with the
** project read now (project NULL), lent, or none (no_project). */
static char *lint_with(const sl_config *cfg, bool low_memory, const sl_run *project,
		       bool no_project, const char *path, const char *text, size_t len)
{
	sl_run_options o = SL_RUN_OPTIONS_INIT;
	o.jobs = 1;
	o.low_memory = low_memory;
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(cfg, &o, &run, NULL), SL_OK);
	cr_assert_eq(sl_run_add_buffer(run, path, text, len), SL_OK);
	if (!no_project)
		cr_assert_eq(project ? sl_run_use_project(run, project) : sl_run_add_project(run, NULL),
			     SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	char *out = NULL;
	size_t n = 0;
	FILE *m = open_memstream(&out, &n);
	for (size_t i = 0; i < sl_run_finding_count(run); i++) {
		const sl_finding *f = sl_run_finding(run, i);
		fprintf(m, "%s %u:%u %s\n", f->rule, f->line, f->column, f->message);
	}
	if (!low_memory) {
		sl_fix_options fo = SL_FIX_OPTIONS_INIT;
		cr_assert_eq(sl_run_fix(run, &fo, NULL, NULL), SL_OK);
		const char *d;
		size_t l;
		sl_run_file_text(run, 0, &d, &l, NULL);
		fprintf(m, "--- fixed:\n%.*s", (int)l, d);
	}
	fclose(m);
	sl_run_free(run);
	return out;
}

Test(api, a_project_read_once_lends_what_add_project_reads)
{
	char here[4096];
	cr_assert_not_null(getcwd(here, sizeof here));
	glob_t g;
	cr_assert_eq(glob("testdata/rules/*/*/*.yaml", 0, NULL, &g), 0);
	char dir[256];
	sl_test_scratch(dir, sizeof dir, "project");
	size_t n = 0;
	char name[64];
	for (size_t i = 0; i < g.gl_pathc; i++) {
		const char *p = g.gl_pathv[i];
		if (strstr(p, ".config.yaml") || strstr(p, ".fixed.yaml"))
			continue;
		size_t len;
		char *text = slurp(p, &len);
		char out[sizeof dir + 80];
		snprintf(out, sizeof out, "%s/f%03zu.yaml", dir, n++);
		FILE *f = fopen(out, "wb");
		fwrite(text, 1, len, f);
		fclose(f);
		free(text);
	}
	cr_assert_gt(n, 100);
	cr_assert_eq(chdir(dir), 0);
	FILE *c = fopen(".schedlint.yaml", "w");
	fputs("{}\n", c);
	fclose(c);
	sl_config *cfg;
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	sl_run *whole = NULL, *streamed = NULL;
	sl_run_options o = SL_RUN_OPTIONS_INIT;
	o.jobs = 1;
	cr_assert_eq(sl_run_new(cfg, &o, &whole, NULL), SL_OK);
	cr_assert_eq(sl_run_read_project(whole, NULL), SL_OK);
	cr_expect_eq(sl_run_file_count(whole), 0, "nothing of the project is reported");
	cr_expect_eq(sl_run_finding_count(whole), 0);
	cr_expect_eq(sl_run_read_project(whole, NULL), SL_EUSAGE, "read once");
	o.low_memory = true;
	cr_assert_eq(sl_run_new(cfg, &o, &streamed, NULL), SL_OK);
	cr_assert_eq(sl_run_read_project(streamed, NULL), SL_OK);
	size_t differ = 0, cross = 0;
	for (size_t k = 0; k < n; k += 9) {
		snprintf(name, sizeof name, "f%03zu.yaml", k);
		size_t len;
		char *text = slurp(name, &len);
		char *a = lint_with(cfg, false, NULL, false, name, text, len);
		char *b = lint_with(cfg, false, whole, false, name, text, len);
		char *s = lint_with(cfg, false, streamed, false, name, text, len);
		char *alone = lint_with(cfg, false, NULL, true, name, text, len);
		cr_expect_str_eq(b, a, "%s: lent (whole) differs from read:\n%s\nvs\n%s", name, b, a);
		cr_expect_str_eq(s, a, "%s: lent (streamed) differs from read", name);
		differ += strcmp(b, a) != 0;
		cross += strcmp(a, alone) != 0;   /* the project changed what it says */
		free(a);
		free(b);
		free(s);
		free(alone);
		free(text);
	}
	cr_expect_gt(cross, 5, "the project changes the findings of %zu sampled files only", cross);
	sl_run_free(whole);
	sl_run_free(streamed);
	sl_config_free(cfg);
	cr_assert_eq(chdir(here), 0);
	for (size_t k = 0; k < n; k++) {
		char p[sizeof dir + 80];
		snprintf(p, sizeof p, "%s/f%03zu.yaml", dir, k);
		unlink(p);
	}
	char p[sizeof dir + 32];
	snprintf(p, sizeof p, "%s/.schedlint.yaml", dir);
	unlink(p);
	rmdir(dir);
	globfree(&g);
	(void)differ;
}

/* The project of a path (sl_run_project_root): its git work tree, else its outermost config's
** directory, else none; and a buffer of another checkout than the one the editor's project was
** read from is lent none of its facts (sl_run_use_project): the PriorityClass of project a does
** not make b's InferenceService critical. */
static char *write_in(const char *dir, const char *name, const char *text)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = malloc(n);
	cr_assert_not_null(p);
	snprintf(p, n, "%s/%s", dir, name);
	sl_test_spit(p, text, strlen(text));
	return p;
}

static size_t critical_findings(const sl_config *cfg, const sl_run *project, const char *path,
				const char *text)
{
	sl_run_options o = SL_RUN_OPTIONS_INIT;
	o.jobs = 1;
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(cfg, &o, &run, NULL), SL_OK);
	cr_assert_eq(sl_run_add_buffer(run, path, text, strlen(text)), SL_OK);
	cr_assert_eq(project ? sl_run_use_project(run, project) : sl_run_add_project(run, NULL), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	size_t n = 0;
	for (size_t i = 0; i < sl_run_finding_count(run); i++)
		n += strcmp(sl_run_finding(run, i)->rule, "critical-on-spot") == 0;
	sl_run_free(run);
	return n;
}

Test(api, a_buffer_of_another_checkout_sees_none_of_this_ones_facts)
{
	static const char PC[] = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
				 "metadata:\n  name: crit\nvalue: 1000000\n";
	static const char ISVC[] = "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\n"
				   "metadata:\n  name: r\nspec:\n  predictor:\n"
				   "    priorityClassName: crit\n    nodeSelector:\n"
				   "      karpenter.sh/capacity-type: spot\n"
				   "    model:\n      modelFormat: {name: sklearn}\n";
	char top[256], here[4096];
	sl_test_scratch(top, sizeof top, "projects");
	cr_assert_not_null(getcwd(here, sizeof here));
	char a[sizeof top + 8], b[sizeof top + 8], sub[sizeof top + 16], none[sizeof top + 8];
	snprintf(a, sizeof a, "%s/a", top);
	snprintf(b, sizeof b, "%s/b", top);
	snprintf(sub, sizeof sub, "%s/b/sub", top);
	snprintf(none, sizeof none, "%s/none", top);
	cr_assert_eq(mkdir(a, 0777) | mkdir(b, 0777) | mkdir(sub, 0777) | mkdir(none, 0777), 0);
	free(write_in(a, ".schedlint.yaml", "{}\n"));
	free(write_in(a, "pc.yaml", PC));
	free(write_in(b, ".schedlint.yaml", "{}\n"));
	free(write_in(sub, ".schedlint.yaml", "{}\n"));   /* inner: b stays the root */
	char *isvc = write_in(b, "isvc.yaml", ISVC);
	char *root = NULL, *real_b = realpath(b, NULL), *real_a = realpath(a, NULL);
	cr_assert_eq(sl_run_project_root(isvc, &root), SL_OK);
	cr_expect_str_eq(root, real_b);
	free(root);
	cr_assert_eq(sl_run_project_root(sub, &root), SL_OK, "the outermost config");
	cr_expect_str_eq(root, real_b);
	free(root);
	char newfile[sizeof top + 40];
	snprintf(newfile, sizeof newfile, "%s/new/dir/x.yaml", a);   /* not there yet */
	cr_assert_eq(sl_run_project_root(newfile, &root), SL_OK);
	cr_expect_str_eq(root, real_a);
	free(root);
	root = (char *)"x";
	cr_expect_eq(sl_run_project_root(none, &root), SL_ENOTFOUND, "no repository, no config");
	cr_expect_null(root);
	cr_expect_eq(sl_run_project_root(NULL, &root), SL_EUSAGE);

	sl_config *cfg;
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	cr_assert_eq(chdir(a), 0);   /* the editor is in a */
	sl_run_options o = SL_RUN_OPTIONS_INIT;
	o.jobs = 1;
	sl_run *project = NULL;
	cr_assert_eq(sl_run_new(cfg, &o, &project, NULL), SL_OK);
	cr_assert_eq(sl_run_read_project(project, NULL), SL_OK);
	char *mine = write_in(a, "isvc.yaml", ISVC);
	cr_expect_eq(critical_findings(cfg, project, "isvc.yaml", ISVC), 1, "a's own buffer: a's facts");
	cr_expect_eq(critical_findings(cfg, NULL, "isvc.yaml", ISVC), 1);
	cr_expect_eq(critical_findings(cfg, project, isvc, ISVC), 0, "b's buffer, a's project lent");
	cr_expect_eq(critical_findings(cfg, NULL, isvc, ISVC), 0, "b's buffer, read from a");
	snprintf(newfile, sizeof newfile, "%s/x.yaml", none);
	cr_expect_eq(critical_findings(cfg, project, newfile, ISVC), 0, "a buffer in no project");
	cr_assert_eq(chdir(here), 0);
	sl_run_free(project);
	sl_config_free(cfg);
	free(mine);
	free(isvc);
	free(real_a);
	free(real_b);
	sl_test_rm_rf(top);
}

Test(api, run_options_version_1_ends_before_plugins)
{
	/* a program built against the version 1 header has no plugins fields: whatever follows its
	** struct is not read */
	sl_config *cfg = NULL;
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	sl_run_options o = SL_RUN_OPTIONS_INIT;
	o.version = 1;
	o.jobs = 1;
	o.plugins = (const char *const *)&o;   /* garbage a version 1 caller never set */
	o.n_plugins = 3;
	sl_run *run = NULL;
	char *msg = NULL;
	cr_assert_eq(sl_run_new(cfg, &o, &run, &msg), SL_OK, "%s", msg ? msg : "");
	sl_run_free(run);
	/* version 2 reads them: a plugin that does not exist is an error naming it */
	o.version = SL_RUN_OPTIONS_VERSION;
	static const char *const missing[] = {"no-such-plugin.so"};
	o.plugins = missing;
	o.n_plugins = 1;
	cr_assert_eq(sl_run_new(cfg, &o, &run, &msg), SL_EIO);
	cr_assert(strstr(msg, "no-such-plugin.so: error: cannot read the plugin: No such file"), "%s", msg);
	free(msg);
	sl_config_free(cfg);
}

/* sl_run_options.progress (version 3): one call per input file as it is through, never two at
** once, done counting 1, 2, ... up to total, on the run's threads; a version 2 struct has none. */
struct progress_log {
	size_t calls, last_done, last_total;
	int inside, overlapped, out_of_order;
};

static void on_progress(void *ctx, size_t done, size_t total)
{
	struct progress_log *l = ctx;
	if (__atomic_fetch_add(&l->inside, 1, __ATOMIC_SEQ_CST))
		l->overlapped = 1;
	usleep(200);   /* long enough for another thread to come in, were calls not serialized */
	if (done != l->last_done + 1 || done > total)
		l->out_of_order = 1;
	l->calls++;
	l->last_done = done;
	l->last_total = total;
	__atomic_fetch_sub(&l->inside, 1, __ATOMIC_SEQ_CST);
}

Test(api, progress_is_called_once_per_file_one_call_at_a_time)
{
	char dir[256];
	sl_test_scratch(dir, sizeof dir, "progress");
	enum { N = 40 };
	char path[sizeof dir + 32];
	for (int i = 0; i < N; i++) {
		snprintf(path, sizeof path, "%s/p%02d.yaml", dir, i);
		FILE *f = fopen(path, "w");
		cr_assert_not_null(f);
		fputs(i % 2 ? GPU_NO_LIMIT : CLEAN_POD, f);
		fclose(f);
	}
	char kdir[sizeof dir + 8], kpath[sizeof dir + 40];
	snprintf(kdir, sizeof kdir, "%s/k", dir);
	cr_assert_eq(mkdir(kdir, 0777), 0);
	snprintf(kpath, sizeof kpath, "%s/kustomization.yaml", kdir);
	sl_test_spit(kpath, "resources: [pod.yaml]\n", 22);
	snprintf(kpath, sizeof kpath, "%s/pod.yaml", kdir);
	sl_test_spit(kpath, CLEAN_POD, strlen(CLEAN_POD));
	sl_config *cfg;
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	for (int low_memory = 0; low_memory < 2; low_memory++) {
		struct progress_log log = {0};
		sl_run_options o = SL_RUN_OPTIONS_INIT;
		o.jobs = 4;
		o.low_memory = low_memory;
		o.progress = on_progress;
		o.progress_ctx = &log;
		sl_run *run = NULL;
		cr_assert_eq(sl_run_new(cfg, &o, &run, NULL), SL_OK);
		cr_assert_eq(sl_run_add_path(run, dir), SL_OK);
		cr_assert_eq(sl_run_lint(run), SL_OK);
		/* the files the summary counts (a kustomization's build is not one of them) */
		size_t files = sl_run_file_count(run);
		cr_expect_eq(files, N + 2);
		cr_expect_eq(log.calls, files, "low_memory %d: %zu calls", low_memory, log.calls);
		cr_expect_eq(log.last_done, files);
		cr_expect_eq(log.last_total, files);
		cr_expect_not(log.overlapped, "two calls at once");
		cr_expect_not(log.out_of_order, "done did not count up by one");
		sl_run_free(run);
		/* a version 2 struct ends before progress: whatever follows it is not read */
		log = (struct progress_log){0};
		o.version = 2;
		cr_assert_eq(sl_run_new(cfg, &o, &run, NULL), SL_OK);
		cr_assert_eq(sl_run_add_path(run, dir), SL_OK);
		cr_assert_eq(sl_run_lint(run), SL_OK);
		cr_expect_eq(log.calls, 0);
		sl_run_free(run);
	}
	sl_config_free(cfg);
	sl_test_rm_rf(dir);
}

/* A Go template outside a chart: one notice, and no finding of it (its GPU request without a
** limit included). */
static const char TEMPLATED_POD[] =
	"apiVersion: v1\nkind: Pod\nmetadata:\n  name: {{ .Name }}\nspec:\n  containers:\n"
	"    - name: c\n      image: x\n      resources:\n        requests:\n"
	"          nvidia.com/gpu: 1\n";

Test(api, notices_are_apart_from_findings)
{
	sl_config *cfg;
	sl_run *run = linted_buffer(&cfg, "t.yaml", TEMPLATED_POD);
	cr_expect_eq(sl_run_finding_count(run), 0, "a template has no finding");
	cr_assert_eq(sl_run_notice_count(run), 1);
	const sl_finding *n = sl_run_notice(run, 0);
	cr_expect_str_eq(n->rule, "template-not-rendered");
	cr_expect_eq(n->severity, SL_SEV_INFO);
	cr_expect_null(n->fix);
	cr_expect_eq(n->line, 4);
	cr_expect_eq(n->column, 9);
	cr_expect_str_eq(n->path, "t.yaml");
	cr_expect(strstr(n->message, "Go template ({{ .Name }})"), "%s", n->message);
	cr_expect(n->notes && strstr(n->notes, "--stdin-filename t.yaml -"), "%s", n->notes);
	cr_expect_null(sl_run_notice(run, 1));
	cr_expect_null(sl_run_notice(run, (size_t)-1));
	int tr = sl_rule_find("template-not-rendered");
	cr_assert_geq(tr, 0);
	cr_expect_str_eq(sl_rule_notice((size_t)tr, 1), "templated file not linted");
	cr_expect_str_eq(sl_rule_notice((size_t)tr, 3), "templated files not linted");
	cr_expect_null(sl_rule_notice((size_t)sl_rule_find("gpu-request-without-limit"), 1));
	cr_expect_null(sl_rule_notice(sl_rule_count(), 1));
	sl_run_free(run);
	sl_config_free(cfg);
	/* the same file rendered: a finding, no notice */
	run = linted_buffer(&cfg, "t.yaml", GPU_NO_LIMIT);
	cr_expect_eq(sl_run_notice_count(run), 0);
	cr_expect_geq(sl_run_finding_count(run), 1);
	sl_run_free(run);
	sl_config_free(cfg);
}

/* Code points in s[0..n). */
static size_t code_points(const char *s, size_t n)
{
	size_t w = 0;
	for (size_t i = 0; i < n; i++)
		w += ((unsigned char)s[i] & 0xC0) != 0x80;
	return w;
}

Test(api, a_notice_group_is_one_line_of_at_most_160_characters)
{
	sl_config *cfg;
	sl_run *run = new_run(&cfg);
	enum { N = 300 };
	for (int i = 0; i < N; i++) {
		char path[128];
		snprintf(path, sizeof path, "./manifests/state-driver-%03d/asset.yaml", i);
		cr_assert_eq(sl_run_add_buffer(run, path, TEMPLATED_POD, strlen(TEMPLATED_POD)), SL_OK);
	}
	cr_assert_eq(sl_run_lint(run), SL_OK);
	cr_assert_eq(sl_run_notice_count(run), N);
	cr_expect_eq(sl_run_finding_count(run), 0);
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	sl_output_options ro = SL_OUTPUT_OPTIONS_INIT;
	cr_assert_eq(sl_run_write_output(run, &ro, out), SL_OK);
	fclose(out);
	/* the summary, then the group's line, and nothing more */
	const char *line = strchr(text, '\n');
	cr_assert_not_null(line);
	cr_expect(strncmp(text, "No problems found in 300 files.", 31) == 0, "%s", text);
	line++;
	const char *end = strchr(line, '\n');
	cr_assert_not_null(end);
	cr_expect_eq(end[1], '\0', "one line per notice rule:\n%s", text);
	cr_expect(code_points(line, (size_t)(end - line)) <= 160, "%.*s", (int)(end - line), line);
	cr_expect(strncmp(line, "300 templated files not linted: manifests/state-driver-000/asset.yaml, ",
			  71) == 0, "%.*s", (int)(end - line), line);
	/* the files listed and the rest counted make all of them */
	size_t listed = 1;
	for (const char *p = line; (p = strstr(p, ", ")) && p < end; p += 2)
		listed++;
	unsigned more = 0;
	const char *tail = strstr(line, "\xe2\x80\xa6 and ");
	cr_assert(tail && tail < end, "no \"… and K more\": %.*s", (int)(end - line), line);
	cr_assert_eq(sscanf(tail, "\xe2\x80\xa6 and %u more", &more), 1);
	cr_expect_eq(listed - 1 + more, N, "%zu listed and %u more", listed - 1, more);
	free(text);
	sl_run_free(run);
	sl_config_free(cfg);
}

/* The digest of a file's cross-file facts (sl_run_file_facts): 0 for a file that gives the
** others nothing; it changes with what the others read (a PriorityClass's value, where it
** starts, a serving unit's priority class) and not with what they do not (a serving unit's
** image, a comment after the facts). */
static uint64_t facts_of(const char *text)
{
	sl_config *cfg;
	sl_run *run = linted_buffer(&cfg, "facts.yaml", text);
	cr_assert_eq(sl_run_file_count(run), 1);
	uint64_t h = sl_run_file_facts(run, 0);
	cr_expect_eq(sl_run_file_facts(run, 1), 0, "out of range: 0");
	sl_run_free(run);
	sl_config_free(cfg);
	return h;
}

Test(api, the_facts_digest_follows_what_other_files_read)
{
	static const char PC[] = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
				 "metadata:\n  name: high\nvalue: %d\n%s";
	static const char ISVC[] = "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\n"
				   "metadata:\n  name: m\nspec:\n  predictor:\n    priorityClassName: %s\n"
				   "    containers:\n    - name: c\n      image: %s\n";
	char a[512], b[512];
	cr_expect_eq(facts_of(CLEAN_POD), 0, "a Pod gives the other files nothing");
	snprintf(a, sizeof a, PC, 1000, "");
	uint64_t pc = facts_of(a);
	cr_expect_neq(pc, 0);
	snprintf(b, sizeof b, PC, 1000, "# a comment after it\n");
	cr_expect_eq(facts_of(b), pc, "a comment after the object is no fact");
	snprintf(b, sizeof b, PC, 2000, "");
	cr_expect_neq(facts_of(b), pc, "the value is one");
	snprintf(b, sizeof b, "\n%s", a);
	cr_expect_neq(facts_of(b), pc, "so is the line it starts on (messages name it)");
	/* where it lies as an editor is shown another file's fix of it, in lines and characters:
	** not its bytes (a longer line above it), but what precedes it on its first line and
	** follows it on its last (a fix inserting after its last entry writes there) */
	snprintf(b, sizeof b, "# c\n%s", a);
	uint64_t below = facts_of(b);
	snprintf(b, sizeof b, "# a longer comment\n%s", a);
	cr_expect_eq(facts_of(b), below, "a longer line above it moves no line or character");
	snprintf(b, sizeof b, PC, 1000, "");
	b[strlen(b) - 1] = '\0';
	strcat(b, "  # after its last entry\n");
	cr_expect_neq(facts_of(b), pc, "a comment after its last entry, on its line, is one");
	static const char FLOW[] = "%s{apiVersion: scheduling.k8s.io/v1, kind: PriorityClass, "
				   "metadata: {name: high}, value: 1000}\n";
	snprintf(a, sizeof a, FLOW, "--- ");
	snprintf(b, sizeof b, FLOW, "---   ");
	cr_expect_neq(facts_of(a), facts_of(b), "so is the text before it on its first line");
	snprintf(b, sizeof b, FLOW, "--- \r");
	snprintf(a, sizeof a, FLOW, "--- \xc2\x85");
	uint64_t cr = facts_of(b), nel = facts_of(a);
	cr_expect(cr && nel, "both a PriorityClass on the second line");
	cr_expect_neq(cr, nel, "and the lines before it as an editor counts them (NEL ends no LSP line)");
	snprintf(a, sizeof a, ISVC, "high", "x:1");
	uint64_t isvc = facts_of(a);
	cr_expect_neq(isvc, 0, "a serving unit's facts");
	snprintf(b, sizeof b, ISVC, "high", "x:2");
	cr_expect_eq(facts_of(b), isvc, "its image is none of them");
	snprintf(b, sizeof b, ISVC, "low", "x:1");
	cr_expect_neq(facts_of(b), isvc, "its priority class is");
	/* its name only while it is the lowest-priority serving unit (named in other files) */
	char two[1024], renamed[1024];
	static const char ISVC2[] = "apiVersion: serving.kserve.io/v1beta1\nkind: InferenceService\n"
				    "metadata:\n  name: %s\nspec:\n  predictor:\n"
				    "    priorityClassName: %s\n    containers:\n    - name: c\n"
				    "      image: x\n";
	static const char CLASSES[] = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
		"metadata:\n  name: high\nvalue: 10\n---\napiVersion: scheduling.k8s.io/v1\n"
		"kind: PriorityClass\nmetadata:\n  name: top\nvalue: 100\n---\n";
	snprintf(b, sizeof b, ISVC2, "top", "top");
	snprintf(two, sizeof two, "%s%s---\n%s", CLASSES, b, a);   /* m (class high) is lowest */
	snprintf(b, sizeof b, ISVC2, "top-renamed", "top");
	snprintf(renamed, sizeof renamed, "%s%s---\n%s", CLASSES, b, a);
	cr_expect_eq(facts_of(two), facts_of(renamed), "a unit above the lowest: its name is none");
	snprintf(b, sizeof b, ISVC2, "top", "high");
	snprintf(two, sizeof two, "%s%s", "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
		 "metadata:\n  name: high\nvalue: 10\n---\n", b);
	snprintf(b, sizeof b, ISVC2, "top-renamed", "high");
	snprintf(renamed, sizeof renamed, "%s%s", "apiVersion: scheduling.k8s.io/v1\nkind: "
		 "PriorityClass\nmetadata:\n  name: high\nvalue: 10\n---\n", b);
	cr_expect_neq(facts_of(two), facts_of(renamed), "the lowest unit: its name is one");
}

/* The facts one by one (sl_run_file_fact_digests) and what each file read of them
** (sl_run_file_reads): a PriorityClass's value is read by the Pod that names the class, not by
** one that names another, nor by a Deployment that names none; a comment is no fact. */
static const char PCS[] = "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\n"
			  "metadata:\n  name: high\nvalue: %d\n---\napiVersion: scheduling.k8s.io/v1\n"
			  "kind: PriorityClass\nmetadata:\n  name: low\nvalue: %d\n%s";
static const char *const READERS[][2] = {
	{"high.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: a\nspec:\n"
		      "  priorityClassName: high\n  containers: [{name: c, image: x}]\n"},
	{"low.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: b\nspec:\n"
		     "  priorityClassName: low\n  containers: [{name: c, image: x}]\n"},
	{"none.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n"
		      "  template:\n    spec:\n      containers: [{name: c, image: x}]\n"}};

/* The run over the classes (file 0) and READERS, reads recorded; the classes' digests. */
static sl_run *read_run(sl_config **cfg, int high, int low, const char *tail, sl_fact_digest **d,
			size_t *n)
{
	char pcs[512];
	snprintf(pcs, sizeof pcs, PCS, high, low, tail);
	sl_run *run = new_run(cfg);
	cr_assert_eq(sl_run_add_buffer(run, "classes.yaml", pcs, strlen(pcs)), SL_OK);
	for (size_t i = 0; i < 3; i++)
		cr_assert_eq(sl_run_add_buffer(run, READERS[i][0], READERS[i][1],
					       strlen(READERS[i][1])), SL_OK);
	cr_assert_eq(sl_run_file_record_reads(run), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	sl_file_info info = SL_FILE_INFO_INIT;
	cr_assert_eq(sl_run_file(run, 0, &info), SL_OK);
	cr_assert_str_eq(info.path, "classes.yaml");
	cr_assert_eq(sl_run_file_fact_digests(run, 0, d, n), SL_OK);
	return run;
}

/* How many keys of reads[0..nr) have digests that differ between a and b. */
static size_t changed_read(const sl_fact_digest *a, size_t na, const sl_fact_digest *b,
			   size_t nb, const uint64_t *reads, size_t nr)
{
	size_t k = 0;
	for (size_t r = 0; r < nr; r++) {
		uint64_t da = 0, db = 0;
		for (size_t i = 0; i < na; i++)
			da = a[i].key == reads[r] ? a[i].digest : da;
		for (size_t i = 0; i < nb; i++)
			db = b[i].key == reads[r] ? b[i].digest : db;
		k += da != db;
	}
	return k;
}

Test(api, a_fact_is_read_by_the_files_whose_rules_ask_for_it)
{
	sl_config *cfg;
	sl_fact_digest *was, *now;
	size_t nw, nn;
	sl_run *run = read_run(&cfg, 1000, 10, "", &was, &nw);
	cr_assert_gt(nw, 0);
	for (size_t i = 1; i < nw; i++)
		cr_expect_lt(was[i - 1].key, was[i].key, "sorted by key, each once");
	uint64_t *reads[3];
	size_t nr[3];
	for (size_t i = 0; i < 3; i++) {
		sl_file_info info = SL_FILE_INFO_INIT;
		cr_assert_eq(sl_run_file(run, i + 1, &info), SL_OK);
		cr_assert_str_eq(info.path, READERS[i][0]);
		cr_assert_eq(sl_run_file_reads(run, i + 1, &reads[i], &nr[i]), SL_OK);
		for (size_t k = 1; k < nr[i]; k++)
			cr_expect_lt(reads[i][k - 1], reads[i][k]);
	}
	uint64_t *none;
	size_t n0;
	cr_expect_eq(sl_run_file_reads(run, 4, &none, &n0), SL_EUSAGE, "out of range");
	cr_expect_eq(sl_run_file_fact_digests(run, 4, &now, &nn), SL_EUSAGE);
	sl_run_free(run);
	sl_config_free(cfg);
	/* the value of high: the Pod that names it reads a changed fact, the others none */
	run = read_run(&cfg, 2000, 10, "", &now, &nn);
	cr_expect_gt(changed_read(was, nw, now, nn, reads[0], nr[0]), 0, "high's reader");
	cr_expect_eq(changed_read(was, nw, now, nn, reads[1], nr[1]), 0, "low's reader");
	cr_expect_eq(changed_read(was, nw, now, nn, reads[2], nr[2]), 0, "no class read");
	free(now);
	sl_run_free(run);
	sl_config_free(cfg);
	/* the value of low: its reader only */
	run = read_run(&cfg, 1000, 20, "", &now, &nn);
	cr_expect_eq(changed_read(was, nw, now, nn, reads[0], nr[0]), 0);
	cr_expect_gt(changed_read(was, nw, now, nn, reads[1], nr[1]), 0);
	cr_expect_eq(changed_read(was, nw, now, nn, reads[2], nr[2]), 0);
	free(now);
	sl_run_free(run);
	sl_config_free(cfg);
	/* a comment after them: the same facts */
	run = read_run(&cfg, 1000, 10, "# a comment\n", &now, &nn);
	cr_expect(nn == nw && memcmp(now, was, nw * sizeof *was) == 0, "a comment is no fact");
	free(now);
	sl_run_free(run);
	sl_config_free(cfg);
	for (size_t i = 0; i < 3; i++)
		free(reads[i]);
	free(was);
	/* not recorded: not known; a streaming run cannot record them */
	run = linted_buffer(&cfg, "high.yaml", READERS[0][1]);
	cr_expect_eq(sl_run_file_reads(run, 0, &none, &n0), SL_EUSAGE, "not recorded");
	cr_expect_eq(sl_run_file_fact_digests(run, 0, &now, &nn), SL_OK);
	cr_expect(nn == 0 && !now, "a Pod gives the others nothing");
	sl_run_free(run);
	sl_config_free(cfg);
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	sl_run_options o = SL_RUN_OPTIONS_INIT;
	o.low_memory = true;
	cr_assert_eq(sl_run_new(cfg, &o, &run, NULL), SL_OK);
	cr_expect_eq(sl_run_file_record_reads(run), SL_EUSAGE);
	sl_run_free(run);
	sl_config_free(cfg);
}

/* sl_file_info version 2 says which files a build uses (built): a patch named with its
** kustomization, and the kustomization that built (its findings are its build's); a version 1
** struct is filled as far as it
** reaches, never past it. */
Test(api, file_info_says_what_a_build_uses)
{
	char dir[256], path[512];
	sl_test_scratch(dir, sizeof dir, "api-built");
	static const char *const files[][2] = {
		{"kustomization.yaml", "resources:\n- deploy.yaml\npatches:\n- path: patch.yaml\n"},
		{"deploy.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n"
				"  template:\n    spec:\n      containers:\n      - name: c\n        image: x\n"},
		{"patch.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d\nspec:\n"
			       "  replicas: 2\n"}};
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[i][0]);
		FILE *f = fopen(path, "w");
		cr_assert_not_null(f);
		fputs(files[i][1], f);
		fclose(f);
	}
	sl_config *cfg;
	sl_run *run = new_run(&cfg);
	snprintf(path, sizeof path, "%s/kustomization.yaml", dir);
	cr_assert_eq(sl_run_add_path(run, path), SL_OK);
	snprintf(path, sizeof path, "%s/patch.yaml", dir);
	cr_assert_eq(sl_run_add_path(run, path), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	int seen = 0;
	for (size_t i = 0; i < sl_run_file_count(run); i++) {
		sl_file_info info = SL_FILE_INFO_INIT;
		cr_assert_eq(sl_run_file(run, i, &info), SL_OK);
		if (strstr(info.path, "/patch.yaml")) {
			cr_expect(info.built, "the patch is the build's");
			seen |= 1;
		}
		if (strstr(info.path, "/kustomization.yaml")) {
			cr_expect(info.built, "the kustomization is built");
			seen |= 2;
		}
		struct { sl_file_info v1; unsigned char after; } old;
		memset(&old, 0xAB, sizeof old);
		old.v1.version = 1;
		cr_assert_eq(sl_run_file(run, i, &old.v1), SL_OK);
		cr_expect_eq(*(unsigned char *)&old.v1.built, 0xAB, "a version 1 struct ends before built");
		cr_expect_eq(sl_run_file(run, 99, &old.v1), SL_EUSAGE);
		cr_expect_eq(*(unsigned char *)&old.v1.built, 0xAB, "not even zeroed past version 1");
	}
	cr_expect_eq(seen, 3, "both files listed");
	sl_run_free(run);
	sl_config_free(cfg);
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof path, "%s/%s", dir, files[i][0]);
		unlink(path);
	}
	rmdir(dir);
}

/* A project whose root is above the working directory names its files below it from there, as
** an input is named: a cross-file fix in the working directory's config-features.yaml edits
** "config-features.yaml", not "../place/config-features.yaml" (nor "../../proj/place/..."). */
Test(api, a_project_above_names_its_files_here_from_here)
{
	static const char KSVC[] = "apiVersion: serving.knative.dev/v1\nkind: Service\n"
				   "metadata:\n  name: ocr\nspec:\n  template:\n    spec:\n"
				   "      nodeSelector:\n        pool: cpu\n"
				   "      containers:\n        - image: ocr\n";
	static const char FLAGS[] = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n"
				    "  name: config-features\n  namespace: knative-serving\ndata:\n"
				    "  kubernetes.podspec-nodeselector: \"Disabled\"\n";
	char dir[256], sub[300], p[400];
	sl_test_scratch(dir, sizeof dir, "api");
	snprintf(sub, sizeof sub, "%s/place", dir);
	cr_assert_eq(mkdir(sub, 0700), 0);
	const char *names[3] = {".schedlint.yaml", "place/service.yaml", "place/config-features.yaml"};
	const char *texts[3] = {"{}\n", KSVC, FLAGS};
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		FILE *f = fopen(p, "w");
		cr_assert_not_null(f);
		fputs(texts[i], f);
		fclose(f);
	}
	char here[4096];
	cr_assert_not_null(getcwd(here, sizeof here));
	cr_assert_eq(chdir(sub), 0);
	sl_config *cfg;
	cr_assert_eq(sl_config_new_default(&cfg), SL_OK);
	sl_run_options o = SL_RUN_OPTIONS_INIT;
	o.jobs = 1;
	sl_run *run = NULL;
	cr_assert_eq(sl_run_new(cfg, &o, &run, NULL), SL_OK);
	cr_assert_eq(sl_run_add_path(run, "service.yaml"), SL_OK);
	cr_assert_eq(sl_run_add_project(run, NULL), SL_OK);
	cr_assert_eq(sl_run_lint(run), SL_OK);
	size_t edits = 0;
	for (size_t i = 0; i < sl_run_finding_count(run); i++) {
		const sl_fix *fx = sl_run_finding(run, i)->fix;
		for (size_t e = 0; fx && e < fx->n_edits; e++)
			if (strstr(fx->edits[e].path, "config-features")) {
				cr_expect_str_eq(fx->edits[e].path, "config-features.yaml");
				edits++;
			}
	}
	cr_expect_gt(edits, 0, "a fix edits the flags' ConfigMap");
	sl_run_free(run);
	sl_config_free(cfg);
	cr_assert_eq(chdir(here), 0);
	for (int i = 2; i >= 0; i--) {
		snprintf(p, sizeof p, "%s/%s", dir, names[i]);
		unlink(p);
	}
	rmdir(sub);
	rmdir(dir);
}
