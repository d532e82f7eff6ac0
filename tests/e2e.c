/* SPDX-License-Identifier: Apache-2.0
** e2e.c: the command line end to end. Each testdata/e2e/<case>/ holds
**   cmd      a shell script run in the case directory with $SCHEDLINT (the binary) and $T (a
**            fresh scratch directory) set
**   stdin    optional: fed to it (else /dev/null)
**   stdout   the exact expected standard output
**   exit     the expected exit status
**   stderr   optional: the exact expected standard error
** In the sanitizer build a leak or UB report changes the exit status, so it fails here too.
** SL_UPDATE_GOLDEN=1 rewrites stdout, exit (and stderr where present). */
#include <criterion/criterion.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "support.h"

static int run_case(const char *exe, const char *name, int update)
{
	char dir[4096], tmpl[] = "/tmp/schedlint-e2e-XXXXXX", cmd[16384], p[4096];
	snprintf(dir, sizeof dir, "testdata/e2e/%s", name);
	char *tmp = mkdtemp(tmpl);
	cr_assert(tmp);
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
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp);
	if (system(cmd) != 0)
		cr_log_warn("could not remove %s", tmp);
	return failed;
}

Test(e2e, every_case)
{
	const char *exe = getenv("SCHEDLINT");
	cr_assert(exe, "SCHEDLINT (the built binary) is not set");
	DIR *d = opendir("testdata/e2e");
	cr_assert(d, "testdata/e2e is missing");
	int update = getenv("SL_UPDATE_GOLDEN") != NULL, cases = 0, failures = 0;
	struct dirent *de;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		cases++;
		failures += run_case(exe, de->d_name, update);
	}
	closedir(d);
	cr_expect_gt(cases, 0);
	cr_expect_eq(failures, 0, "%d of %d e2e cases failed (details above)", failures, cases);
}
