/* SPDX-License-Identifier: Apache-2.0
** output.c: which writer writes a format. */
#include "output/output.h"

static const struct {
	sl_format format;
	sl_err (*write)(const sl_output_run *run, const sl_output_options *opts, FILE *out);
} writers[] = {
	{SL_FORMAT_TEXT, sl_text_write},
	{SL_FORMAT_JSON, sl_json_write},
	{SL_FORMAT_SARIF, sl_sarif_write},
	{SL_FORMAT_GITHUB, sl_github_write},
};

sl_err sl_output_write(const sl_output_run *run, const sl_output_options *opts, FILE *out)
{
	for (size_t i = 0; i < sizeof writers / sizeof writers[0]; i++)
		if (writers[i].format == opts->format)
			return writers[i].write(run, opts, out);
	return SL_EUSAGE;
}
