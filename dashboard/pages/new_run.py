"""New run page: launch a what-if from the browser and follow the queue.

Pick a base (a shipped experiment file or an experiment already run), search
its game's parameters (every ``rules.*`` and ``cards.*`` path with its type,
current value and the range the game accepts), change a few, choose games,
player counts and agents, and launch. The what-if is built and checked by the
spec reader (``experiments.whatif``: the same one-line errors as ``cardlab
run``), written out as a full experiment file and queued by
``drivers.launcher``, which plays it with ``cardlab run``. Launching is off
unless the dashboard was started with ``--allow-runs``; beyond loopback, and
wherever it was given a token file, it needs a token, entered once per browser
session.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import polars as pl
import streamlit as st

from analytics.folders import AnalyticsError, read_spec
from dashboard.common import OPEN_EXPERIMENT_KEY, load_overview, results_root
from dataset.location import ResultsPath
from drivers.launcher import (
    CANCELLED,
    FINISHED,
    QUEUED,
    RUNNING,
    LaunchPolicy,
    LaunchRefused,
    advance,
    cancel,
    launch,
    list_runs,
    local_folder,
    policy_from_environment,
    sign_in,
)
from experiments.spec import ExperimentSpec, SpecError, load_spec, parse_spec
from experiments.tuning import toml_value
from experiments.whatif import (
    ParameterRow,
    parameter_rows,
    parse_form_value,
    probe_range,
    whatif_spec,
    whatif_toml,
)
from simcore.agents.registry import split_agent_list
from simcore.registry import get_game

SHIPPED = Path(__file__).resolve().parents[2] / "experiments"
# The base the form starts from: the demo's (`make demo`) lineup, the heuristic in every seat, whose
# seat and card rates mean something (a strong agent against a weak one wins with every card).
DEFAULT_BASE = "experiments/theseus_demo.toml"
TOKEN_KEY = "newrun_token_accepted"
CHANGES_KEY = "newrun_changes"
CHANGES_GAME_KEY = "newrun_changes_game"
WATCH_KEY = "newrun_watching"
CANCEL_SAID_KEY = "newrun_cancel_said"
REFRESH_SECONDS = 3
# How the spec reader names the form in its errors (``new run: games: expected ...``). (Comments,
# not docstrings, on a page's constants: Streamlit would draw a bare string.)
SOURCE = "new run"


def launch_policy() -> LaunchPolicy:
    """What ``cardlab dashboard`` allowed, for the address this server really listens on."""
    return policy_from_environment(os.environ, str(st.get_option("server.address") or ""))


# The table's ranges are probed (``experiments.whatif.probe_range``) once it shows this many rows or fewer.
RANGES_SHOWN = 25


@st.cache_data(show_spinner=False)
def rows_of(game: str) -> list[ParameterRow]:
    """``experiments.whatif.parameter_rows`` of ``game``."""
    return parameter_rows(game)


@st.cache_data(show_spinner=False, max_entries=20_000)
def probed(game: str, row: ParameterRow) -> ParameterRow:
    """``row`` with its accepted range, probed once per server."""
    return probe_range(game, row)


def parameters_of(game: str, search: str) -> pl.DataFrame:
    """The form's parameter table of ``game`` (rows whose path holds ``search``): path, type,
    current value and, when few rows are shown, the accepted range."""
    rows = [row for row in rows_of(game) if search.strip().lower() in row.path.lower()]
    if len(rows) <= RANGES_SHOWN:
        with st.spinner("Asking the game which values it accepts..."):
            rows = [probed(game, row) for row in rows]
    return pl.DataFrame({"path": [row.path for row in rows], "type": [row.type for row in rows],
                         "current": [_shown(row.current) for row in rows],
                         "accepted": [row.range_text for row in rows]},
                        schema={"path": pl.String, "type": pl.String, "current": pl.String, "accepted": pl.String})


def _shown(value: object) -> str:
    """A parameter value as the experiment file writes it."""
    return toml_value(value)


@st.cache_data(show_spinner=False, ttl=60)
def shipped_bases() -> dict[str, ExperimentSpec]:
    """The shipped experiment files that read (``experiments/*.toml``), by label."""
    found: dict[str, ExperimentSpec] = {}
    for path in sorted(SHIPPED.glob("*.toml")):
        try:
            found[f"experiments/{path.name}"] = load_spec(path)
        except SpecError:
            continue
    return found


def bases(root: ResultsPath) -> dict[str, ExperimentSpec]:
    """What a what-if may start from: the shipped experiment files, then the experiments run here."""
    found = dict(shipped_bases())
    for name in load_overview(str(root))["experiment"].to_list():
        try:
            found[f"experiment {name}"] = parse_spec(read_spec(root / name), f"{name}/spec.json")
        except (SpecError, AnalyticsError):  # e.g. an experiment of a game since changed: not offered
            continue
    return found


def default_name(root: ResultsPath, game: str) -> str:
    """``whatif-GAME-N``, the first N free both as a folder and as a launched run."""
    folder = local_folder(root)
    taken = {path.name for path in folder.iterdir()} if folder.is_dir() else set()
    taken |= {run.name for run in list_runs(root)}
    number = 1
    while f"whatif-{game}-{number}" in taken:
        number += 1
    return f"whatif-{game}-{number}"


def _open(name: str) -> None:
    st.session_state[OPEN_EXPERIMENT_KEY] = name


def _cancel_clicked(root: ResultsPath, name: str, policy: LaunchPolicy) -> None:
    """The Cancel button's callback: cancel ``name``, the run the button named, and keep what
    came of it (shown under the button) as (succeeded, one line)."""
    try:
        cancelled = cancel(root, name, policy, st.session_state.get(TOKEN_KEY))
    except LaunchRefused as refusal:
        st.session_state[CANCEL_SAID_KEY] = (False, str(refusal))
        return
    st.session_state[CANCEL_SAID_KEY] = (True, f"{cancelled.name}: " + (
        "cancelled" if cancelled.state == CANCELLED else "stopping (cancel asked)"))


def queue(root: ResultsPath, policy: LaunchPolicy) -> None:
    """The launched runs with their state and progress; cancel; open a finished what-if."""
    runs = list_runs(root)
    if policy.allowed:
        # A run queued while no supervisor was left to start it (every dashboard had been stopped).
        advance(root, policy.max_running, policy.workers, policy.job_address)
        runs = list_runs(root)
    if not runs:
        st.caption("No run launched from this page yet.")
        return
    overview = load_overview(str(root)).select("experiment", "progress")
    progress = dict(overview.iter_rows())
    frame = pl.DataFrame({
        "run": [run.name for run in runs], "state": [run.state for run in runs], "who": [run.who for run in runs],
        "games": [run.games for run in runs],
        "progress": [1.0 if run.state == FINISHED else progress.get(run.name) or 0.0 for run in runs],
        "queued (UTC)": [dt.datetime.fromtimestamp(run.queued_at, dt.UTC) for run in runs],
        "changes": [", ".join(f"{path} = {value!r}" for path, value in run.overrides.items()) for run in runs],
        "reason": [run.reason for run in runs],
    })
    st.dataframe(frame, hide_index=True, key="newrun_queue", column_config={
        "progress": st.column_config.ProgressColumn("progress", format="percent", min_value=0, max_value=1),
        "queued (UTC)": st.column_config.DatetimeColumn("queued (UTC)", format="YYYY-MM-DD HH:mm:ss")})
    active = [run.name for run in runs if run.state in (QUEUED, RUNNING)]
    finished = [run.name for run in runs if run.state == FINISHED]
    left, right = st.columns(2)
    if active and policy.allowed:
        # No run chosen until one is: a run that ended leaves the box empty, never on another run.
        chosen = left.selectbox("Run to cancel", active, index=None, placeholder="Choose a run",
                                key="newrun_cancel_choice")
        # The click cancels the run its button named when it was drawn (the callback's argument),
        # even if that run ended since: then it is refused, and no other run is touched.
        left.button(f"Cancel {chosen}" if chosen else "Cancel run", key="newrun_cancel", disabled=chosen is None,
                    on_click=_cancel_clicked, args=(root, str(chosen), policy))
    said = st.session_state.pop(CANCEL_SAID_KEY, None)
    if said is not None:
        (left.success if said[0] else left.error)(said[1])
    if finished:
        chosen = right.selectbox("Finished what-if", finished[::-1], key="newrun_open_choice")
        if right.button("Open the comparison", key="newrun_open", on_click=_open, args=(str(chosen),)):
            st.switch_page("pages/whatif.py")


st.title("New run")
root = results_root()
policy = launch_policy()
try:
    local_folder(root)
except LaunchRefused as refusal:  # an object store: the queue needs a local folder
    st.info(f"{refusal}. `cardlab run SPEC --results {root}` works as always.")
    st.stop()


@st.fragment(run_every=REFRESH_SECONDS)
def queue_panel() -> None:
    """The queue, refreshed every few seconds; the what-if this session launched opens on its
    comparison as soon as it finishes."""
    st.subheader("Launched runs")
    queue(root, policy)
    watched = st.session_state.get(WATCH_KEY)
    if watched:
        run = next((run for run in list_runs(root) if run.name == watched), None)
        if run is not None and run.state == FINISHED:
            del st.session_state[WATCH_KEY]
            st.session_state[OPEN_EXPERIMENT_KEY] = watched
            st.switch_page("pages/whatif.py")


if not policy.allowed:
    st.info("Launching runs is off. Start the dashboard with `cardlab dashboard --allow-runs` (beyond loopback "
            "also `--token-file FILE`) to launch what-ifs from here; `cardlab run SPEC` works as always.")
    queue_panel()
    st.stop()

if policy.needs_token and not st.session_state.get(TOKEN_KEY):
    st.markdown("This dashboard asks for a launch token: enter yours once for this browser session.")
    token = st.text_input("Launch token", type="password", key="newrun_token")
    if st.button("Use this token", key="newrun_use_token"):
        try:
            sign_in(root, policy, token)
            st.session_state[TOKEN_KEY] = token
            st.rerun()
        except LaunchRefused as refusal:
            st.error(str(refusal))
    queue_panel()
    st.stop()

known = bases(root)
if not known:
    st.info("No experiment file to start from.")
    st.stop()
labels = list(known)
base_label = st.selectbox("Start from", labels, key="newrun_base",
                          index=labels.index(DEFAULT_BASE) if DEFAULT_BASE in labels else 0,
                          help="The what-if takes this experiment's game, seed, agents and seat rotation; its "
                          "baseline is the game's defaults.")
base = known[str(base_label)]
st.caption(f"Game **{base.game}** · seed {base.seed} · agents {', '.join(str(agent) for agent in base.agents)} · "
           f"{base.games:,} games per variant in the base")

st.subheader("Parameters")
search = st.text_input("Search parameters", key="newrun_search", placeholder="e.g. copies, rounds, fireball")
table = parameters_of(base.game, search)
if table.height > RANGES_SHOWN:
    st.caption(f"{table.height} parameters; the accepted ranges appear once the search narrows the table to "
               f"{RANGES_SHOWN} or fewer (the game is asked which values it accepts).")
st.dataframe(table, hide_index=True, key="newrun_parameters", column_config={
    "path": "parameter", "current": "current value", "accepted": "accepted range"})
changes: dict[str, object] = st.session_state.setdefault(CHANGES_KEY, {})
if st.session_state.get(CHANGES_GAME_KEY) != base.game:  # another game's parameters: its changes do not apply
    changes.clear()
    st.session_state[CHANGES_GAME_KEY] = base.game
if not table.is_empty():
    path_box, value_box = st.columns(2)
    path = path_box.selectbox("Parameter to change", table["path"].to_list(), key="newrun_path")
    current = dict(zip(table["path"].to_list(), table["current"].to_list(), strict=True))[path]
    row = probed(base.game, next(row for row in rows_of(base.game) if row.path == path))
    text = value_box.text_input("New value", key="newrun_value", placeholder=f"now {current}",
                                help="Written as in the experiment file: 2, 0.5, true, \"text\", [1, 2]")
    value_box.caption(f"{row.type}, now {current}; accepted: {row.range_text}")
    if st.button("Add change", key="newrun_add"):
        defaults = {row.path: row.current for row in rows_of(base.game)}
        try:
            trial = {**changes, str(path): parse_form_value(text, defaults[str(path)])}
            whatif_spec(base, "check", trial, 1, list(base.player_counts), [str(agent) for agent in base.agents],
                        source=SOURCE)
            changes[str(path)] = trial[str(path)]
        except SpecError as error:
            st.error(str(error))
else:
    st.caption("No parameter matches the search.")
if changes:
    st.markdown("**Changes:** " + ", ".join(f"`{path} = {value!r}`" for path, value in changes.items()))
    if st.button("Clear changes", key="newrun_clear"):
        changes.clear()
        st.rerun()

st.subheader("Run")
games_box, players_box = st.columns(2)
# The form's boxes whose values come from the base are the base's own (their keys name it): boxes kept
# across bases would keep the last base's values (the browser sends them with the rerun), and player
# counts the new game does not have would be dropped, leaving none.
games = games_box.number_input("Games per variant and player count", min_value=1, step=100,
                               value=min(base.games, 2000), key=f"newrun_games:{base_label}")
info = get_game(base.game).info
players = players_box.multiselect("Player counts", list(range(info.min_players, info.max_players + 1)),
                                  default=list(base.player_counts), key=f"newrun_players:{base_label}")
agents_box, name_box = st.columns(2)
agents = agents_box.text_input("Agents by seat (comma-separated)", key=f"newrun_agents:{base_label}",
                               value=", ".join(str(agent) for agent in base.agents))
name = name_box.text_input("Name", key="newrun_name", value=default_name(root, base.game))
# What Launch will start, as the server has it: the total a run costs, before it is launched.
st.markdown(f"Launches **{name.strip() or '(no name)'}**: {2 * int(games) * len(players):,} games "
            f"({int(games):,} per variant and player count; baseline and what-if; "
            f"{len(players)} player count{'s' if len(players) != 1 else ''}).")
st.caption(f"Limits of this dashboard: {policy.max_games_per_run:,} games per run (baseline and what-if together), "
           f"{policy.runs_per_hour} runs per hour, {policy.max_running} playing at once. Runs play "
           + (f"on the Ray cluster at {policy.job_address} (Ray's job API)." if policy.job_address
              else "on this machine's Ray."))
if st.button("Launch", key="newrun_launch", type="primary"):
    lineup = split_agent_list(agents)  # commas inside an agent's parentheses are its parameters
    try:
        spec = whatif_spec(base, name.strip(), changes, int(games), list(players), lineup, source=SOURCE)
        run = launch(root, spec, whatif_toml(spec), policy, st.session_state.get(TOKEN_KEY),
                     base=str(base_label))
    except (SpecError, LaunchRefused) as error:
        st.error(str(error))
    else:
        st.session_state[WATCH_KEY] = run.name
        changes.clear()
        st.success(f"{run.name}: {run.state} ({run.games:,} games); this page opens its comparison when it "
                   "finishes.")
queue_panel()
