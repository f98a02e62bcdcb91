#!/usr/bin/env python3
"""The independent set as a slower camera films it (issue 11's hunt).

For every clip of ../shared/independent/clips, writes OUT/<clip>-kK[l].mp4
with every K-th frame only (starting at frame K/2 with --late, as eval's
fps15late), re-encoded by ffmpeg at high quality (x264 CRF 14, veryfast), and its
ground truth with the frames renumbered (an event at frame f lands on the
first kept frame at or after it), so that the set's score.py scores
`boardcam analyze --json` on it. Nothing here is tuned to a clip: it only
takes frames away.

usage: scripts/indep-decimate.py SRC_CLIPS OUT K [--late]"""
import json, math, os, subprocess, sys

src, out, k = sys.argv[1], sys.argv[2], int(sys.argv[3])
late = "--late" in sys.argv
off = k // 2 if late else 0
os.makedirs(out, exist_ok=True)
for f in sorted(os.listdir(src)):
    if not (f.startswith("i") and f.endswith(".json")) or f == "index.json":
        continue
    d = json.load(open(os.path.join(src, f)))
    name = f[:-5]
    tag = "%s-k%d%s" % (name, k, "l" if late else "")
    kept = list(range(off, d["n_frames"], k))
    newi = {fr: i for i, fr in enumerate(kept)}
    d2 = dict(d)
    d2["fps"] = d["fps"] / k
    d2["n_frames"] = len(kept)
    d2["frames"] = [d["frames"][fr] for fr in kept]
    evs = []
    for e in d["events"]:
        e = dict(e)
        nf = max(0, math.ceil((e["frame"] - off) / k))
        if nf >= len(kept):
            nf = len(kept) - 1
        e["frame"] = nf
        if "frame_off_image" in e and e["frame_off_image"] is not None:
            e["frame_off_image"] = min(len(kept) - 1, max(0, math.ceil((e["frame_off_image"] - off) / k)))
        evs.append(e)
    d2["events"] = evs
    for key in ("arm_intervals",):
        if key in d2:
            d2[key] = [dict(a, start_frame=max(0, math.ceil((a["start_frame"] - off) / k)),
                            end_frame=max(0, (a["end_frame"] - off) // k)) for a in d2[key]]
    json.dump(d2, open(os.path.join(out, tag + ".json"), "w"))
    mp4 = os.path.join(out, tag + ".mp4")
    if not os.path.exists(mp4):
        subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", os.path.join(src, name + ".mp4"),
                        "-vf", "select=not(mod(n-%d\\,%d))*gte(n\\,%d),setpts=N/(%g*TB)" % (off, k, off, d2["fps"]),
                        "-r", "%g" % d2["fps"], "-c:v", "libx264", "-preset", "veryfast", "-crf", "14", "-threads", "1", "-pix_fmt", "yuv420p", mp4], check=True)
print("done")
