#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write a copy of a trace.dat whose timestamps tie across CPUs.

    tie-trace.py [--grid NS] [--nudge NS] [--every N] IN.dat OUT.dat

Every event's timestamp is rounded down to a multiple of --grid (default
100000 ns), so that events of different CPUs within one grid step carry
the same timestamp; then every N-th event of each CPU (default 7) is
moved later by 1 to --nudge ns (default 5000), so that some of them come
after an event of another CPU that followed them. Each CPU's events keep
their order (a timestamp never goes below the one before it on its CPU);
only the timestamps change, not the events or their number.

The copy is a trace.dat of version 6, uncompressed: trace-cmd convert
writes it, then the timestamps are rewritten in its ring-buffer pages
(each page's timestamp and the deltas of its events, the layout of the
kernel's ring buffer: 4-byte headers of 5 bits type_len and 27 bits
time delta, time extends of type 30, absolute timestamps of type 31, 59
bits over the delta and the word after it). A page this cannot read is
an error: nothing is written.
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

PAGE = 4096
HDR = 16			# u64 timestamp, local_t commit (64-bit kernels)
COMMIT_MASK = (1 << 27) - 1
DELTA_MAX = (1 << 27) - 1
PADDING, EXTEND, STAMP = 29, 30, 31
STAMP_MASK = (1 << 59) - 1	# the bits an absolute timestamp holds


def die(msg):
    sys.stderr.write("tie-trace: %s\n" % msg)
    sys.exit(2)


def cpu_regions(path):
    """(offset, size) of each CPU's pages, from trace-cmd dump"""
    out = subprocess.run(["trace-cmd", "dump", "--flyrecord", path],
                         capture_output=True, text=True, check=False).stdout
    regions = [(int(m.group(1)), int(m.group(2))) for m in
               re.finditer(r"^\s*(\d+)\s+(\d+)\s+\[offset, size of cpu \d+\]", out, re.M)]
    if not regions:
        die("%s: no flyrecord data that trace-cmd dump shows" % path)
    return regions


def parse_page(buf, off):
    """The entries of one page: [kind, position, timestamp]; kind is
    'ev' (an event), 'ext' (a time extend) or 'pad'"""
    ts, commit = struct.unpack_from("<QQ", buf, off)
    size = commit & COMMIT_MASK
    entries, pos, end = [], off + HDR, off + HDR + size
    while pos < end:
        word, = struct.unpack_from("<I", buf, pos)
        type_len, delta = word & 31, word >> 5
        if type_len == PADDING:
            if not delta:
                break
            length, = struct.unpack_from("<I", buf, pos + 4)
            entries.append(["pad", pos, ts])
            pos += 4 + length
        elif type_len == EXTEND:
            hi, = struct.unpack_from("<I", buf, pos + 4)
            ts += (hi << 27) + delta
            entries.append(["ext", pos, ts])
            pos += 8
        elif type_len == STAMP:
            lo, = struct.unpack_from("<I", buf, pos + 4)
            ts = (ts & ~STAMP_MASK) | ((lo << 27) + delta)
            entries.append(["stamp", pos, ts])
            pos += 8
        else:
            ts += delta
            entries.append(["ev", pos, ts])
            if type_len == 0:
                length, = struct.unpack_from("<I", buf, pos + 4)
                pos += 4 + ((length + 3) & ~3)
            else:
                pos += 4 + 4 * type_len
    return entries


def new_times(times, grid, nudge, every):
    """Tied and nudged timestamps for one CPU's events, never going back"""
    out, last = [], 0
    for i, ts in enumerate(times):
        t = ts - ts % grid
        if every and i % every == every - 1:
            t += 1 + (ts * 2654435761 + i) % nudge
        last = max(last, t)
        out.append(last)
    return out


def rewrite_page(buf, off, entries, times):
    """Write the page's timestamp and deltas for the new times of its events"""
    evs = [e for e in entries if e[0] == "ev"]
    if not evs:
        return
    page_ts, = struct.unpack_from("<Q", buf, off)
    page_ts = min(page_ts, times[0])
    struct.pack_into("<Q", buf, off, page_ts)
    cur, k, ext, stamp = page_ts, 0, None, None
    for kind, pos, _ in entries:
        word, = struct.unpack_from("<I", buf, pos)
        if kind == "pad":
            continue
        if kind == "ext":
            ext = pos
            continue
        if kind == "stamp":
            stamp = pos
            continue
        delta = times[k] - cur
        if stamp is not None:
            # The absolute timestamp is the event's new time, its delta none
            t = times[k] & STAMP_MASK
            struct.pack_into("<II", buf, stamp, STAMP | ((t & DELTA_MAX) << 5), t >> 27)
            cur, delta, stamp = times[k], 0, None
        elif ext is not None:
            # The time extend takes the whole delta, the event none
            struct.pack_into("<II", buf, ext, EXTEND | ((delta & DELTA_MAX) << 5),
                             delta >> 27)
            cur += delta
            delta, ext = 0, None
        elif delta > DELTA_MAX:
            delta = DELTA_MAX
        struct.pack_into("<I", buf, pos, (word & 31) | (delta << 5))
        cur += delta
        times[k] = cur
        k += 1


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--grid", type=int, default=100000)
    ap.add_argument("--nudge", type=int, default=5000)
    ap.add_argument("--every", type=int, default=7)
    ap.add_argument("input")
    ap.add_argument("output")
    a = ap.parse_args()
    if a.grid < 1 or a.nudge < 1 or a.every < 0:
        die("--grid and --nudge must be at least 1, --every at least 0")
    with tempfile.TemporaryDirectory() as tmp:
        v6 = os.path.join(tmp, "v6.dat")
        r = subprocess.run(["trace-cmd", "convert", "-i", a.input, "--file-version", "6",
                            "--compression", "none", "-o", v6],
                           capture_output=True, text=True, check=False)
        if r.returncode or not os.path.exists(v6):
            die("%s: trace-cmd convert failed: %s" % (a.input, r.stderr.strip()[-200:]))
        buf = bytearray(open(v6, "rb").read())
        moved = total = 0
        for off, size in cpu_regions(v6):
            pages = [parse_page(buf, p) for p in range(off, off + size, PAGE)]
            old = [e[2] for entries in pages for e in entries if e[0] == "ev"]
            times = new_times(old, a.grid, a.nudge, a.every)
            k = 0
            for p, entries in zip(range(off, off + size, PAGE), pages):
                n = sum(1 for e in entries if e[0] == "ev")
                part = times[k:k + n]
                rewrite_page(buf, p, entries, part)
                times[k:k + n] = part
                k += n
            total += len(old)
            moved += sum(1 for x, y in zip(old, times) if x != y)
    with open(a.output, "wb") as f:
        f.write(buf)
    print("tie-trace: %s: %d events, %d timestamps changed (grid %d ns, nudge up to %d ns every %d)"
          % (a.output, total, moved, a.grid, a.nudge, a.every))


if __name__ == "__main__":
    main()
