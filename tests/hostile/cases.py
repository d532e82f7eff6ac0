# SPDX-License-Identifier: Apache-2.0
"""tests/hostile/cases.py: the attacks of issue 26, one case each, as a repository that a pull
request from a fork could bring to CI or pre-commit. Each case says the bound it must hit (its
limits: CPU seconds, MiB of memory, MiB written to one file) and what schedlint must say.
Run by tests/hostile/run.py (harness.py holds the machinery)."""
import json
import os
import re
import subprocess

from harness import MIB, Fail, case, expect, expect_in, expect_rc, opened

POD = """apiVersion: v1
kind: Pod
metadata:
  name: %s
spec:
  containers:
  - name: main
    image: registry.example/app:1.0
"""

SECRET_VALUE = "s3cr3t-0f-the-runner"
SECRET = ("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: stolen\ndata:\n  token: %s\n"
          % SECRET_VALUE)

# A declared rule that prints a value of every ConfigMap: what a repository that wants to read
# the runner's files would add to its .schedlint.yaml.
LEAK_RULE = """custom-rules:
  - id: evil/leak
    summary: leaks values
    severity: error
    target: object
    match: {kinds: [ConfigMap]}
    schema:
      properties:
        data:
          properties:
            token: {maxLength: 0}
    message: "leaked {value}"
"""


def no_secret(r):
    expect(SECRET_VALUE not in r.out and SECRET_VALUE not in r.err,
           "a value of a file outside the repository was printed", r)


def findings(r, notices=False):
    """The findings of a --format json report (and its notices, when asked)."""
    try:
        found = json.loads(r.out)["findings"]
        if notices:
            found += json.loads(r.out)["notices"]
    except (ValueError, KeyError) as e:
        found = None
        expect(False, "no JSON report (%s)" % e, r)
    for f in found:
        f["path"] = os.path.normpath(f["path"])
    return found


def expect_messages_cut(r, most=4096, notes_most=16384):
    for f in findings(r):
        expect(len(f["message"]) <= most, "a message of %d bytes (at most %d): %s..." % (
            len(f["message"]), most, f["message"][:200]))
        n = sum(len(x) for x in f.get("notes") or [])
        expect(n <= notes_most, "notes of %d bytes (at most %d): %s..." % (
            n, notes_most, (f.get("notes") or [""])[0][:200]))


# --- the harness itself -----------------------------------------------------------------------

@case(cpu=5, mem=256)
def openlog_sees_every_open(c):
    """The open-recording shim works, or every "never opened" below would hold vacuously: a
    file linted is in its log with its real path (through a symlink too), and a file outside
    the repository named on the command line fails the roots check."""
    c.git_init()
    c.write("real/pod.yaml", POD % "web")
    c.symlink("link.yaml", "real/pod.yaml")
    r = c.run(["check", "link.yaml"])
    expect_rc(r, 0)
    recs = opened(r, c.path("link.yaml"))
    expect(recs and all(x[2] == c.path("real/pod.yaml") for x in recs if x[4] >= 0),
           "the shim did not record the open of link.yaml with its real path: %s" % recs, r)
    c.write(os.path.join(c.outside, "x.yaml"), POD % "outside")
    try:
        c.run(["check", "../outside/x.yaml"])
    except Fail as e:
        expect("outside/x.yaml" in str(e), "the roots check failed for another reason: %s" % e)
    else:
        expect(False, "opening ../outside/x.yaml passed the roots check")


# --- writing outside the workspace ----------------------------------------------------------

@case(cpu=5, mem=256)
def report_symlink_to_existing_file(c):
    """--format sarif:schedlint.sarif where the repository commits schedlint.sarif as a symlink
    to a file the job can write: refused (exit 2, "symbolic link"), the target untouched."""
    c.git_init()
    c.write("pod.yaml", POD % "web")
    victim = c.write(os.path.join(c.outside, "bashrc"), "precious\n")
    c.symlink("schedlint.sarif", victim)
    r = c.run(["check", "--format", "sarif:schedlint.sarif", "."])
    expect(open(victim).read() == "precious\n", "the link's target was overwritten", r)
    expect(sorted(os.listdir(c.outside)) == ["bashrc"], "a file was created outside", r)
    expect(os.path.islink(c.path("schedlint.sarif")), "the link itself was replaced", r)
    expect_rc(r, 2)
    expect_in(r, r"schedlint\.sarif.*symbolic link", "err")


@case(cpu=5, mem=256)
def report_symlink_dangling(c):
    """-o gl-code-quality-report.json (the GitLab template's name) committed as a dangling
    symlink: nothing created where it points; refused (exit 2, "symbolic link")."""
    c.git_init()
    c.write("pod.yaml", POD % "web")
    c.symlink("gl-code-quality-report.json", os.path.join(c.outside, "created-by-ci"))
    r = c.run(["check", "--format", "gitlab", "-o", "gl-code-quality-report.json", "."])
    expect(os.listdir(c.outside) == [], "a file was created outside the workspace", r)
    expect_rc(r, 2)
    expect_in(r, r"gl-code-quality-report\.json.*symbolic link", "err")


@case(cpu=5, mem=256)
def report_in_symlinked_directory(c):
    """-o reports/schedlint.json where the repository commits reports/ as a symlink to a
    directory outside: refused (exit 2, "its directory reports is a symbolic link"), nothing
    written there; /dev/stdout (a link to a pipe) is still written in place."""
    c.git_init()
    c.write("pod.yaml", POD % "web")
    c.symlink("reports", c.outside)
    r = c.run(["check", "--format", "json", "-o", "reports/schedlint.json", "."])
    expect(os.listdir(c.outside) == [], "a file was created outside the workspace", r)
    expect_rc(r, 2)
    expect_in(r, r"reports/schedlint\.json.*its directory reports is a symbolic link", "err")
    r = c.run(["check", "--format", "json:/dev/stdout", "--format", "text:/dev/null", "."])
    expect_rc(r, 0)
    expect_in(r, r'"findings"')


# --- reading outside the repository ---------------------------------------------------------

@case(cpu=5, mem=256)
def walk_symlinked_file_outside(c):
    """A *.yaml symlink whose target lies outside the repository, and a symlinked directory
    leaving it: never opened, each a symlink-outside-tree notice ("symbolic links out of the
    tree not followed: leak.yaml, ..."; exit 0, a notice fails nothing); a declared rule
    printing {value} in GitHub annotations prints nothing of the target."""
    c.git_init()
    c.write(".schedlint.yaml", LEAK_RULE)
    c.write("pod.yaml", POD % "web")
    c.write(os.path.join(c.outside, "secret.yaml"), SECRET)
    c.symlink("leak.yaml", os.path.join(c.outside, "secret.yaml"))
    c.symlink("rel-leak.yml", "../outside/secret.yaml")
    c.symlink("leak-dir", c.outside)
    r = c.run(["check", "--format", "github", "."])
    no_secret(r)
    expect_rc(r, 0)
    expect_in(r, r"::notice title=symlink-outside-tree::3 symbolic links out of the tree not "
              r"followed: leak-dir, leak\.yaml, rel-leak\.yml")
    r = c.run(["check", "--format", "json", "."])
    no_secret(r)
    notices = json.loads(r.out)["notices"]
    expect(sorted(n["path"] for n in notices if n["rule"] == "symlink-outside-tree") ==
           ["leak-dir", "leak.yaml", "rel-leak.yml"], "notices: %s" % notices, r)


@case(cpu=5, mem=256)
def walk_symlinked_file_inside(c):
    """The counterpart: a *.yaml symlink to a file inside the repository is still linted."""
    c.git_init()
    c.write(".schedlint.yaml", LEAK_RULE)
    c.write("real/cm.yaml", SECRET.replace(SECRET_VALUE, "inside-value"))
    c.symlink("link.yaml", "real/cm.yaml")
    r = c.run(["check", "--format", "github", "."])
    expect_rc(r, 1)
    expect_in(r, r"::error file=link\.yaml.*leaked inside-value")


RENDERED = """---
# Source: %s
apiVersion: v1
kind: Pod
metadata:
  name: web
spec:
  containers:
  - name: main
    image: registry.example/app:1.0
    resources:
      requests:
        nvidia.com/gpu: 1
"""


def chart(c, d="chart"):
    c.write(d + "/Chart.yaml", "apiVersion: v2\nname: mychart\nversion: 0.1.0\n")
    c.write(d + "/templates/pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n"
            "spec:\n  tolerations: {{ toYaml .Values.t | nindent 4 }}\n")


@case(cpu=5, mem=256)
def helm_source_climbs_out_of_chart(c):
    """--helm-chart with "# Source: mychart/../../outside/secret.yaml": the file is never
    opened, its lines never printed (full output); the note says the source is outside the
    chart."""
    c.git_init()
    chart(c)
    c.write(os.path.join(c.outside, "secret.yaml"), SECRET)
    r = c.run(["check", "--helm-chart", "chart", "--output-format", "full", "--show-notes", "-"],
              stdin=RENDERED % "mychart/../../outside/secret.yaml")
    no_secret(r)
    expect_rc(r, 1)
    expect_in(r, r"outside the chart")


@case(cpu=5, mem=256)
def helm_source_absolute(c):
    """--helm-chart . (run in the chart) with "# Source: mychart//ABSOLUTE/secret.yaml": never
    opened, never printed; and render.helm-chart in the config likewise."""
    c.git_init()
    chart(c)
    c.write(os.path.join(c.outside, "secret.yaml"), SECRET)
    src = "mychart/" + os.path.join(c.outside, "secret.yaml")
    r = c.run(["check", "--helm-chart", ".", "--output-format", "full", "--show-notes", "-"],
              stdin=RENDERED % src, cwd=c.path("chart"))
    no_secret(r)
    expect_rc(r, 1)
    expect_in(r, r"outside the chart")
    c.write(".schedlint.yaml", "render:\n  helm-chart: chart\n")
    r = c.run(["check", "--output-format", "full", "--show-notes", "--stdin-filename",
               "rendered.yaml", "-"], stdin=RENDERED % "mychart/../../outside/secret.yaml")
    no_secret(r)
    expect_rc(r, 1)
    expect_in(r, r"outside the chart")


@case(cpu=5, mem=256)
def kustomize_inputs_outside_root(c):
    """A kustomization naming files outside its root (resources: ../, absolute, a symlink
    inside the root to a file outside; a patch's path:; generator files: and envs:): each a
    kustomize-unsupported notice, and none of them opened (the load restrictor decides before
    anything is read)."""
    c.git_init()
    c.write(os.path.join(c.outside, "secret.yaml"), SECRET)
    c.write(os.path.join(c.outside, "env"), "TOKEN=%s\n" % SECRET_VALUE)
    sec = os.path.join(c.outside, "secret.yaml")
    c.write("a/kustomization.yaml", "resources:\n- ../../outside/secret.yaml\n")
    c.write("b/kustomization.yaml", "resources:\n- %s\n" % sec)
    c.write("c/kustomization.yaml", "resources:\n- link.yaml\n")
    c.symlink("c/link.yaml", sec)
    c.write("d/cm.yaml", SECRET.replace(SECRET_VALUE, "x"))
    c.write("d/kustomization.yaml", "resources:\n- cm.yaml\npatches:\n- path: ../../outside/secret.yaml\n")
    c.write("e/kustomization.yaml", "configMapGenerator:\n- name: g\n  files:\n  - ../../outside/secret.yaml\n")
    c.write("f/kustomization.yaml", "configMapGenerator:\n- name: g\n  envs:\n  - %s\n"
            % os.path.join(c.outside, "env"))
    r = c.run(["check", "--format", "json", "."])
    no_secret(r)
    got = {f["path"] for f in findings(r, notices=True) if f["rule"] == "kustomize-unsupported"}
    for d in "abcdef":
        expect("%s/kustomization.yaml" % d in got, "no kustomize-unsupported for %s/ (got %s)"
               % (d, sorted(got)), r)


@case(cpu=5, mem=256)
def kustomize_load_restrictor_none_stays_in_repository(c):
    """render.kustomize.load-restrictor: none in the repository's own config lets a build read
    files outside the kustomization's root, but never outside the repository: a repository's
    config cannot grant itself the runner's files (a kustomize-unsupported notice "... is outside
    the repository", a limit of schedlint's; nothing outside opened). A base directory outside
    the repository is not read either, with or without the load restrictor."""
    c.git_init()
    c.write(".schedlint.yaml", "render:\n  kustomize:\n    load-restrictor: none\n" + LEAK_RULE)
    c.write(os.path.join(c.outside, "secret.yaml"), SECRET)
    c.write("shared/cm.yaml", SECRET.replace(SECRET_VALUE, "shared-value").replace("stolen", "shared"))
    c.write("a/kustomization.yaml", "resources:\n- ../shared/cm.yaml\n- ../../outside/secret.yaml\n")
    r = c.run(["check", "--format", "json", "--show-notes", "."])
    no_secret(r)
    expect(any(f["rule"].startswith("kustomize-") and "outside the repository" in f["message"]
               and f["path"] == "a/kustomization.yaml"
               for f in findings(r, notices=True)), "no kustomize notice about the file outside", r)
    # a base (a directory with its kustomization) outside the repository, either restrictor
    c.write(os.path.join(c.outside, "base/kustomization.yaml"), "resources:\n- secret.yaml\n")
    c.write(os.path.join(c.outside, "base/secret.yaml"), SECRET)
    c.write("a/kustomization.yaml", "resources:\n- ../../outside/base\n- ../shared/cm.yaml\n")
    c.write("b/kustomization.yaml", "components:\n- ../../outside/base\n")
    for config in ("render:\n  kustomize:\n    load-restrictor: none\n", ""):
        c.write(".schedlint.yaml", config + LEAK_RULE)
        r = c.run(["check", "--format", "json", "."])
        no_secret(r)
        got = {f["path"] for f in findings(r, notices=True) if f["rule"] == "kustomize-unsupported"
               and "outside the repository" in f["message"]}
        expect(got == {"a/kustomization.yaml", "b/kustomization.yaml"},
               "no notice for each base outside the repository (got %s)" % sorted(got), r)


# --- hanging or exhausting the runner ---------------------------------------------------------

def laughs(levels=9, fan=9):
    """A billion laughs: fan references per level (fan**levels leaves if expanded)."""
    out = ["  l0: &a0 [lol]"]
    for lv in range(1, levels + 1):
        out.append("  l%d: &a%d [%s]" % (lv, lv, ", ".join(["*a%d" % (lv - 1)] * fan)))
    return "\n".join(out) + "\n"


@case(cpu=5, mem=512)
def kustomize_alias_bomb(c):
    """A billion-laughs ConfigMap used as a kustomization's resource: the build counts alias
    expansion as the plain parser counts aliases and stops with a finding at the resource
    (a plain file with the same bomb lints in milliseconds)."""
    c.git_init()
    c.write("app/bomb.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\n"
            "anchors:\n" + laughs() + "data:\n  k: v\n")
    c.write("app/kustomization.yaml", "resources:\n- bomb.yaml\n")
    r = c.run(["check", "--format", "json", "."])
    expect(any(f["rule"].startswith("kustomize-") and re.search("alias", f["message"])
               and f["path"].endswith(("bomb.yaml", "kustomization.yaml"))
               for f in findings(r)), "no finding that the build's aliases expand too far", r)


@case(cpu=5, mem=512)
def kustomize_exponential_diamond(c):
    """20 levels of kustomizations, each including the two of the next, the leaves labelling
    nothing (so no resource is reached twice): each kustomization is built once per run
    (memoised), so the run ends in seconds, and the root's ConfigMap is linted."""
    c.git_init()
    levels = 20
    c.write("k/l0/kustomization.yaml", "resources:\n- cm.yaml\n- ../l1a\n- ../l1b\n")
    c.write("k/l0/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: root\n")
    for i in range(1, levels):
        for s in "ab":
            c.write("k/l%d%s/kustomization.yaml" % (i, s),
                    "resources:\n- ../l%da\n- ../l%db\n" % (i + 1, i + 1))
    for s in "ab":
        c.write("k/l%d%s/kustomization.yaml" % (levels, s), "commonLabels:\n  leaf: %s\n" % s)
    r = c.run(["check", "--format", "json", "--select", "kustomize-invalid,kustomize-unsupported,"
               "yaml-syntax", "."])
    expect_rc(r, 0)
    expect(findings(r) == [], "findings on the diamond", r)


@case(cpu=5, mem=512)
def kustomize_symlinked_diamond(c):
    """The diamond above where each level's second directory is a symlink to its first: one
    kustomization under two names per level, so the plan (which counts a base's includers by
    the names they give) sees one includer of each. Within the root its build was taken whole
    by the first includer and made again for every other path to it: 2^20 builds, 2 GiB at
    20 levels. Made again once, and copied from then on: linear."""
    c.git_init()
    levels = 20
    c.write("k/l0/kustomization.yaml", "resources:\n- cm.yaml\n- ../l1a\n- ../l1b\n")
    c.write("k/l0/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: root\n")
    for i in range(1, levels):
        c.write("k/l%da/kustomization.yaml" % i, "resources:\n- ../l%da\n- ../l%db\n" % (i + 1, i + 1))
        c.symlink("k/l%db" % i, "l%da" % i)
    c.write("k/l%da/kustomization.yaml" % levels, "commonLabels:\n  leaf: a\n")
    c.symlink("k/l%db" % levels, "l%da" % levels)
    r = c.run(["check", "--format", "json", "--select", "kustomize-invalid,kustomize-unsupported,"
               "yaml-syntax", "."])
    expect_rc(r, 0)
    expect(findings(r) == [], "findings on the diamond", r)


GPU_REQUEST = "        resources:\n          requests:\n            nvidia.com/gpu: 1\n"


def kustomize_copy(c, root):
    """One copy of a Kustomize tree: a base of 60 Deployments of 150 env entries each (800 KB),
    and ten overlays that include it under a name prefix (8 MB of built objects)."""
    names = []
    for i in range(60):
        env = "".join('        - name: VAR_%d\n          value: "value-%d-%d"\n' % (j, i, j)
                      for j in range(150))
        c.write("%s/base/d%d.yaml" % (root, i),
                "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: app%d\nspec:\n"
                "  selector:\n    matchLabels:\n      app: app%d\n  template:\n    metadata:\n"
                "      labels:\n        app: app%d\n    spec:\n      containers:\n"
                "      - name: main\n        image: registry.example/app:1.0\n%s        env:\n%s"
                % (i, i, i, GPU_REQUEST if i == 0 else "", env))
        names.append("d%d.yaml" % i)
    c.write("%s/base/kustomization.yaml" % root, "resources:\n" + "".join("- %s\n" % n for n in names))
    for o in range(10):
        c.write("%s/o%d/kustomization.yaml" % (root, o),
                "namePrefix: o%d-\nresources:\n- ../base\n" % o)


@case(cpu=20, mem=512, out=256)
def kustomize_copies_flat(c):
    """Six copies of a Kustomize tree linted in one run peak within 16 MiB of one copy's run
    (issue 29 "Memory"): each build is linted from the plan's spill file when its pass reaches
    it, and a base's tree and text are let go once no build left reads them. Before, every
    build of every copy was alive at once: +25 MiB a copy (37 -> 164 MiB for six). The spill
    file (18 MiB a copy, unlinked, in TMPDIR) is what out= allows. Under ASan, with its
    quarantine off, so that freed memory leaves the resident set."""
    c.git_init()
    env = {"ASAN_OPTIONS": ":".join(x for x in (os.environ.get("ASAN_OPTIONS", ""),
                                                 "quarantine_size_mb=0") if x)}
    kustomize_copy(c, "c1")
    one = c.run(["check", "-j1", "--format", "json", "."], env=env)
    for i in range(2, 7):
        kustomize_copy(c, "c%d" % i)
    six = c.run(["check", "-j1", "--format", "json", "."], env=env)
    for r in (one, six):
        expect_rc(r, 1)   # the Deployments' findings (no limits, ...)
    expect(len(findings(six)) == 6 * len(findings(one)) > 0,
           "six copies do not give six times one copy's findings", six)
    expect(six.rss_mib <= one.rss_mib + 16,
           "six copies peak at %d MiB, one at %d MiB: more than 16 MiB apart"
           % (six.rss_mib, one.rss_mib), six)


@case(cpu=3, mem=1024, out=256)
def kustomize_sweeps_linear(c):
    """6 000 kustomizations, the first of which reads a 12 MB ConfigMap holding a `schedlint:`
    directive (its tree stays for the suppression): the plan lets a file go when no build left
    reads it, and looks at each file when it is parsed, when its last reader is built and when a
    build that pinned it is done, not at every file after every build. Before, each of the
    6 000 builds looked at every file read and searched the 12 MB text for the directive again
    (the build before this change hit the 3 s CPU limit; now about 1.4 s with the shim)."""
    c.git_init()
    line = "  k%06d: " + "x" * 200 + "\n"
    c.write("big/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n"
            + "".join(line % i for i in range(60000))
            + "# schedlint: disable=gpu-request-without-limit\n")
    c.write("big/kustomization.yaml", "resources:\n- cm.yaml\n")
    for i in range(6000):
        c.write("r%04d/kustomization.yaml" % i, "resources:\n- pod.yaml\n")
        c.write("r%04d/pod.yaml" % i, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p%d\n"
                "spec:\n  containers:\n  - name: c\n    image: x\n" % i)
    r = c.run(["check", "-j1", "--format", "json", "."])
    expect_rc(r, 0)
    expect(findings(r) == [], "findings on the kustomizations", r)


@case(cpu=5, mem=512)
def kustomize_generator_file_200mb(c):
    """configMapGenerator files: a 200 MB file (sparse: no disk): refused by size before it is
    read, a finding at the kustomization naming the file and the cap."""
    c.git_init()
    c.sparse("app/big.txt", 200 * MIB)
    c.write("app/kustomization.yaml", "configMapGenerator:\n- name: g\n  files:\n  - big.txt\n")
    r = c.run(["check", "--format", "json", "."])
    expect(any(f["rule"].startswith("kustomize-") and "big.txt" in f["message"]
               and re.search(r"larger than|too large|MiB", f["message"])
               for f in findings(r)), "no finding that big.txt is too large", r)


@case(cpu=5, mem=512)
def kustomize_generator_env_1gb(c):
    """configMapGenerator envs: a 1 GiB env file (sparse): refused by size ("larger than 1
    MiB, the most a ConfigMap or Secret holds"), a finding naming it; secretGenerator files:
    likewise (in a kustomization of its own: a build stops at its first error, as kustomize's)."""
    c.git_init()
    c.sparse("app/big.env", 1024 * MIB)
    c.sparse("sec/big.key", 1024 * MIB)
    c.write("app/kustomization.yaml", "configMapGenerator:\n- name: g\n  envs:\n  - big.env\n")
    c.write("sec/kustomization.yaml", "secretGenerator:\n- name: s\n  files:\n  - big.key\n")
    r = c.run(["check", "--format", "json", "."])
    msgs = [f["message"] for f in findings(r) if f["rule"].startswith("kustomize-")]
    for name in ("big.env", "big.key"):
        expect(any(name in m and re.search(r"larger than|too large|MiB", m) for m in msgs),
               "no finding that %s is too large: %s" % (name, msgs), r)


@case(cpu=5, mem=512, out=64)
def kustomize_json6902_nesting(c):
    """JSON 6902 add ops that nest values inside the previous op's value, 20 times 900 levels:
    the built object's depth is checked (the parser's limit, 1000 levels), a finding at the
    patch, and the emitted text never grows with the square of the depth."""
    c.git_init()
    c.write("app/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\nx: []\n")
    depth = 900
    value = "[" * depth + "v" + "]" * depth
    ops = []
    for k in range(20):
        path = "/x" + "/0" * (depth * k) + "/0"
        ops.append("- op: add\n  path: %s\n  value: %s\n" % (path, value))
    c.write("app/patch.yaml", "".join(ops))
    c.write("app/kustomization.yaml", "resources:\n- cm.yaml\npatches:\n- path: patch.yaml\n"
            "  target:\n    kind: ConfigMap\n    name: deep\n")
    r = c.run(["check", "--format", "json", "."])
    expect(any(f["rule"].startswith("kustomize-") and re.search(r"deeper|depth|levels",
                                                                 f["message"])
               for f in findings(r)), "no finding that the patched object is too deep", r)


@case(cpu=5, mem=512, out=64)
def kustomize_name_prefix_and_suffix_1mib(c):
    """namePrefix (and nameSuffix) of 1 MiB over 2 000 ConfigMaps: refused at the
    kustomization (a Kubernetes name has at most 253 characters: a kustomize-unsupported notice
    "... longer than a Kubernetes name can be (253): not built"), never copied 2 000 times."""
    c.git_init()
    cms = "".join("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm%d\n" % i
                  for i in range(2000))
    for key in ("namePrefix", "nameSuffix"):
        c.write("%s/cms.yaml" % key, cms)
        c.write("%s/kustomization.yaml" % key, "%s: %s\nresources:\n- cms.yaml\n"
                % (key, "p" * MIB))
    r = c.run(["check", "--format", "json", "."])
    for key in ("namePrefix", "nameSuffix"):
        expect(any(f["path"] == "%s/kustomization.yaml" % key and f["rule"].startswith(
            "kustomize-") and re.search("253|too long|longer", f["message"])
            for f in findings(r, notices=True)), "no finding that the %s is too long" % key, r)
    expect_messages_cut(r)


@case(cpu=5, mem=512, out=64)
def kustomize_label_and_annotation_1mib(c):
    """commonLabels and commonAnnotations values of 1 MiB over 2 000 ConfigMaps: a label value
    has at most 63 characters, an object's annotations at most 256 KiB (both refused at the
    kustomization: kustomize-unsupported "... not built"), never copied 2 000 times."""
    c.git_init()
    cms = "".join("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm%d\n" % i
                  for i in range(2000))
    c.write("labels/cms.yaml", cms)
    c.write("labels/kustomization.yaml", "commonLabels:\n  team: %s\nresources:\n- cms.yaml\n"
            % ("l" * MIB))
    c.write("annotations/cms.yaml", cms)
    c.write("annotations/kustomization.yaml",
            "commonAnnotations:\n  note: %s\nresources:\n- cms.yaml\n" % ("a" * MIB))
    r = c.run(["check", "--format", "json", "."])
    expect(any(f["path"] == "labels/kustomization.yaml" and f["rule"].startswith("kustomize-")
               and re.search("63|too long|longer", f["message"]) for f in findings(r, notices=True)),
           "no finding that the label value is too long", r)
    expect_messages_cut(r)


@case(cpu=5, mem=512, out=64)
def helm_source_name_1mib(c):
    """A rendered stream whose "# Source:" names a 1 MiB template path, over a document with
    2 000 findings: the name is cut in every note that quotes it."""
    c.git_init()
    chart(c)
    sel = "".join("    k%05d: true\n" % i for i in range(2000))
    doc = ("---\n# Source: mychart/templates/%s.yaml\napiVersion: v1\nkind: Pod\nmetadata:\n"
           "  name: web\nspec:\n  containers: [{name: a, image: b}]\n  nodeSelector:\n%s"
           % ("t" * MIB, sel))
    r = c.run(["check", "--helm-chart", "chart", "--format", "json", "-"], stdin=doc)
    expect_rc(r, 1)
    expect(len(findings(r)) >= 2000, "fewer findings than the 2 000 nodeSelector values", r)
    expect_messages_cut(r)


@case(cpu=5, mem=512)
def custom_rule_recursive_ref(c):
    """A declared rule whose schema refers to itself twice at each level (allOf of two $ref),
    over a 40-level object: evaluated once per (schema, node), so the run ends in seconds with
    the finding at the deepest node."""
    c.git_init()
    c.write(".schedlint.yaml", """custom-rules:
  - id: evil/deep
    summary: deep
    severity: error
    target: object
    match: {kinds: [ConfigMap]}
    schema:
      properties:
        data: {$ref: '#/definitions/n'}
      definitions:
        n:
          allOf:
          - type: object
          - properties: {a: {$ref: '#/definitions/n'}}
          - properties: {a: {$ref: '#/definitions/n'}}
""")
    depth = 40
    c.write("cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: deep\ndata: "
            + "{a: " * depth + "1" + "}" * depth + "\n")
    r = c.run(["check", "--format", "json", "."])
    expect_rc(r, 1)
    expect(any(f["rule"] == "evil/deep" for f in findings(r)), "no evil/deep finding", r)


@case(cpu=5, mem=512)
def custom_rule_regex_budget(c):
    """A declared rule with a catastrophic pattern over a 110 KB ConfigMap (2 000 values): each
    match is bounded by PCRE2's match limit, and the run by a per-run budget: once it is spent
    the rule stops matching and says so."""
    c.git_init()
    c.write(".schedlint.yaml", """custom-rules:
  - id: evil/regex
    summary: slow
    severity: error
    target: object
    match: {kinds: [ConfigMap]}
    schema:
      properties:
        data:
          additionalProperties: {pattern: '^(a|aa)+$'}
""")
    data = "".join("  k%04d: %s!\n" % (i, "a" * 45) for i in range(2000))
    c.write("cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: slow\ndata:\n" + data)
    r = c.run(["check", "--format", "json", "."])
    expect_rc(r, 1)
    expect(any(f["rule"] == "evil/regex" and re.search("budget", f["message"] + " ".join(
        f.get("notes") or [])) for f in findings(r)), "no finding saying the budget ran out", r)


def ignore_file_fifo(c, where):
    """A repository whose ignore file at where (made by where(c): the FIFO's path) is a FIFO:
    every open of it non-blocking (or none), and the run lints the rest."""
    c.git_init()
    c.write("pod.yaml", POD % "web")
    fifo = where(c)
    r = c.run(["check", "."])
    for op, path, real, flags, res in opened(r, fifo):
        expect(flags & os.O_NONBLOCK, "%s opened without O_NONBLOCK (flags %#x): a FIFO "
               "blocks the run" % (fifo, flags), r)
    expect_rc(r, 0)
    expect_in(r, r"1 file")


@case(cpu=5, mem=256)
def gitignore_fifo(c):
    """.gitignore is a FIFO: opened non-blocking (or not at all), read only if it is a regular
    file; the run goes on and lints the rest."""
    ignore_file_fifo(c, lambda c: c.fifo(".gitignore"))


def info_exclude(c):
    os.unlink(c.path(".git/info/exclude"))
    return c.fifo(".git/info/exclude")


@case(cpu=5, mem=256)
def info_exclude_fifo(c):
    """.git/info/exclude is a FIFO: as for .gitignore."""
    ignore_file_fifo(c, info_exclude)


def excludes_file(c):
    fifo = c.fifo(os.path.join(c.home, "ignore.fifo"))
    with open(c.path(".git/config"), "a") as f:
        f.write("[core]\n\texcludesFile = %s\n" % fifo)
    return fifo


@case(cpu=5, mem=256)
def core_excludesfile_fifo(c):
    """core.excludesFile names a FIFO: as for .gitignore."""
    ignore_file_fifo(c, excludes_file)


@case(cpu=5, mem=256)
def gitignore_backtracking_pattern(c):
    """A committed .gitignore pattern *a*a*a*a*a*a*a*a*a*a*b over long names of a's: matched in
    linear time (our glob, or a step budget), the run ends in seconds and lints the files; the
    pattern still applies (a directory of a's ending in b is ignored, its manifest not linted)."""
    c.git_init()
    c.write(".gitignore", "*a*a*a*a*a*a*a*a*a*a*b\n")
    for i in range(20):
        c.write("d%s/%s%d.yaml" % ("a" * 60, "a" * 150, i), POD % ("p%d" % i))
    c.write("%sb/pod.yaml" % ("a" * 150), POD % "ignored")
    r = c.run(["check", "."])
    expect_rc(r, 0)
    expect_in(r, r"20 files")


@case(cpu=5, mem=384)
def pod_with_20000_containers(c):
    """One Pod with 20 000 containers: the model's arrays grow in linear time and memory."""
    c.git_init()
    body = "".join("  - name: c%d\n    image: registry.example/app:1.0\n"
                   "    resources: {requests: {cpu: 100m}, limits: {cpu: 100m}}\n" % i
                   for i in range(20000))
    c.write("pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\nspec:\n"
            "  containers:\n" + body)
    r = c.run(["check", "--format", "json", "."])
    expect(r.rc in (0, 1), "exit status %s" % r.rc, r)
    findings(r)


@case(cpu=5, mem=384)
def placement_long_lists(c):
    """A Pod with 20 000 tolerations and a 20 000-key nodeSelector judged on a pool: placement
    is linear in the lists (schedlint placement and check)."""
    c.git_init()
    c.write(".schedlint.yaml", "cluster:\n  node-pools:\n  - name: gpu\n    labels: [pool=gpu]\n"
            "    taints: [nvidia.com/gpu=present:NoSchedule]\n"
            "    allocatable: [nvidia.com/gpu=8, cpu=96, memory=1100Gi]\n")
    tol = "".join("  - {key: k%d, operator: Exists}\n" % i for i in range(20000))
    sel = "".join("    s%05d: v\n" % i for i in range(20000))
    c.write("pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: big\nspec:\n"
            "  containers: [{name: a, image: b}]\n  tolerations:\n" + tol
            + "  nodeSelector:\n" + sel)
    r = c.run(["placement", "."])
    expect(r.rc in (0, 1), "exit status %s" % r.rc, r)
    r = c.run(["check", "--format", "json", "."])
    expect(r.rc in (0, 1), "exit status %s" % r.rc, r)
    expect_messages_cut(r)


@case(cpu=5, mem=512, out=64)
def node_dump_without_pool_labels(c):
    """A node dump of 40 000 nodes none of which carries a pool label (on-prem: each node its
    own pool): grouped in linear time, and the messages that list pools are cut."""
    c.git_init()
    items = "".join("- apiVersion: v1\n  kind: Node\n  metadata:\n    name: node-%05d\n"
                    "    labels: {kubernetes.io/hostname: node-%05d}\n"
                    "  status:\n    allocatable: {cpu: '8', memory: 32Gi}\n" % (i, i)
                    for i in range(40000))
    c.write("nodes.yaml", "apiVersion: v1\nkind: List\nitems:\n" + items)
    c.write(".schedlint.yaml", "cluster:\n  node-inventory: nodes.yaml\n")
    c.write("pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: gpu\nspec:\n"
            "  containers:\n  - name: a\n    image: b\n    resources:\n"
            "      limits: {nvidia.com/gpu: 1}\n")
    r = c.run(["check", "--format", "json", "pod.yaml"])
    expect(r.rc in (0, 1), "exit status %s" % r.rc, r)
    expect_messages_cut(r)


@case(cpu=5, mem=512, out=64)
def long_name_many_findings(c):
    """A Pod named with 1 MiB of characters and 3 000 findings: every message cuts the name."""
    c.git_init()
    sel = "".join("    k%05d: true\n" % i for i in range(3000))
    c.write("pod.yaml", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: %s\nspec:\n"
            "  containers: [{name: a, image: b}]\n  tolerations: [{key: nvidia.com/gpu, "
            "operator: Exists}]\n  nodeSelector:\n%s" % ("n" * MIB, sel))
    r = c.run(["check", "--format", "json", "."])
    expect_rc(r, 1)
    expect(len(findings(r)) >= 3000, "fewer findings than the 3 000 nodeSelector values", r)
    expect_messages_cut(r)


@case(cpu=5, mem=512, out=64)
def custom_rule_value_of_anchored_scalar(c):
    """A declared rule's message quoting {value}, where the value is an anchored 1 MiB scalar
    aliased 3 000 times: each message cuts the value."""
    c.git_init()
    c.write(".schedlint.yaml", """custom-rules:
  - id: evil/value
    summary: quotes values
    severity: error
    target: object
    match: {kinds: [ConfigMap]}
    schema:
      properties:
        data:
          additionalProperties: {maxLength: 1}
    message: "bad {value}"
""")
    data = "  k0: &big %s\n" % ("v" * MIB) + "".join("  k%d: *big\n" % i for i in range(1, 3000))
    c.write("cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n" + data)
    r = c.run(["check", "--format", "json", "."])
    expect_rc(r, 1)
    expect(sum(f["rule"] == "evil/value" for f in findings(r)) >= 1, "no evil/value finding", r)
    expect_messages_cut(r)


# --- silent on a cycle ------------------------------------------------------------------------

@case(cpu=5, mem=256)
def kustomize_cycle_two(c):
    """Kustomizations a and b including each other (no root): kustomize-invalid, in kustomize
    v5's words ("cycle detected"), not "No problems found"."""
    c.git_init()
    c.write("a/kustomization.yaml", "resources:\n- ../b\n- cm.yaml\n")
    c.write("a/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n")
    c.write("b/kustomization.yaml", "resources:\n- ../a\n")
    r = c.run(["check", "--format", "json", "."])
    expect_rc(r, 1)
    expect(any(f["rule"] == "kustomize-invalid" and "cycle" in f["message"]
               for f in findings(r)), "no kustomize-invalid cycle finding", r)


@case(cpu=5, mem=256)
def kustomize_resources_itself(c):
    """resources: [.]: kustomize-invalid ("cycle detected")."""
    c.git_init()
    c.write("a/kustomization.yaml", "resources:\n- .\n- cm.yaml\n")
    c.write("a/cm.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n")
    r = c.run(["check", "--format", "json", "."])
    expect_rc(r, 1)
    expect(any(f["rule"] == "kustomize-invalid" and "cycle" in f["message"]
               for f in findings(r)), "no kustomize-invalid cycle finding", r)


# --- the editor under load --------------------------------------------------------------------

class Lsp:
    """A minimal LSP client over the server's pipes."""

    def __init__(self, p):
        self.p, self.next_id = p, 1

    def send(self, msg):
        msg["jsonrpc"] = "2.0"
        body = json.dumps(msg).encode()
        self.p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.p.stdin.flush()

    def recv(self):
        length = None
        while True:
            line = self.p.stdout.readline()
            if not line:
                raise EOFError("the server closed its output")
            line = line.strip()
            if not line:
                break
            k, _, v = line.partition(b":")
            if k.lower() == b"content-length":
                length = int(v)
        return json.loads(self.p.stdout.read(length))

    def request(self, method, params=None):
        i = self.next_id
        self.next_id += 1
        msg = {"id": i, "method": method}
        if params is not None:
            msg["params"] = params
        self.send(msg)
        while True:
            m = self.recv()
            if m.get("id") == i and "method" not in m:
                return m

    def wait_diagnostics(self, uri):
        while True:
            m = self.recv()
            if m.get("method") == "textDocument/publishDiagnostics" and \
                    m["params"]["uri"] == uri:
                return m["params"]["diagnostics"]


def cpu_of(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@case(cpu=60, mem=1024)
def lsp_relints_only_the_changed_document(c):
    """The language server: 20 changes to one document with 200 open 1 000-line manifests
    cost about what they cost with that one open (measured from the server's own CPU time,
    never a clock): at most 4 times as much plus 0.25 s (x4 under ASan), where re-linting every
    open document on each change costs some 30 times as much."""
    c.git_init()
    body = "".join("    k%04d: v\n" % i for i in range(990))
    text = POD.replace("spec:\n", "spec:\n  nodeSelector:\n" + body) 
    p = c.spawn(["server", "--debounce-ms", "0"])
    lsp = Lsp(p)
    root = "file://" + c.repo
    lsp.request("initialize", {"processId": None, "rootUri": root, "capabilities": {}})
    lsp.send({"method": "initialized", "params": {}})
    uris = []
    for i in range(200):
        uri = "%s/doc%03d.yaml" % (root, i)
        uris.append(uri)
        lsp.send({"method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "yaml", "version": 1, "text": text % ("p%d" % i)}}})
        if i == 0:
            lsp.wait_diagnostics(uri)
            alone = changes(lsp, p, uri, text, 2)
    for uri in uris[1:]:
        lsp.wait_diagnostics(uri)
    # every open document has had its diagnostics: the changes start from a quiet server
    crowded = changes(lsp, p, uris[0], text, 100)
    lsp.request("shutdown")
    lsp.send({"method": "exit"})
    r = c.finish(p)
    c.notes.append("20 changes: %.2f s CPU with 1 document open, %.2f s with 200" % (
        alone, crowded))
    expect_rc(r, 0)
    limit = 4 * alone + 0.25 * (4 if harness_sanitized() else 1)
    expect(crowded <= limit, "20 changes with 200 documents open took %.2f s of CPU, with one "
           "open %.2f s (at most %.2f s): every open document is re-linted on each change" % (
               crowded, alone, limit))


def changes(lsp, p, uri, text, version):
    """CPU seconds the server spends on 20 changes of uri, each waited for."""
    before = cpu_of(p.pid)
    for v in range(version, version + 20):
        lsp.send({"method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": v},
            "contentChanges": [{"text": text % ("p0v%d" % v)}]}})
        lsp.wait_diagnostics(uri)
    return cpu_of(p.pid) - before


def harness_sanitized():
    import harness
    return harness.SANITIZED


# --- exit codes, terminal injection, left from the previous round -----------------------------

@case(cpu=5, mem=256)
def fmt_config_error_exits_2(c):
    """schedlint fmt PATH (and fmt with no path) under a .schedlint.yaml whose error shows when
    the run is made (a declared rule without a namespace; plugins: without --allow-plugins):
    exit 2, a config error as for check, placement and fmt -, never 3 (internal error); the
    file:line of the error on stderr, the file unchanged."""
    c.git_init()
    p = c.write("pod.yaml", FIXABLE % ("web", 1))
    for cfg in ("custom-rules:\n  - id: nons\n    summary: x\n    target: object\n"
                "    schema: {required: [x]}\n", "plugins: [x.so]\n"):
        c.write(".schedlint.yaml", cfg)
        for args in (["fmt", "pod.yaml"], ["fmt"], ["check", "pod.yaml"], ["placement", "pod.yaml"]):
            r = c.run(args)
            expect_rc(r, 2)
            expect_in(r, r"\.schedlint\.yaml:\d+", "err")
        r = c.run(["fmt", "-"], stdin=FIXABLE % ("web", 1))
        expect_rc(r, 2)
        expect(r.out == FIXABLE % ("web", 1), "fmt - did not give back its input", r)
        expect(open(p).read() == FIXABLE % ("web", 1), "the file changed", r)


ESCAPES = "\x1b]0;pwned\x07\x1b[2J\x1b]8;;https://evil.example/\x07click\x1b]8;;\x07" \
          "\x1b]52;c;cm0gLXJmIH4=\x07\x9b31m"


def dq(s):
    """s as a YAML double-quoted scalar, every control character escaped."""
    out = []
    for ch in s:
        o = ord(ch)
        if ch in "\\\"":
            out.append("\\" + ch)
        elif 0x20 <= o < 0x7f:
            out.append(ch)
        elif o < 0x100:
            out.append("\\x%02x" % o)
        else:
            out.append("\\u%04x" % o)
    return '"' + "".join(out) + '"'


def expect_no_escapes(r):
    for name, text in (("stdout", r.out), ("stderr", r.err)):
        bad = [ch for ch in ("\x1b", "\x07", "\x9b") if ch in text]
        expect(not bad, "%s carries raw control characters %r" % (name, bad), r)
        expect(not re.search(r"(?m)^\s*::", text), "%s has a line starting with '::' (a GitHub "
               "workflow command)" % name, r)


@case(cpu=5, mem=256)
def explain_and_rules_escape_declared_text(c):
    """A declared rule's summary: and doc: holding terminal escapes (window title, clear screen,
    OSC 8 hyperlink, OSC 52 clipboard, C1 CSI): explain and rules (text and Markdown) print
    them escaped, as check does."""
    c.git_init()
    c.write(".schedlint.yaml", """custom-rules:
  - id: evil/escapes
    summary: %s
    severity: warning
    target: object
    schema: {required: [x]}
    doc: %s
""" % (dq("sum" + ESCAPES), dq("doc\n::warning::pwned\n" + ESCAPES)))
    for args in (["explain", "evil/escapes"], ["rules"], ["rules", "--format", "markdown"]):
        r = c.run(args)
        expect_rc(r, 0)
        expect_in(r, r"evil/escapes")
        expect_no_escapes(r)


@case(cpu=5, mem=256)
def explain_escapes_hostile_rule_id(c):
    """schedlint explain with a rule id holding escapes and a newline followed by '::error::':
    the error names it escaped (exit 2)."""
    c.git_init()
    r = c.run(["explain", "nope" + ESCAPES + "\n::error::pwned"])
    expect_rc(r, 2)
    expect_no_escapes(r)
    expect_in(r, r"nope", "err")


FIXABLE = POD + "    resources:\n      requests:\n        nvidia.com/gpu: %d\n"


@case(cpu=5, mem=256)
def diff_path_named_twice(c):
    """--diff --stdin-filename x.yaml - x.yaml: the path named twice is one input (stdin stands
    for it), so the diff is that of stdin's fixes, at its offsets, and applies to it."""
    c.git_init()
    disk = "# a longer header on disk\n# that shifts every offset\n" + FIXABLE % ("disk", 2)
    stdin = FIXABLE % ("buffer", 1)
    c.write("x.yaml", disk)
    buffer = c.write(os.path.join(c.base, "buffer.yaml"), stdin)   # beside the repository
    fixed = c.run(["fmt", "--stdin-filename", "x.yaml", "-"], stdin=stdin)
    for paths in (["-", "x.yaml"], ["x.yaml", "-"], ["-", "./x.yaml"], ["-", c.path("x.yaml")],
                  ["-", "."]):
        r = c.run(["check", "--diff", "--stdin-filename", "x.yaml"] + paths, stdin=stdin)
        expect(r.out.count("+++ ") == 1, "%s: %d diffs for one input" % (
            paths, r.out.count("+++ ")), r)
        patch = subprocess.run(["patch", "-s", "-r", os.path.join(c.base, "rej"), "-o", "-",
                                buffer], input=r.out, capture_output=True,
                               text=True, cwd=c.base)
        expect(patch.returncode == 0 and patch.stdout == fixed.out, "%s: the diff is not stdin's "
               "fixes (stdin stands for x.yaml whatever the order): %s" % (paths, patch.stderr), r)


@case(cpu=5, mem=256)
def gpu_fix_in_flow_mapping(c):
    """resources: {requests: {nvidia.com/gpu: 1}} (flow style): the safe fix adds the limit (fmt
    gives a file without the finding), or the finding says why it offers none."""
    c.git_init()
    text = ("apiVersion: v1\nkind: Pod\nmetadata:\n  name: flow\nspec:\n  containers:\n"
            "  - name: main\n    image: registry.example/app:1.0\n"
            "    resources: {requests: {nvidia.com/gpu: 1}}\n")
    r = c.run(["fmt", "--stdin-filename", "pod.yaml", "-"], stdin=text)
    expect_rc(r, 0)
    c.write("pod.yaml", r.out)
    r2 = c.run(["check", "--format", "json", "pod.yaml"])
    left = [f for f in findings(r2) if f["rule"] == "gpu-request-without-limit"]
    expect(not left, "fmt left gpu-request-without-limit: %s" % left, r2)
