#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""ci: the GitHub Action (action.yml) and the GitLab CI template (ci/gitlab.yml), run here.

Usage: ci.py BUILD_DIR action|gitlab   (from the project root, $SCHEDLINT naming the built binary)

Both files are parsed (python3-yaml) and their structure checked: the composite action's
essentials (inputs with descriptions, `runs.using: composite`, a `shell` on every `run` step,
every `${{ inputs.X }}` declared, the upload through github/codeql-action/upload-sarif); the
GitLab job's keys (stage, image, script, artifacts:reports:codequality and junit, when: always).
Then their shell steps run for real in a scratch directory, as the runners would run them:

- action: the `run:` steps in order with bash -eo pipefail, in a workspace (a git checkout
  holding a copy of testdata/examples) with GITHUB_WORKSPACE, GITHUB_ACTION_PATH (a copy of
  this tree), RUNNER_TEMP, GITHUB_OUTPUT, GITHUB_ENV, GITHUB_PATH and GITHUB_STEP_SUMMARY set,
  `${{ }}` expressions and `if:` conditions evaluated; a `uses:` step is not run, but whether it
  would run and its `with:` are checked. Twice: upload-sarif true on the examples (the action
  fails with schedlint's exit 1 after the upload; the SARIF, the annotations and the Markdown
  step summary name the GPU request without a limit at manifests/inferenceservice.yaml:25:27),
  and upload-sarif false on a clean file (it passes, no upload).
- gitlab: before_script and script as one bash -eo pipefail script in the project directory
  (CI_PROJECT_DIR) with the job's variables; SCHEDLINT_REPO is a scratch git repository holding
  a copy of this tree, so the fetch and the build happen offline. The Code Quality report has
  the fields GitLab documents (description, check_name, fingerprint, severity, location.path,
  location.lines.begin) and the JUnit report one failing testcase per finding.

Steps that install packages run as written: they call apt-get only for what is missing, and the
test skips (77, with a message) when anything they name is missing rather than let them run
apt-get. It skips too in a sanitizer build (each run builds its own release schedlint), without
python3-yaml, or when schedlint has no `--format FORMAT:FILE`.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

ROOT = os.getcwd()
FINDING = ("manifests/inferenceservice.yaml", 25, 27, "gpu-request-without-limit")
CLEAN = """apiVersion: v1
kind: Pod
metadata:
  name: clean
spec:
  containers:
    - name: main
      image: busybox:1.36
"""

failures = []


def fail(msg):
    failures.append(msg)
    print("ci.py: FAIL: " + msg, file=sys.stderr)


def skip(msg):
    print("ci.py: SKIP: " + msg)
    sys.exit(77)


def check_preconditions(build):
    info = json.loads(subprocess.run(["meson", "introspect", build, "--buildoptions"],
                                     capture_output=True, text=True, check=True).stdout)
    san = next(o["value"] for o in info if o["name"] == "b_sanitize")
    if san != "none":
        skip("a sanitizer build (b_sanitize=%s): the CI steps build a release schedlint of "
             "their own, tested in the normal build" % san)
    try:
        import yaml  # noqa: F401
    except ImportError:
        skip("python3-yaml is missing (tools/setup --test installs it)")
    sl = os.environ.get("SCHEDLINT", os.path.join(build, "schedlint"))
    with tempfile.TemporaryDirectory() as t:
        r = subprocess.run([sl, "check", "--no-project", "--format", "sarif:" + t + "/x.sarif",
                            "testdata/examples/priorityclass.yaml"], capture_output=True, text=True)
        if r.returncode > 1 or not os.path.exists(t + "/x.sarif"):
            skip("this schedlint has no --format FORMAT:FILE (%s)" % r.stderr.strip()[:200])


def require_packages(script, where):
    """The install step runs apt-get only for what is missing; a test never does: skip when
    the packages the step names are not all installed."""
    m = re.search(r"for p in ([^;]+); do", script)
    if not m:
        fail("%s: no `for p in PACKAGES; do` list in the install step" % where)
        return
    missing = [p for p in m.group(1).split()
               if "ok installed" not in subprocess.run(
                   ["dpkg-query", "-W", "-f=${Status}", p], capture_output=True, text=True).stdout]
    if missing:
        skip("%s would install %s with apt-get (tools/setup --test installs them)" % (where, " ".join(missing)))


def copy_tree(dest):
    """The working tree's files as a fresh git repository (tests/ci/common.sh's copy_tree)."""
    subprocess.run(["sh", "-c", 'me=ci.py; . tests/ci/common.sh; copy_tree "$1" "$2"', "sh", ROOT, dest],
                   check=True)
    git_commit(dest)


def git_commit(d):
    env = dict(os.environ, GIT_AUTHOR_NAME="ci", GIT_AUTHOR_EMAIL="ci@example.invalid",
               GIT_COMMITTER_NAME="ci", GIT_COMMITTER_EMAIL="ci@example.invalid")
    for cmd in (["git", "init", "-q", "-b", "main"], ["git", "add", "-A"],
                ["git", "commit", "-q", "-m", "scratch"]):
        subprocess.run(cmd, cwd=d, env=env, check=True)
    return subprocess.run(["git", "rev-parse", "HEAD"], cwd=d, capture_output=True, text=True,
                          check=True).stdout.strip()


def workspace(d, clean=False):
    """A user's repository: the bundled examples (or one clean Pod) under manifests/."""
    os.makedirs(os.path.join(d, "manifests"))
    if clean:
        with open(os.path.join(d, "manifests", "pod.yaml"), "w") as f:
            f.write(CLEAN)
    else:
        for name in os.listdir("testdata/examples"):
            shutil.copy(os.path.join("testdata/examples", name), os.path.join(d, "manifests"))
    git_commit(d)


# ---------------------------------------------------------------- GitHub expressions

TOKEN = re.compile(r"\s*(?:('(?:[^']|'')*')|(==|!=|&&|\|\||!|\(|\))|([A-Za-z_][A-Za-z0-9_.-]*))")


def evaluate(expr, ctx):
    """The subset of GitHub's expression language action.yml uses: literals, context
    references, == != && || ! and parentheses; values compare as strings (they all are here)."""
    out, pos = [], 0
    expr = expr.strip()
    while pos < len(expr):
        m = TOKEN.match(expr, pos)
        if not m or m.end() == pos:
            raise ValueError("cannot read expression %r at %d" % (expr, pos))
        pos = m.end()
        lit, op, ident = m.groups()
        if lit is not None:
            out.append(repr(lit[1:-1].replace("''", "'")))
        elif op is not None:
            out.append({"&&": " and ", "||": " or ", "!": " not "}.get(op, op))
        elif ident in ("true", "false"):
            out.append("'%s'" % ident)
        else:
            if ident not in ctx:
                raise ValueError("unknown context value %r in %r" % (ident, expr))
            out.append(repr(ctx[ident]))
    return eval("".join(out), {"__builtins__": {}})  # noqa: S307 (our own tokens only)


def substitute(text, ctx):
    return re.sub(r"\$\{\{(.*?)\}\}", lambda m: str(evaluate(m.group(1), ctx)), str(text))


def read_outputs(path):
    out = {}
    lines = open(path).read().splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and "=" not in line.split("<<")[0]:
            name, delim = line.split("<<", 1)
            j = lines.index(delim, i + 1)
            out[name] = "\n".join(lines[i + 1:j])
            i = j
        elif "=" in line:
            name, value = line.split("=", 1)
            out[name] = value
        i += 1
    return out


# ---------------------------------------------------------------- action.yml

def check_action_structure(action):
    for key in ("name", "description", "inputs", "runs"):
        if key not in action:
            fail("action.yml: no %s" % key)
    runs = action.get("runs", {})
    if runs.get("using") != "composite":
        fail("action.yml: runs.using is %r, not composite" % runs.get("using"))
    for name in ("paths", "args", "sarif-file", "upload-sarif"):
        if name not in action.get("inputs", {}):
            fail("action.yml: input %s is missing" % name)
    for name, inp in action.get("inputs", {}).items():
        if not inp.get("description"):
            fail("action.yml: input %s has no description" % name)
    text = open("action.yml").read()
    for used in re.findall(r"inputs\.([A-Za-z0-9_-]+)", text):
        if used not in action.get("inputs", {}):
            fail("action.yml: inputs.%s is used but not declared" % used)
    ids = [s.get("id") for s in runs.get("steps", []) if s.get("id")]
    for used in re.findall(r"steps\.([A-Za-z0-9_-]+)\.outputs", text):
        if used not in ids:
            fail("action.yml: steps.%s is used but no step has that id" % used)
    uploads = [s for s in runs.get("steps", []) if "uses" in s]
    if not any(re.fullmatch(r"github/codeql-action/upload-sarif@v\d+", s["uses"]) for s in uploads):
        fail("action.yml: no step uses github/codeql-action/upload-sarif@vN")
    for s in runs.get("steps", []):
        if "run" in s and s.get("shell") not in ("bash", "sh"):
            fail("action.yml: step %r: a composite run step needs shell: bash" % s.get("name"))
        if "run" in s and "uses" in s:
            fail("action.yml: step %r has both run and uses" % s.get("name"))
    lint = "\n".join(s.get("run", "") for s in runs.get("steps", []))
    if not re.search(r'--format "?sarif:', lint) or not re.search(r"--format \"?github", lint):
        fail("action.yml: the lint step does not write sarif:FILE and github in one run")


def run_action(action, tmp, name, inputs, clean):
    """Runs the composite action's steps as a runner would; returns (status, stdout,
    the upload step's `with:` or None, the workspace)."""
    ws = os.path.join(tmp, name, "workspace")
    os.makedirs(ws)
    workspace(ws, clean)
    files = {k: os.path.join(tmp, name, k) for k in ("output", "env", "path", "summary")}
    for p in files.values():
        open(p, "w").close()
    env = dict(os.environ, GITHUB_ACTIONS="true", CI="true", GITHUB_WORKSPACE=ws,
               GITHUB_ACTION_PATH=os.path.join(tmp, "action"), RUNNER_TEMP=os.path.join(tmp, "runner"),
               GITHUB_ENV=files["env"], GITHUB_PATH=files["path"],
               GITHUB_STEP_SUMMARY=files["summary"], RUNNER_OS="Linux")
    env.pop("SCHEDLINT", None)
    values = {"inputs." + k: str(v.get("default", "")) for k, v in action["inputs"].items()}
    values.update({"inputs." + k: v for k, v in inputs.items()})
    values.update({"github.workspace": ws, "github.action_path": env["GITHUB_ACTION_PATH"],
                   "runner.temp": env["RUNNER_TEMP"]})
    failed, status, stdout, upload = False, 0, "", None
    for i, step in enumerate(action["runs"]["steps"]):
        cond = step.get("if", "success()")
        cond = re.sub(r"^\$\{\{(.*)\}\}$", r"\1", str(cond).strip())
        if cond == "success()":
            run = not failed
        else:
            run = not failed and bool(evaluate(cond, values))
        if not run:
            continue
        if "uses" in step:
            upload = {k: substitute(v, values) for k, v in step.get("with", {}).items()}
            continue
        open(files["output"], "w").close()
        step_env = dict(env, GITHUB_OUTPUT=files["output"])
        step_env.update({k: substitute(v, values) for k, v in step.get("env", {}).items()})
        script = os.path.join(tmp, name, "step%d.sh" % i)
        with open(script, "w") as f:
            f.write(substitute(step["run"], values))
        cwd = substitute(step.get("working-directory", ws), values)
        r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", script],
                           cwd=cwd, env=step_env, capture_output=True, text=True)
        stdout += r.stdout
        sys.stderr.write(r.stderr)
        for k, v in read_outputs(files["output"]).items():
            values["steps.%s.outputs.%s" % (step.get("id"), k)] = v
        if r.returncode != 0:
            failed, status = True, r.returncode
    for k, v in action.get("outputs", {}).items():
        values["outputs." + k] = substitute(v["value"], values)
    return status, stdout, upload, ws, values


def check_sarif(path, expect_finding):
    try:
        sarif = json.load(open(path))
    except (OSError, ValueError) as e:
        fail("the SARIF report %s: %s" % (path, e))
        return
    if sarif.get("version") != "2.1.0" or not sarif.get("runs"):
        fail("%s is not a SARIF 2.1.0 log" % path)
        return
    run = sarif["runs"][0]
    if run.get("tool", {}).get("driver", {}).get("name") != "schedlint":
        fail("%s: tool.driver.name is not schedlint" % path)
    hits = [r for r in run.get("results", [])
            if r.get("ruleId") == FINDING[3] and
            r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == FINDING[0] and
            r["locations"][0]["physicalLocation"]["region"]["startLine"] == FINDING[1] and
            r["locations"][0]["physicalLocation"]["region"]["startColumn"] == FINDING[2]]
    if expect_finding and not hits:
        fail("%s: no %s result at %s:%d:%d" % (path, FINDING[3], *FINDING[:3]))
    if not expect_finding and run.get("results"):
        fail("%s: results on a clean workspace: %s" % (path, run["results"]))


def test_action(tmp):
    import yaml
    action = yaml.safe_load(open("action.yml"))
    check_action_structure(action)
    if failures:
        return
    require_packages(action["runs"]["steps"][0].get("run", ""), "action.yml")
    copy_tree(os.path.join(tmp, "action"))
    # 1. the examples, uploaded: the action fails with schedlint's status, after the upload
    status, out, upload, ws, values = run_action(action, tmp, "examples", {"paths": "manifests",
                                                 "upload-sarif": "true"}, clean=False)
    if status != 1:
        fail("action on the examples: status %d, expected 1 (schedlint's findings)" % status)
    if values.get("outputs.exit-code") != "1":
        fail("action output exit-code is %r, expected 1" % values.get("outputs.exit-code"))
    if upload is None:
        fail("upload-sarif: true, but the upload step would not run")
    else:
        if upload.get("sarif_file") != "schedlint.sarif":
            fail("the upload's sarif_file is %r" % upload.get("sarif_file"))
        if upload.get("checkout_path") != ws:
            fail("the upload's checkout_path is %r, not the workspace" % upload.get("checkout_path"))
    check_sarif(os.path.join(ws, "schedlint.sarif"), True)
    summary = open(os.path.join(tmp, "examples", "summary")).read()
    if FINDING[3] not in summary or "|" not in summary:
        fail("the step summary has no Markdown table naming %s:\n%s" % (FINDING[3], summary))
    want = "::error file=%s,line=%d,col=%d," % FINDING[:3]
    if not any(line.startswith(want) and ("title=" + FINDING[3]) in line for line in out.splitlines()):
        fail("no GitHub annotation starting %r for %s in the step's output:\n%s" % (want, FINDING[3], out))
    # 2. a clean file, no upload: the action passes; the SARIF is there, empty
    status, out, upload, ws, values = run_action(action, tmp, "clean", {"paths": "manifests/pod.yaml",
                                                 "sarif-file": "out/report.sarif"}, clean=True)
    if status != 0:
        fail("action on a clean file: status %d, expected 0:\n%s" % (status, out))
    if upload is not None:
        fail("upload-sarif: false, but the upload step would run")
    if FINDING[3] in open(os.path.join(tmp, "clean", "summary")).read():
        fail("the clean run's step summary names a finding")
    check_sarif(os.path.join(ws, "out/report.sarif"), False)


# ---------------------------------------------------------------- ci/gitlab.yml

def test_gitlab(tmp):
    import yaml
    doc = yaml.safe_load(open("ci/gitlab.yml"))
    job = doc.get("schedlint")
    if not isinstance(job, dict):
        fail("ci/gitlab.yml: no job `schedlint`")
        return
    for key in ("stage", "image", "script", "artifacts", "variables"):
        if key not in job:
            fail("ci/gitlab.yml: the job has no %s" % key)
    reports = job.get("artifacts", {}).get("reports", {})
    if reports.get("codequality") != "gl-code-quality-report.json":
        fail("ci/gitlab.yml: artifacts:reports:codequality is %r" % reports.get("codequality"))
    if reports.get("junit") != "schedlint-junit.xml":
        fail("ci/gitlab.yml: artifacts:reports:junit is %r" % reports.get("junit"))
    if job.get("artifacts", {}).get("when") != "always":
        fail("ci/gitlab.yml: artifacts:when is not always (reports are needed when the job fails)")
    script = "\n".join(job.get("script", []))
    if "--format gitlab:gl-code-quality-report.json" not in script or "--format junit:" not in script:
        fail("ci/gitlab.yml: the script does not write both reports in one run")
    if failures:
        return
    require_packages(job.get("before_script", [""])[0], "ci/gitlab.yml")
    repo = os.path.join(tmp, "schedlint.git")
    os.makedirs(repo)
    copy_tree(repo)
    project = os.path.join(tmp, "project")
    os.makedirs(project)
    workspace(project)
    variables = {k: str(v) for k, v in job["variables"].items()}
    variables.update(SCHEDLINT_REPO=repo, SCHEDLINT_PATHS="manifests")
    env = dict(os.environ, CI="true", GITLAB_CI="true", CI_PROJECT_DIR=project,
               CI_JOB_NAME="schedlint", **variables)
    env.pop("SCHEDLINT", None)
    body = "\n".join(job.get("before_script", []) + job["script"])
    path = os.path.join(tmp, "job.sh")
    with open(path, "w") as f:
        f.write(body + "\n")
    r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", path], cwd=project,
                       env=env, capture_output=True, text=True)
    if r.returncode != 1:
        fail("the GitLab job on the examples: status %d, expected 1:\n%s%s" % (r.returncode, r.stdout, r.stderr))
    text_line = "%s:%d:%d: error:" % FINDING[:3]
    if not any(line.startswith(text_line) for line in r.stdout.splitlines()):
        fail("the job log lacks the text finding %r:\n%s" % (text_line, r.stdout))
    # the Code Quality report: the fields GitLab documents
    try:
        cq = json.load(open(os.path.join(project, "gl-code-quality-report.json")))
    except (OSError, ValueError) as e:
        fail("gl-code-quality-report.json: %s" % e)
        cq = []
    if not isinstance(cq, list) or not cq:
        fail("gl-code-quality-report.json is not a non-empty array")
        cq = []
    for issue in cq:
        for key in ("description", "check_name", "fingerprint", "severity", "location"):
            if not issue.get(key):
                fail("a Code Quality issue lacks %s: %s" % (key, issue))
        if issue.get("severity") not in ("info", "minor", "major", "critical", "blocker"):
            fail("Code Quality severity %r" % issue.get("severity"))
        loc = issue.get("location", {})
        if not isinstance(loc.get("lines", {}).get("begin"), int) or not loc.get("path"):
            fail("a Code Quality location lacks path or lines.begin: %s" % loc)
    if len({i.get("fingerprint") for i in cq}) != len(cq):
        fail("Code Quality fingerprints are not unique")
    if not any(i.get("check_name") == FINDING[3] and i["location"].get("path") == FINDING[0] and
               i["location"]["lines"]["begin"] == FINDING[1] for i in cq):
        fail("gl-code-quality-report.json lacks %s at %s:%d" % (FINDING[3], FINDING[0], FINDING[1]))
    # the JUnit report: one failing testcase per finding (as many as the Code Quality issues)
    try:
        tree = ET.parse(os.path.join(project, "schedlint-junit.xml"))
        failing = [tc for tc in tree.iter("testcase") if tc.find("failure") is not None]
        if len(failing) != len(cq):
            fail("schedlint-junit.xml: %d failing testcases, %d findings" % (len(failing), len(cq)))
    except (OSError, ET.ParseError) as e:
        fail("schedlint-junit.xml: %s" % e)
    # the cache: a second run fetches again and builds nothing
    r = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", path], cwd=project,
                       env=env, capture_output=True, text=True)
    if r.returncode != 1:
        fail("the GitLab job again, over its cache: status %d:\n%s" % (r.returncode, r.stderr))


def main():
    if len(sys.argv) != 3 or sys.argv[2] not in ("action", "gitlab"):
        print(__doc__, file=sys.stderr)
        return 2
    build = os.path.abspath(sys.argv[1])
    check_preconditions(build)
    with tempfile.TemporaryDirectory(prefix="schedlint-ci.") as tmp:
        (test_action if sys.argv[2] == "action" else test_gitlab)(tmp)
    if failures:
        print("ci.py %s: %d failures" % (sys.argv[2], len(failures)))
        return 1
    print("ci.py %s: ok" % sys.argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main())
