/* SPDX-License-Identifier: Apache-2.0
** plugin.c: loading C plugins (plugin.h). A shared object's constructors run inside dlopen, so
** the ABI check cannot ask the plugin: it reads the ELF file first (its section headers, the
** section "schedlint_abi" that SL_PLUGIN_ABI emits: a magic and the version) and dlopens only a
** plugin built for this SDK's SL_RULE_ABI_VERSION. Then it calls schedlint_plugin(abi) and adds
** each rule, wrapped in the engine's struct sl_rule, to the registry. A loaded plugin is never
** unloaded: its rules stay in the registry, and its code with them. */
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "util/arena.h"
#include "extend/plugin.h"
#include "config/registry.h"
#include "sdk/rule.h"
#include "schedlint/rule.h"
#include "yaml/source.h"

/* The ABI version in the ELF file at path: >= 0, or -1 with *why set (-2: it cannot be read). */
static long abi_of(const char *path, const char **why)
{
	FILE *fp = fopen(path, "rb");
	if (!fp) {
		*why = strerror(errno);
		return -2;
	}
	long abi = -1;
	Elf64_Ehdr eh;
	*why = "not a 64-bit ELF shared object";
	if (fread(&eh, sizeof eh, 1, fp) != 1 || memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
	    eh.e_shnum == 0 || eh.e_shstrndx >= eh.e_shnum || eh.e_shnum > 4096) {
		fclose(fp);
		return -1;
	}
	Elf64_Shdr *sh = sl_xcalloc(eh.e_shnum, sizeof *sh);
	char *names = NULL;
	*why = "it has no schedlint_abi section: not built with SL_PLUGIN_ABI (schedlint/rule.h)";
	if (!sh || fseek(fp, (long)eh.e_shoff, SEEK_SET) != 0 ||
	    fread(sh, sizeof *sh, eh.e_shnum, fp) != eh.e_shnum)
		goto out;
	const Elf64_Shdr *strs = &sh[eh.e_shstrndx];
	if (strs->sh_size > (1u << 20) || !(names = sl_xcalloc(1, strs->sh_size + 1)) ||
	    fseek(fp, (long)strs->sh_offset, SEEK_SET) != 0 ||
	    fread(names, 1, strs->sh_size, fp) != strs->sh_size)
		goto out;
	for (unsigned i = 0; i < eh.e_shnum; i++) {
		if (sh[i].sh_name >= strs->sh_size || strcmp(names + sh[i].sh_name, "schedlint_abi") != 0)
			continue;
		sl_plugin_abi a;
		if (sh[i].sh_size < sizeof a || fseek(fp, (long)sh[i].sh_offset, SEEK_SET) != 0 ||
		    fread(&a, sizeof a, 1, fp) != 1 || memcmp(a.magic, SL_PLUGIN_ABI_MAGIC, 8) != 0) {
			*why = "its schedlint_abi section is not SL_PLUGIN_ABI's";
			goto out;
		}
		abi = a.abi_version;
		break;
	}
out:
	free(names);
	free(sh);
	fclose(fp);
	return abi;
}

/* A plugin rule as the engine's rule: the descriptor first, so sl_ctx_rule finds the plugin's. */
struct wrapped {
	struct sl_rule rule;
	const sl_plugin_rule *pr;
};

static bool valid_id(const char *id)
{
	const char *slash = id ? strchr(id, '/') : NULL;
	if (!slash || slash == id || !slash[1] || strchr(slash + 1, '/'))
		return false;
	for (const char *p = id; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || strchr("-._/", *p)))
			return false;
	return true;
}

sl_err sl_plugin_load(const char *path, int **idx, size_t *n, char **error_out)
{
	*idx = NULL;
	*n = 0;
	const char *why = NULL;
	long abi = abi_of(path, &why);
	if (abi < 0) {
		*error_out = sl_xprintf(abi == -2 ? "%s: error: cannot read the plugin: %s"
					: "%s: error: not a schedlint plugin: %s", path, why);
		return abi == -2 ? SL_EIO : SL_ECONFIG;
	}
	if (abi != SL_RULE_ABI_VERSION) {
		*error_out = sl_xprintf("%s: error: the plugin was built for rule ABI %ld, this schedlint "
					"has rule ABI %d: rebuild it against this schedlint's "
					"schedlint/rule.h (it was not loaded)", path, abi,
					SL_RULE_ABI_VERSION);
		return SL_ECONFIG;
	}
	/* a path without '/' would be looked up in the library path: name the file */
	char *real = realpath(path, NULL);
	if (!real) {
		*error_out = sl_xprintf("%s: error: %s", path, strerror(errno));
		return SL_EIO;
	}
	void *h = dlopen(real, RTLD_NOW | RTLD_LOCAL);
	free(real);
	if (!h) {
		*error_out = sl_xprintf("%s: error: cannot load the plugin: %s", path, dlerror());
		return SL_ECONFIG;
	}
	sl_plugin_fn fn;
	*(void **)&fn = dlsym(h, "schedlint_plugin");
	const sl_plugin *p = fn ? fn(SL_RULE_ABI_VERSION) : NULL;
	if (!p || p->abi_version != SL_RULE_ABI_VERSION || (p->n_rules && !p->rules)) {
		*error_out = sl_xprintf("%s: error: %s", path, !fn ? "the plugin exports no "
					"schedlint_plugin()" : "schedlint_plugin() returned no table for "
					"this rule ABI");
		return SL_ECONFIG;
	}
	if (!(*idx = sl_xcalloc(p->n_rules + 1, sizeof **idx)))
		return SL_ENOMEM;
	for (size_t i = 0; i < p->n_rules; i++) {
		const sl_plugin_rule *pr = &p->rules[i];
		sl_err err = SL_OK;
		if (!valid_id(pr->id))
			*error_out = sl_xprintf("%s: error: plugin %s: rule id \"%s\" needs a namespace "
						"(\"acme/name\", lower-case)", path, p->name ? p->name : "",
						pr->id ? pr->id : ""), err = SL_ECONFIG;
		else if (sl_registry_find(pr->id) >= 0 && (size_t)sl_registry_find(pr->id) < sl_registry_count)
			*error_out = sl_xprintf("%s: error: plugin rule id \"%s\" is a built-in rule's",
						path, pr->id), err = SL_ECONFIG;
		else if (!pr->summary || (!pr->check_object == !pr->check_unit))
			*error_out = sl_xprintf("%s: error: plugin rule \"%s\" needs a summary and one of "
						"check_object, check_unit", path, pr->id), err = SL_ECONFIG;
		struct wrapped *w = err ? NULL : sl_xcalloc(1, sizeof *w);
		char *key = w ? sl_xprintf("plugin %s", path) : NULL;
		if (!err && !key)
			err = SL_ENOMEM;
		if (err) {
			free(w);
			free(*idx);
			*idx = NULL;
			*n = 0;
			return err;
		}
		w->pr = pr;
		w->rule = (struct sl_rule){
			.id = pr->id,
			.category = sl_xprintf("%.*s", (int)(strchr(pr->id, '/') - pr->id), pr->id),
			.summary = pr->summary,
			.severity = pr->severity,
			.fix = pr->fix,
			.check_object = pr->check_object,
			.check_unit = pr->check_unit,
		};
		bool added = false;
		int ri = sl_registry_add(&w->rule, pr->doc ? pr->doc : pr->summary, key + 7, key, &added);
		if (!added) {   /* loaded before: the registry has it */
			free((char *)w->rule.category);
			free(w);
			free(key);
		}
		if (ri < 0) {
			*error_out = sl_xprintf("%s: error: too many added rules (at most %d)", path,
						SL_REGISTRY_ADDED_MAX);
			return SL_ECONFIG;
		}
		(*idx)[(*n)++] = ri;
	}
	return SL_OK;
}
