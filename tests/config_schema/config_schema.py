#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""config_schema: docs/schedlint.schema.json says what src/config/ accepts.

Usage: config_schema.py   (from the project root, $SCHEDLINT naming the built binary)

(a) Every config in testdata/ that schedlint loads, and the example configs of the README and
    docs/configuration.md (which schedlint must load too), is valid
    under the schema (read as yaml-language-server reads it: validate.js, ajv and js-yaml).
(b) Every config in testdata/ that schedlint refuses (testdata/config/bad_*.yaml and the rest)
    is refused by the schema too, but for the few mistakes a schema cannot see (SCHEMA_BLIND).
(c) The schema cannot drift from config.c: the keys of each libcyaml schema table equal the
    properties of the matching schema object, its required fields the schema's required ones,
    and each enumeration (severities, fail-on, booleans, provider, deployment mode, taint effects,
    Knative flags, the Kustomize load restrictor) and the rule ids and categories (`schedlint rules`) equal the schema's enums.
Prints every disagreement and exits 1; exits 0 when there is none.
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

SCHEMA = "docs/schedlint.schema.json"
GUIDE = "docs/configuration.md"
CONFIG_C = "src/config/*.c"   # read as one text: tables.c holds the tables and the sets
HERE = os.path.dirname(os.path.abspath(__file__))

# Configs schedlint refuses for what the schema cannot see, each with why.
SCHEMA_BLIND = {
    "testdata/config/bad_node_inventory.yaml":
        "the dump it names does not exist: a schema sees no files",
    "testdata/config/bad_critical_priority.yaml":
        "1e6 is a YAML number: the schema sees 1000000, config.c the text it refuses",
}

# Each libcyaml field table of config.c and the schema object that describes it.
TABLES = {
    "top_fields": "#",
    "rule_fields": "#/definitions/rule",
    "cluster_fields": "#/definitions/cluster",
    "pool_fields": "#/definitions/node-pool",
    "project_fields": "#/definitions/project",
    "render_fields": "#/definitions/render",
    "kustomize_fields": "#/definitions/kustomize",
}

problems = []


def problem(msg):
    problems.append(msg)


def resolve(schema, ref):
    node = schema
    for part in ref.lstrip("#").strip("/").split("/"):
        if part:
            node = node[part]
    return node


def enum_of(node):
    """The non-null values of node's enum (or of its items' enum)."""
    if "items" in node:
        node = node["items"]
    return [v for v in node.get("enum", []) if v is not None]


def c_strings(src, name):
    """The string literals of the C array `name` (PODSPEC_PREFIX "x" spelled out)."""
    m = re.search(r"\b(?:sl_config__)?%s\[\]\s*=\s*\{(.*?)\};" % re.escape(name), src, re.S)
    if not m:
        problem("%s: no array %s (config_schema.py reads it)" % (CONFIG_C, name))
        return []
    prefix = re.search(r'#define PODSPEC_PREFIX "([^"]+)"', src)
    out = []
    for pm in re.finditer(r'(PODSPEC_PREFIX\s*)?"([^"]*)"', m.group(1)):
        out.append((prefix.group(1) if pm.group(1) else "") + pm.group(2))
    return out


def compare(what, in_c, in_schema, verb="accepts", hint=""):
    in_c, in_schema = list(in_c), list(in_schema)
    missing = [x for x in in_c if x not in in_schema]
    extra = [x for x in in_schema if x not in in_c]
    if missing:
        problem("%s: config.c %s %s, the schema does not: add to %s%s"
                % (what, verb, missing, SCHEMA, hint))
    if extra:
        problem("%s: the schema %s %s, config.c does not" % (what, verb, extra))


def check_drift(schema, schedlint):
    src = "\n".join(open(p).read() for p in sorted(glob.glob(CONFIG_C)))
    tables = dict(re.findall(r"cyaml_schema_field_t (\w+)\[\]\s*=\s*\{(.*?)CYAML_FIELD_END", src, re.S))
    compare("libcyaml field tables (TABLES in config_schema.py)", sorted(tables), sorted(TABLES),
            "has")
    for table, ref in TABLES.items():
        body = tables.get(table, "")
        fields = re.findall(r'\b(STRINGS|STRING|BOOL|CYAML_FIELD_\w+)\(\s*"([^"]+)"([^;]*?)\)(?:,|\s*$)',
                            body, re.M)
        keys = [k for _, k, _ in fields]
        required = [k for macro, k, rest in fields
                    if macro.startswith("CYAML_FIELD_") and "OPT" not in rest]
        node = resolve(schema, ref)
        compare("keys of %s (%s)" % (table, ref), keys, node.get("properties", {}))
        compare("required keys of %s (%s)" % (table, ref), required, node.get("required", []),
                "requires")
        if node.get("additionalProperties") is not False:
            problem("%s: additionalProperties must be false (an unknown key is an error)" % ref)
    cluster = resolve(schema, "#/definitions/cluster")["properties"]
    compare("fail-on", re.findall(r'\{ "(\w+)", SL_SEV_\w+ \}',
                                  re.search(r"fail_on_strings\[\] = \{(.*?)\};", src, re.S).group(1)),
            enum_of(schema["properties"]["fail-on"]))
    compare("rules[].severity", re.findall(r'\{ "(\w+)", SL_SEV_\w+ \}',
                                           re.search(r"severity_strings\[\] = \{(.*?)\};", src, re.S).group(1)),
            enum_of(resolve(schema, "#/definitions/rule/properties/severity")))
    compare("cluster.provider", c_strings(src, "providers"), enum_of(cluster["provider"]))
    compare("cluster.kserve-default-deployment-mode", c_strings(src, "deployment_modes"),
            enum_of(cluster["kserve-default-deployment-mode"]))
    compare("render.kustomize.load-restrictor", c_strings(src, "load_restrictors"),
            enum_of(resolve(schema, "#/definitions/kustomize/properties/load-restrictor")))
    flags = c_strings(src, "knative_flags")
    short = [f[len("kubernetes.podspec-"):] for f in flags if f.startswith("kubernetes.podspec-")]
    compare("cluster.knative-features", sorted(flags + short),
            sorted(enum_of(cluster["knative-features"])))
    taint = resolve(schema, "#/definitions/node-pool/properties/taints")["items"]["pattern"]
    compare("taint effects", c_strings(src, "taint_effects"),
            re.search(r":\(([^)]*)\)\$$", taint).group(1).split("|"))
    bools = re.findall(r'\{ "(\w+)", [01] \}', re.search(r"bool_strings\[\] = \{(.*?)\};", src, re.S).group(1))
    for key in ("extended-resource-toleration", "gpu-nodes-tainted", "toleration-comparison-operators"):
        pattern = re.compile(cluster[key]["pattern"])
        for b in bools:   # libcyaml compares them case-insensitively
            for spelling in (b, b.upper(), b.capitalize()):
                if not pattern.match(spelling):
                    problem("cluster.%s: config.c accepts %r, the schema's pattern does not" % (key, spelling))
        for wrong in ("maybe", "1", "truee", ""):
            if pattern.match(wrong):
                problem("cluster.%s: the schema's pattern accepts %r" % (key, wrong))
    rules = json.loads(subprocess.check_output([schedlint, "rules", "--format", "json"]))
    ids = [r["id"] for r in rules] + sorted({r["category"] for r in rules})
    compare("rules[].id (schedlint rules: ids and categories)", ids,
            enum_of(resolve(schema, "#/definitions/rule/properties/id")),
            hint=" (tools/new_rule.py adds a new rule's id there)")


def readme_configs(tmp):
    """The example configs, as files: the yaml blocks of the README's Configuration section and
    of docs/configuration.md (the user guide's page; every yaml block there is a config)."""
    text = open("README.md").read()
    parts = re.split(r"\n## Configuration[^\n]*\n", text, 1)
    if len(parts) < 2:
        problem("README.md: no section '## Configuration...'")
        parts.append("")
    section = parts[1].split("\n## ", 1)[0]
    sources = {"README.md": re.findall(r"```yaml\n(.*?)```", section, re.S),
               GUIDE: re.findall(r"```yaml\n(.*?)```", open(GUIDE).read(), re.S)}
    # beside a config for their `extend: ../.schedlint.yaml`
    os.mkdir(os.path.join(tmp, "examples"))
    open(os.path.join(tmp, ".schedlint.yaml"), "w").close()
    paths = []
    for source, blocks in sources.items():
        if not any("\ncluster:\n" in "\n" + b for b in blocks):
            problem("%s: no example config (a yaml block with cluster:)" % source)
        for i, b in enumerate(blocks):
            paths.append(os.path.join(tmp, "examples", "%s%d.schedlint.yaml" % (source.replace("/", "_"), i)))
            with open(paths[-1], "w") as f:
                f.write(b)
    return paths


def schedlint_accepts(schedlint, config, empty):
    r = subprocess.run([schedlint, "check", "--no-project", "-c", config, empty],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode == 2 and config in r.stderr:
        return False
    if r.returncode in (0, 1):
        return True
    problem("%s: schedlint exited %d: %s" % (config, r.returncode, r.stderr.strip()))
    return None


def main():
    schedlint = os.environ.get("SCHEDLINT", "build/schedlint")
    if not os.path.exists("tools/node_modules/ajv") or not os.path.exists("tools/node_modules/js-yaml"):
        print("config_schema: ajv and js-yaml are not installed in tools/node_modules: run tools/setup --test")
        return 1   # not a skip: CI runs tools/setup --test
    schema = json.load(open(SCHEMA))
    check_drift(schema, schedlint)
    configs = sorted(set(glob.glob("testdata/config/*.yaml") +
                         glob.glob("testdata/**/config.yaml", recursive=True) +
                         glob.glob("testdata/**/*.config.yaml", recursive=True) +
                         glob.glob("testdata/**/.schedlint.yaml", recursive=True)))
    with tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "empty.yaml")
        open(empty, "w").close()
        readme = readme_configs(tmp)
        out = subprocess.run(["node", os.path.join(HERE, "validate.js"), SCHEMA] + readme + configs,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if out.returncode != 0:
            problem("validate.js failed: %s" % out.stderr.strip())
        verdicts = {}
        for line in out.stdout.splitlines():
            path, verdict, *why = line.split("\t")
            verdicts[path] = (verdict, why[0] if why else "")
        for r in readme:
            verdict, why = verdicts.get(r, ("missing", ""))
            if verdict != "valid":
                problem("an example config of README.md or %s is %s under the schema: %s\n%s"
                        % (GUIDE, verdict, why, open(r).read()))
            if schedlint_accepts(schedlint, r, empty) is False:
                problem("schedlint refuses an example config of README.md or %s:\n%s"
                        % (GUIDE, open(r).read()))
        n_ok = n_bad = 0
        for c in configs:
            verdict, why = verdicts.get(c, ("missing", "validate.js said nothing"))
            accepted = schedlint_accepts(schedlint, c, empty)
            if accepted is None:
                continue
            if accepted:
                n_ok += 1
                if verdict != "valid":
                    problem("%s: schedlint loads it, the schema says %s: %s" % (c, verdict, why))
            else:
                n_bad += 1
                if verdict == "valid" and c not in SCHEMA_BLIND:
                    problem("%s: schedlint refuses it, the schema accepts it" % c)
                if verdict != "valid" and c in SCHEMA_BLIND:
                    problem("%s: the schema refuses it now: drop it from SCHEMA_BLIND" % c)
        if n_bad < 20 or n_ok < 20:
            problem("only %d good and %d bad configs found: is this the project root?" % (n_ok, n_bad))
    for p in problems:
        print("config_schema: " + p)
    if not problems:
        print("config_schema: %s agrees with config.c (%d configs schedlint loads, %d it refuses, "
              "and the examples of the README and %s)" % (SCHEMA, n_ok, n_bad, GUIDE))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
