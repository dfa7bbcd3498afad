"""The corpora and the contracts of each workload on them.

- a:   one forbidden contract on ONE module, direct imports only.
- b:   one forbidden contract subpackage -> subpackage, indirect chains count.
- c:   one layers contract over 4-5 subpackages plus one independence contract.
- cut: one forbidden contract with many chains, whose report names the imports to cut.
- d1, d2, e: workload c after an edit (`edits.EditedTree`); scale: synthetic packages of
  growing size (`synthetic`).
- f:   import-linter's INI file as a team writes it (`importlinter_file`): c's layers and
  independence, and a forbidden contract of direct imports from `source` to `forbidden`.
"""

from __future__ import annotations

CORPORA: dict[str, dict] = {
    "django": {
        "specs": ["django==6.1.3"],
        "package": "django",
        "a": {"source": "django.http.request", "forbidden": "django.db"},
        "b": {"source": "django.db", "forbidden": "django.contrib.admin"},
        "c": {
            "layers": [
                "django.contrib",
                "django.views",
                "django.forms",
                "django.db",
                "django.utils",
            ],
            "independent": [
                "django.contrib.sessions",
                "django.contrib.messages",
                "django.contrib.humanize",
                "django.contrib.sitemaps",
            ],
        },
        "cut": {"source": "django.utils", "forbidden": "django.db"},
        "f": {
            "source": ["django.db"],
            "forbidden": ["django.http", "django.views", "django.template"],
        },
    },
    "sympy": {
        "specs": ["sympy==1.14.0"],
        "package": "sympy",
        "a": {"source": "sympy.core.numbers", "forbidden": "sympy.printing"},
        "b": {"source": "sympy.polys", "forbidden": "sympy.stats"},
        "c": {
            "layers": [
                "sympy.solvers",
                "sympy.simplify",
                "sympy.polys",
                "sympy.functions",
                "sympy.core",
            ],
            "independent": ["sympy.physics", "sympy.stats", "sympy.geometry", "sympy.plotting"],
        },
        "cut": {"source": "sympy.polys", "forbidden": "sympy.solvers"},
        "f": {
            "source": ["sympy.core", "sympy.logic"],
            "forbidden": ["sympy.solvers", "sympy.plotting", "sympy.physics"],
        },
    },
    "transformers": {
        "specs": ["transformers==5.24.0", "transformers>=5,<6"],
        "package": "transformers",
        "a": {"source": "transformers.activations", "forbidden": "transformers.models"},
        "b": {"source": "transformers.utils", "forbidden": "transformers.pipelines"},
        "c": {
            "layers": [
                "transformers.pipelines",
                "transformers.models",
                "transformers.generation",
                "transformers.integrations",
                "transformers.utils",
            ],
            "independent": [
                "transformers.models.bert",
                "transformers.models.gpt2",
                "transformers.models.llama",
                "transformers.models.t5",
            ],
        },
        "cut": {"source": "transformers.models", "forbidden": "transformers.pipelines"},
        "f": {
            "source": ["transformers.utils"],
            "forbidden": ["transformers.models", "transformers.pipelines", "transformers.trainer"],
        },
    },
    "homeassistant": {
        "specs": ["homeassistant==2026.2.3", "homeassistant<=2026.2.3"],
        "package": "homeassistant",
        "a": {"source": "homeassistant.core", "forbidden": "homeassistant.components"},
        "b": {"source": "homeassistant.util", "forbidden": "homeassistant.helpers"},
        "c": {
            "layers": [
                "homeassistant.components",
                "homeassistant.helpers",
                "homeassistant.auth",
                "homeassistant.util",
            ],
            "independent": [
                "homeassistant.components.hue",
                "homeassistant.components.zwave_js",
                "homeassistant.components.mqtt",
                "homeassistant.components.sonos",
            ],
        },
        "f": {
            "source": ["homeassistant.util"],
            "forbidden": ["homeassistant.helpers", "homeassistant.components"],
        },
    },
}
STANDARD_WORKLOADS = ("a", "b", "c", "cut")
EDIT_WORKLOADS = ("d1", "d2", "e")
SECTIONS = (
    *STANDARD_WORKLOADS,
    *EDIT_WORKLOADS,
    "f",
    "init",
    "lsp",
    "scale",
    "memory",
    "startup",
    "probes",
)

# Issue 10: the minimum number of imports to cut (grimp's graph of these versions).
CUT_MINIMUM = {"django": 6, "sympy": 54, "transformers": 1}
