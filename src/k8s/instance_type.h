/* SPDX-License-Identifier: Apache-2.0
** instance_type.h: the accelerators one node of a cloud instance type offers (AWS instance
** types, Google Cloud machine types, Azure VM sizes), from the cited table of
** docs/instance-types.md (generated into the build by tools/gen_instance_types.py). A type the
** table does not know is unknown, never "no accelerator"; the one exception is an AWS family
** documented to have none (m5, c6i, ...). Pure functions over (pointer, length) views. */
#ifndef SL_K8S_INSTANCE_TYPE_H
#define SL_K8S_INSTANCE_TYPE_H

#include <stdbool.h>
#include <stddef.h>

typedef struct sl_k8s_instance_type {
	const char *provider;   /* "aws", "gcp", "azure" */
	const char *name;       /* "p4d.24xlarge", "a2-highgpu-1g", "Standard_NC24ads_A100_v4" */
	int count;              /* accelerators per node; -1 when a fraction (unknown) */
	const char *resource;   /* "nvidia.com/gpu", "amd.com/gpu", "aws.amazon.com/neuron", "google.com/tpu" */
	const char *model;      /* "A100 40 GB", "L4 (nvidia-l4)" */
} sl_k8s_instance_type;

/* What the table says of a type or family. */
typedef enum sl_k8s_accel {
	SL_K8S_ACCEL_UNKNOWN = 0,   /* not in the table */
	SL_K8S_ACCEL_NONE,          /* an AWS family documented to have no accelerator */
	SL_K8S_ACCEL_SOME           /* in the table: it offers accelerators */
} sl_k8s_accel;

/* What one node of instance type name[0..n) offers; *t is its row when SOME, else NULL. */
sl_k8s_accel sl_k8s_instance_type_lookup(const char *name, size_t n, const sl_k8s_instance_type **t);
/* The same for a whole AWS family ("g5", "m6i"): SOME when the table has sizes of it, with the
** fewest and the most one size offers (*min, *max; both -1 when a size's count is unknown) and
** their resource. */
sl_k8s_accel sl_k8s_instance_type_family(const char *family, size_t n, int *min, int *max,
					 const char **resource);

#endif
