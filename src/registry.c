/* SPDX-License-Identifier: Apache-2.0
** registry.c: lookups over the generated rule table, and the public catalogue API. */
#include <string.h>
#include "schedlint/rules.h"
#include "registry.h"
#include "spelling.h"

int sl_registry_find(const char *id)
{
	size_t lo = 0, hi = sl_registry_count;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(sl_registry[mid].rule->id, id);
		if (c == 0)
			return (int)mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

bool sl_registry_known(const char *sel)
{
	for (size_t i = 0; sel && i < sl_registry_count; i++)
		if (strcmp(sl_registry[i].rule->id, sel) == 0 ||
		    strcmp(sl_registry[i].rule->category, sel) == 0)
			return true;
	return false;
}

const char *sl_registry_closest(const char *sel)
{
	sl_spelling s;
	sl_spelling_init(&s, sel);
	for (size_t i = 0; i < sl_registry_count; i++) {
		sl_spelling_consider(&s, sl_registry[i].rule->id);
		sl_spelling_consider(&s, sl_registry[i].rule->category);
	}
	return sl_spelling_best(&s);
}

size_t sl_rule_count(void)
{
	return sl_registry_count;
}

sl_err sl_rule_get(size_t i, sl_rule_info *out)
{
	if (i >= sl_registry_count)
		return SL_ENOTFOUND;
	const struct sl_rule *r = sl_registry[i].rule;
	out->id = r->id;
	out->category = r->category;
	out->summary = r->summary;
	out->doc = sl_registry[i].doc;
	out->severity = r->severity;
	out->enabled_by_default = !r->off_by_default;
	out->fix = r->fix;
	return SL_OK;
}

int sl_rule_find(const char *id)
{
	return sl_registry_find(id);
}
