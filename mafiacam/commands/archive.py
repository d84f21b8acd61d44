"""``mafiacam archive``: the club archive, a folder of game bundles indexed in SQLite (docs/ARCHIVE.md).

mafiacam archive add ARCHIVE BUNDLE... [--link] [--name NAME]
mafiacam archive list ARCHIVE [--json]
mafiacam archive search ARCHIVE [--player NAME] [--tournament NAME] [--protests] [--disagreements]
                                [--close-votes MS] [--from DATE] [--to DATE] [--winner W] [--json]
mafiacam archive show ARCHIVE GAME [--json]
mafiacam archive verify ARCHIVE [--allow-unchained] [--json]
mafiacam archive export ARCHIVE --tournament NAME --format mafiaratings|sheets --out DIR
mafiacam archive analyze ARCHIVE [--workers N] [--scheduler tcp://HOST:PORT | --local-cluster N]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

# The archive package is imported when an action runs, so that building the parser of every mafiacam
# command never depends on it.
WINNERS = ("red", "black", "none")
STATUSES_HELP = (
    "ok, warnings (loads with bad lines or problems), broken (edited after sealing or a segment missing), "
    "damaged (cannot be read), missing (a linked folder that is gone)"
)


def add_parser(sub: Any, name: str, help_text: str) -> argparse.ArgumentParser:
    p: argparse.ArgumentParser = sub.add_parser(
        name, help=help_text, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    cmds = p.add_subparsers(dest="archive_command", metavar="ACTION")

    a = cmds.add_parser("add", help="copy bundles into the archive (or register them with --link)")
    a.add_argument("archive", help="the archive folder (created when missing)")
    a.add_argument("bundles", nargs="+", help="bundle folders")
    a.add_argument("--link", action="store_true", help="index the bundles where they are, do not copy")
    a.add_argument("--name", help="folder name in the archive (one bundle only; default: its own name)")

    ls = cmds.add_parser("list", help="every game in the archive (re-indexes what changed)")
    ls.add_argument("archive")
    ls.add_argument("--json", action="store_true", help="JSON list instead of a table")

    s = cmds.add_parser("search", help="games by player, tournament, protests, disagreements, close votes…")
    s.add_argument("archive")
    s.add_argument("--player", help="a player's name or part of it (any case, Cyrillic too)")
    s.add_argument("--tournament", help="a tournament's name or part of it")
    s.add_argument("--protests", action="store_true", help="games with protests")
    s.add_argument("--open-protests", action="store_true", help="games with protests not decided yet")
    s.add_argument("--disagreements", action="store_true", help="the host's count and vision's disagreed")
    s.add_argument(
        "--close-votes",
        type=int,
        metavar="MS",
        help="a counted vision vote landed less than MS before the close",
    )
    s.add_argument("--from", dest="date_from", metavar="DATE", help="played on or after YYYY-MM-DD")
    s.add_argument("--to", dest="date_to", metavar="DATE", help="played on or before YYYY-MM-DD")
    s.add_argument("--winner", choices=WINNERS, help="red, black, or none (not decided)")
    s.add_argument("--status", help=STATUSES_HELP)
    s.add_argument("--needs-analysis", action="store_true", help="video not analysed by this version")
    s.add_argument("--json", action="store_true")

    sh = cmds.add_parser("show", help="one game: players, roles, protests, vote margins, problems")
    sh.add_argument("archive")
    sh.add_argument("game", help="the game's id (first column of list) or its bundle path")
    sh.add_argument("--json", action="store_true")

    v = cmds.add_parser(
        "verify", help="re-hash every bundle's chain and segments; exit 0 only when all intact"
    )
    v.add_argument("archive")
    v.add_argument(
        "--allow-unchained",
        action="store_true",
        help="accept logs entered by hand and never chained (nothing to check there)",
    )
    v.add_argument("--json", action="store_true")

    e = cmds.add_parser("export", help="a whole tournament: rating-site JSON or printable score sheets")
    e.add_argument("archive")
    e.add_argument("--tournament", required=True, help="the tournament (matched like search)")
    e.add_argument("--exact", action="store_true", help="the whole name must match (any case)")
    e.add_argument("--format", required=True, choices=("mafiaratings", "sheets"))
    e.add_argument("--out", required=True, help="output folder (one file per game + an index)")
    e.add_argument("--lang", choices=("ru", "en"), default="ru")

    an = cmds.add_parser("analyze", help="analyse every bundle whose vision is missing or outdated")
    an.add_argument("archive")
    an.add_argument("--workers", type=int, default=2, help="local worker processes, one bundle each (2)")
    eng = an.add_mutually_exclusive_group()
    eng.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="a running Dask scheduler")
    eng.add_argument(
        "--local-cluster", type=int, metavar="N", help="a Dask LocalCluster of N workers (loopback)"
    )
    an.add_argument(
        "--remote-root", metavar="DIR", help="where the workers see this archive folder (default: same path)"
    )
    an.add_argument("--force", action="store_true", help="analyse current bundles again too")
    an.add_argument("--dry-run", action="store_true", help="list what would be analysed")
    an.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def _fail(msg: str, code: int = 1) -> int:
    print(f"mafiacam archive: {msg}", file=sys.stderr)
    return code


def _dump(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False, indent=1))


def run(args: argparse.Namespace) -> int:
    action = getattr(args, "archive_command", None)
    if action is None:
        return _fail("give an action: add, list, search, show, verify, export or analyze", 2)
    from archive.catalog import ArchiveError, Catalog
    from archive.search import QueryError

    if action != "add" and not Path(args.archive).is_dir():
        return _fail(f"{args.archive}: no such archive folder", 2)
    try:
        with Catalog(args.archive) as cat:
            handler = {
                "add": _add,
                "list": _list,
                "search": _search,
                "show": _show,
                "verify": _verify,
                "export": _export,
                "analyze": _analyze,
            }[action]
            return handler(cat, args)
    except ArchiveError as e:
        return _fail(str(e))
    except QueryError as e:
        return _fail(str(e), 2)


def _add(cat: Any, args: argparse.Namespace) -> int:
    from archive.catalog import ArchiveError

    if args.name and len(args.bundles) > 1:
        return _fail("--name names one bundle; give one bundle or none", 2)
    rc = 0
    for b in args.bundles:
        try:
            dest = cat.add(b, link=args.link, name=args.name)
        except (ArchiveError, OSError) as e:
            print(f"mafiacam archive: {b}: {e}", file=sys.stderr)
            rc = 1
            continue
        row = cat.find(cat.key_of(dest)[0])
        status = row["status"] if row else "?"
        how = "linked" if args.link else "added"
        print(f"{how} {cat.key_of(dest)[0]}: {status}")
        if row and row["status"] != "ok":
            print(f"  {row['status']}: {row['error']}")
    return rc


def _list(cat: Any, args: argparse.Namespace) -> int:
    from archive.search import Query, for_json, search, table

    cat.refresh()
    rows = search(cat, Query())
    if args.json:
        _dump([for_json(r) for r in rows])
    else:
        print(table(rows))
    return 0


def _search(cat: Any, args: argparse.Namespace) -> int:
    from archive.search import Query, for_json, search, table

    cat.refresh()
    q = Query(
        player=args.player,
        tournament=args.tournament,
        protests=args.protests,
        open_protests=args.open_protests,
        disagreements=args.disagreements,
        close_votes_ms=args.close_votes,
        date_from=args.date_from,
        date_to=args.date_to,
        winner=args.winner,
        status=args.status,
        needs_analysis=args.needs_analysis,
    )
    rows = search(cat, q)
    if args.json:
        _dump([for_json(r) for r in rows])
    else:
        print(table(rows, players=args.player))
    return 0


def _show(cat: Any, args: argparse.Namespace) -> int:
    from archive.search import for_json

    cat.refresh()
    g = cat.find(args.game)
    if g is None:
        return _fail(f"{args.game}: no such game in {cat.root} (see `mafiacam archive list`)")
    if args.json:
        _dump(for_json(g))
        return 0
    title = " / ".join(str(x) for x in (g["tournament"], g["stage"], g["table_name"]) if x)
    print(f"#{g['id']} {g['path']}  {g['date'] or 'undated'}  {title}  game {g['game_number'] or '-'}")
    print(f"  status {g['status']}; chain {g['integrity']} {g['head'] or ''}".rstrip())
    print(f"  winner {g['winner'] or '-'} ({g['win_reason'] or 'not decided'}); rules {g['rules']}")
    vid = f"{g['video_ms'] / 1000:.0f} s" if g["video_ms"] else "-"
    print(
        f"  video {g['video_segments']} segment(s), {vid}; "
        f"vision {g['analysis']} {g['analyser'] or ''}".rstrip()
    )
    print(
        f"  disagreements {g['disagreements']}, needs review {g['needs_review']}, "
        f"violations {g['violations']}"
    )
    for p in g["players"]:
        print(f"  seat {p['seat']:>2}  {p['name']:<20} {p['role'] or ''}".rstrip())
    for pr in g["protests"]:
        verdict = f"decided: {pr['outcome']}" + (f" ({pr['reason']})" if pr["reason"] else "")
        print(
            f"  protest {pr['protest']} t={pr['t']} by {pr['by_seat']}: {pr['claim']}; "
            + (verdict if pr["outcome"] else "open")
        )
    counted = [m for m in g["margins"] if m["counted"]]
    if g["margins"]:
        print(
            f"  vision votes: {len(g['margins'])} ({len(counted)} counted); smallest counted margin "
            f"{g['min_vote_margin_ms'] if g['min_vote_margin_ms'] is not None else '-'} ms"
        )
        for m in sorted(g["margins"], key=lambda m: abs(m["margin_ms"]))[:5]:
            what = "late" if m["late"] else ("counted" if m["counted"] else "compared")
            when = f"{m['margin_ms']} ms before" if m["margin_ms"] > 0 else f"{-m['margin_ms']} ms after"
            print(f"    t={m['t']} seat {m['seat']} for {m['candidate']}: {when} the close ({what})")
    for prob in g["problems"]:
        print(f"  problem: {prob}")
    for err in g["analysis_errors"]:
        print(f"  analysis failed ({err['analyser']}, {err['at']}): {err['error']}")
    return 0


def _verify(cat: Any, args: argparse.Namespace) -> int:
    from archive.verify import verify_archive

    checks = verify_archive(cat)
    bad = [c for c in checks if not c.intact(allow_unchained=args.allow_unchained)]
    if args.json:
        _dump(
            {
                "ok": not bad,
                "bundles": [
                    {"path": c.path, "integrity": c.integrity, "head": c.head, "problems": list(c.problems)}
                    for c in checks
                ],
            }
        )
    else:
        for c in checks:
            print(f"{c.integrity.upper():<9} {c.path}  {c.head or ''}".rstrip())
            for prob in c.problems:
                print(f"    {prob}")
    if bad:
        unchained = sum(1 for c in bad if c.integrity == "unchained")
        hint = (
            f" ({unchained} never chained: `mafiacam verify --seal BUNDLE`, or --allow-unchained)"
            if unchained
            else ""
        )
        return _fail(f"{cat.root}: {len(bad)} of {len(checks)} bundles NOT intact{hint}")
    print(f"all {len(checks)} bundles intact", file=sys.stderr)
    return 0


def _export(cat: Any, args: argparse.Namespace) -> int:
    from archive.export import export_tournament

    done = export_tournament(
        cat, args.tournament, args.format, Path(args.out), lang=args.lang, exact=args.exact
    )
    if not done:
        return _fail(f"no game of a tournament matching {args.tournament!r} in {cat.root}")
    for e in done:
        if e.error:
            print(f"mafiacam archive: {e.path}: not exported: {e.error}", file=sys.stderr)
        else:
            print(f"{e.file}  <- {e.path}")
    ok = sum(1 for e in done if e.file)
    print(f"{ok} of {len(done)} games exported to {args.out}", file=sys.stderr)
    return 0 if ok == len(done) else 1


def _analyze(cat: Any, args: argparse.Namespace) -> int:
    from archive.batch import analyse_archive, pending_jobs, progress_printer

    if args.dry_run:
        jobs, current = pending_jobs(cat, remote_root=args.remote_root, force=args.force)
        for j in jobs:
            print(f"{j.key}  ({(j.video_ms or 0) / 1000:.0f} s of video)")
        print(f"{len(jobs)} to analyse, {current} already current", file=sys.stderr)
        return 0
    try:
        rep = analyse_archive(
            cat,
            workers=args.workers,
            scheduler=args.scheduler,
            local_cluster=args.local_cluster,
            remote_root=args.remote_root,
            force=args.force,
            progress=None if args.quiet else progress_printer(),
        )
    except KeyboardInterrupt:
        print(
            "\nmafiacam archive: interrupted; finished bundles are indexed, run again to resume",
            file=sys.stderr,
        )
        return 130
    except (RuntimeError, OSError) as e:
        return _fail(str(e))
    for r in rep.results:
        if r.ok:
            print(
                f"{r.key}: {r.events} events from {r.duration_ms / 1000:.0f} s "
                f"in {r.wall_s:.1f} s ({r.worker})"
            )
        else:
            print(f"mafiacam archive: {r.key}: analysis failed: {r.error}", file=sys.stderr)
    hours = rep.video_ms / 3_600_000
    print(
        f"{len(rep.results) - len(rep.failed)} of {rep.jobs} bundles analysed ({rep.engine}), "
        f"{rep.skipped_current} already current; {hours:.2f} h of video in {rep.wall_s:.0f} s "
        f"({rep.throughput:.1f} h of video per hour)",
        file=sys.stderr,
    )
    return 1 if rep.failed else 0
