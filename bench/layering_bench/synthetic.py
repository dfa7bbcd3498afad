"""Synthetic layered packages for the scaling table: same shape at every size.

`synth` has LAYERS layer subpackages `synth.l0` (top) ... `synth.l4` (bottom); each layer holds
its share of the modules in subpackages of PACKAGE_SIZE modules (`synth.l2.p013.m07`). Every
module above the bottom layer imports IMPORTS_PER_MODULE modules of lower layers (chosen with a
fixed seed) and defines FUNCTIONS_PER_MODULE functions that call into them, so the layers
contract over `synth.l0` ... `synth.l4` is kept, and so is the independence of sibling
subpackages of one layer. Generation is cached: a marker records the parameters.
"""

from __future__ import annotations

import random
import shutil
from pathlib import Path

PACKAGE = "synth"
LAYERS = 5
PACKAGE_SIZE = 50
IMPORTS_PER_MODULE = 4
FUNCTIONS_PER_MODULE = 3
SEED = 20261201
SHAPE = (
    f"v1 layers={LAYERS} package_size={PACKAGE_SIZE} imports={IMPORTS_PER_MODULE} "
    f"functions={FUNCTIONS_PER_MODULE} seed={SEED}"
)


def layer_names() -> list[str]:
    return [f"{PACKAGE}.l{index}" for index in range(LAYERS)]


def independent_siblings() -> list[str]:
    """Four subpackages of the second layer: they import only lower layers, never each other."""
    return [f"{PACKAGE}.l1.p{index:03d}" for index in range(4)]


def module_names(modules: int) -> list[list[str]]:
    """The module names of each layer, top layer first; `modules` in all, spread evenly."""
    per_layer = [
        modules // LAYERS + (1 if index < modules % LAYERS else 0) for index in range(LAYERS)
    ]
    return [
        [
            f"{PACKAGE}.l{layer}.p{position // PACKAGE_SIZE:03d}.m{position % PACKAGE_SIZE:02d}"
            for position in range(count)
        ]
        for layer, count in enumerate(per_layer)
    ]


def module_source(name: str, dependencies: list[str]) -> str:
    lines = [f'"""Synthetic module {name}."""', ""]
    aliases = []
    for index, dependency in enumerate(dependencies):
        package, _, module = dependency.rpartition(".")
        lines.append(f"from {package} import {module} as dep{index}")
        aliases.append(f"dep{index}")
    lines.append("")
    for index in range(FUNCTIONS_PER_MODULE):
        call = f"{aliases[index % len(aliases)]}.f{index}(value)" if aliases else "value"
        lines += [
            "",
            f"def f{index}(value):",
            f'    """Function {index} of {name}."""',
            f"    return {call} + {index}",
            "",
        ]
    return "\n".join(lines)


def generate(root: Path, modules: int) -> Path:
    """`root/synth/...` with `modules` modules (plus the packages' `__init__.py`); returns
    `root`. Reuses an earlier generation of the same size and shape."""
    marker = root / ".bench_generated"
    wanted = f"{SHAPE} modules={modules}"
    if marker.is_file() and marker.read_text() == wanted:
        return root
    shutil.rmtree(root, ignore_errors=True)
    rng = random.Random(SEED)
    layers = module_names(modules)
    for layer, names in enumerate(layers):
        lower = [name for below in layers[layer + 1 :] for name in below]
        for name in names:
            dependencies = rng.sample(lower, min(IMPORTS_PER_MODULE, len(lower)))
            _write_module(root, name, module_source(name, dependencies))
    marker.write_text(wanted)
    return root


def _write_module(root: Path, name: str, source: str) -> None:
    *packages, module = name.split(".")
    directory = root
    for package in packages:
        directory = directory / package
        if not directory.is_dir():
            directory.mkdir(parents=True)
            (directory / "__init__.py").write_text("")
    (directory / f"{module}.py").write_text(source)
