/* SPDX-License-Identifier: Apache-2.0
** registry.c: lookups over the generated rule table, and the public catalogue API. */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include "schedlint/rules.h"
#include "config/registry.h"
#include "util/spelling.h"

struct added {
	struct sl_rule_entry entry;
	const char *key;
};
static struct added added_rules[SL_REGISTRY_ADDED_MAX];
static atomic_size_t n_added;   /* entries below it are complete and never change */
static pthread_mutex_t add_lock = PTHREAD_MUTEX_INITIALIZER;

size_t sl_registry_n(void)
{
	return sl_registry_count + atomic_load(&n_added);
}

const struct sl_rule_entry *sl_registry_at(size_t i)
{
	return i < sl_registry_count ? &sl_registry[i] : &added_rules[i - sl_registry_count].entry;
}

size_t sl_registry_capacity(void)
{
	return sl_registry_count + SL_REGISTRY_ADDED_MAX;
}

int sl_registry_add(const struct sl_rule *rule, const char *doc, const char *file, const char *key,
		    bool *added)
{
	*added = false;
	pthread_mutex_lock(&add_lock);
	size_t n = atomic_load(&n_added);
	int idx = -1;
	for (size_t i = 0; i < n && idx < 0; i++)
		if (strcmp(added_rules[i].entry.rule->id, rule->id) == 0 &&
		    strcmp(added_rules[i].key, key) == 0)
			idx = (int)(sl_registry_count + i);
	if (idx < 0 && n < SL_REGISTRY_ADDED_MAX) {
		added_rules[n] = (struct added){{rule, doc, file}, key};
		atomic_store(&n_added, n + 1);
		idx = (int)(sl_registry_count + n);
		*added = true;
	}
	pthread_mutex_unlock(&add_lock);
	return idx;
}

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
	for (size_t i = sl_registry_count; id && i < sl_registry_n(); i++)
		if (strcmp(sl_registry_at(i)->rule->id, id) == 0)
			return (int)i;
	return -1;
}

bool sl_registry_known(const char *sel)
{
	for (size_t i = 0; sel && i < sl_registry_n(); i++)
		if (strcmp(sl_registry_at(i)->rule->id, sel) == 0 ||
		    strcmp(sl_registry_at(i)->rule->category, sel) == 0)
			return true;
	return false;
}

const char *sl_registry_closest(const char *sel)
{
	sl_spelling s;
	sl_spelling_init(&s, sel);
	for (size_t i = 0; i < sl_registry_n(); i++) {
		sl_spelling_consider(&s, sl_registry_at(i)->rule->id);
		sl_spelling_consider(&s, sl_registry_at(i)->rule->category);
	}
	return sl_spelling_best(&s);
}

const char *sl_rule_closest(const char *word)
{
	sl_spelling s;
	sl_spelling_init(&s, word);
	for (size_t i = 0; i < sl_registry_n(); i++)
		sl_spelling_consider(&s, sl_registry_at(i)->rule->id);
	return sl_spelling_best(&s);
}

size_t sl_rule_count(void)
{
	return sl_registry_n();
}

sl_err sl_rule_get(size_t i, sl_rule_info *out)
{
	if (out->version < 1 || out->version > SL_RULE_INFO_VERSION)
		return SL_EUSAGE;
	if (i >= sl_registry_n())
		return SL_ENOTFOUND;
	const struct sl_rule *r = sl_registry_at(i)->rule;
	out->id = r->id;
	out->category = r->category;
	out->summary = r->summary;
	out->doc = sl_registry_at(i)->doc;
	out->severity = r->severity;
	out->enabled_by_default = !r->off_by_default;
	out->fix = r->fix;
	return SL_OK;
}

const char *sl_rule_notice(size_t i, size_t n)
{
	if (i >= sl_registry_n())
		return NULL;
	const struct sl_rule *r = sl_registry_at(i)->rule;
	return r->notice[0] ? r->notice[n == 1 ? 0 : 1] : NULL;
}

int sl_rule_find(const char *id)
{
	return sl_registry_find(id);
}
