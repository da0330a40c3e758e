"""Tables, confidence intervals and plotly figures for simulation results.

Every function takes the DataFrame of :func:`crazylab.simulate` (one row per hand). pandas and
plotly are imported inside the functions, so ``import crazylab`` stays light.

Intervals are 95 % by default: Wilson's interval for a rate (wins, blocked hands), the normal
approximation for a mean, and for a comparison of two rule variants the mean of the per-hand
differences over the same deals (a paired comparison, much tighter than two separate means).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import CrazylabError, quote

if TYPE_CHECKING:
    import pandas as pd
    import plotly.graph_objects as go

    from .engine.rules import RuleSet

__all__ = [
    "Comparison", "LabError", "compare_rules", "fig_blocked", "fig_hand_length", "fig_points",
    "fig_variants", "fig_win_rates", "mean_ci", "paired_difference", "seat_table", "summary",
    "wilson", "win_rates",
]

Z95 = 1.959963984540054
TEMPLATE = "plotly_white"


class LabError(CrazylabError):
    """A table or figure asked of something that is not a simulation's results (or a
    column, a grouping or a number it does not have)."""


def _results(df: Any, *columns: str) -> None:
    """``df`` is a DataFrame holding ``columns`` (those :func:`crazylab.simulate` makes)."""
    import pandas as pd

    if not isinstance(df, pd.DataFrame):
        raise LabError(f"expected the DataFrame crazylab.simulate returns, not {quote(df)}")
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise LabError(f"the DataFrame has no column {', '.join(map(repr, missing))}: give "
                       "it the results of crazylab.simulate")


def _by(by: Any) -> str:
    if by not in ("bot", "seat"):
        raise LabError(f"by must be 'bot' or 'seat', not {quote(by)}")
    return str(by)


def _real(name: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise LabError(f"{name} must be a number, not {quote(value)}")
    return float(value)


# -- statistics --------------------------------------------------------------------------------


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for a rate of ``successes`` in ``n`` trials (``nan`` for none);
    :class:`LabError` for counts that are not numbers or ``successes`` outside 0 to ``n``."""
    successes, n, z = _real("successes", successes), _real("n", n), _real("z", z)
    if not (math.isfinite(n) and math.isfinite(z) and z > 0):
        raise LabError(f"n and z must be finite (z above 0), not n={quote(n)}, z={quote(z)}")
    if n > 0 and not 0 <= successes <= n:
        raise LabError(f"successes must be from 0 to n={n:g}, not {successes:g}")
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """``(mean, low, high)``: the normal-approximation interval of a mean."""
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise LabError(f"values must be a list of numbers, not {quote(values)}")
    _real("z", z)
    xs = [_real("each value", v) for v in values]
    n = len(xs)
    if n == 0:
        return (math.nan, math.nan, math.nan)
    m = sum(xs) / n
    if n == 1:
        return (m, math.nan, math.nan)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    half = z * sd / math.sqrt(n)
    return (m, m - half, m + half)


# -- tables --------------------------------------------------------------------------------------


def seat_table(df: pd.DataFrame) -> pd.DataFrame:
    """One row per hand and seat: ``variant``, ``players``, ``hand``, ``seat``, ``bot``,
    ``win`` (1, or 1/k when k seats share the win, else 0) and ``score``."""
    import pandas as pd

    _results(df, "players", "winners", "variant", "rules", "hand")

    parts = []
    for s in range(int(df["players"].max()) if len(df) else 0):
        part = df[df["players"] > s]
        won = part["winners"].map(lambda w, s=s: _credit(w, s))
        parts.append(pd.DataFrame({
            "variant": part["variant"], "rules": part["rules"], "players": part["players"],
            "hand": part["hand"], "seat": s, "bot": part[f"bot_{s}"], "win": won,
            "score": part[f"score_{s}"]}))
    if not parts:
        return pd.DataFrame(columns=["variant", "rules", "players", "hand", "seat", "bot",
                                     "win", "score"])
    return pd.concat(parts, ignore_index=True)


def _credit(winners: str, seat: int) -> float:
    seats = [int(x) for x in winners.split(",") if x != ""]
    return 1 / len(seats) if seat in seats else 0.0


def win_rates(df: pd.DataFrame, by: str = "bot",
              within: Sequence[str] = ("variant", "players")) -> pd.DataFrame:
    """Win rate per ``by`` (``"bot"`` or ``"seat"``) within each rule variant and table size:
    ``hands`` (seat-hands), ``wins`` (shared wins count a fraction), ``rate`` and its Wilson
    interval ``low``-``high``."""
    import pandas as pd

    _by(by)
    if isinstance(within, str) or not all(w in ("variant", "players", "rules") for w in within):
        raise LabError(f"within must list columns among variant, players, rules, not "
                       f"{quote(within)}")
    seats = seat_table(df)
    keys = [*within, by]
    rows = []
    for key, g in seats.groupby(keys, sort=True):
        wins, n = float(g["win"].sum()), len(g)
        lo, hi = wilson(wins, n)
        rows.append({**dict(zip(keys, key, strict=True)), "hands": n, "wins": wins,
                     "rate": wins / n, "low": lo, "high": hi})
    return pd.DataFrame(rows, columns=[*keys, "hands", "wins", "rate", "low", "high"])


def summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per rule variant and table size: hands, mean turns and moves, cards drawn,
    reshuffles and points per hand, and the share of blocked (or void) hands."""
    _results(df, "variant", "players", "hand", "turns", "moves", "cards_drawn", "reshuffles",
             "blocked", "points")
    g = df.groupby(["variant", "players"], sort=False)
    out = g.agg(hands=("hand", "size"), turns=("turns", "mean"), moves=("moves", "mean"),
                cards_drawn=("cards_drawn", "mean"), reshuffles=("reshuffles", "mean"),
                blocked=("blocked", "mean"), points=("points", "mean"))
    return out.round(3)


# -- comparing two rule variants -----------------------------------------------------------------


@dataclass(frozen=True)
class Comparison:
    """Variant ``b`` minus variant ``a`` on ``metric``, hand by hand over the same deals."""

    metric: str
    a: str
    b: str
    hands: int
    mean_a: float
    mean_b: float
    diff: float
    low: float
    high: float

    def __str__(self) -> str:
        sure = "" if self.low <= 0 <= self.high else " (the interval excludes 0)"
        return (f"{self.metric}: {self.a} {self.mean_a:.3g}, {self.b} {self.mean_b:.3g}; "
                f"difference {self.diff:+.3g}, 95% CI [{self.low:+.3g}, {self.high:+.3g}] "
                f"over {self.hands} paired hands{sure}")


def _metric(df: pd.DataFrame, metric: str | Callable[[pd.DataFrame], Any]) -> Any:
    _results(df, "hand", "players", "variant")
    if not callable(metric) and (not isinstance(metric, str) or metric not in df.columns):
        raise LabError(f"metric must be a column of the results or a function, not "
                       f"{quote(metric)}")
    values = metric(df) if callable(metric) else df[metric]
    return values.astype(float)


def paired_difference(df_a: pd.DataFrame, df_b: pd.DataFrame,
                      metric: str | Callable[[pd.DataFrame], Any] = "turns") -> Comparison:
    """Compare two runs made with the same ``seed`` (so hand ``h`` has the same deal in both):
    the mean of ``b - a`` per hand and its interval. ``metric`` is a column or a function of
    the DataFrame returning one value per hand."""
    key = ["hand", "players"]
    _results(df_a, *key)
    _results(df_b, *key)
    a = df_a.assign(_v=_metric(df_a, metric))[[*key, "_v"]]
    b = df_b.assign(_v=_metric(df_b, metric))[[*key, "_v"]]
    both = a.merge(b, on=key, suffixes=("_a", "_b"))
    if both.empty:
        raise LabError("the two runs share no hand: run both with the same seed and games")
    diff, lo, hi = mean_ci((both["_v_b"] - both["_v_a"]).tolist())
    name = metric if isinstance(metric, str) else getattr(metric, "__name__", "metric")
    return Comparison(name, _label(df_a), _label(df_b), len(both),
                      float(both["_v_a"].mean()), float(both["_v_b"].mean()), diff, lo, hi)


def _label(df: pd.DataFrame) -> str:
    return str(df["variant"].iloc[0]) if len(df) and df["variant"].nunique() == 1 else "run"


def compare_rules(a: str | RuleSet, b: str | RuleSet,
                  metric: str | Callable[[pd.DataFrame], Any] = "turns", *,
                  players: int = 2, bots: Any = "random", games: int = 1000, seed: int = 0,
                  **simulate_options: Any) -> Comparison:
    """Play the same ``games`` deals (same ``seed``) under rule sets ``a`` and ``b`` and compare
    ``metric``: ``compare_rules("crazy-eights-classic", "crazy-eights-quick", "turns")``."""
    from .sim import simulate

    df_a = simulate(a, players=players, bots=bots, games=games, seed=seed, **simulate_options)
    df_b = simulate(b, players=players, bots=bots, games=games, seed=seed, **simulate_options)
    return paired_difference(df_a, df_b, metric)


# -- figures ---------------------------------------------------------------------------------------


def fig_hand_length(df: pd.DataFrame, by: str = "variant") -> go.Figure:
    """The distribution of hand length (turns) for each rule variant: a box per variant."""
    _results(df, "turns", "players")
    if not isinstance(by, str) or by not in df.columns:
        raise LabError(f"by must be a column of the results, not {quote(by)}")
    import plotly.express as px

    fig = px.box(df, x=by, y="turns", color="players" if df["players"].nunique() > 1 else None,
                 points=False, template=TEMPLATE,
                 labels={"turns": "turns in the hand", by: "", "players": "players"},
                 title="How long a hand lasts")
    return fig


def fig_variants(df: pd.DataFrame,
                 metrics: Sequence[str] = ("turns", "cards_drawn", "blocked")) -> go.Figure:
    """Rule variants side by side on several per-hand measures (means with 95% intervals;
    for a yes/no column such as ``blocked``, the rate and its Wilson interval)."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    if isinstance(metrics, str) or not metrics:
        raise LabError(f"metrics must list columns, not {quote(metrics)}")
    _results(df, "variant", "players", *metrics)
    variants = list(dict.fromkeys(df["variant"]))
    sizes = sorted(df["players"].unique())
    fig = make_subplots(rows=1, cols=len(metrics), subplot_titles=[_pretty(m) for m in metrics])
    for j, m in enumerate(metrics, start=1):
        for n in sizes:
            means, los, his = [], [], []
            for v in variants:
                values = df.loc[(df["variant"] == v) & (df["players"] == n), m]
                if values.dtype == bool:
                    mean = float(values.mean()) if len(values) else math.nan
                    lo, hi = wilson(float(values.sum()), len(values))
                else:
                    mean, lo, hi = mean_ci(values.tolist())
                means.append(mean)
                los.append(mean - lo)
                his.append(hi - mean)
            fig.add_trace(go.Bar(x=variants, y=means, name=f"{n} players",
                                 legendgroup=str(n), showlegend=j == 1,
                                 error_y={"type": "data", "array": his, "arrayminus": los}),
                          row=1, col=j)
    fig.update_layout(template=TEMPLATE, barmode="group", title="What the rules change")
    return fig


def fig_win_rates(df: pd.DataFrame, by: str = "bot") -> go.Figure:
    """Win rate by ``"bot"`` or ``"seat"`` with 95% Wilson intervals, per rule variant."""
    import plotly.express as px

    table = win_rates(df, by=by)
    table[by] = table[by].astype(str)
    table["label"] = table["variant"] + " · " + table["players"].astype(str) + "p"
    fig = px.bar(table, x="label", y="rate", color=by, barmode="group", template=TEMPLATE,
                 error_y=table["high"] - table["rate"],
                 error_y_minus=table["rate"] - table["low"],
                 labels={"rate": "win rate", "label": "", by: by},
                 title=f"Win rate by {by} (95% intervals)")
    fig.update_yaxes(range=[0, 1])
    return fig


def fig_blocked(df: pd.DataFrame) -> go.Figure:
    """How often hands block (end with nobody out), per rule variant and table size."""
    _results(df, "variant", "players", "blocked")
    import pandas as pd
    import plotly.express as px

    rows = []
    for (v, n), g in df.groupby(["variant", "players"], sort=False):
        k, total = int(g["blocked"].sum()), len(g)
        lo, hi = wilson(k, total)
        rows.append({"variant": v, "players": str(n), "rate": k / total, "low": lo,
                     "high": hi, "hands": total})
    table = pd.DataFrame(rows)
    fig = px.bar(table, x="variant", y="rate", color="players", barmode="group",
                 error_y=table["high"] - table["rate"],
                 error_y_minus=table["rate"] - table["low"], template=TEMPLATE,
                 labels={"rate": "share of hands blocked", "variant": ""},
                 title="How often a hand blocks (95% intervals)")
    return fig


def fig_points(df: pd.DataFrame) -> go.Figure:
    """The distribution of points per hand (what the hand paid) for each rule variant."""
    _results(df, "points", "variant")
    import plotly.express as px

    return px.histogram(df, x="points", color="variant", barmode="overlay", opacity=0.6,
                        histnorm="percent", template=TEMPLATE,
                        labels={"points": "points paid by the hand"},
                        title="Points per hand")


def _pretty(metric: str) -> str:
    return {"turns": "turns per hand", "cards_drawn": "cards drawn per hand",
            "blocked": "share of hands blocked", "reshuffles": "reshuffles per hand",
            "points": "points per hand", "moves": "moves per hand"}.get(metric, metric)
