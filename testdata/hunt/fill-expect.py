#!/usr/bin/env python3
"""Fill each hunt spec's expect: with what the simulation shows.

The hunt clips are not corpus clips: their expect: only records what the
simulator made (synth refuses a clip whose expect: differs). Run from the
repository root: python3 testdata/hunt/fill-expect.py [DIR]."""
import re, subprocess, sys
import yaml
d = sys.argv[1] if len(sys.argv) > 1 else "testdata/hunt"
for _ in range(3):
    p = subprocess.run(["bin/boardcam", "synth", "--dry-run", d], capture_output=True, text=True)
    cur = None
    fixes = {}
    for line in p.stderr.splitlines():
        m = re.match(r".*corpus: (\S+\.yaml): the clip does not show", line)
        if m:
            cur = m.group(1); continue
        m = re.match(r"\s+expect\.(\w+): want \[.*?\], the truth has \[(.*)\]", line)
        if m and cur:
            fixes.setdefault(cur, {})[m.group(1)] = m.group(2)
    if not fixes:
        break
    for f, kv in fixes.items():
        s = open(f).read()
        i = s.index("\nexpect:") + 1  # expect: is the last section of every hunt spec
        e = yaml.safe_load(s[i:])["expect"] or {}
        for k, v in kv.items():
            e[k] = [x.strip() for x in v.split(",") if x.strip()]
        s = s[:i] + yaml.safe_dump({"expect": e}, default_flow_style=None, sort_keys=False, width=100)
        open(f, "w").write(s)
print(p.stdout)
print("\n".join(l for l in p.stderr.splitlines() if not l.startswith("synth: warning")))
