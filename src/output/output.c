/* SPDX-License-Identifier: Apache-2.0
** output.c: which writer writes a format. */
#include "output/output.h"

static const struct {
	sl_format format;
	sl_err (*write)(const sl_output_run *run, const sl_report_options *opts, FILE *out);
} writers[] = {
	{SL_FORMAT_TEXT, sl_report_text},
	{SL_FORMAT_JSON, sl_report_json},
	{SL_FORMAT_SARIF, sl_report_sarif},
	{SL_FORMAT_GITHUB, sl_report_github},
};

sl_err sl_output_write(const sl_output_run *run, const sl_report_options *opts, FILE *out)
{
	for (size_t i = 0; i < sizeof writers / sizeof writers[0]; i++)
		if (writers[i].format == opts->format)
			return writers[i].write(run, opts, out);
	return SL_EUSAGE;
}
