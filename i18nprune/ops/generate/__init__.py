"""`generate`: machine-translate the template into target locales (`docs/translation-workflow.md`).

A run reads the locales and, when it will likely need workers, starts the worker pool before it
scans the code; it then plans each target, prepares (masks placeholders, consults the cache),
and translates, placing each leaf into its target's editor (in memory) as its translation
settles; once every translation has settled, it places the rest and writes the files.

The modules, in the order a run uses them: `model` (options and answer), `plan`, `workers`
(the run's pool), `parts` (translating in parts), `place` (leaves into editors), `write`, and
`op` (`run`, the steps in order); `speed` holds the mechanics that keep a host's event loop
responsive meanwhile (`SpeedMechanics`).
"""

from i18nprune.ops.generate.model import (
    CACHE_FILE,
    EVENT,
    KIND,
    GenerateData,
    GenerateOptions,
    TargetResult,
    TargetStatus,
)
from i18nprune.ops.generate.op import run
from i18nprune.ops.generate.parts import (
    FIRST_PART_TEXTS,
    LARGEST_PART,
    PART_GROWTH,
    PARTS_FROM,
    text_parts,
)
from i18nprune.ops.generate.place import TargetWriter, machine_leaf, review_leaf
from i18nprune.ops.generate.plan import TargetPart, TargetRun

__all__ = [
    "CACHE_FILE",
    "EVENT",
    "FIRST_PART_TEXTS",
    "KIND",
    "LARGEST_PART",
    "PARTS_FROM",
    "PART_GROWTH",
    "GenerateData",
    "GenerateOptions",
    "TargetPart",
    "TargetResult",
    "TargetRun",
    "TargetStatus",
    "TargetWriter",
    "machine_leaf",
    "review_leaf",
    "run",
    "text_parts",
]
