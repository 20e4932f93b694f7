"""``konkun verify RECORD.json``: check that a finished game was dealt fairly and played
as recorded (``docs/fairness.md``).

The checks, in order: the revealed server seed matches the commitment; the server seed
and the contributions derive the record's seed; every action, replayed from that seed,
is legal and played by the seat to move; every deal scores as recorded and ends on its
recorded action digest; the game is over with the recorded totals, winner and final
digest. The first check that fails is reported.

A record is :meth:`konkun.game.Match.record` JSON with a ``fairness`` object and,
optionally, a ``result`` object (see :func:`fair_record`); the replay document the server
serves (``{"table": summary, "record": {...}, "frames": [...]}``) is read too, its summary
giving the commitment, the seats and the results.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from konkun.errors import KonkunError, one_line
from konkun.fairness import Fairness, FairnessError, action_digest, table_digest
from konkun.game import JSON, Match, game_names, get_game

EXIT_VERIFIED = 0
EXIT_NOT_VERIFIED = 1


class RecordInputError(KonkunError):
    """A file that is not a readable game record (missing, not JSON, no game or seed)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of a verification: ``ok`` and the line to show."""

    ok: bool
    message: str


def fair_record(match: Match[Any], fairness: Fairness) -> JSON:
    """A finished match's record with its fairness data and results, as ``konkun verify``
    reads it: ``record().to_json()`` plus ``fairness`` and ``result`` (``totals``,
    ``winner``, ``deal_points`` and ``deal_digests``, the action digest after each deal's
    last action)."""
    data = dict(match.record().to_json())
    replayed, actions, _ = _new_match(data)
    digest, digests = _first_digest(data, fairness), list[str]()
    for turn, text in enumerate(actions, start=1):
        seat = replayed.deal.to_move
        replayed.play(replayed.deal.parse_action(text))
        digest = action_digest(digest, turn, -1 if seat is None else seat, text)
        if len(replayed.deal_points) > len(digests):
            digests.append(digest)
    data["fairness"] = fairness.to_json()
    data["result"] = {"totals": list(match.totals), "winner": match.winner(),
                      "deal_points": [list(points) for points in match.deal_points],
                      "deal_digests": digests}
    return data


ENDINGS = ("resigned", "abandoned", "aborted")
"""How a match may end before its last deal (``docs/fairness.md``): a seat resigned, or
was found idle and given up by the server's abandonment policy (the others played on, or
the match ended there), or the table was aborted before any person moved."""

ADDED_VIEW_FIELDS = ("steps",)
"""View fields a later version added, each computed from the others (a Kunken view's
``steps`` from its ``legal``): a frame without one, exported before it was added, is
still compared on all the rest; a frame with one must show it as the replay does."""


def ended_winner(totals: Sequence[int], resigned: Sequence[int]) -> int | None:
    """The winner of a match some seats resigned: the seat with the strictly highest
    total among those that did not resign (``None`` when it is shared or none is left)."""
    left = [(total, seat) for seat, total in enumerate(totals) if seat not in resigned]
    if not left:
        return None
    best = max(total for total, _ in left)
    leaders = [seat for total, seat in left if total == best]
    return leaders[0] if len(leaders) == 1 else None


def _ending(table: Mapping[str, Any] | None) -> Mapping[str, Any] | None:
    """How the table says the match ended early (``{"reason", "turn", "resigned"}``)."""
    ended = table.get("ended") if table is not None else None
    return ended if isinstance(ended, Mapping) and ended.get("reason") in ENDINGS else None


def _first_digest(record: Mapping[str, Any], fairness: Fairness,
                  table: Mapping[str, Any] | None = None) -> str:
    """``D0``: the commitment with the record's game, seats and rules, and the table's
    seats (kinds and names) when the document shows a table."""
    rules = record.get("rules")
    return table_digest(fairness.commitment, str(record["game"]), int(record["num_seats"]),
                        rules if isinstance(rules, Mapping) else {}, _roster(table))


def _roster(table: Mapping[str, Any] | None) -> list[tuple[str, str]] | None:
    """The seats' kinds and names a table summary shows (``None``: no table, or seats
    that are not a list of objects with a text ``kind`` and ``name``)."""
    seats = table.get("seats") if table is not None else None
    if not isinstance(seats, list):
        return None
    roster = []
    for seat in seats:
        if not isinstance(seat, Mapping) or not isinstance(seat.get("kind"), str) \
                or not isinstance(seat.get("name"), str):
            return None
        roster.append((seat["kind"], seat["name"]))
    return roster


def load_document(path: str) -> JSON:
    """The JSON object in ``path``; raise :class:`RecordInputError` naming the file."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RecordInputError(f"cannot read record {path!r}: {error}") from None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise RecordInputError(f"record {path!r} is not JSON: {error}") from None
    if not isinstance(data, dict):
        raise RecordInputError(f"record {path!r} is not a JSON object")
    return data


def _new_match(record: Mapping[str, Any]) -> tuple[Match[Any], list[str], int | None]:
    """The match a record starts (its game's descriptor reads the record without its
    actions), its action texts and its imposed first dealer."""
    game = record.get("game")
    names = game_names()
    if game not in names:
        expected = " or ".join(repr(name) for name in names)
        raise RecordInputError(f"record of an unknown game {game!r}: expected {expected}")
    seats = record.get("num_seats")
    counts = get_game(game).seat_counts()
    if isinstance(seats, bool) or not isinstance(seats, int) or seats not in counts:
        raise RecordInputError(f"invalid {game} record: num_seats {seats!r} is not a number "
                               f"of players from {counts.start} to {counts.stop - 1}")
    actions = record.get("actions")
    try:
        if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
            raise RecordInputError(f"invalid record actions {actions!r}")
        match = get_game(game).load_record({**record, "actions": []})
        first = record.get("first_dealer")
        return match, list(actions), first if isinstance(first, int) else None
    except (ValueError, TypeError, LookupError, AttributeError, ArithmeticError) as error:
        message = one_line(str(error))
        prefix = f"invalid {game} record"
        raise RecordInputError(message if message.startswith(prefix)
                               else f"{prefix}: {message}") from None


def _split(data: Mapping[str, Any]) -> tuple[Mapping[str, Any], Mapping[str, Any] | None,
                                             Sequence[Any] | None]:
    """The record, the table summary and the frames of a document (a record alone, or
    the server's replay document)."""
    inner = data.get("record")
    if isinstance(inner, Mapping):
        table = data.get("table")
        frames = data.get("frames")
        return (inner, table if isinstance(table, Mapping) else None,
                frames if isinstance(frames, list) else None)
    return data, None, None


def _read_fairness(record: Mapping[str, Any]) -> Fairness | str:
    """The record's fairness data, or why it has none that can be read."""
    raw = record.get("fairness")
    if raw is None:
        return "the record has no fairness data: its deals cannot be proven fair"
    try:
        return Fairness.from_json(raw)
    except FairnessError as error:
        return str(error)


def _fairness_problem(fairness: Fairness, seed: object, table: Mapping[str, Any] | None,
                      num_seats: int, exempt: frozenset[int]) -> str | None:
    """Why the record's seed is not proven fair, or ``None`` (the human seats in
    ``exempt`` need not have contributed)."""
    problem = fairness.check(seed)
    if problem is not None:
        return problem
    published = table.get("commitment") if table is not None else None
    if published is not None and published != fairness.commitment:
        return (f"the table published the commitment {published!r}, the record holds "
                f"{fairness.commitment!r}")
    seats = {c.seat for c in fairness.contributions}
    if any(seat >= num_seats for seat in seats):
        return f"a contribution names a seat out of range 0..{num_seats - 1}"
    if table is not None and isinstance(table.get("seats"), list):
        for number, seat in enumerate(table["seats"]):
            if isinstance(seat, Mapping) and seat.get("kind") == "human" \
                    and number not in seats and number not in exempt:
                return f"seat {number} (a human) made no contribution to the seed"
    return None


def _expected_results(record: Mapping[str, Any],
                      table: Mapping[str, Any] | None) -> list[tuple[str, Mapping[str, Any]]]:
    """Every set of results the document shows, with where: the record's ``result`` and
    the table summary's totals, winner and final digest (each is checked)."""
    sources: list[tuple[str, Mapping[str, Any]]] = []
    result = record.get("result")
    if isinstance(result, Mapping):
        sources.append(("record.result", result))
    if table is not None:
        shown = {key: table[key] for key in ("totals", "winner", "actions_digest")
                 if key in table}
        if shown:
            sources.append(("table", shown))
    return sources


def _frame_problem(frames: Sequence[Any] | None, turn: int, text: str,
                   seat: int | None, digest: str) -> str | None:
    if frames is None:
        return None
    frame = frames[turn] if turn < len(frames) else None
    if not isinstance(frame, Mapping) or frame.get("action") != text \
            or frame.get("actor", seat) != seat or frame.get("turn", turn) != turn:
        return f"frame {turn} does not show action {text!r} by seat {seat}"
    if frame.get("digest", digest) != digest:
        return f"frame {turn} shows the digest {frame.get('digest')!r}, replayed {digest}"
    return None


def _plain(value: Any) -> Any:
    """``value`` as JSON reads it back (tuples as lists, keys as texts)."""
    return json.loads(json.dumps(value))


def _view_problem(match: Match[Any], frames: Sequence[Any] | None, turn: int,
                  viewer: object) -> str | None:
    """Why frame ``turn`` does not show what the replay shows at that point: its ``view``
    (of the document's ``seat``: a seat number, or ``None`` for a spectator) and, with
    every hand open (``"all"``), each seat's ``views``."""
    if frames is None:
        return None
    frame = frames[turn] if turn < len(frames) else None
    if not isinstance(frame, Mapping):
        return f"frame {turn} is missing"
    if "view" in frame:
        seat = viewer if isinstance(viewer, int) and not isinstance(viewer, bool) else None
        if not _shows(frame["view"], match, seat):
            return f"frame {turn} shows a position the replay does not reach"
    if "views" in frame:
        views = frame["views"]
        if not isinstance(views, list) or len(views) != match.num_seats or not all(
                _shows(view, match, s) for s, view in enumerate(views)):
            return f"frame {turn} shows hands the replay does not deal"
    return None


def _shows(view: Any, match: Match[Any], seat: int | None) -> bool:
    """Whether a frame's ``view`` is the match's view of ``seat`` (a field of
    :data:`ADDED_VIEW_FIELDS` the frame has not is left out of the comparison)."""
    expected = _plain(match.to_json(seat))
    if isinstance(view, Mapping):
        for field in ADDED_VIEW_FIELDS:
            if field not in view:
                expected.pop(field, None)
    return bool(view == expected)


def _deal_problem(match: Match[Any], deal_number: int, expected: Mapping[str, Any],
                  digest: str) -> str | None:
    """Why a deal that just ended does not match its recorded points or digest."""
    replayed = list(match.deal_points[-1])
    for key, value in (("deal_points", replayed), ("deal_digests", digest)):
        recorded = expected.get(key)
        if isinstance(recorded, list):
            entry = recorded[deal_number - 1] if deal_number <= len(recorded) else None
            if entry != value:
                what = "points" if key == "deal_points" else "actions digest"
                return (f"deal {deal_number} does not match: recorded {what} {entry!r}, "
                        f"replayed {value!r}")
    return None


def _replay_problem(match: Match[Any], actions: Sequence[str],
                    sources: list[tuple[str, Mapping[str, Any]]],
                    frames: Sequence[Any] | None, first_digest: str,
                    viewer: object = None,
                    ending: Mapping[str, Any] | None = None) -> str | None:
    """The first action, frame or deal that does not replay as recorded, or ``None``;
    ``ending``: how the table says the match ended early, if it did."""
    if not any("deal_digests" in shown or "actions_digest" in shown for _, shown in sources):
        return "the record has no actions digest: its actions cannot be checked"
    if frames is not None and len(frames) != len(actions) + 1:
        return f"the document shows {len(frames)} frames for {len(actions)} actions"
    problem = _view_problem(match, frames, 0, viewer)
    if problem is not None:
        return problem
    digest = first_digest
    for turn, text in enumerate(actions, start=1):
        deal_number = len(match.deal_points) + 1
        seat = match.deal.to_move
        where = f"deal {deal_number}, action {turn} ({text!r}, seat {seat})"
        try:
            match.play(match.deal.parse_action(text))
        except (ValueError, LookupError, TypeError, ArithmeticError) as error:  # and slips
            return f"{where} does not match: {one_line(str(error))}"
        digest = action_digest(digest, turn, -1 if seat is None else seat, text)
        problem = _frame_problem(frames, turn, text, seat, digest) \
            or _view_problem(match, frames, turn, viewer)
        if problem is not None:
            return f"{where} does not match: {problem}"
        if len(match.deal_points) == deal_number:
            for _, shown in sources:
                problem = _deal_problem(match, deal_number, shown, digest)
                if problem is not None:
                    return problem
    winner = match.winner()
    if ending is not None:
        if not match.is_over() and ending.get("turn") != len(actions):
            return (f"the match ended ({ending.get('reason')}) at turn {ending.get('turn')!r}, "
                    f"but the record has {len(actions)} actions")
        resigned = [int(s) for s in ending.get("resigned") or [] if isinstance(s, int)]
        winner = None if ending.get("reason") == "aborted" \
            else ended_winner(list(match.totals), resigned)
    elif not match.is_over():
        return f"the game is not over after its {len(actions)} actions"
    for where, shown in sources:
        for key, replayed in (("deal_points", [list(p) for p in match.deal_points]),
                              ("totals", list(match.totals)), ("winner", winner),
                              ("actions_digest", digest)):
            if key in shown and shown[key] != replayed:
                return (f"the {key} {shown[key]!r} shown in {where} do not match the "
                        f"replayed {replayed!r}")
    return None


def verify_document(data: Mapping[str, Any],
                    without_the_page: frozenset[int] = frozenset()) -> Verdict:
    """Verify a record (or a replay document); raise :class:`RecordInputError` when it is
    not a game record at all. A verified document's message ends by naming every field it
    shows that nothing binds (:func:`unverified_fields`). ``without_the_page``: human seats
    known to have played through the HTTP API, which sends no contribution (a server's own
    tests); every other human seat must have contributed."""
    record, table, frames = _split(data)
    match, actions, imposed_dealer = _new_match(record)
    fairness = _read_fairness(record)
    problem = fairness if isinstance(fairness, str) else _fairness_problem(
        fairness, record.get("seed"), table, match.num_seats, without_the_page)
    if problem is None and imposed_dealer is not None:
        problem = "the first dealer was imposed by the record, not drawn from the seed"
    if problem is None and table is not None:
        problem = _table_problem(record, table, match.num_seats)
    if problem is None and isinstance(fairness, Fairness) and table is not None:
        shown, first = table.get("first_digest"), _first_digest(record, fairness, table)
        if shown is not None and shown != first:
            problem = (f"the table published the first digest {shown!r}; the record's "
                       f"commitment, game, seats and rules and the seats' names give {first}")
    if problem is None and isinstance(fairness, Fairness):
        problem = _replay_problem(match, actions, _expected_results(record, table), frames,
                                  _first_digest(record, fairness, table), data.get("seat"),
                                  _ending(table))
    if problem is not None:
        return Verdict(False, f"not verified: {problem}")
    contributions = len(record["fairness"]["contributions"])
    message = (f"verified: {record['game']}, {match.num_seats} seats, "
               f"{len(match.deal_points)} deals, {len(actions)} actions; the seed comes "
               f"from the committed server seed and {contributions} contribution"
               f"{'' if contributions == 1 else 's'}")
    unbound = unverified_fields(data)
    if unbound:
        message += "; shown but not verified (nothing binds them): " + ", ".join(unbound)
    else:
        message += "; every field shown is verified"
    return Verdict(True, message)


def _table_problem(record: Mapping[str, Any], table: Mapping[str, Any],
                   num_seats: int) -> str | None:
    """Why the table summary disagrees with the record (game, seats, server seed,
    contributions, status), or ``None``. Its names are bound by the digests."""
    fairness = record.get("fairness")
    fairness = fairness if isinstance(fairness, Mapping) else {}
    contributed = sorted(int(c["seat"]) for c in fairness.get("contributions", [])
                         if isinstance(c, Mapping) and isinstance(c.get("seat"), int))
    checks: list[tuple[str, object, object]] = [
        ("game", table.get("game", record.get("game")), record.get("game")),
        ("num_seats", table.get("num_seats", num_seats), num_seats),
        ("server_seed", table.get("server_seed", fairness.get("server_seed")),
         fairness.get("server_seed")),
        ("contributed", table.get("contributed", contributed), contributed),
        ("status", table.get("status", "finished"), "finished"),
        ("turn", table.get("turn", len(record.get("actions") or [])),
         len(record.get("actions") or [])),
        ("to_move", table.get("to_move"), None),
    ]
    for key, shown, expected in checks:
        if shown != expected:
            return f"the table shows {key} {shown!r}, the record gives {expected!r}"
    seats = table.get("seats")
    if seats is not None:
        if _roster(table) is None or len(seats) != num_seats or any(
                seat.get("seat", number) != number for number, seat in enumerate(seats)):
            return "the table's seats are not one object (kind, name) per seat, in order"
        if table.get("first_digest") is None and table.get("actions_digest") is None:
            return "the seats' names are bound by no digest the table shows"
    return None


VERIFIED_FIELDS = (
    "seat", "frames[*].turn", "frames[*].action", "frames[*].actor", "frames[*].digest",
    "frames[*].view", "frames[*].views",
    "record.game", "record.num_seats", "record.rules", "record.seed", "record.actions",
    "record.version", "record.fairness", "record.result",
    "table.game", "table.num_seats", "table.commitment", "table.first_digest",
    "table.actions_digest", "table.server_seed", "table.contributed", "table.status",
    "table.turn", "table.to_move", "table.totals", "table.winner", "table.seats[*].seat",
    "table.seats[*].kind", "table.seats[*].name",
)
"""The fields :func:`verify_document` checks (a field under one of them is checked with
it): the replay recomputes them, or the digests bind them."""


def unverified_fields(data: Mapping[str, Any]) -> list[str]:
    """The fields a document shows that the replay does not check, as paths (``[*]`` for
    every item of a list), in order of appearance: a table's id, dates and link, its
    seats' connections, the chat ..."""
    found: dict[str, None] = {}

    def walk(value: Any, path: str) -> None:
        if path in VERIFIED_FIELDS:
            return
        if isinstance(value, Mapping) and value:
            for key, item in value.items():
                walk(item, f"{path}.{key}" if path else str(key))
        elif isinstance(value, list) and value and path:
            for item in value:
                walk(item, path + "[*]")
        elif path:
            found[path] = None

    walk(data if isinstance(data.get("record"), Mapping) else {"record": data}, "")
    return [path[len("record."):] if not isinstance(data.get("record"), Mapping) else path
            for path in found]


def _run(namespace: argparse.Namespace) -> int:
    verdict = verify_document(load_document(namespace.record))
    print(verdict.message)
    return EXIT_VERIFIED if verdict.ok else EXIT_NOT_VERIFIED


def register(subparsers: Any) -> None:
    """Add ``konkun verify RECORD.json``."""
    parser = subparsers.add_parser(
        "verify", help="check a finished game's fair deal and every action",
        description="Check a finished game record: the server seed against its commitment, "
        "the seed derived from the contributions, every action legal and every result as "
        "recorded. Prints 'verified' (exit 0) or the first mismatch (exit 1); bad input "
        "exits 2.")
    parser.add_argument("record", metavar="RECORD.json",
                        help="a finished game record, or a replay document from the server")
    parser.set_defaults(handler=_run)
