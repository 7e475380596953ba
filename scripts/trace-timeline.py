"""Draws a Chrome trace written by --polygpu.ExportTrace as an SVG timeline: one row per device and stream, a bar
per kernel (blue) and copy (orange), labelled with its name, and a time axis in microseconds. Run by
scripts/docs-pictures.sh through bin/polygpu (any Python 3 runs it too):

    bin/polygpu scripts/trace-timeline.py trace.json timeline.svg
"""
import json
import sys
from html import escape

ROW, LABEL, WIDTH, AXIS = 34, 150, 860, 30
COLOURS = {"kernel": "#4c78a8", "copy": "#f58518"}


def rows_of(events):
    """The (device, stream) rows that have bars, in order, with their names from the trace's metadata."""
    names = {}
    for e in events:
        if e.get("ph") == "M" and e.get("name") == "process_name":
            names[(e["pid"], None)] = e["args"]["name"]
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            names[(e["pid"], e["tid"])] = e["args"]["name"]
    used = sorted({(e["pid"], e["tid"]) for e in events if e.get("ph") == "X"})
    return [(key, f"{names.get((key[0], None), key[0])}, {names.get(key, key[1])}") for key in used]


def tick_step(span):
    """A round step giving about 8 ticks over span."""
    step = 1.0
    while span / step > 10:
        for factor in (2, 2.5, 2):
            step *= factor
            if span / step <= 10:
                break
    return step


def svg(events):
    bars = [e for e in events if e.get("ph") == "X"]
    rows = rows_of(events)
    index = {key: i for i, (key, _) in enumerate(rows)}
    end = max(e["ts"] + e["dur"] for e in bars)
    scale = (WIDTH - LABEL - 20) / end
    height = len(rows) * ROW + AXIS + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
           f'font-family="Helvetica, Arial, sans-serif" font-size="11">',
           f'<rect width="{WIDTH}" height="{height}" fill="white"/>']
    for i, (_, name) in enumerate(rows):
        y = i * ROW
        out.append(f'<rect x="0" y="{y}" width="{WIDTH}" height="{ROW}" fill="{"#f4f4f4" if i % 2 else "white"}"/>')
        out.append(f'<text x="6" y="{y + ROW / 2 + 4}">{escape(name)}</text>')
    for e in bars:
        x = LABEL + e["ts"] * scale
        w = max(e["dur"] * scale, 1.0)
        y = index[(e["pid"], e["tid"])] * ROW + 5
        colour = COLOURS.get(e.get("cat"), "#999999")
        title = f'{e["name"]}: {e["ts"]:.1f} us, {e["dur"]:.1f} us'
        out.append(f'<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{ROW - 10}" fill="{colour}" rx="2">'
                   f'<title>{escape(title)}</title></rect>')
        label = e["name"] if len(e["name"]) * 6 < w else (e["name"].split(" ")[0] if w > 30 else "")
        if label:
            out.append(f'<text x="{x + 3:.1f}" y="{y + ROW / 2}" fill="white">{escape(label)}</text>')
    base = len(rows) * ROW
    out.append(f'<line x1="{LABEL}" y1="{base}" x2="{WIDTH - 20}" y2="{base}" stroke="black"/>')
    step = tick_step(end)
    t = 0.0
    while t <= end + 1e-9:
        x = LABEL + t * scale
        out.append(f'<line x1="{x:.1f}" y1="{base}" x2="{x:.1f}" y2="{base + 4}" stroke="black"/>')
        out.append(f'<text x="{x:.1f}" y="{base + 16}" text-anchor="middle">{t:g}</text>')
        t += step
    out.append(f'<text x="{WIDTH - 20}" y="{base + 28}" text-anchor="end">time (us, virtual on the emulator)</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) != 3:
        print("usage: trace-timeline.py TRACE.json OUT.svg", file=sys.stderr)
        sys.exit(2)
    with open(sys.argv[1]) as f:
        trace = json.load(f)
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    if not any(e.get("ph") == "X" for e in events):
        print(f"{sys.argv[1]} has no kernels or copies to draw", file=sys.stderr)
        sys.exit(1)
    with open(sys.argv[2], "w") as f:
        f.write(svg(events))


main()
