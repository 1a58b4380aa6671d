#!/usr/bin/env python3
"""
check_layers.py - the layering of daemon/ checked from its include lines
(docs/architecture.md, "The layers" and "The pit's domains").

Reads every #include under daemon/ (and the table/ includes of tests/) and
fails, naming file and line, on

  (a) an include of a layer above: common < engine < config, store < table <
      http, central < cli; http/ reaches only table/ (and common/, config/);
      only store/ sees <sqlite3.h>, only central/ <libpq-fe.h>, only http/
      <microhttpd.h>; store_int.h and central_int.h are their folder's own;
  (b) an include of a domain folder of table/ higher in DOMAINS than the
      including file's;
  (c) an include of another domain's private header: from outside a domain
      folder only table/<domain>/<domain>.h may be included;
  (d) a cycle of includes between files;

and on a file of the pit directly in daemon/table/ (it belongs in a domain
folder).  `--graph` prints the domain graph: for each domain, the domains
its files include, with the number of include lines.

python3, standard library only.  Exit status: 0 clean, 1 violations, 2 usage.
"""
import argparse
import os
import re
import sys

# The domains of the pit, lowest first: a domain's files include only the
# public headers of the domains before it (and any header of their own).
DOMAINS = ["core", "people", "players", "accounting", "rounds", "reports", "audit", "ops"]

# The layers of daemon/ and what each may include (docs/architecture.md).
# "main" is daemon/main.c (pitbossd), "cli" is daemon/cli.c and daemon/cli/ (pitboss).
LAYERS = {
    "common": {"common"},
    "engine": {"common", "engine"},
    "config": {"common", "engine", "config"},
    "store": {"common", "engine", "store"},
    "table": {"common", "engine", "config", "store", "table"},
    "http": {"common", "config", "table", "http"},
    "central": {"common", "engine", "config", "store", "table", "central"},
    "cli": {"common", "engine", "config", "store", "table", "http", "central", "cli"},
    "main": {"common", "engine", "config", "store", "table", "http", "central", "cli"},
}
WHY = {
    "http": "http/ reaches only table/ (docs/architecture.md)",
}

# System headers only one layer sees.
SYSTEM_ONLY = {"sqlite3.h": "store", "libpq-fe.h": "central", "microhttpd.h": "http"}

# Headers private to their layer's folder (tests may include store_int.h: docs/architecture/store.md).
LAYER_PRIVATE = {"store/store_int.h": "store", "central/central_int.h": "central"}

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def layer_of(rel):
    """The layer of a file, by its path under daemon/."""
    if rel == "main.c":
        return "main"
    if rel == "cli.c":
        return "cli"
    return rel.split("/", 1)[0]


def domain_of(rel):
    """(domain, is_direct): the domain folder of a table/ path, or None; is_direct for a file right in table/."""
    parts = rel.split("/")
    if parts[0] != "table":
        return None, False
    if len(parts) == 2:
        return None, True
    return parts[1], False


def is_public(rel):
    """table/<domain>/<domain>.h, the one header of a domain another folder includes."""
    parts = rel.split("/")
    return len(parts) == 3 and parts[2] == parts[1] + ".h"


def source_files(top):
    for base, dirs, files in os.walk(top):
        dirs.sort()
        for f in sorted(files):
            if f.endswith((".c", ".h")):
                yield os.path.join(base, f)


def includes(path):
    """(line number, kind, name) of each #include of a file; kind is '"' or '<'."""
    with open(path, encoding="utf-8", errors="replace") as fh:
        for n, line in enumerate(fh, 1):
            m = INCLUDE.match(line)
            if m:
                yield n, m.group(1), m.group(2)


def resolve(daemon, including_rel, name):
    """The path under daemon/ a quoted include names (daemon/ is on the include path), or None."""
    for cand in (os.path.normpath(os.path.join(os.path.dirname(including_rel), name)), os.path.normpath(name)):
        if os.path.isfile(os.path.join(daemon, cand)):
            return cand
    return None


def domain_rules(rel, target, where):
    """Rules (b) and (c) for an include of table/ target from rel (a path under daemon/, or a test)."""
    problems = []
    tdom, _ = domain_of(target)
    if tdom is None:
        return problems
    if tdom not in DOMAINS:
        return ["%s: includes %s, in table/%s/, which is no domain of DOMAINS (tools/check_layers.py)" %
                (where, target, tdom)]
    sdom = domain_of(rel)[0] if rel is not None else None
    if sdom == tdom:
        return problems
    if sdom in DOMAINS and DOMAINS.index(tdom) > DOMAINS.index(sdom):
        problems.append("%s: table/%s/ includes %s of table/%s/, a domain above it (%s)" %
                        (where, sdom, target, tdom, " < ".join(DOMAINS)))
    if not is_public(target):
        problems.append("%s: includes %s, private to table/%s/; include table/%s/%s.h" %
                        (where, target, tdom, tdom, tdom))
    return problems


def check_daemon(daemon, graph, edges):
    """Rules (a) to (c) over daemon/; fills graph (file -> {file: line}) and edges ((from, to) domain -> count)."""
    problems = []
    for path in source_files(daemon):
        rel = os.path.relpath(path, daemon).replace(os.sep, "/")
        layer = layer_of(rel)
        sdom, direct = domain_of(rel)
        if direct:
            problems.append("daemon/%s: a file of the pit directly in daemon/table/; it belongs in a domain folder "
                            "(%s)" % (rel, ", ".join(DOMAINS)))
        elif layer == "table" and sdom not in DOMAINS:
            problems.append("daemon/%s: table/%s/ is no domain of DOMAINS (tools/check_layers.py)" % (rel, sdom))
        graph.setdefault(rel, {})
        for n, kind, name in includes(path):
            where = "daemon/%s:%d" % (rel, n)
            if kind == "<":
                only = SYSTEM_ONLY.get(name)
                if only is not None and layer != only:
                    problems.append("%s: <%s> outside %s/ (only %s/ sees it)" % (where, name, only, only))
                continue
            target = resolve(daemon, rel, name)
            if target is None:
                problems.append("%s: includes \"%s\", which is no file under daemon/" % (where, name))
                continue
            graph[rel].setdefault(target, n)
            tlayer = layer_of(target)
            if tlayer not in LAYERS.get(layer, set()):
                why = WHY.get(layer, "common < engine < config, store < table < http, central < cli")
                problems.append("%s: %s/ includes %s, of %s/ (%s)" % (where, layer, target, tlayer, why))
            owner = LAYER_PRIVATE.get(target)
            if owner is not None and layer != owner:
                problems.append("%s: includes %s, private to %s/" % (where, target, owner))
            problems.extend(domain_rules(rel, target, where))
            tdom, _ = domain_of(target)
            if sdom in DOMAINS and tdom in DOMAINS and tdom != sdom:
                edges[(sdom, tdom)] = edges.get((sdom, tdom), 0) + 1
    return problems


def check_tests(root, daemon):
    """Rule (c) over tests/: a test includes only the public header of a domain."""
    problems = []
    tests = os.path.join(root, "tests")
    if not os.path.isdir(tests):
        return problems
    for path in source_files(tests):
        relpath = os.path.relpath(path, root).replace(os.sep, "/")
        for n, kind, name in includes(path):
            if kind == '"' and name.startswith("table/"):
                target = os.path.normpath(name)
                where = "%s:%d" % (relpath, n)
                if not os.path.isfile(os.path.join(daemon, target)):
                    problems.append("%s: includes \"%s\", which is no file under daemon/" % (where, name))
                    continue
                problems.extend(domain_rules(None, target, where))
    return problems


def cycles(graph):
    """Rule (d): each strongly connected set of files that include one another (Tarjan, iterative)."""
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, {}))))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter[0]
                    counter[0] += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, {})))))
                    advanced = True
                    break
                if nxt in on:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1 or node in graph.get(node, {}):
                    out.append(sorted(comp))
    problems = []
    for comp in out:
        members = set(comp)
        lines = ["daemon/%s:%d includes %s" % (f, graph[f][t], t)
                 for f in comp for t in sorted(graph[f]) if t in members]
        problems.append("a cycle of includes between %s: %s" % (", ".join(comp), "; ".join(lines)))
    return problems


def print_graph(edges):
    print("domains of daemon/table/, lowest first: " + " < ".join(DOMAINS))
    for d in DOMAINS:
        deps = sorted((t for (s, t) in edges if s == d), key=DOMAINS.index)
        text = ", ".join("%s (%d)" % (t, edges[(d, t)]) for t in deps) or "-"
        print("  %-11s -> %s" % (d, text))


def main(argv):
    ap = argparse.ArgumentParser(description="Checks the layers and the pit's domains from daemon/'s include lines.")
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir),
                    help="the source tree (default: this script's parent)")
    ap.add_argument("--graph", action="store_true", help="print the domain graph")
    args = ap.parse_args(argv)
    root = os.path.abspath(args.root)
    daemon = os.path.join(root, "daemon")
    if not os.path.isdir(daemon):
        print("check_layers: no daemon/ under %s" % root, file=sys.stderr)
        return 2
    graph, edges = {}, {}
    problems = check_daemon(daemon, graph, edges)
    problems += check_tests(root, daemon)
    problems += cycles(graph)
    if args.graph:
        print_graph(edges)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print("check_layers: %d problem(s)" % len(problems), file=sys.stderr)
        return 1
    if not args.graph:
        print("check_layers: %d files, layers and domains in order (%s)" % (len(graph), " < ".join(DOMAINS)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
