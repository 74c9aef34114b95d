"""Export learning curves from a run's TensorBoard events to a PNG (for the README).

Usage: python scripts/plot_curves.py RUN_DIR OUT.png   (needs matplotlib: pip install matplotlib)
"""

from __future__ import annotations

import sys
from pathlib import Path

from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

#: Candidate panels in order; the first four the run logged are drawn (a run that evaluates
#: only against rule has no eval/random series).
PANELS = [
    ("charts/episodic_return", "training return per hand (learner team, scaled)"),
    ("eval/random/mean", "duplicate vs random (points per deal)"),
    ("eval/rule/mean", "duplicate vs rule (points per deal)"),
    ("contracts/made_rate/all", "share of the learner's training contracts made"),
    ("losses/entropy", "policy entropy"),
]


def scalars(run: Path) -> dict[str, list[tuple[int, float]]]:
    """Every scalar series of every event file in ``run``, merged by step."""
    series: dict[str, dict[int, float]] = {}
    for events in sorted(run.glob("events.out.tfevents.*")):
        acc = EventAccumulator(str(events), size_guidance={"scalars": 0})
        acc.Reload()
        for tag in acc.Tags()["scalars"]:
            for e in acc.Scalars(tag):
                series.setdefault(tag, {})[e.step] = e.value
    return {tag: sorted(points.items()) for tag, points in series.items()}


def main(argv: list[str]) -> int:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    run, out = Path(argv[0]), Path(argv[1])
    data = scalars(run)
    fig, axes = plt.subplots(2, 2, figsize=(10, 6.5))
    panels = [(tag, title) for tag, title in PANELS if data.get(tag)][:4]
    for ax, (tag, title) in zip(axes.flat, panels):
        points = data.get(tag, [])
        if points:
            steps, values = zip(*points)
            ax.plot(steps, values, marker="o" if len(points) < 20 else None)
            low, high = data.get(tag.replace("mean", "ci_low")), data.get(tag.replace("mean", "ci_high"))
            if tag.endswith("mean") and low and high:
                ax.fill_between([s for s, _ in low], [v for _, v in low], [v for _, v in high],
                                alpha=0.25)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("agent steps")
        ax.grid(alpha=0.3)
    fig.suptitle(f"fh-train {run.name}")
    fig.tight_layout()
    fig.savefig(out, dpi=90)
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
