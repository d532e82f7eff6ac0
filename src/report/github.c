/* SPDX-License-Identifier: Apache-2.0
** github.c: GitHub Actions workflow commands (placeholder until the reporter lands). */
#include "report/report.h"

sl_err sl_report_github(const sl_run *run, const sl_report_options *opts, FILE *out)
{
	(void)run; (void)opts; (void)out;
	return SL_EUSAGE;
}
