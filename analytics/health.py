"""How an experiment's run stands, for the dashboard's home page: games played of planned,
shards finished of planned, the run's status, and the finished shards' files that are
damaged or missing (``dataset.integrity.check_shards``, the check every reader runs;
a file whose identity is remembered from an earlier match is not hashed again), with the
command that repairs them.
"""

from __future__ import annotations

from dataclasses import dataclass

from analytics.explore import games_plan, run_status
from analytics.folders import AnalyticsError, read_manifest, read_spec
from dataset.integrity import check_shards, damage_message, repair_command, run_command
from dataset.location import ResultsPath
from experiments.spec import SpecError, parse_spec


@dataclass(frozen=True)
class RunHealth:
    """One experiment's run at a glance (``run_health``)."""

    status: str
    """finished, running, interrupted, failed or incomplete (``analytics.explore.run_status``)."""
    reason: str
    """A failed run's one line; a manifest that cannot be read: why."""
    games_played: int
    games_planned: int
    """0 when there is no fixed plan (a balance search)."""
    shards_finished: int
    shards_planned: int
    problems: tuple[str, ...]
    """One line per finished-shard file that is damaged or missing."""
    summary: str
    """``damage_message``: the first bad file, how many more, and the repair (empty when intact)."""
    repair: str
    """The ``cardlab run ... --resume`` that plays the missing shards and replaces the damaged ones."""

    @property
    def intact(self) -> bool:
        """No finished shard's file is damaged or missing."""
        return not self.problems and not self.reason.startswith("unreadable")

    @property
    def shards_missing(self) -> int:
        """Planned shards not finished (yet)."""
        return max(0, self.shards_planned - self.shards_finished)


def _planned_shards(spec: dict[str, object]) -> int:
    try:
        return len(parse_spec(dict(spec), "spec.json").shards())
    except SpecError:
        return 0


def run_health(folder: ResultsPath) -> RunHealth:
    """The run health of the experiment in ``folder`` (see ``RunHealth``)."""
    spec = read_spec(folder)
    try:
        manifest = read_manifest(folder)
    except AnalyticsError as error:  # an unreadable manifest entry: nothing is read until repaired
        planned, search = games_plan(folder, spec)
        status, _, _ = run_status(folder, 0, planned, search)
        return RunHealth(status, f"unreadable: {error}", 0, planned, 0, _planned_shards(spec), (), str(error),
                         repair_command(folder))
    played = sum(int(entry.get("rows", {}).get("games", 0)) for entry in manifest.values())
    planned, search = games_plan(folder, spec)
    status, _, reason = run_status(folder, played, planned, search)
    findings, _ = check_shards(folder, manifest)
    return RunHealth(status, reason, played, planned, len(manifest), 0 if search is not None else _planned_shards(spec),
                     tuple(f"{finding.kind}: {finding.line()}" for finding in findings),
                     damage_message(folder, findings) if findings else "", repair_command(folder))



def more_games_command(folder: ResultsPath, games: int) -> str:
    """The ``cardlab run SPEC --games N`` that plays ``games`` per variant and player count of
    the experiment in ``folder`` (into ``<name>-games-N``, on the same seeds: ``run_command``)."""
    return run_command(folder, games=games)
