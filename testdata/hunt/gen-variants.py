#!/usr/bin/env python3
"""Make the hunt's variants of corpus clip specs (testdata/hunt/v-*.yaml).

Each variant is a corpus spec with another seed (other hand timing and
jitter) and one of five sets of camera conditions from issue 11 that the
corpus clip does not have: a whole frame's exposure, a board small in the
frame, strong glare, another striker colour, a strong lens, home markings,
and strikes with no hand in view. expect: is emptied except the referee
context (fill-expect.py then writes what the simulation shows). Run from
the repository root: python3 testdata/hunt/gen-variants.py."""
import copy, glob, os, yaml

SKIP = {"demo", "single-pocket", "striker-pocketed", "jump-overboard"}  # long clips
COLOURS = ["black", "yellow", "green", "red", "blue", "ivory"]
out = "testdata/hunt"
specs = sorted(glob.glob("testdata/videos/*.yaml"))
n = 0
for path in specs:
    name = os.path.basename(path)[:-5]
    if name in SKIP:
        continue
    spec = yaml.safe_load(open(path))
    v = copy.deepcopy(spec)
    k = n % 5
    n += 1
    v["name"] = "hunt variant " + spec.get("name", name)
    v["seed"] = int(spec.get("seed", 1)) + 500 + k
    if "board" in v:
        v["board"] = "../videos/" + v["board"]
    r = v.setdefault("render", {})
    cam = r.setdefault("camera", {})
    light = r.setdefault("lighting", {})
    pieces = r.setdefault("pieces", {})
    fps = int(v.get("fps", 30))
    arm = any(isinstance(a, dict) and "strike" in a and a["strike"].get("arm_over_foul_line") for a in v["timeline"])
    if k in (0, 2, 4):
        cam["exposure"] = round(1000.0 / min(fps, 30), 1)   # up to 1/30 s
    if k in (0, 3):
        cam["fill"] = 0.68 if k == 0 else 0.72              # 1.5-2 mm per pixel
        cam.pop("height", None)
    if k in (1, 4):
        light["glare"] = 0.9
    if k in (1, 2, 3):
        pieces["striker"] = COLOURS[n % len(COLOURS)]
    if k == 2:
        cam["k1"] = -0.13
        cam["k2"] = 0.02
    if k == 3 and not spec.get("render", {}).get("board", {}).get("plain_centre"):
        r.setdefault("board", {})["markings"] = "home"
    if k in (0, 2, 4) and not arm:
        for a in v["timeline"]:
            if isinstance(a, dict) and "strike" in a:
                a["strike"]["no_hand"] = True
    e = spec.get("expect", {})
    ne = {}
    for key in ("context", "profile", "max_seconds"):
        if key in e:
            ne[key] = e[key]
    ne["max_seconds"] = max(ne.get("max_seconds", 8), 12)
    v["expect"] = ne
    with open(os.path.join(out, "v-" + name + ".yaml"), "w") as f:
        f.write("# Variant of testdata/videos/%s.yaml (gen-variants.py, set %d).\n" % (name, k))
        yaml.safe_dump(v, f, sort_keys=False, default_flow_style=None, width=100)
print(n, "variants")
