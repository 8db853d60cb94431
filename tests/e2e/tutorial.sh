#!/bin/sh
# docs/tutorial.md is run as written, so it cannot drift from what quotaflow
# does: a file-name line (`tenants/pool.yaml`:) followed by a yaml or json
# block writes that file; a sh block runs; a block of `$ command` lines
# runs each command and its output must hold the lines shown under it, in
# that order (a tutorial may trim lines, so the shown ones are a
# subsequence; a line with [...] matches up to it).  Needs git and python3.
QF=${QF:-build/quotaflow}
QF=$(cd "$(dirname "$QF")" && pwd)/$(basename "$QF")
cd "$(dirname "$0")/../.." || exit 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin" && ln -s "$QF" "$tmp/bin/quotaflow"
PATH=$tmp/bin:$PATH HOME=$tmp GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com \
	GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com \
	python3 - docs/tutorial.md "$tmp/work" <<'PY'
import os, re, subprocess, sys
doc, work = sys.argv[1], sys.argv[2]
os.makedirs(work)
text = open(doc).read()
cwd = [work]
def run(cmd):
    # cd carries over, as in the reader's shell
    p = subprocess.run(cmd + '\necho "@@cwd=$PWD"', shell=True, cwd=cwd[0],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    out = p.stdout.splitlines()
    cwd[0] = out[-1][len('@@cwd='):]
    return out[:-1]
def fail(msg):
    print('tutorial: FAIL: ' + msg); sys.exit(1)
checked = 0
pat = re.compile(r'(?:`([^`\n]+)`[^\n]*:\n\n)?```(\w*)\n(.*?)```', re.S)
for m in pat.finditer(text):
    name, lang, body = m.group(1), m.group(2), m.group(3)
    if lang in ('yaml', 'json') and name:
        path = os.path.join(cwd[0], name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, 'w').write(body)
    elif lang == 'sh':
        run(body)
    elif lang == '' and body.startswith('$ '):
        steps = re.split(r'^\$ ', body, flags=re.M)[1:]
        for step in steps:
            cmd, *want = step.rstrip('\n').split('\n')
            got = run(cmd)
            i = 0
            for w in want:
                pre = w.split('[...]')[0] if '[...]' in w else None
                while i < len(got) and not (got[i] == w or (pre is not None and got[i].startswith(pre))):
                    i += 1
                if i == len(got):
                    fail('$ %s\n  expected: %s\n  got:\n    %s' % (cmd, w, '\n    '.join(got)))
                i += 1
                checked += 1
print('tutorial: docs/tutorial.md ran as written, %d output lines as shown' % checked)
PY
