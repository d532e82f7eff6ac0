/* SPDX-License-Identifier: Apache-2.0
** remap.h (private): a checked file's findings moved from rendered text to the lines a person
** edits: a Kustomize build's to the bases, patches and kustomizations its nodes came from
** (render/kustomize/kustomize.h gives the origins), a `helm template` stream's to its chart's templates
** (render/helm.h). passes.c calls them after a file's check. */
#ifndef SL_REMAP_H
#define SL_REMAP_H

#include <stdbool.h>
#include <stddef.h>
#include "lint/engine.h"
#include "render/helm.h"
#include "render/kustomize/kustomize.h"

/* Moves f's findings (f is the text of f->build, a build of plan k, checked) to the places their
** nodes came from, names the overlay in their notes, drops fixes, and adds the build's own
** findings (kustomize-unsupported, kustomize-invalid). A finding whose node came from no file's
** bytes stays at the overlay's kustomization, about the whole file (document -1, line 1, no
** span), with a note saying so. A finding moved into a base or patch the
** run does not lint as a file of its own is dropped when a directive on its line there says so.
** A finding in one of the files named (sl_kustomize_named) takes the name the run gives it; with
** f->only_named, the others are dropped (a project's build linted for the files named alone).
** SL_ENOMEM only. */
sl_err sl_remap_kustomize(const sl_kustomize *k, sl_file *f);
/* Moves every finding of f (a `helm template` stream) to the template its document came from
** (sl_helm_remap). SL_ENOMEM only. */
sl_err sl_remap_helm(sl_helm *h, sl_file *f);

#endif
