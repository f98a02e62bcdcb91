#!/usr/bin/env python3
"""Summarise `boardcam eval --remove --json` output for the hunt.

Per removal: clips right / held / wrong, and of the held runs how many
hold a best guess that is not the truth (the held decisions' guesses, in
order, against the truth's events after those applied; a decision with
no outcome, guess "-", counts as not the truth). Then every wrong run and
every held run with a wrong guess, with its reasons.

usage: python3 testdata/hunt/summary.py removed.json"""
import json, sys

d = json.load(open(sys.argv[1]))
runs = [r for r in d["runs"] if not r.get("skipped")]
order = [s["removal"] for s in d["summary"]]
print("%-10s %5s %5s %5s %5s  %s" % ("removal", "clips", "right", "held", "wrong", "held with a wrong guess"))
bad = []
for rem in order:
    rs = [r for r in runs if r["removal"] == rem]
    c = {"right": 0, "held": 0, "wrong": 0}
    hg = 0
    for r in rs:
        v = "wrong" if r.get("error") else r.get("verdict", "wrong")
        c[v] = c.get(v, 0) + 1
        if v == "wrong":
            bad.append(("WRONG", r))
        elif v == "held":
            rest = (r.get("want") or [])[len(r.get("applied") or []):]
            guesses = [h["guess"] for h in r.get("held") or []]
            if guesses != rest:
                hg += 1
                bad.append(("held, guess not the truth", r))
    print("%-10s %5d %5d %5d %5d  %d" % (rem, len(rs), c["right"], c["held"], c["wrong"], hg))
for kind, r in bad:
    print("\n%s %s %s: %s" % (r["removal"], r["clip"], kind, r.get("why") or r.get("error") or ""))
    print("   applied %s" % r.get("applied"))
    print("   truth   %s" % r.get("want"))
    for h in r.get("held") or []:
        print("   held %s guess %r: %s" % (h["id"], h["guess"], " | ".join(h.get("reasons") or [])[:400]))
