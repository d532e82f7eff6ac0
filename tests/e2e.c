/* SPDX-License-Identifier: Apache-2.0
** e2e.c: the command line end to end, one Criterion test per case (Criterion runs them in
** parallel, and a failure names its case). Each testdata/e2e/<case>/ holds
**   cmd      a shell script run in the case directory with $SCHEDLINT (the binary) and $T (a
**            fresh scratch directory) set
**   stdin    optional: fed to it (else /dev/null)
**   stdout   the exact expected standard output
**   exit     the expected exit status
**   stderr   optional: the exact expected standard error
** A new case is a new directory: the cases are listed when the test program starts.
** In the sanitizer build a leak or UB report changes the exit status, so it fails here too.
** SL_UPDATE_GOLDEN=1 rewrites stdout, exit (and stderr where present). */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "support.h"

#define CASES "testdata/e2e"

static int run_case(const char *exe, const char *name, int update)
{
	char dir[4096], tmp[4096], cmd[16384], p[4096];
	snprintf(dir, sizeof dir, CASES "/%s", name);
	sl_test_scratch(tmp, sizeof tmp, "e2e");
	snprintf(p, sizeof p, "%s/stdin", dir);
	int has_stdin = access(p, R_OK) == 0;
	snprintf(cmd, sizeof cmd, "cd '%s' && SCHEDLINT='%s' T='%s' sh ./cmd < %s > '%s/.out' 2> '%s/.err'",
		 dir, exe, tmp, has_stdin ? "stdin" : "/dev/null", tmp, tmp);
	int st = system(cmd);
	int code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	char outp[4096], errp[4096];
	snprintf(outp, sizeof outp, "%s/.out", tmp);
	snprintf(errp, sizeof errp, "%s/.err", tmp);
	char *out = sl_test_slurp(outp, NULL), *err = sl_test_slurp(errp, NULL);
	int failed = 0;
	char want_path[4096];
	snprintf(want_path, sizeof want_path, "%s/stderr", dir);
	int check_err = access(want_path, R_OK) == 0;
	if (update) {
		char buf[32];
		snprintf(p, sizeof p, "%s/stdout", dir);
		sl_test_spit(p, out, strlen(out));
		snprintf(p, sizeof p, "%s/exit", dir);
		snprintf(buf, sizeof buf, "%d\n", code);
		sl_test_spit(p, buf, strlen(buf));
		if (check_err)
			sl_test_spit(want_path, err, strlen(err));
	}
	snprintf(p, sizeof p, "%s/exit", dir);
	char *want_exit = sl_test_slurp(p, NULL);
	if (!want_exit || atoi(want_exit) != code) {
		failed = 1;
		cr_log_error("e2e %s: exit %d, expected %s\nstderr:\n%s", name, code,
			     want_exit ? want_exit : "(no exit file)", err);
	}
	snprintf(p, sizeof p, "%s/stdout", dir);
	char *want_out = sl_test_slurp(p, NULL);
	if (!want_out || strcmp(want_out, out) != 0) {
		failed = 1;
		cr_log_error("e2e %s: stdout differs\n--- expected\n%s--- got\n%s", name,
			     want_out ? want_out : "(no stdout file)", out);
	}
	if (check_err) {
		char *want_err = sl_test_slurp(want_path, NULL);
		if (strcmp(want_err, err) != 0) {
			failed = 1;
			cr_log_error("e2e %s: stderr differs\n--- expected\n%s--- got\n%s", name, want_err, err);
		}
		free(want_err);
	}
	free(want_exit);
	free(want_out);
	free(out);
	free(err);
	sl_test_rm_rf(tmp);
	return failed;
}

/* One case: its directory's name (in Criterion's shared memory, as parameters must be). */
struct e2e_case {
	char name[256];
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct e2e_case *)a)->name, ((const struct e2e_case *)b)->name);
}

static void free_cases(struct criterion_test_params *p)
{
	cr_free(p->params);
}

/* The directories of testdata/e2e, sorted (none when it cannot be read: cases_exist fails). */
ParameterizedTestParameters(e2e, run)
{
	size_t n = 0, cap = 0;
	struct dirent *de;
	DIR *d = opendir(CASES);
	while (d && (de = readdir(d)))
		cap++;
	struct e2e_case *cases = cap ? cr_malloc(cap * sizeof *cases) : NULL;
	if (d)
		rewinddir(d);
	while (cases && (de = readdir(d)) && n < cap) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= sizeof cases->name)
			continue;
		strcpy(cases[n++].name, de->d_name);
	}
	if (d)
		closedir(d);
	if (n > 1)
		qsort(cases, n, sizeof *cases, by_name);
	return cr_make_param_array(struct e2e_case, cases, n, free_cases);
}

ParameterizedTest(struct e2e_case *c, e2e, run)
{
	const char *exe = getenv("SCHEDLINT");
	cr_assert(exe, "SCHEDLINT (the built binary) is not set");
	cr_assert_eq(run_case(exe, c->name, getenv("SL_UPDATE_GOLDEN") != NULL), 0,
		     "e2e case %s failed (details above)", c->name);
}

/* The listing above found the cases (a name too long to hold would be skipped: none is). */
Test(e2e, cases_exist)
{
	DIR *d = opendir(CASES);
	cr_assert(d, CASES " is missing (run from the project root)");
	size_t n = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		n++;
		cr_expect_lt(strlen(de->d_name), sizeof ((struct e2e_case *)0)->name,
			     "case name too long: %s", de->d_name);
	}
	closedir(d);
	cr_expect_gt(n, 0, "no case in " CASES);
}
