"""PNG charts of a suite run, written beside its JSON: where each goal stands, throughput and
per-unit cost against size, the pool's batch latencies, requests in flight over time, ping
round trips under load, and memory over time.

    python benchmarks/plots.py [benchmarks/results/suite.json]
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator

Reports = Mapping[str, dict[str, Any]]
DPI = 110


def _save(figure: Any, path: Path) -> Path:
    figure.tight_layout()
    figure.savefig(path, dpi=DPI)
    plt.close(figure)
    return path


def _figures(reports: Reports) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for report in reports.values():
        out.update(report.get("figures", {}))
    return out


def goals(reports: Reports, rows: list[tuple[str, str]], path: Path, mode: str) -> Path | None:
    """One bar per figure of the issue's table: the share of its goal reached (measured ÷ goal
    for throughputs, goal ÷ measured for times and sizes), so ≥ 1 means the goal is met. Bars
    carry the issue's labels; in a `quick` or `smoke` run (`mode`) the title says that the sizes
    measured are smaller (the table names each one)."""
    figures = _figures(reports)
    bars = []
    for label, figure_id in rows:
        figure = figures.get(figure_id)
        if not figure or "goal" not in figure:
            continue
        goal, median = figure["goal"]["value"], figure["median"]
        reached = median / goal if figure["better"] == "higher" else goal / max(median, 1e-9)
        values = figure["values"]
        worst = min(values) if figure["better"] == "higher" else max(values)
        best = max(values) if figure["better"] == "higher" else min(values)
        share = [
            v / goal if figure["better"] == "higher" else goal / max(v, 1e-9) for v in (worst, best)
        ]
        bars.append((label, reached, share))
    if not bars:
        return None
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(bars) + 1.4))
    names = [bar[0] for bar in bars][::-1]
    reached = [bar[1] for bar in bars][::-1]
    low = [bar[1] - bar[2][0] for bar in bars][::-1]
    high = [bar[2][1] - bar[1] for bar in bars][::-1]
    colours = ["tab:green" if value >= 1 else "tab:red" for value in reached]
    ax.barh(names, reached, color=colours, xerr=[low, high], capsize=3, alpha=0.85)
    ax.axvline(1.0, color="black", linestyle="--", linewidth=1)
    ax.set_xscale("log")
    ax.set_xlabel("share of the goal reached (median; whiskers: worst and best run)")
    sizes = "" if mode == "full" else f"\n{mode} run: smaller sizes than the labels (table.md)"
    ax.set_title(f"Issue 11 goals: where each figure stands\n(≥ 1, green: goal met){sizes}")
    for index, value in enumerate(reached):
        ax.text(value, index, f" {value:.2f}", va="center", fontsize=8)
    return _save(fig, path)


def _scaling_axis(ax: Axes, series: dict[str, Any], label: str) -> None:
    points = series["points"]
    line = ax.plot(
        [p["size"] for p in points],
        [p["per_unit"] for p in points],
        marker="o",
        label=f"{label}: per unit (×{series['growth']})",
    )[0]
    marginal = [p for p in points if "marginal" in p]
    if marginal:
        growth = series.get("marginal_growth")
        ax.plot(
            [p["size"] for p in marginal],
            [p["marginal"] for p in marginal],
            marker="x",
            linestyle="--",
            color=line.get_color(),
            label=f"{label}: marginal" + (f" (×{growth})" if growth is not None else ""),
        )


def per_unit_cost(reports: Reports, path: Path) -> Path | None:
    """Per-unit cost against size for every scaling series (solid), and the marginal cost of
    each step up in size (dashed: Δcost ÷ Δunits, free of start-up costs). Flat lines mean
    linear cost; the legend gives largest ÷ smallest (flagged above 1.5 on a red ground)."""
    groups = [
        ("generate, call sites: µs per leaf", "translate_pool",
         ("generate_leaves_wall", "generate_leaves_cpu")),
        ("generate, one file: µs per call site", "translate_pool", ("one_file_sites",)),
        ("generate: µs wall per leaf, by targets", "translate_pool", ("generate_targets_wall",)),
        ("validate: ms per file", "scan",
         ("validate_cold_wall", "validate_cold_cpu", "validate_warm_wall")),
        ("validate, cold: KB tree RSS per file", "scan", ("validate_memory",)),
    ]  # fmt: skip
    panels = []
    for title, name, keys in groups:
        known = reports.get(name, {}).get("scaling", {})
        series = [(key, known[key]) for key in keys if key in known]
        if series:
            panels.append((title, series))
    if not panels:
        return None
    columns = min(3, len(panels))
    rows = -(-len(panels) // columns)
    fig, axes = plt.subplots(rows, columns, figsize=(5.2 * columns, 4.0 * rows), squeeze=False)
    for ax in axes.flat[len(panels) :]:
        ax.set_visible(False)
    for ax, (title, series) in zip(axes.flat, panels, strict=False):
        for key, data in series:
            _scaling_axis(ax, data, key.replace("generate_", "").replace("validate_", ""))
            if data["superlinear"]:
                ax.set_facecolor("#fff0f0")
        ax.set_xscale("log")
        ax.set_ylim(bottom=0)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel(series[0][1]["size_unit"])
        ax.legend(fontsize=7)
        ax.grid(alpha=0.3)
    fig.suptitle("Per-unit cost vs size — flat = linear; red ground = growth > 1.5×")
    return _save(fig, path)


def throughput(reports: Reports, path: Path) -> Path | None:
    """generate leaves/s against leaves (with the provider limit and the goal), and validate
    files/s against files, from the scaling medians."""
    pool = reports.get("translate_pool", {}).get("scaling", {})
    scan = reports.get("scan", {}).get("scaling", {})
    if "generate_leaves_wall" not in pool and "validate_cold_wall" not in scan:
        return None
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    if "generate_leaves_wall" in pool:
        points = pool["generate_leaves_wall"]["points"]
        left.plot(
            [p["size"] for p in points],
            [1e6 / p["per_unit"] for p in points],
            marker="o",
            label="generate, call sites, cold (median)",
        )
        limit = reports["translate_pool"]["settings"]["provider_limit_texts_per_s"]
        left.axhline(limit, color="black", linestyle="--", label=f"provider limit {limit:,.0f}/s")
        left.axhline(14_000, color="tab:green", linestyle=":", label="goal 14,000/s")
        left.set_xscale("log")
        left.set_yscale("log")
        left.set_xlabel("leaves")
        left.set_ylabel("leaves/s, end to end")
        left.set_title("generate throughput vs size")
        left.legend(fontsize=8)
        left.grid(alpha=0.3)
    for key, label in (("validate_cold_wall", "cold"), ("validate_warm_wall", "warm")):
        if key in scan:
            points = scan[key]["points"]
            right.plot(
                [p["size"] for p in points],
                [1e3 / p["per_unit"] for p in points],
                marker="o",
                label=f"validate {label} (median)",
            )
    right.axhline(10_000 / 2.0, color="tab:green", linestyle=":", label="cold goal (10k in 2 s)")
    right.axhline(10_000 / 0.3, color="tab:olive", linestyle=":", label="warm goal (10k in 0.3 s)")
    right.set_xscale("log")
    right.set_yscale("log")
    right.set_xlabel("files")
    right.set_ylabel("files/s, wall")
    right.set_title("validate throughput vs size")
    right.legend(fontsize=8)
    right.grid(alpha=0.3)
    return _save(fig, path)


def pool_runs(reports: Reports) -> list[tuple[str, dict[str, Any]]]:
    """The runs whose pool series the suite keeps (the last run of each figure)."""
    series = reports.get("translate_pool", {}).get("series", {})
    names = ("generate_sites_cold", "generate_rate_limited")
    return [(name, series[name]) for name in names if name in series]


def batch_latency(runs: list[tuple[str, dict[str, Any]]], path: Path) -> Path | None:
    """Histograms of each batch's queue wait, worker time and HTTP time (data.pool)."""
    if not runs:
        return None
    keys = ("queueWaitMs", "workerMs", "httpMs")
    fig, axes = plt.subplots(1, 3, figsize=(13, 3.8))
    for ax, key in zip(axes, keys, strict=True):
        for name, data in runs:
            values = data.get(key) or []
            if values:
                ax.hist(values, bins=40, alpha=0.6, label=f"{name} (n={len(values)})")
        if not any(data.get(key) for _, data in runs):
            ax.text(
                0.5,
                0.5,
                "not reported\n(data.pool absent)",
                ha="center",
                va="center",
                transform=ax.transAxes,
            )
        ax.set_title(
            {
                "queueWaitMs": "queue wait (ready → sent to a worker)",
                "workerMs": "worker time (sent → answer back)",
                "httpMs": "HTTP time (all attempts)",
            }[key],
            fontsize=10,
        )
        ax.set_xlabel("ms per batch")
        ax.set_ylabel("batches")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    fig.suptitle("Translate-pool latency per batch")
    return _save(fig, path)


def in_flight(runs: list[tuple[str, dict[str, Any]]], path: Path) -> Path | None:
    """Requests in flight over time against the provider's concurrency limit."""
    if not runs:
        return None
    fig, axes = plt.subplots(len(runs), 1, figsize=(11, 2.8 * len(runs)), squeeze=False)
    for ax, (name, data) in zip(axes[:, 0], runs, strict=True):
        timeline = data.get("timeline") or []
        if timeline:
            ax.step(
                [p[0] for p in timeline],
                [p[1] for p in timeline],
                where="post",
                linewidth=0.8,
                label="requests in flight",
            )
        ax.axhline(data.get("limit", 8), color="red", linestyle="--", label="maxConcurrency")
        for index, at in enumerate(data.get("status_429_at") or []):
            ax.axvline(at, color="tab:orange", linewidth=1,
                       label="429 answered (fake's clock)" if index == 0 else None)  # fmt: skip
        source = data.get("source", "data.pool")
        ax.set_title(f"{name}: requests in flight — from {source}", fontsize=10)
        ax.set_xlabel("seconds since the first batch")
        ax.set_ylabel("in flight")
        ax.legend(fontsize=8, loc="lower right")
    return _save(fig, path)


def pings(reports: Reports, path: Path) -> Path | None:
    """Ping round trips (one every 10 ms) during an op.generate, against the 10 ms goal."""
    data = reports.get("serve", {}).get("series", {}).get("ping_under_generate")
    if not data:
        return None
    fig, ax = plt.subplots(figsize=(11, 3.2))
    ax.plot(data["at"], data["rtt_ms"], marker=".", linestyle="none", markersize=3)
    ax.axhline(10.0, color="red", linestyle="--", label="goal: p99 ≤ 10 ms")
    ax.set_yscale("log")
    ax.set_xlabel("seconds since op.generate was sent")
    ax.set_ylabel("ping round trip, ms")
    ax.set_title("serve ping during op.generate (first run)")
    ax.legend(fontsize=8)
    return _save(fig, path)


def pushes(reports: Reports, path: Path) -> Path | None:
    """Save → `$/diagnostics` and save → `$/changed` per save of the push figure's first run,
    and the warm `op.key` calls sorted (a CDF), against their goals."""
    series = reports.get("serve", {}).get("series", {})
    push, key = series.get("push_latency"), series.get("op_key_18k")
    if not push and not key:
        return None
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.4))
    if push:
        saves = range(1, len(push["diagnostics_ms"]) + 1)
        left.plot(saves, push["diagnostics_ms"], marker="o", label="save → its $/diagnostics")
        left.plot(saves, push["changed_ms"], marker="s", label="save → $/changed")
        left.axhline(500.0, color="red", linestyle="--", label="goal: ≤ 500 ms")
        left.set_xlabel("save (first run)")
        left.set_ylabel("ms")
        left.set_ylim(bottom=0)
        left.set_title("3,000 files / 18k keys: pushed after a save")
        left.xaxis.set_major_locator(MaxNLocator(integer=True))
        left.legend(fontsize=8, loc="center right")
    if key:
        times = sorted(key["key_ms"])
        shares = [(index + 1) / len(times) for index in range(len(times))]
        right.plot(times, shares)
        right.axvline(20.0, color="red", linestyle="--", label="goal: p99 ≤ 20 ms")
        right.set_xscale("log")
        right.set_xlabel("op.key round trip, ms (log)")
        right.set_ylabel("share of calls")
        right.set_title(f"warm op.key, {len(times)} calls (first run)")
        right.legend(fontsize=8)
    return _save(fig, path)


def memory(reports: Reports, path: Path) -> Path | None:
    """RSS of the front process and of its children over a cold validate, stacked."""
    data = reports.get("scan", {}).get("series", {}).get("memory_timeline")
    if not data or not data.get("at"):
        return None
    fig, ax = plt.subplots(figsize=(11, 3.2))
    ax.stackplot(
        data["at"],
        data["front_mb"],
        data["children_mb"],
        labels=["front process", "children (scan workers)"],
        alpha=0.8,
    )
    ax.set_xlabel("seconds")
    ax.set_ylabel("RSS, MB")
    ax.set_title(f"cold validate of {data.get('files', '?'):,} files: RSS summed over the tree")
    ax.legend(fontsize=8, loc="upper left")
    return _save(fig, path)


def write_all(reports: Reports, folder: Path, rows: list[tuple[str, str]], mode: str) -> list[Path]:
    """Every chart the data allows, as PNG files in `folder`, for a run in size `mode`."""
    folder.mkdir(parents=True, exist_ok=True)
    made = [
        goals(reports, rows, folder / "goals.png", mode),
        throughput(reports, folder / "throughput_vs_size.png"),
        per_unit_cost(reports, folder / "per_unit_cost.png"),
        batch_latency(pool_runs(reports), folder / "batch_latency.png"),
        in_flight(pool_runs(reports), folder / "in_flight_timeline.png"),
        pings(reports, folder / "ping_under_generate.png"),
        pushes(reports, folder / "serve_push.png"),
        memory(reports, folder / "memory_timeline.png"),
    ]
    return [path for path in made if path is not None]


def main() -> None:
    from table import ROWS

    path = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("benchmarks/results/suite.json")
    suite = json.loads(path.read_text())
    rows = [(row.label, row.figure) for row in ROWS]
    for made in write_all(suite["reports"], path.parent, rows, suite["settings"]["mode"]):
        print(made)


if __name__ == "__main__":
    main()


def lsp_latency(series: Mapping[str, list[float]], path: Path, files: int) -> Path | None:
    """The distribution (CDF) of each editor request's latency, against its goal."""
    if not series:
        return None
    fig, ax = plt.subplots(figsize=(8, 3.6))
    for name, values in sorted(series.items()):
        ordered = sorted(values)
        shares = [(index + 1) / len(ordered) for index in range(len(ordered))]
        ax.plot(ordered, shares, label=f"{name} ({len(ordered)} calls)")
    ax.axvline(50.0, color="red", linestyle="--", label="change goal: p99 ≤ 50 ms")
    ax.axvline(20.0, color="orange", linestyle=":", label="request goal: p99 ≤ 20 ms")
    ax.set_xscale("log")
    ax.set_xlabel("ms")
    ax.set_ylabel("share of calls")
    ax.set_title(f"i18nprune lsp latency, {files:,}-file project")
    ax.legend(fontsize=8, loc="lower right")
    return _save(fig, path)


FLEET_SCENARIOS = (
    ("solo", "one member alone", "tab:gray"),
    ("sharded", "Redis, --shard K/N (+ final run)", "tab:green"),
    ("unsharded", "Redis, unsharded", "tab:blue"),
    ("no_redis", "no Redis (own caches)", "tab:red"),
)


def _fleet_bars(ax: Axes, data: Mapping[str, Any], suffix: str) -> None:
    """Grouped bars of one fleet figure: a group per fleet size (and one for the solo member),
    a bar per scenario at its median, whiskers from min to max."""
    figures = data["figures"]
    groups = [1, *data["settings"]["members"]]
    width = 0.8 / (len(FLEET_SCENARIOS) - 1)
    for offset, (scenario, label, colour) in enumerate(FLEET_SCENARIOS):
        xs, medians, low, high = [], [], [], []
        for position, members in enumerate(groups):
            if (members == 1) != (scenario == "solo"):
                continue
            prefix = "solo" if members == 1 else f"fleet{members}_{scenario}"
            figure = figures.get(f"{prefix}_{suffix}")
            if figure is None:
                continue
            shift = 0.0 if members == 1 else (offset - 1 - (len(FLEET_SCENARIOS) - 2) / 2) * width
            xs.append(position + shift)
            medians.append(figure["median"])
            low.append(figure["median"] - figure["min"])
            high.append(figure["max"] - figure["median"])
        if xs:
            ax.bar(xs, medians, width, yerr=[low, high], capsize=3, color=colour, label=label,
                   alpha=0.85)  # fmt: skip
    ax.set_xticks(range(len(groups)))
    ax.set_xticklabels(["1 (solo)", *(f"{members} members" for members in groups[1:])])
    ax.grid(axis="y", alpha=0.3)


def fleet(data: Mapping[str, Any], path: Path) -> Path | None:
    """The fleet benchmark side by side, with Redis and without: requests answered per second
    as a share of the fake's limit (goal ≥ 0.9), 429s, texts sent twice and wall time, a bar per
    scenario at its median (whiskers: min to max)."""
    if not data.get("figures"):
        return None
    panels = (
        ("share_of_limit", "requests/s ÷ the fake's limit"),
        ("status_429", "429 answers"),
        ("sent_twice", "texts answered more than once"),
        ("wall_s", "wall, s"),
    )
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 4.2))
    for ax, (suffix, title) in zip(axes, panels, strict=True):
        _fleet_bars(ax, data, suffix)
        ax.set_title(title, fontsize=10)
    axes[0].axhline(1.0, color="black", linestyle="--", linewidth=1, label="the limit")
    axes[0].axhline(0.9, color="tab:green", linestyle=":", label="goal ≥ 0.9")
    # The wall panel's top left is empty (the solo member is the quickest): the legend goes there.
    axes[-1].legend(*axes[0].get_legend_handles_labels(), fontsize=7, loc="upper left")
    settings = data["settings"]
    limit = settings["limit"]
    fig.suptitle(
        f"A fleet against one provider's hard limit ({limit['rps']:g} requests/s, "
        f"{limit['concurrency']} at once) — {settings['mode']} sizes: {settings['leaves']:,} "
        f"leaves × {settings['targets']}; {settings['runs']} runs"
    )
    return _save(fig, path)


def fleet_timeline(data: Mapping[str, Any], path: Path) -> Path | None:
    """Requests answered and refused (429) per second over the last run of each scenario of the
    largest fleet (and of the solo member), against the fake's limit."""
    series = data.get("series", {}).get("timeline") or {}
    members = max(data["settings"]["members"], default=1)
    rows = [
        (scenario, label, series[key])
        for scenario, label, _ in FLEET_SCENARIOS
        if (key := f"{scenario}_{1 if scenario == 'solo' else members}") in series
    ]
    if not rows:
        return None
    rps = data["settings"]["limit"]["requests_per_s"]
    fig, axes = plt.subplots(len(rows), 1, figsize=(11, 2.3 * len(rows)), squeeze=False)
    for ax, (scenario, label, line) in zip(axes[:, 0], rows, strict=True):
        step = line["bin_s"]
        edges = [index * step for index in range(len(line["answered_per_s"]) + 1)]
        ax.stairs(line["answered_per_s"], edges, label="answered (200) per s")
        ax.stairs(line["refused_per_s"], edges, color="tab:orange", label="refused (429) per s")
        ax.axhline(rps, color="black", linestyle="--", linewidth=1, label="the fake's limit")
        who = "1 member" if scenario == "solo" else f"{members} members"
        ax.set_title(f"{who}, {label} (last run)", fontsize=10)
        ax.set_ylabel("requests/s")
        ax.legend(fontsize=7, loc="upper right")
    axes[-1, 0].set_xlabel(f"seconds since the fleet's first request (bins of {step:g} s)")
    return _save(fig, path)
