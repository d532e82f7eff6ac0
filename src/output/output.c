/* SPDX-License-Identifier: Apache-2.0
** output.c: which writer writes a format, and its name on the command line. */
#include "output/output.h"

static const struct {
	sl_format format;
	const char *name;
	sl_err (*write)(const sl_output_run *run, const sl_output_options *opts, FILE *out);
} writers[] = {
	{SL_FORMAT_TEXT, "text", sl_text_write},
	{SL_FORMAT_JSON, "json", sl_json_write},
	{SL_FORMAT_SARIF, "sarif", sl_sarif_write},
	{SL_FORMAT_GITHUB, "github", sl_github_write},
	{SL_FORMAT_GITLAB, "gitlab", sl_gitlab_write},
	{SL_FORMAT_JUNIT, "junit", sl_junit_write},
	{SL_FORMAT_MARKDOWN, "markdown", sl_markdown_write},
};
#define N_WRITERS (sizeof writers / sizeof writers[0])

sl_err sl_output_write(const sl_output_run *run, const sl_output_options *opts, FILE *out)
{
	for (size_t i = 0; i < N_WRITERS; i++)
		if (writers[i].format == opts->format)
			return writers[i].write(run, opts, out);
	return SL_EUSAGE;
}

const char *sl_output_format_name(size_t i, sl_format *format)
{
	if (i >= N_WRITERS)
		return NULL;
	if (format)
		*format = writers[i].format;
	return writers[i].name;
}
