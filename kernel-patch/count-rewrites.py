#!/usr/bin/env python3
"""count-rewrites.py - lines a later patch of the series changes that an
earlier patch of the series added (issue 23: "no patch rewrites what an
earlier patch added").

Usage: count-rewrites.py REPO BASE [HEAD]

REPO is a git tree where the series is applied as commits on top of BASE
(e.g. a git tree of pristine Linux 6.12 with the printk index fix
committed as BASE, then `git am` of the patches kernel-patch/series
lists).  For every commit of BASE..HEAD, each line it removes is blamed
in its parent; if the commit that added that line is itself in
BASE..HEAD, the line counts as rewritten.  Prints, per commit, the count
and, per file, which earlier commit's lines it rewrote, then the total
(the format of kernel-patch/REWRITES.txt).

Exit status: 0, or 2 on a git error.
"""

import collections
import re
import subprocess
import sys


def git(repo, *args):
    return subprocess.run(["git", "-C", repo] + list(args), check=True,
                          capture_output=True, text=True).stdout


def removed_lines(repo, commit):
    """{file: [(first, count)]}: the runs of lines, numbered in the parent,
    that COMMIT removes"""
    out = git(repo, "diff", "-U0", "--no-color", "--no-renames", commit + "^", commit)
    removed = collections.defaultdict(list)
    path = None
    for line in out.splitlines():
        if line.startswith("--- "):
            path = None if line == "--- /dev/null" else line[6:]
        m = re.match(r"@@ -(\d+)(?:,(\d+))? ", line)
        if m and path and m.group(2) != "0":
            removed[path].append((int(m.group(1)), int(m.group(2) or "1")))
    return removed


def blame_origin(repo, commit, path, runs):
    """the commits (full hashes) that added the lines RUNS of PATH in
    COMMIT^, one per line: one git blame for the whole file"""
    ranges = []
    for first, count in runs:
        ranges += ["-L", "%d,%d" % (first, first + count - 1)]
    out = git(repo, "blame", "--porcelain", *ranges, commit + "^", "--", path)
    # porcelain gives each line a header "<hash> <line in origin> <line>..."
    return re.findall(r"^([0-9a-f]{40}) \d+ \d+", out, re.M)


def main(argv):
    if len(argv) not in (3, 4):
        sys.stderr.write(__doc__)
        return 2
    repo, base = argv[1], argv[2]
    head = argv[3] if len(argv) == 4 else "HEAD"
    try:
        commits = git(repo, "rev-list", "--reverse", "%s..%s" % (base, head)).split()
        subject = {c: git(repo, "log", "-1", "--format=%s", c).strip() for c in commits}
        series = set(commits)
        total = 0
        for c in commits:
            by_file = collections.Counter()
            for path, runs in removed_lines(repo, c).items():
                for origin in blame_origin(repo, c, path, runs):
                    if origin in series:
                        by_file[(path, origin)] += 1
            n = sum(by_file.values())
            total += n
            print("%3d  %s" % (n, subject[c]))
            for (path, origin), k in sorted(by_file.items()):
                print("        %3d %s <- %s" % (k, path, subject[origin][:40]))
        print("%d lines rewritten in all" % total)
    except subprocess.CalledProcessError as e:
        err = (e.stderr.strip().splitlines() or ["exit status %d" % e.returncode])[0]
        print("count-rewrites.py: git %s failed: %s" % (" ".join(e.cmd[3:5]), err),
              file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
