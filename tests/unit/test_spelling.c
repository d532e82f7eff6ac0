/* SPDX-License-Identifier: Apache-2.0
** test_spelling.c: the did-you-mean search (src/util/spelling.c): its distance, its threshold, ties
** and case, and the registry's closest rule id or category built on it. */
#include <criterion/criterion.h>
#include <stdint.h>
#include <string.h>
#include "config/registry.h"
#include "util/spelling.h"

Test(spelling, distance)
{
	cr_expect_eq(sl_spelling_distance("", ""), 0);
	cr_expect_eq(sl_spelling_distance("abc", ""), 3);
	cr_expect_eq(sl_spelling_distance("", "abc"), 3);
	cr_expect_eq(sl_spelling_distance("nodeselectr", "nodeselector"), 1);    /* insertion */
	cr_expect_eq(sl_spelling_distance("tolerationss", "tolerations"), 1);    /* deletion */
	cr_expect_eq(sl_spelling_distance("affinitx", "affinity"), 1);          /* substitution */
	cr_expect_eq(sl_spelling_distance("afifnity", "affinity"), 1);          /* transposition */
	cr_expect_eq(sl_spelling_distance("kitten", "sitting"), 3);
	cr_expect_eq(sl_spelling_distance("ca", "abc"), 3);   /* OSA: no edit of a transposed pair */
	cr_expect_eq(sl_spelling_distance("NodeSelector", "nodeselector"), 0);  /* case ignored */
	char longer[300];
	memset(longer, 'a', sizeof longer - 1);
	longer[sizeof longer - 1] = '\0';
	cr_expect_eq(sl_spelling_distance(longer, "a"), SIZE_MAX);
}

Test(spelling, closest_within_a_third_of_the_word)
{
	static const char *const flags[] = {"affinity", "nodeselector", "tolerations"};
	cr_expect_str_eq(sl_spelling_closest("nodeselectr", flags, 3), "nodeselector");
	cr_expect_str_eq(sl_spelling_closest("Tolerations", flags, 3), "tolerations");
	cr_expect_str_eq(sl_spelling_closest("afinity", flags, 3), "affinity");
	cr_expect_null(sl_spelling_closest("hostnetwork", flags, 3));
	cr_expect_null(sl_spelling_closest("", flags, 3));
	static const char *const providers[] = {"generic", "gke", "eks", "aks"};
	cr_expect_null(sl_spelling_closest("gcp", providers, 4), "two edits in three letters");
	cr_expect_str_eq(sl_spelling_closest("gek", providers, 4), "gke");
	cr_expect_str_eq(sl_spelling_closest("genric", providers, 4), "generic");
	/* a tie goes to the earlier candidate */
	cr_expect_str_eq(sl_spelling_closest("aks", (const char *const[]){"eks", "ak"}, 2), "eks");
}

Test(spelling, registry_closest_rule_or_category)
{
	cr_expect(sl_registry_known("toleration-without-selector"));
	cr_expect(sl_registry_known("gpu"));
	cr_expect(!sl_registry_known("toleration-without-selectr"));
	cr_expect_str_eq(sl_registry_closest("toleration-without-selectr"),
			 "toleration-without-selector");
	cr_expect_str_eq(sl_registry_closest("gpus"), "gpu");
	cr_expect_null(sl_registry_closest("completely-unrelated-words"));
}
